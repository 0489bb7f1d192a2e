// The performance fast paths must not change results: the keyed active-pods sort against the
// pairwise comparator, and toRFC3339's canonical-text shortcut against a Date round trip.
import fc from 'fast-check';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { toRFC3339 } from '../src/kube/time';
import {
  compareActivePods,
  sortActivePods,
  sortIndexesByActivePods,
} from '../src/rollout/ordering/activePods';
import { deepFreeze } from '../src/testing';

const time = fc.constantFrom(
  undefined,
  '',
  '0001-01-01T00:00:00Z',
  'not a time',
  '2024-01-01T00:00:00Z',
  '2024-01-01T01:00:00+01:00',
  '2024-02-01T00:00:00Z',
  '2024-03-01T00:00:00.5Z',
);
const pod: fc.Arbitrary<Pod> = fc
  .record({
    node: fc.constantFrom(undefined, '', 'n1'),
    phase: fc.constantFrom(undefined, 'Pending', 'Unknown', 'Running', 'Failed'),
    ready: fc.constantFrom('True', 'False', undefined),
    readySince: time,
    restarts: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 2 }),
    created: time,
  })
  .map(
    (o): Pod => ({
      metadata: { creationTimestamp: o.created },
      spec: { nodeName: o.node, containers: [] },
      status: {
        phase: o.phase,
        conditions:
          o.ready === undefined ? [] : [{ type: 'Ready', status: o.ready, lastTransitionTime: o.readySince }],
        containerStatuses: o.restarts.map((r, i) => ({ name: `c${i}`, restartCount: r }) as never),
      },
    }),
  );

/** The plain stable sort with the pairwise comparator: the reference the keyed sort must match. */
function pairwiseIndexSort(pods: readonly (Pod | undefined)[], indexes: readonly number[]): number[] {
  return [...indexes].sort((i, j) => {
    const a = pods[i];
    const b = pods[j];
    if (!a || !b) return a ? -1 : b ? 1 : 0;
    return compareActivePods(a, b);
  });
}

describe('cloneset.md §9.3.1 keyed active-pods sort (keys computed once)', () => {
  it('sortIndexesByActivePods equals the stable pairwise sort, with missing pods last', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(pod, { nil: undefined }), { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (pods, raw) => {
          const indexes = raw.map((n) => (pods.length === 0 ? 0 : n % (pods.length + 1)));
          deepFreeze(pods);
          expect(sortIndexesByActivePods(pods, indexes)).toEqual(pairwiseIndexSort(pods, indexes));
        },
      ),
    );
  });

  it('sortActivePods equals the stable pairwise sort of the pods', () => {
    fc.assert(
      fc.property(fc.array(pod, { maxLength: 30 }), (pods) => {
        deepFreeze(pods);
        expect(sortActivePods(pods)).toEqual([...pods].sort(compareActivePods));
      }),
    );
  });
});

describe('toRFC3339 canonical-text fast path', () => {
  const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
  const text = fc
    .tuple(fc.integer({ min: 0, max: 9999 }), two(13), two(32), two(25), two(61), two(61))
    .map(([y, mo, d, h, mi, s]) => `${String(y).padStart(4, '0')}-${mo}-${d}T${h}:${mi}:${s}Z`);

  it('returns what a Date round trip returns, and throws where it is invalid', () => {
    fc.assert(
      fc.property(text, (s) => {
        const ms = Date.parse(s);
        if (Number.isNaN(ms)) {
          expect(() => toRFC3339(s)).toThrow();
        } else {
          const expected = new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
          expect(toRFC3339(s)).toBe(expected);
        }
      }),
    );
  });

  it('rolls over out-of-range days and hours as Date.parse does (not passed through)', () => {
    expect(toRFC3339('2024-02-30T00:00:00Z')).toBe('2024-03-01T00:00:00Z');
    expect(toRFC3339('2023-02-29T00:00:00Z')).toBe('2023-03-01T00:00:00Z');
    expect(toRFC3339('2024-02-29T00:00:00Z')).toBe('2024-02-29T00:00:00Z');
    expect(toRFC3339('2024-01-01T24:00:00Z')).toBe('2024-01-02T00:00:00Z');
  });
});
