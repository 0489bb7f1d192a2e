// Writes docs/reference/scenario.md from the scenario schema (see scenarioReference.ts); with
// --check it only says whether the committed page is current (exit 1 when not).
// Run: npx tsx --conditions=@kruise-ts/source scripts/docs/gen-scenario-reference.ts [--check]
import { writeOrCheck } from './lib';
import { renderScenarioReference } from './scenarioReference';

process.exitCode = writeOrCheck(
  'docs/reference/scenario.md',
  renderScenarioReference(),
  process.argv.slice(2),
);
