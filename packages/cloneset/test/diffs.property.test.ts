// Properties of calculateDiffs alone (docs/reference/cloneset.md §6) over random CloneSets and pods,
// checked against the oracle's independent reading of the budgets.
import { setDefaultsCloneSet } from '@kruise-ts/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculateDiffs } from '../src/diffs';
import { cloneSetFrom, compactPod } from './fixtures';
import { budgets, partitionOf } from './oracle';

const podArb = fc.record({
  revision: fc.constantFrom('old', 'new'),
  lifecycleState: fc.constantFrom(
    'Normal',
    'Normal',
    'PreparingNormal',
    'PreparingUpdate',
    'Updating',
    'PreparingDelete',
  ),
  ready: fc.boolean(),
  specifiedDelete: fc.boolean(),
});

const caseArb = fc.record({
  replicas: fc.integer({ min: 0, max: 8 }),
  partition: fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constantFrom('0%', '40%', '99%', '100%')),
  maxUnavailable: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom('20%', '50%', '100%')),
  maxSurge: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom('30%', '50%')),
  paused: fc.boolean(),
  rollback: fc.boolean(),
  exclude: fc.boolean(),
  pods: fc.array(podArb, { maxLength: 12 }),
});

describe('calculateDiffs properties', () => {
  it('signs, surge caps, scale direction and the D9 budget hold for any pods', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const cs = setDefaultsCloneSet(
          cloneSetFrom({
            spec: {
              replicas: c.replicas,
              updateStrategy: {
                partition: c.partition,
                maxUnavailable: c.maxUnavailable,
                maxSurge: c.maxSurge,
                paused: c.paused,
              },
            },
          }),
        );
        const pods = c.pods.map((p, i) =>
          compactPod({ name: `p${i}`, phase: p.ready ? 'Running' : '', ...p }),
        );
        const d = calculateDiffs(cs, pods, {
          currentRevision: 'old',
          updateRevision: 'new',
          featureGates: { CloneSetPartitionRollback: c.rollback },
          scalingExcludePreparingDelete: c.exclude,
        });
        const { R, maxSurge, maxUnavailable } = budgets(cs);
        const N = pods.length;
        const preDel = c.pods.filter((p) => p.lifecycleState === 'PreparingDelete').length;
        for (const k of [
          'scaleUpNum',
          'scaleUpNumOldRevision',
          'scaleDownNum',
          'scaleDownNumOldRevision',
          'scaleUpLimit',
          'deleteReadyLimit',
          'useSurge',
          'useSurgeOldRevision',
        ] as const) {
          expect(d[k]).toBeGreaterThanOrEqual(0);
        }
        expect(d.useSurgeOldRevision).toBeLessThanOrEqual(d.useSurge);
        expect(d.useSurge).toBeLessThanOrEqual(maxSurge);
        expect(d.scaleUpLimit).toBeLessThanOrEqual(d.scaleUpNum);
        expect(d.scaleUpNum > 0 && d.scaleDownNum > 0).toBe(false);
        if (d.scaleUpNum > 0)
          expect(N + d.scaleUpNum).toBeLessThanOrEqual(R + maxSurge + (c.exclude ? preDel : 0));
        if (!c.rollback) expect(d.updateNum).toBeGreaterThanOrEqual(0);
        if (d.updateNum !== 0) expect(d.updateMaxUnavailable).toBe(maxUnavailable + N - R);
        // D3/D4/D9: without the rollback gate the update never moves more old pods than stand above the partition
        const oldActive = c.pods.filter(
          (p) => p.revision === 'old' && p.lifecycleState !== 'PreparingDelete',
        ).length;
        if (!c.rollback && d.updateNum > 0)
          expect(d.updateNum).toBeLessThanOrEqual(oldActive - partitionOf(cs));
      }),
    );
  });
});
