// Regenerates every generated reference page under docs/reference/ (cli.md, scenario.md,
// crd-fields.md), or with --check only says which are out of date (exit 1 if any).
// Run: npx tsx --conditions=@kruise-ts/source scripts/docs/gen-all.ts [--check]
import { renderCliReference } from './cliReference';
import { renderCrdFieldsReference } from './crdFieldsReference';
import { writeOrCheck } from './lib';
import { renderScenarioReference } from './scenarioReference';

const argv = process.argv.slice(2);
const codes = [
  writeOrCheck('docs/reference/cli.md', renderCliReference(), argv),
  writeOrCheck('docs/reference/scenario.md', renderScenarioReference(), argv),
  writeOrCheck('docs/reference/crd-fields.md', renderCrdFieldsReference(), argv),
];
process.exitCode = Math.max(...codes);
