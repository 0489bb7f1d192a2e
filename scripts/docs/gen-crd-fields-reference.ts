// Writes docs/reference/crd-fields.md from the CRD schemas (see crdFieldsReference.ts); with
// --check it only says whether the committed page is current (exit 1 when not).
// Run: npx tsx --conditions=@kruise-ts/source scripts/docs/gen-crd-fields-reference.ts [--check]
import { renderCrdFieldsReference } from './crdFieldsReference';
import { writeOrCheck } from './lib';

process.exitCode = writeOrCheck(
  'docs/reference/crd-fields.md',
  renderCrdFieldsReference(),
  process.argv.slice(2),
);
