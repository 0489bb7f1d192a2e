// Every example scenario of the registered controllers runs through runScenario and passes.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/scenario/run';

const dir = fileURLToPath(new URL('../../../examples/scenarios/', import.meta.url));
const run = (file: string) => {
  const path = resolve(dir, file);
  return runScenario(readFileSync(path, 'utf8'), {
    fileName: path,
    readFile: (p: string) => readFileSync(resolve(dirname(path), p), 'utf8'),
  } as Parameters<typeof runScenario>[1]);
};

describe('example scenarios of the registered controllers', () => {
  it.each([
    'statefulset-reserve.yaml',
    'daemonset-surge.yaml',
    'uniteddeployment-adaptive.yaml',
    'imagepulljob-prewarm.yaml',
    'sidecarset-upgrade.yaml',
  ])(
    '%s passes with no reconcile error, failed action or rejection',
    (file) => {
      const r = run(file);
      expect(r.errors).toEqual([]);
      expect(r.steps.filter((s) => s.status !== 'done')).toEqual([]);
      expect(r.status).toBe('passed');
      const bad = (r.sim?.log.toJSONLines() ?? '')
        .split('\n')
        .filter((l) => /"type":"(ReconcileError|ActionFailed|Rejected|ReconcileLoop)"/.test(l));
      expect(bad).toEqual([]);
    },
    20_000,
  );

  it('statefulset-reserve: web-2 stays free, the four others keep their names and are updated in place', () => {
    const sim = run('statefulset-reserve.yaml').sim!;
    const pods = sim
      .list('Pod')
      .map((p) => p.metadata.name)
      .sort();
    expect(pods).toEqual(['web-0', 'web-1', 'web-3', 'web-4']);
    const log = sim.log.toJSONLines();
    expect(log).toContain('"reason":"InPlaceUpdate"');
  });
});
