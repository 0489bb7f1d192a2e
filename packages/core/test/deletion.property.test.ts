// The scale-in comparator (docs/reference/cloneset.md §8.3) and the active-pods comparator (cloneset.md §9.3.1) are
// strict weak orders: irreflexive, antisymmetric, transitive, with transitive incomparability.

import fc from 'fast-check';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { compareActivePods } from '../src/rollout/ordering/activePods';
import { compareForScaleIn, type ScaleInOrderOptions } from '../src/rollout/ordering/deletion';

const time = fc.option(
  fc.constantFrom('2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z'),
  {
    nil: undefined,
  },
);
const pod: fc.Arbitrary<Pod> = fc
  .record({
    node: fc.constantFrom(undefined, '', 'n1'),
    phase: fc.constantFrom(undefined, 'Pending', 'Unknown', 'Running', 'Failed'),
    ready: fc.boolean(),
    readySince: time,
    restarts: fc.integer({ min: 0, max: 3 }),
    created: time,
    cost: fc.constantFrom(undefined, '0', '-1', '5', '+5', 'x'),
    available: fc.boolean(),
  })
  .map(
    (o): Pod => ({
      metadata: {
        creationTimestamp: o.created,
        labels: { available: String(o.available) },
        annotations: o.cost === undefined ? {} : { 'controller.kubernetes.io/pod-deletion-cost': o.cost },
      },
      spec: { nodeName: o.node, containers: [] },
      status: {
        phase: o.phase,
        conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False', lastTransitionTime: o.readySince }],
        containerStatuses: [{ restartCount: o.restarts } as any],
      },
    }),
  );

/** Three pods, each with a rank from a small set, and whether the options are used. */
const triple = fc.tuple(
  pod,
  pod,
  pod,
  fc.array(fc.constantFrom(0, 1, 2.5), { minLength: 3, maxLength: 3 }),
  fc.boolean(),
);

function checkStrictWeakOrder(cmp: (a: Pod, b: Pod) => number, [a, b, c]: Pod[]) {
  const lt = (x: Pod, y: Pod) => cmp(x, y) < 0;
  const eq = (x: Pod, y: Pod) => !lt(x, y) && !lt(y, x);
  for (const x of [a, b, c]) expect(lt(x, x)).toBe(false); // irreflexive
  for (const [x, y] of [
    [a, b],
    [b, c],
    [a, c],
  ]) {
    expect(Math.sign(cmp(x, y)) + Math.sign(cmp(y, x))).toBe(0); // antisymmetric
  }
  for (const [x, y, z] of [
    [a, b, c],
    [a, c, b],
    [b, a, c],
    [b, c, a],
    [c, a, b],
    [c, b, a],
  ]) {
    if (lt(x, y) && lt(y, z)) expect(lt(x, z)).toBe(true); // transitive
    if (eq(x, y) && eq(y, z)) expect(eq(x, z)).toBe(true); // incomparability is transitive
  }
}

describe('strict weak orders', () => {
  it('§8.3: compareForScaleIn (with and without availability and ranks)', () => {
    fc.assert(
      fc.property(triple, ([a, b, c, r, withOpts]) => {
        const opts: ScaleInOrderOptions = withOpts
          ? {
              isAvailable: (p) => p.metadata?.labels?.available === 'true',
              rank: new Map([
                [a, r[0]],
                [b, r[1]],
                [c, r[2]],
              ]),
            }
          : {};
        checkStrictWeakOrder((x, y) => compareForScaleIn(x, y, opts), [a, b, c]);
      }),
    );
  });
  it('cloneset.md §9.3.1: compareActivePods', () => {
    fc.assert(fc.property(triple, ([a, b, c]) => checkStrictWeakOrder(compareActivePods, [a, b, c])));
  });
});
