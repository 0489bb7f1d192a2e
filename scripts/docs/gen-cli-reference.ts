// Writes docs/reference/cli.md from the commander program (see cliReference.ts); with --check it
// only says whether the committed page is current (exit 1 when not).
// Run: npx tsx --conditions=@kruise-ts/source scripts/docs/gen-cli-reference.ts [--check]
import { renderCliReference } from './cliReference';
import { writeOrCheck } from './lib';

process.exitCode = writeOrCheck('docs/reference/cli.md', renderCliReference(), process.argv.slice(2));
