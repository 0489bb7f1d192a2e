// Kubernetes "active pods" order for CloneSet update candidates (docs/reference/core.md §4.3,
// docs/reference/cloneset.md cloneset.md §9.3.1: rules 1, 2, 4, 7, 8, 9 of §8.3; no availability, cost or rank).
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  compareActivePods,
  sortActivePods,
  sortIndexesByActivePods,
} from '../src/rollout/ordering/activePods';
import { deepFreeze } from '../src/testing';

interface Opts {
  name: string;
  node?: string;
  phase?: string;
  readySince?: string | null; // undefined: not ready; null: ready with a zero time
  restarts?: number;
  created?: string;
  cost?: string;
}

function pod(o: Opts): Pod {
  const ready = o.readySince !== undefined;
  return deepFreeze({
    metadata: {
      name: o.name,
      creationTimestamp: o.created,
      annotations:
        o.cost === undefined ? undefined : { 'controller.kubernetes.io/pod-deletion-cost': o.cost },
    },
    spec: { nodeName: o.node, containers: [] },
    status: {
      phase: o.phase,
      conditions: ready
        ? [{ type: 'Ready', status: 'True', lastTransitionTime: o.readySince ?? undefined }]
        : [],
      containerStatuses: [
        { name: 'a', restartCount: 0, image: '', imageID: '', ready, started: ready } as any,
        { name: 'b', restartCount: o.restarts ?? 0, image: '', imageID: '', ready, started: ready } as any,
      ],
    },
  });
}

const first = (a: Pod, b: Pod) => {
  expect(compareActivePods(a, b)).toBeLessThan(0);
  expect(compareActivePods(b, a)).toBeGreaterThan(0);
};

describe('§4.3 active pods order', () => {
  it('rule 1: unassigned before assigned', () => {
    first(pod({ name: 'u', phase: 'Running' }), pod({ name: 'a', node: 'n', phase: 'Pending' }));
  });
  it('rule 2: Pending < Unknown < Running; an empty or other phase ranks like Pending', () => {
    const pending = pod({ name: 'p', node: 'n', phase: 'Pending' });
    const unknown = pod({ name: 'u', node: 'n', phase: 'Unknown' });
    const running = pod({ name: 'r', node: 'n', phase: 'Running' });
    first(pending, unknown);
    first(unknown, running);
    expect(compareActivePods(pod({ name: 'e', node: 'n' }), pending)).toBe(0);
    expect(compareActivePods(pod({ name: 's', node: 'n', phase: 'Succeeded' }), pending)).toBe(0);
  });
  it('rule 3: not ready before ready', () => {
    first(
      pod({ name: 'nr', node: 'n', phase: 'Running' }),
      pod({ name: 'r', node: 'n', phase: 'Running', readySince: '2024-01-01T00:00:00Z' }),
    );
  });
  it('rule 4: ready for less time first; a zero Ready time counts as the most recent', () => {
    const now = pod({ name: 'now', node: 'n', phase: 'Running', readySince: '2024-02-01T00:00:00Z' });
    const then = pod({ name: 'then', node: 'n', phase: 'Running', readySince: '2024-01-01T00:00:00Z' });
    const zero = pod({ name: 'zero', node: 'n', phase: 'Running', readySince: null });
    first(now, then);
    first(zero, now);
  });
  it('rule 5: more restarts first (max over container statuses: 9001 beats 0)', () => {
    first(
      pod({ name: 'hi', node: 'n', phase: 'Running', readySince: '2024-02-01T00:00:00Z', restarts: 9001 }),
      pod({ name: 'lo', node: 'n', phase: 'Running', readySince: '2024-02-01T00:00:00Z' }),
    );
  });
  it('rule 6: newer creation first; a zero creation time counts as the newest', () => {
    const newer = pod({ name: 'n1', node: 'n', phase: 'Running', created: '2024-02-01T00:00:00Z' });
    const older = pod({ name: 'o1', node: 'n', phase: 'Running', created: '2024-01-01T00:00:00Z' });
    first(newer, older);
    first(pod({ name: 'z', node: 'n', phase: 'Running' }), newer);
  });
  it('no deletion cost in the active-pods order (cloneset.md §9.3.1)', () => {
    const a = pod({ name: 'a', node: 'n', phase: 'Running', cost: '100' });
    const b = pod({ name: 'b', node: 'n', phase: 'Running', cost: '-100' });
    expect(compareActivePods(a, b)).toBe(0);
  });
  it('equal pods compare 0 both ways (irreflexive)', () => {
    const a = pod({ name: 'a', node: 'n', phase: 'Running', readySince: '2024-02-01T00:00:00Z' });
    expect(compareActivePods(a, a)).toBe(0);
  });
  it('sortActivePods is stable and does not mutate its input', () => {
    const a = pod({ name: 'a', node: 'n', phase: 'Running', readySince: '2024-01-01T00:00:00Z' });
    const b = pod({ name: 'b', node: 'n', phase: 'Running' });
    const c = pod({ name: 'c', node: 'n', phase: 'Running' });
    const d = pod({ name: 'd', phase: 'Pending' });
    const input = deepFreeze([a, b, c, d]);
    expect(sortActivePods(input).map((p) => p.metadata?.name)).toEqual(['d', 'b', 'c', 'a']);
  });
  it('sortIndexesByActivePods: [Running Ready, Pending, Running not-Ready] → [1, 2, 0]', () => {
    const pods = [
      pod({ name: 'r', node: 'n', phase: 'Running', readySince: '2024-01-01T00:00:00Z' }),
      pod({ name: 'p', node: 'n', phase: 'Pending' }),
      pod({ name: 'nr', node: 'n', phase: 'Running' }),
    ];
    expect(sortIndexesByActivePods(pods, deepFreeze([0, 1, 2]))).toEqual([1, 2, 0]);
    expect(sortIndexesByActivePods(pods, [2, 0])).toEqual([2, 0]);
  });
});
