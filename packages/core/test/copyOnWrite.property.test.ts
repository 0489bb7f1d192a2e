// The copy-on-write fast paths of the per-pod writers (reconcile performance): each must give
// exactly what the plain version gives — same values, same key order (patches are compared as
// bytes), and the very same object when nothing changes. The oracles below are the plain
// implementations these fast paths replaced.
import type { InPlaceUpdateState } from '@kruise-ts/api';
import fc from 'fast-check';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { jsonEqual } from '../src/json/jsonPatch';
import { toRFC3339 } from '../src/kube/time';
import {
  recomputeReady,
  recomputeReadyInList,
  setConditionInList,
  setPodCondition,
  writeGateCondition,
  writeGateConditionInList,
} from '../src/pods/conditionEdits';
import { recomputeReadyCondition, setCondition } from '../src/pods/conditions';
import { containersUpdateCompleted } from '../src/rollout/inplace/completion';
import { diffPodForPatch, mergePatchDiff } from '../src/rollout/inplace/diff';

// ---- oracles: the plain implementations -------------------------------------------------

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** RFC 7386 merge patch, as first written (Object.entries, patch built eagerly). */
function plainMergePatchDiff(a: unknown, b: unknown): unknown {
  if (a === b) return undefined;
  if (b === undefined || b === null) return a === undefined || a === null ? undefined : null;
  if (isPlainObject(a) && isPlainObject(b)) {
    const patch: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(b)) {
      if (v === undefined) continue;
      const d = Object.hasOwn(a, k) && a[k] !== undefined ? plainMergePatchDiff(a[k], v) : v;
      if (d !== undefined) patch[k] = d;
    }
    for (const [k, v] of Object.entries(a)) {
      if (v !== undefined && (!Object.hasOwn(b, k) || b[k] === undefined)) patch[k] = null;
    }
    return Object.keys(patch).length > 0 ? patch : undefined;
  }
  return jsonEqual(a, b) ? undefined : b;
}

const sameList = (a: readonly PodCondition[], b: readonly PodCondition[]) =>
  a.length === b.length && a.every((c, i) => c === b[i]);

/** R2.1.6 on a pod, as first written: find, compare, then R5.5 on a fresh copy of the list. */
function plainWriteGate(pod: Pod, condition: PodCondition): { pod: Pod; written: boolean } {
  const old = pod.status?.conditions?.find((c) => c.type === condition.type);
  if (
    old &&
    old.status === condition.status &&
    (old.reason ?? '') === (condition.reason ?? '') &&
    (old.message ?? '') === (condition.message ?? '')
  )
    return { pod, written: false };
  const before = pod.status?.conditions ?? [];
  const after = setCondition(before, condition);
  return {
    pod: sameList(before, after) ? pod : { ...pod, status: { ...(pod.status ?? {}), conditions: after } },
    written: true,
  };
}

/** R5.4 as first written: recompute on the pod, keep the pod when no element changed. */
function plainRecomputeReady(pod: Pod, now: string): Pod {
  const before = pod.status?.conditions ?? [];
  const after = recomputeReadyCondition(pod, now).status?.conditions ?? [];
  return sameList(before, after) ? pod : { ...pod, status: { ...(pod.status ?? {}), conditions: after } };
}

/** R2.6.2 step 5 as first written (a map of spec images, a set of checked names). */
function plainImageCheck(pod: Pod, state: InPlaceUpdateState): boolean {
  const norm = (s: string | undefined) => ((s ?? '').includes(':') ? (s ?? '') : `${s ?? ''}:latest`);
  const specImages = new Map<string, string>();
  for (const c of pod.spec?.containers ?? []) specImages.set(c.name, norm(c.image));
  const recorded = state.lastContainerStatuses ?? {};
  const checked = new Set<string>();
  for (const cs of pod.status?.containerStatuses ?? []) {
    const last = recorded[cs.name];
    if (!last) continue;
    if ((last.imageID ?? '') === (cs.imageID ?? '') && specImages.get(cs.name) !== (cs.image ?? ''))
      return false;
    checked.add(cs.name);
  }
  return Object.keys(recorded).every((n) => checked.has(n));
}

// ---- arbitraries --------------------------------------------------------------------------

const key = fc.constantFrom('a', 'b', 'c', 'd');
const leaf = fc.constantFrom<unknown>('x', 'y', 1, 2, true, null, undefined, [1], [1, 2], ['x']);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('object')),
  object: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
}));
const object = fc.dictionary(key, value, { maxKeys: 4 });
/** A pair of objects sharing some subtrees by reference, as copy-on-write pods do. */
const objectPair = fc.tuple(object, object, fc.array(key, { maxLength: 4 })).map(([a, b, shared]) => {
  const b2: Record<string, unknown> = { ...b };
  for (const k of shared) if (Object.hasOwn(a, k)) b2[k] = a[k];
  return [a, b2] as const;
});

const condType = fc.constantFrom('Ready', 'ContainersReady', 'InPlaceUpdateReady', 'KruisePodReady');
const condition: fc.Arbitrary<PodCondition> = fc.record(
  {
    type: condType,
    status: fc.constantFrom('True', 'False', 'Unknown'),
    reason: fc.constantFrom('', 'StartInPlaceUpdate'),
    message: fc.constantFrom('', 'm'),
    lastTransitionTime: fc.constantFrom('2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z'),
  },
  { requiredKeys: ['type', 'status'] },
);
const podWithConditions: fc.Arbitrary<Pod> = fc
  .record({
    conditions: fc.option(fc.array(condition, { maxLength: 5 }), { nil: undefined }),
    gates: fc.subarray(['InPlaceUpdateReady', 'KruisePodReady']),
  })
  .map(({ conditions, gates }) => ({
    metadata: { name: 'p' },
    spec: { containers: [], readinessGates: gates.map((conditionType) => ({ conditionType })) },
    status: conditions === undefined ? { phase: 'Running' } : { phase: 'Running', conditions },
  }));

// ---- properties ---------------------------------------------------------------------------

describe('mergePatchDiff (allocation-light walk) equals the plain RFC 7386 diff', () => {
  it('same patch, same key order, for objects sharing subtrees', () => {
    fc.assert(
      fc.property(objectPair, ([a, b]) => {
        const fast = mergePatchDiff(a, b);
        const plain = plainMergePatchDiff(a, b);
        expect(fast === undefined).toBe(plain === undefined);
        if (plain !== undefined) expect(JSON.stringify(fast)).toBe(JSON.stringify(plain));
      }),
    );
  });

  it('diffPodForPatch: labels {a:1, b:2} → {a:1, c:3} gives {b: null, c: "3"} (the worked example)', () => {
    const patch = diffPodForPatch(
      { metadata: { labels: { a: '1', b: '2' } } },
      { metadata: { labels: { a: '1', c: '3' } } },
    );
    expect(JSON.stringify(patch)).toBe('{"metadata":{"labels":{"c":"3","b":null}}}');
  });
});

describe('condition writers on lists (R2.1.6, R5.4, R5.5) equal the pod-level writers', () => {
  it('setConditionInList: the same elements as setCondition, the same list when nothing changes', () => {
    fc.assert(
      fc.property(fc.array(condition, { maxLength: 5 }), condition, fc.boolean(), (list, c, ifMsg) => {
        const out = setConditionInList(list, c, ifMsg);
        const plain = setCondition(list, c, { ifMessageChanged: ifMsg });
        expect(sameList(out, plain)).toBe(true);
        expect(out === list).toBe(sameList(list, plain));
      }),
    );
  });

  it('writeGateCondition / writeGateConditionInList: the pod, the list and `written` of the plain rule', () => {
    fc.assert(
      fc.property(podWithConditions, condition, (pod, c) => {
        const plain = plainWriteGate(pod, c);
        const fast = writeGateCondition(pod, c);
        expect(fast.written).toBe(plain.written);
        expect(fast.pod === pod).toBe(plain.pod === pod);
        expect(JSON.stringify(fast.pod)).toBe(JSON.stringify(plain.pod));
        const before = pod.status?.conditions ?? [];
        const inList = writeGateConditionInList(before, c);
        expect(inList.written).toBe(plain.written);
        expect(sameList(inList.list, plain.pod.status?.conditions ?? [])).toBe(true);
      }),
    );
  });

  it('recomputeReady / recomputeReadyInList: the conditions of recomputeReadyCondition, same pod when unchanged', () => {
    const now = '2024-03-01T00:00:00Z';
    fc.assert(
      fc.property(podWithConditions, (pod) => {
        const plain = plainRecomputeReady(pod, now);
        const fast = recomputeReady(pod, now);
        expect(fast === pod).toBe(plain === pod);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(plain));
        const before = pod.status?.conditions ?? [];
        const list = recomputeReadyInList(before, pod.spec?.readinessGates, now);
        expect(list === before).toBe(plain === pod);
        expect(JSON.stringify(list)).toBe(JSON.stringify(plain.status?.conditions ?? []));
      }),
    );
  });

  it('setPodCondition keeps the pod when R5.5 changes nothing (same status, message ignored)', () => {
    const pod: Pod = { status: { conditions: [{ type: 'A', status: 'True', message: 'm0' }] } };
    expect(setPodCondition(pod, { type: 'A', status: 'True', message: 'm1' })).toBe(pod);
    expect(setPodCondition(pod, { type: 'A', status: 'True', message: 'm1' }, true)).not.toBe(pod);
  });
});

describe('R2.6.2 step 5 image check without per-call maps', () => {
  const name = fc.constantFrom('c0', 'c1', 'constructor');
  const image = fc.constantFrom('busybox', 'busybox:1', 'busybox:latest', 'nginx:1', '');
  const arb = fc.record({
    containers: fc.array(fc.record({ name, image }), { maxLength: 3 }),
    statuses: fc.array(fc.record({ name, image, imageID: fc.constantFrom('', 'id-a', 'id-b') }), {
      maxLength: 3,
    }),
    recorded: fc.dictionary(
      name,
      fc.option(fc.record({ imageID: fc.constantFrom('', 'id-a') }), { nil: null }),
    ),
  });
  it('completes exactly when the plain check (map of spec images, set of checked names) does', () => {
    fc.assert(
      fc.property(arb, ({ containers, statuses, recorded }) => {
        const pod = {
          spec: { containers },
          status: { containerStatuses: statuses.map((s) => ({ ...s, ready: true, restartCount: 0 })) },
        } as unknown as Pod;
        const state = { revision: 'r', updateTimestamp: null, lastContainerStatuses: recorded } as never;
        expect(containersUpdateCompleted(pod, state).completed).toBe(plainImageCheck(pod, state));
      }),
    );
  });
});

describe('toRFC3339: the remembered canonical text changes no answer', () => {
  it('alternating a canonical text with texts that need normalising', () => {
    expect(toRFC3339('2024-01-01T00:00:00Z')).toBe('2024-01-01T00:00:00Z');
    expect(toRFC3339('2024-02-30T00:00:00Z')).toBe('2024-03-01T00:00:00Z'); // rolls over
    expect(toRFC3339('2024-01-01T00:00:00Z')).toBe('2024-01-01T00:00:00Z');
    expect(toRFC3339('2024-01-01T08:00:00.900+08:00')).toBe('2024-01-01T00:00:00Z');
    expect(() => toRFC3339('2024-01-01T00:00:00')).toThrow();
    expect(toRFC3339('2024-01-01T00:00:00Z')).toBe('2024-01-01T00:00:00Z');
  });
});
