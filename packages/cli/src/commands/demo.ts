// `kruise-ts demo`: the same as `kruise-ts sim examples/scenarios/cloneset-inplace.yaml`.
// The build (tsup.config.ts) copies that scenario into dist/scenarios/, so the published package
// carries it; when running from the sources (tsx, vitest) it is read from the repository.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CliError, type CliIO } from '../io';
import { type SimCommandOptions, simCommand } from './sim';

/** The demo scenario, relative to the repository root. */
export const DEMO_SCENARIO = 'examples/scenarios/cloneset-inplace.yaml';

/** The demo scenario's file name inside the package's dist/scenarios/. */
const DEMO_FILE = DEMO_SCENARIO.slice(DEMO_SCENARIO.lastIndexOf('/') + 1);

/** Finds the demo scenario from this module's location (a file in dist/, or src/commands/demo.ts). */
export function demoScenarioPath(): string | undefined {
  const candidates = [
    new URL(`./scenarios/${DEMO_FILE}`, import.meta.url), // packages/cli/dist/*.js, as installed
    new URL(`../../../../${DEMO_SCENARIO}`, import.meta.url), // packages/cli/src/commands/demo.ts
  ];
  for (const c of candidates) {
    const p = fileURLToPath(c);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** Runs the demo scenario. */
export function demoCommand(opts: SimCommandOptions, io: CliIO): number {
  const path = demoScenarioPath();
  if (!path)
    throw new CliError(
      `cannot find the demo scenario (${DEMO_FILE}) next to this installation; run \`kruise-ts sim <scenario.yaml>\` instead`,
      1,
    );
  return simCommand(path, opts, io, DEMO_SCENARIO);
}
