// The example script examples/cloneset-inplace.ts: the sample CloneSet reaches 5 pods, then
// partition 2 keeps 2 old pods while 3 are updated in place (same pods, no deletion).
import { describe, expect, it } from 'vitest';
import { createExample, exampleStep, NEW_IMAGE, runExample } from '../../../examples/cloneset-inplace';

describe('examples/cloneset-inplace.ts', () => {
  it('reconciles the sample to 5 pods, then rolls the image in place to 3 of them (partition 2, maxUnavailable 1)', () => {
    const lines: string[] = [];
    const { records, pods } = runExample((l) => lines.push(l));
    expect(pods).toHaveLength(5);
    const updated = pods.filter((p) => p.spec!.containers[0].image === NEW_IMAGE);
    expect(updated).toHaveLength(3);
    // in place: the updated pods restarted their container once and kept their names
    for (const p of updated) expect(p.status!.containerStatuses![0].restartCount).toBe(1);
    const firstNames = records[0].actions
      .filter((a) => a.startsWith('create Pod/'))
      .map((a) => a.split(' ')[1].slice(4));
    expect(pods.map((p) => p.metadata!.name).sort()).toEqual(firstNames.sort());
    // nothing was ever deleted, and at most maxUnavailable = 1 pod was unready during the rollout
    expect(records.flatMap((r) => r.actions).some((a) => a.startsWith('delete'))).toBe(false);
    const afterChange = records.slice(
      records.findIndex((r) => r.actions.some((a) => a.includes('InPlaceUpdate'))),
    );
    for (const r of afterChange) expect(r.status.readyReplicas).toBeGreaterThanOrEqual(4);
    expect(records.at(-1)!.status).toMatchObject({
      replicas: 5,
      readyReplicas: 5,
      updatedReplicas: 3,
      updatedReadyReplicas: 3,
    });
    expect(lines[0]).toBe('# kubectl apply -f examples/cloneset.yaml');
  });

  it('exampleStep is one reconcile + kubelet tick: the first creates the revision and 5 pods', () => {
    const { state, record } = exampleStep(createExample());
    expect(record.actions.filter((a) => a.startsWith('create Pod/'))).toHaveLength(5);
    expect(state.objects.filter((o) => o.kind === 'Pod')).toHaveLength(5);
    expect(state.step).toBe(1);
  });
});
