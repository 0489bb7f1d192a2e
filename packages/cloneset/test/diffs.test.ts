// calculateDiffs (docs/reference/cloneset.md §5, §6): upstream cases, the worked examples §6.1–§6.3
// and one test per rule D1–D10.
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { calculateDiffs, classifyPods, surgeRule } from '../src/diffs';
import { resolveParams, resolvePartition } from '../src/params';
import { hashEquals, scaleIsPodUpdate } from '../src/predicates';
import { makePod } from './builders';
import { type CompactPod, cloneSetFrom, compactPod, loadCases } from './fixtures';

const upstream = loadCases('calculate_diffs.json');

describe('calculateDiffs: upstream TestCalculateDiffsWithExpectation', () => {
  it.each(upstream.cases.map((c: any) => [`${c.id} ${c.goCase}`, c]))('%s', (_name, c: any) => {
    const cs = deepFreeze(cloneSetFrom({ labels: c.cloneSet.labels, spec: c.cloneSet.spec }));
    const pods = deepFreeze(c.pods.map((p: CompactPod) => compactPod(p)));
    const isPodUpdate =
      c.isPodUpdate === 'revisionHashOrPreparingUpdate'
        ? scaleIsPodUpdate({ PreparingUpdateAsUpdate: c.featureGates.PreparingUpdateAsUpdate ?? false })
        : hashEquals;
    const diffs = calculateDiffs(cs, pods, {
      currentRevision: c.currentRevision,
      updateRevision: c.updateRevision,
      featureGates: c.featureGates,
      scalingExcludePreparingDelete: c.scalingExcludePreparingDeleteFlag,
      isPodUpdate,
      now: '2024-01-01T00:00:00Z',
    });
    expect(diffs).toEqual(c.expected);
  });
});

// ---- helpers for the spec examples ------------------------------------------------------

type Kind = 'oR' | 'oU' | 'oRD' | 'nR' | 'nU' | 'nRD' | 'oPD' | 'nPD';
function pods(spec: Partial<Record<Kind, number>>) {
  const out: CompactPod[] = [];
  let i = 0;
  for (const [kind, n] of Object.entries(spec) as [Kind, number][]) {
    for (let k = 0; k < n; k++) {
      out.push({
        name: `p${i++}`,
        revision: kind.startsWith('o') ? 'old' : 'new',
        lifecycleState: kind.endsWith('PD') ? 'PreparingDelete' : 'Normal',
        ready: kind.includes('R') || kind.endsWith('PD'),
        phase: kind.includes('R') || kind.endsWith('PD') ? 'Running' : '',
        specifiedDelete: kind.endsWith('D') && !kind.endsWith('PD'),
      });
    }
  }
  return deepFreeze(out.map((p) => compactPod(p)));
}
function diffsOf(spec: Record<string, any>, p: ReturnType<typeof pods>, extra: Record<string, any> = {}) {
  const cs = deepFreeze(cloneSetFrom({ labels: extra.labels, spec }));
  return calculateDiffs(cs, p, {
    currentRevision: 'old',
    updateRevision: 'new',
    now: '2024-01-01T00:00:00Z',
    ...extra,
  });
}

describe('§6.1 worked example: partition update, ReCreate, maxSurge', () => {
  const spec = { replicas: 5, updateStrategy: { partition: 3, maxUnavailable: 1, maxSurge: 1 } };
  it('step 1 (oR×5): useSurge 1 → create 1 new pod; updateNum 2, updateMaxUnavailable 1', () => {
    const d = diffsOf(spec, pods({ oR: 5 }));
    expect(d).toMatchObject({ useSurge: 1, useSurgeOldRevision: 0, scaleUpNum: 1, scaleUpNumOldRevision: 0 });
    expect(d).toMatchObject({ updateNum: 2, updateMaxUnavailable: 1, scaleDownNum: 0 });
  });
  it('step 2 (oR×5, nU): updateSurge 1, no scaling; updateNum 1, updateMaxUnavailable 2', () => {
    const d = diffsOf(spec, pods({ oR: 5, nU: 1 }));
    expect(d).toMatchObject({
      useSurge: 1,
      scaleUpNum: 0,
      scaleDownNum: 0,
      updateNum: 1,
      updateMaxUnavailable: 2,
    });
  });
  it('step 3 (oR×4, oRD, nU): scaleSurge 1 (old) ≥ updateSurge 1; deleteReadyLimit = 1+1-1 = 1', () => {
    const d = diffsOf(spec, pods({ oR: 4, oRD: 1, nU: 1 }));
    expect(d).toMatchObject({ useSurge: 1, useSurgeOldRevision: 1, scaleUpNum: 0, scaleDownNum: 0 });
    expect(d.deleteReadyLimit).toBe(1);
  });
  it('step 4 (oR×4, nU): useSurge 1 → expTotal 6 → create 1 new pod', () => {
    const d = diffsOf(spec, pods({ oR: 4, nU: 1 }));
    expect(d).toMatchObject({ useSurge: 1, scaleUpNum: 1, scaleUpNumOldRevision: 0 });
  });
  it('step 5 (oR×4, nU×2): no surge; scaleDown 1 (old 1); deleteReadyLimit = 1+1-2 = 0', () => {
    const d = diffsOf(spec, pods({ oR: 4, nU: 2 }));
    expect(d).toMatchObject({
      useSurge: 0,
      scaleDownNum: 1,
      scaleDownNumOldRevision: 1,
      deleteReadyLimit: 0,
    });
  });
  it('step 6 (oR×4, nR, nU): deleteReadyLimit 1 → delete 1 old pod', () => {
    const d = diffsOf(spec, pods({ oR: 4, nR: 1, nU: 1 }));
    expect(d).toMatchObject({ scaleDownNum: 1, scaleDownNumOldRevision: 1, deleteReadyLimit: 1 });
  });
  it('step 7 (oR×3, nR×2): all zero', () => {
    const d = diffsOf(spec, pods({ oR: 3, nR: 2 }));
    expect(Object.values(d).every((v) => v === 0)).toBe(true);
  });
});

describe('§6.2 worked example: rounding with surge', () => {
  it('partition "99%" → 4, maxSurge "30%" → 2, maxUnavailable "40%" → floor(2.0) = 2', () => {
    const spec = {
      replicas: 5,
      updateStrategy: { partition: '99%', maxUnavailable: '40%', maxSurge: '30%' },
    };
    const p = resolveParams(cloneSetFrom({ spec }));
    expect(p).toMatchObject({ partition: 4, maxSurge: 2, maxUnavailable: 2 });
    const d = diffsOf(spec, pods({ oR: 5 }));
    expect(d).toMatchObject({ useSurge: 1, scaleUpNum: 1, updateNum: 1, updateMaxUnavailable: 2 });
  });
  it('maxUnavailable "30%" instead → floor(1.5) = 1, so updateMaxUnavailable = 1', () => {
    const spec = {
      replicas: 5,
      updateStrategy: { partition: '99%', maxUnavailable: '30%', maxSurge: '30%' },
    };
    expect(diffsOf(spec, pods({ oR: 5 })).updateMaxUnavailable).toBe(1);
  });
});

describe('§6.3 worked example: paused', () => {
  it('surge forced to 0: scaleUp 2 new-revision pods, updateNum 3, updateMaxUnavailable 0+3-5 = -2', () => {
    const spec = {
      replicas: 5,
      updateStrategy: { partition: 0, maxUnavailable: 0, maxSurge: 3, paused: true },
    };
    const d = diffsOf(spec, pods({ oR: 3 }));
    expect(d).toMatchObject({ useSurge: 0, scaleUpNum: 2, scaleUpNumOldRevision: 0, updateNum: 3 });
    expect(d.updateMaxUnavailable).toBe(-2);
  });
});

describe('§5.1 int-or-percent resolution (R=5)', () => {
  const mu = (maxUnavailable: any, maxSurge?: any, paused = false) =>
    resolveParams(
      cloneSetFrom({ spec: { replicas: 5, updateStrategy: { maxUnavailable, maxSurge, paused } } }),
    );
  it('"20%" gives 1', () => expect(mu('20%').maxUnavailable).toBe(1));
  it('"30%" gives 2 when maxSurge=0 and 1 when maxSurge>0', () => {
    expect(mu('30%').maxUnavailable).toBe(2);
    expect(mu('30%', 1).maxUnavailable).toBe(1);
  });
  it('maxSurge "30%" gives 2', () => expect(mu(1, '30%').maxSurge).toBe(2));
  it('"40%" gives 2 either way', () => {
    expect(mu('40%').maxUnavailable).toBe(2);
    expect(mu('40%', 1).maxUnavailable).toBe(2);
  });
  it('a string without % is a percentage: "3" is 3% → ceil(0.15) = 1', () =>
    expect(mu('3').maxUnavailable).toBe(1));
  it('a parse error yields 0', () => {
    expect(mu('abc').maxUnavailable).toBe(0);
    expect(mu(1, '1.5%').maxSurge).toBe(0);
  });
  it('paused forces surge 0 and switches maxUnavailable to round-up', () => {
    const p = mu('30%', 2, true);
    expect(p.maxSurge).toBe(0);
    expect(p.maxUnavailable).toBe(2);
  });
  it('default maxUnavailable is "20%"; scaleStrategy.maxUnavailable defaults to unlimited', () => {
    const p = resolveParams(cloneSetFrom({ spec: { replicas: 10 } }));
    expect(p.maxUnavailable).toBe(2);
    expect(p.scaleMaxUnavailable).toBe(2147483647);
  });
});

describe('§5.2 partition examples', () => {
  const cases: [any, number | undefined, number, boolean][] = [
    ['99%', 9, 8, false],
    ['1%', 10, 1, false],
    ['99%', 0, 0, false],
    ['100%', 99, 99, false],
    ['99.99%', 999, 998, false],
    ['0.01%', 9, 1, false],
    ['99', 9, 0, true],
    [10, 3, 3, false],
    [undefined, 5, 0, false],
  ];
  it.each(cases)('(partition %s, R=%s) gives %s (error: %s)', (partition, r, value, error) => {
    const res = resolvePartition(partition, r);
    expect(res.value).toBe(value);
    expect(res.error !== undefined).toBe(error);
  });
});

describe('§6 rules', () => {
  it('D2: a pod both specified-delete and unavailable counts only as toDelete', () => {
    // R=3, maxUnavailable 1: if the unready specified pod also counted as unavailable,
    // deleteReadyLimit would be 1 + 0 - 1 = 0; as toDelete only it is 1 + 0 - 0 = 1.
    const spec = { replicas: 3, updateStrategy: { maxUnavailable: 1 } };
    const p = pods({ oR: 2 });
    const unreadyDeleted = compactPod({
      name: 'x',
      revision: 'old',
      specifiedDelete: true,
      lifecycleState: 'Normal',
    });
    const d = diffsOf(spec, [...p, unreadyDeleted], { updateRevision: 'old', currentRevision: 'old' });
    expect(d.deleteReadyLimit).toBe(1);
  });
  it('D2/D3: PreparingDelete pods count in totalUnavailable, not as active', () => {
    // R=3, pods oR×3 + oPD: N=4, totalUnavailable 1 → scaleDown 1, deleteReadyLimit = 1 + 1 - 1 = 1
    const d = diffsOf({ replicas: 3, updateStrategy: { maxUnavailable: 1 } }, pods({ oR: 3, oPD: 1 }), {
      updateRevision: 'old',
      currentRevision: 'old',
    });
    expect(d).toMatchObject({ scaleDownNum: 1, deleteReadyLimit: 1 });
  });
  it('D4: with CloneSetPartitionRollback off, raising the partition only stops updates', () => {
    const spec = { replicas: 5, updateStrategy: { partition: 4, maxUnavailable: 2 } };
    const p = pods({ oR: 2, nR: 3 });
    expect(diffsOf(spec, p).updateNum).toBe(0);
    expect(diffsOf(spec, p, { featureGates: { CloneSetPartitionRollback: true } }).updateNum).toBe(-2);
  });
  it('D4: rollback never happens when updateRevision == currentRevision, even with the gate', () => {
    const spec = { replicas: 5, updateStrategy: { partition: 4 } };
    const d = diffsOf(spec, pods({ nR: 5 }), {
      currentRevision: 'new',
      featureGates: { CloneSetPartitionRollback: true },
    });
    expect(d.updateNum).toBe(0);
  });
  it('D5: a specified delete beyond the budget is covered by surge (old pod → old surge)', () => {
    // R=3, maxUnavailable 0, maxSurge 1, oR×2 + oRD: scaleSurge = min(max(0+1-0,0),1) = 1, old.
    const spec = { replicas: 3, updateStrategy: { maxUnavailable: 0, maxSurge: 1 } };
    const d = diffsOf(spec, pods({ oR: 2, oRD: 1 }), { updateRevision: 'old', currentRevision: 'old' });
    expect(d).toMatchObject({ useSurge: 1, scaleUpNum: 1, deleteReadyLimit: 0 });
  });
  it('D7: scaleUpLimit = min(scaleUpNum, max(scaleMaxUnavailable - totalUnavailable, 0))', () => {
    const spec = { replicas: 6, scaleStrategy: { maxUnavailable: 2 }, updateStrategy: { maxUnavailable: 1 } };
    const d = diffsOf(spec, pods({ nR: 2, nU: 1 }), { currentRevision: 'new' });
    expect(d).toMatchObject({ scaleUpNum: 3, scaleUpLimit: 1 });
  });
  it('D8: deleteReadyLimit = max(maxUnavailable + (N - R) - totalUnavailable, 0)', () => {
    const d = diffsOf({ replicas: 2, updateStrategy: { maxUnavailable: 1 } }, pods({ nR: 4, nU: 1 }), {
      currentRevision: 'new',
    });
    expect(d).toMatchObject({ scaleDownNum: 3, deleteReadyLimit: 1 + 3 - 1 });
  });
  it('D9: updateMaxUnavailable = maxUnavailable + N - R and may be negative', () => {
    const d = diffsOf({ replicas: 10, updateStrategy: { maxUnavailable: 2 } }, pods({ oR: 6 }));
    expect(d.updateMaxUnavailable).toBe(2 + 6 - 10);
  });
  it('D10: the CloneSet label or the flag excludes PreparingDelete pods from curTotal (replacement at once)', () => {
    const spec = { replicas: 3, updateStrategy: { maxUnavailable: 1 } };
    const p = pods({ nR: 2, nPD: 1 });
    expect(diffsOf(spec, p, { currentRevision: 'new' }).scaleUpNum).toBe(0);
    expect(diffsOf(spec, p, { currentRevision: 'new', scalingExcludePreparingDelete: true }).scaleUpNum).toBe(
      1,
    );
    const labels = { 'apps.kruise.io/cloneset-scaling-exclude-preparing-delete': 'true' };
    expect(diffsOf(spec, p, { currentRevision: 'new', labels }).scaleUpNum).toBe(1);
    expect(
      diffsOf(spec, p, {
        currentRevision: 'new',
        labels: { 'apps.kruise.io/cloneset-scaling-exclude-preparing-delete': 'yes' },
      }).scaleUpNum,
    ).toBe(0);
  });
  it('PreparingUpdateAsUpdate: the Scale predicate counts PreparingUpdate pods as updated', () => {
    const pu = compactPod({ name: 'x', revision: 'old', lifecycleState: 'PreparingUpdate', ready: true });
    expect(scaleIsPodUpdate({ PreparingUpdateAsUpdate: true })(pu, 'new')).toBe(true);
    expect(scaleIsPodUpdate({ PreparingUpdateAsUpdate: false })(pu, 'new')).toBe(false);
  });
});

describe('rule D2 and D5 as named helpers', () => {
  const NOW = Date.parse('2024-01-01T00:01:00Z');
  const pods = deepFreeze([
    makePod('sample-a', { revision: 'sample-new' }),
    makePod('sample-b', { revision: 'sample-new', state: 'PreparingDelete' }),
    makePod('sample-c', { revision: 'sample-new', ready: false }),
    makePod('sample-d', { revision: 'sample-old', labels: { 'apps.kruise.io/specified-delete': 'true' } }),
    makePod('sample-e', {
      revision: 'sample-old',
      ready: false,
      labels: { 'apps.kruise.io/specified-delete': '' },
    }),
    makePod('sample-f', { revision: 'sample-old', readySince: '2024-01-01T00:00:40Z' }),
  ]);
  const isNew = (p: Pod) => hashEquals(p, 'sample-new');
  const labelled = (p: Pod) => Object.hasOwn(p.metadata?.labels ?? {}, 'apps.kruise.io/specified-delete');

  it('classifyPods: a PreparingDelete pod is preDeleting only; toDelete wins over unavailable', () => {
    expect(classifyPods(pods, isNew, labelled, 0, NOW)).toEqual({
      newCount: 3,
      newActive: 2,
      newPreDel: 1,
      newToDelete: 0,
      newUnavail: 1,
      oldCount: 3,
      oldActive: 3,
      oldPreDel: 0,
      oldToDelete: 2,
      oldUnavail: 0,
    });
  });

  it('classifyPods: minReadySeconds makes a pod Ready for 20 s unavailable; the predicates are the caller`s', () => {
    const c = classifyPods(
      pods,
      (p) => !isNew(p),
      () => false,
      30,
      NOW,
    );
    expect(c).toMatchObject({ newCount: 3, newActive: 3, newUnavail: 2, oldPreDel: 1, oldUnavail: 1 });
  });

  it('surgeRule: §6.1 step 1 (opposite update diffs) and specified deletes beyond the budget', () => {
    const base = { maxSurge: 1, maxUnavailable: 1, totalUnavailable: 0, newToDelete: 0, oldToDelete: 0 };
    expect(surgeRule({ ...base, updateOldDiff: 2, updateNewDiff: -2 })).toEqual({
      useSurge: 1,
      useSurgeOldRevision: 0,
    });
    // two old pods to delete with one unavailable already: scaleSurge = min(1 + 2 - 1, 2) = 2, all old
    expect(
      surgeRule({
        ...base,
        maxSurge: 3,
        totalUnavailable: 1,
        oldToDelete: 2,
        updateOldDiff: 0,
        updateNewDiff: 0,
      }),
    ).toEqual({ useSurge: 2, useSurgeOldRevision: 2 });
  });
});
