// A reconcile's work is bounded by what it observed, never by a number it was asked for
// (docs/reference/core.md §10.2): with `replicas`, `partition`, `maxSurge`, `maxUnavailable` and
// reserved ordinal ranges drawn up to 2^31 - 1, each reconcile returns, and its actions number at
// most a few per pod of the burst plus a few per observed object. Counted, not timed.

import { reconcileCloneSet } from '@kruise-ts/cloneset';
import { DEFAULT_BURST_REPLICAS } from '@kruise-ts/core';
import { reconcileStatefulSet } from '@kruise-ts/statefulset';
import { reconcileUnitedDeployment } from '@kruise-ts/uniteddeployment';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validInputs } from './arbitraries';

const INT32_MAX = 2 ** 31 - 1;

/** Any replicas count, the large ones (the ones that once hung) drawn as often as the small. */
const arbCount = fc.oneof(
  fc.integer({ min: 0, max: 20 }),
  fc.integer({ min: 0, max: INT32_MAX }),
  fc.constant(INT32_MAX),
);
const arbIntOrPercent = fc.oneof(
  arbCount,
  fc.integer({ min: 0, max: 100 }).map((p) => `${p}%`),
);

/** An ordinal range or a single ordinal, up to 2^31 - 1 (Advanced StatefulSet's reserveOrdinals). */
const arbReserved = fc.array(
  fc.oneof(
    arbCount,
    fc.tuple(arbCount, arbCount).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
  ),
  { maxLength: 3 },
);

type Input = Record<string, unknown>;
type Workload = { spec: Record<string, unknown> };

/** Objects in the input's observed lists. */
function observed(input: Input): number {
  let n = 0;
  for (const v of Object.values(input)) if (Array.isArray(v)) n += v.length;
  return n;
}

/**
 * The most actions a reconcile may answer: per pod of the burst a create and its event, and per
 * claim template a claim and its event; per observed object a few (a delete, an update or patch,
 * an event); and a handful for the workload itself (status, revisions, events).
 */
function bound(input: Input, claimsPerPod: number): number {
  return (2 + 2 * claimsPerPod) * DEFAULT_BURST_REPLICAS + 4 * observed(input) + 20;
}

const claimTemplates = (w: Workload) =>
  Array.isArray(w.spec.volumeClaimTemplates) ? w.spec.volumeClaimTemplates.length : 0;

describe('work per reconcile is bounded by the burst and what was observed', () => {
  it('CloneSet: replicas, partition, maxSurge, maxUnavailable up to 2^31 - 1', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...validInputs('CloneSet')),
        arbCount,
        arbIntOrPercent,
        arbIntOrPercent,
        arbIntOrPercent,
        (input, replicas, partition, maxSurge, maxUnavailable) => {
          const cs = input.cloneSet as Workload;
          const updateStrategy = {
            ...(cs.spec.updateStrategy as object),
            partition,
            maxSurge,
            maxUnavailable,
          };
          const spec = { ...cs.spec, replicas, updateStrategy };
          const r = reconcileCloneSet({ ...input, cloneSet: { ...cs, spec } } as never);
          expect(r.actions.length).toBeLessThanOrEqual(bound(input, claimTemplates(cs)));
        },
      ),
    );
  });

  it('Advanced StatefulSet: replicas, partition, maxUnavailable and reserved ordinal ranges up to 2^31 - 1', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...validInputs('StatefulSet')),
        arbCount,
        arbCount,
        arbIntOrPercent,
        arbReserved,
        fc.constantFrom('OrderedReady', 'Parallel'),
        (input, replicas, partition, maxUnavailable, reserveOrdinals, podManagementPolicy) => {
          const set = input.statefulSet as Workload;
          const rollingUpdate = { partition, maxUnavailable };
          const updateStrategy = { type: 'RollingUpdate', rollingUpdate };
          const spec = { ...set.spec, replicas, reserveOrdinals, podManagementPolicy, updateStrategy };
          const r = reconcileStatefulSet({ ...input, statefulSet: { ...set, spec } } as never);
          expect(r.actions.length).toBeLessThanOrEqual(bound(input, claimTemplates(set)));
        },
      ),
    );
  });

  it('UnitedDeployment: replicas and subset replicas up to 2^31 - 1 (subset workloads are its actions)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...validInputs('UnitedDeployment')),
        arbCount,
        arbIntOrPercent,
        (input, replicas, first) => {
          const ud = input.unitedDeployment as Workload;
          const topology = ud.spec.topology as { subsets: Record<string, unknown>[] };
          const subsets = topology.subsets.map((s, i) => (i === 0 ? { ...s, replicas: first } : s));
          const spec = { ...ud.spec, replicas, topology: { ...topology, subsets } };
          const r = reconcileUnitedDeployment({ ...input, unitedDeployment: { ...ud, spec } } as never);
          expect(r.actions.length).toBeLessThanOrEqual(4 * (subsets.length + observed(input)) + 20);
        },
      ),
    );
  });
});
