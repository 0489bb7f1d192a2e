// `kruise-ts demo`: the same as `kruise-ts sim examples/scenarios/cloneset-inplace.yaml`,
// with the scenario file found relative to the repository (from the sources or the build).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CliError, type CliIO } from '../io';
import { type SimCommandOptions, simCommand } from './sim';

/** The demo scenario, relative to the repository root. */
export const DEMO_SCENARIO = 'examples/scenarios/cloneset-inplace.yaml';

/** Finds the demo scenario from this file's location (src/commands or dist). */
export function demoScenarioPath(): string | undefined {
  const candidates = [
    new URL(`../../../../${DEMO_SCENARIO}`, import.meta.url), // packages/cli/src/commands/demo.ts
    new URL(`../../../${DEMO_SCENARIO}`, import.meta.url), // packages/cli/dist/bin.js
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
      `cannot find ${DEMO_SCENARIO} next to this installation; run \`kruise-ts sim <scenario.yaml>\` instead`,
      1,
    );
  return simCommand(path, opts, io, DEMO_SCENARIO);
}
