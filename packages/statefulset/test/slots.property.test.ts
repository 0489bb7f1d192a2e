// The round's sparse slots (src/slots.ts, src/updateOrder.ts) against the dense slot array of
// docs/reference/statefulset.md R3.7 built the upstream way (every empty non-reserved slot filled in
// ascending order with `isCurrentRevisionNeeded`): same replica range as the ordinal-by-ordinal
// walk of R3.5, the same stand-ins where the sparse layout builds them, the same update
// candidates (R9.1–R9.5) restricted to the built slots whatever number of stand-ins was built,
// the same missing count (R8.4) and the same volumeClaims status (§13.2).
import type { IntOrString, StatefulSet, UpdatePriorityStrategy } from '@kruise-ts/api';
import {
  freezeFeatureGates,
  isPodUpdate,
  resolveFeatureGates,
  sortUpdateIndexesByPriority,
} from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import fc from 'fast-check';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { newPodStub } from '../src/identity';
import { claimName, podName, replicaRange, statefulSetReplicaRange } from '../src/ordinals';
import { isCurrentRevisionNeeded } from '../src/revisionChoice';
import type { RoundState } from '../src/round';
import { countedSlots, layoutSlots, type SlotLayout } from '../src/slots';
import { computeVolumeClaimStatus, volumeClaimStatusOfRange } from '../src/status';
import { orderSlotsToUpdate, sortPodsToUpdate } from '../src/updateOrder';
import { makeSet } from './world';

const CURRENT = 'foo-old';
const UPDATE = 'foo-new';
const gates = resolveFeatureGates({ StatefulSetStartOrdinal: true });

interface Case {
  replicas: number;
  start: number;
  reserve: IntOrString[];
  partition: number;
  mode: 'none' | 'ordered' | 'unordered';
  priority: 'none' | 'weight' | 'order';
  statusCurrentReplicas: number;
  /** Per ordinal 0..15: absent, or a pod at a revision, maybe terminating, with a tier. */
  pods: ({ rev: 'old' | 'new'; terminating: boolean; tier: number } | null)[];
  claims: { ordinal: number; size: 1 | 2; bound: boolean }[];
}

const arbCase: fc.Arbitrary<Case> = fc.record({
  replicas: fc.integer({ min: 0, max: 9 }),
  start: fc.integer({ min: 0, max: 3 }),
  reserve: fc
    .tuple(
      fc.uniqueArray(fc.integer({ min: 0, max: 14 }), { maxLength: 4 }),
      fc.option(fc.tuple(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 4 })), {
        nil: undefined,
      }),
    )
    .map(([ints, range]) => [...ints, ...(range ? [`${range[0]}-${range[0] + range[1]}`] : [])]),
  partition: fc.integer({ min: 0, max: 9 }),
  mode: fc.constantFrom('none' as const, 'ordered' as const, 'unordered' as const),
  priority: fc.constantFrom('none' as const, 'weight' as const, 'order' as const),
  statusCurrentReplicas: fc.integer({ min: 0, max: 9 }),
  pods: fc.array(
    fc.option(
      fc.record({
        rev: fc.constantFrom('old' as const, 'new' as const),
        terminating: fc.boolean(),
        tier: fc.integer({ min: 0, max: 2 }),
      }),
      { nil: null },
    ),
    { minLength: 16, maxLength: 16 },
  ),
  claims: fc.array(
    fc.record({
      ordinal: fc.integer({ min: 0, max: 16 }),
      size: fc.constantFrom(1 as const, 2 as const),
      bound: fc.boolean(),
    }),
    { maxLength: 6 },
  ),
});

function strategyOf(c: Case): UpdatePriorityStrategy | undefined {
  if (c.priority === 'weight')
    return {
      weightPriority: [
        { weight: 10, matchSelector: { matchLabels: { tier: '1' } } },
        { weight: 5, matchSelector: { matchLabels: { app: 'foo' } } },
      ],
    };
  if (c.priority === 'order') return { orderPriority: [{ orderedKey: 'tier' }] };
  return undefined;
}

function setOf(c: Case): StatefulSet {
  const set = makeSet({
    replicas: c.replicas,
    podManagementPolicy: 'Parallel',
    ordinals: { start: c.start },
    reserveOrdinals: c.reserve,
    volumeClaimTemplates: [
      { metadata: { name: 'data' }, spec: { resources: { requests: { storage: '2Gi' } } } },
    ],
    updateStrategy:
      c.mode === 'none'
        ? { type: 'RollingUpdate' }
        : {
            type: 'RollingUpdate',
            rollingUpdate: {
              partition: c.partition,
              maxUnavailable: 1,
              ...(c.mode === 'unordered'
                ? { unorderedUpdate: c.priority === 'none' ? {} : { priorityStrategy: strategyOf(c) } }
                : {}),
            },
          },
  });
  set.spec.template = {
    ...set.spec.template,
    metadata: { labels: { app: 'foo', tier: '1' } },
  };
  set.status = {
    replicas: 0,
    readyReplicas: 0,
    currentReplicas: c.statusCurrentReplicas,
    updatedReplicas: 0,
  } as StatefulSet['status'];
  return set;
}

function podsOf(c: Case): Pod[] {
  const out: Pod[] = [];
  c.pods.forEach((p, o) => {
    if (!p) return;
    const name = podName('foo', o);
    out.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'default',
        labels: {
          app: 'foo',
          tier: String(p.tier),
          'controller-revision-hash': p.rev === 'old' ? CURRENT : UPDATE,
          'statefulset.kubernetes.io/pod-name': name,
        },
        ...(p.terminating ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}),
      },
      status: { phase: 'Running' },
    });
  });
  return out;
}

/** The round state the layout reads. */
function stateOf(set: StatefulSet, pods: Pod[]): RoundState {
  const rev = (name: string) => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name } });
  return {
    set,
    range: statefulSetReplicaRange(set, gates),
    pods,
    currentRevision: rev(CURRENT),
    updateRevision: rev(UPDATE),
    currentTemplate: set.spec.template,
    updateTemplate: set.spec.template,
    gates: freezeFeatureGates(gates),
  } as unknown as RoundState;
}

/** R3.7 the upstream way: the full array, empty non-reserved slots filled ascending (R6.9). */
function denseSlots(state: RoundState): (Pod | null)[] {
  const { start, end, reserved } = state.range;
  const slots: (Pod | null)[] = new Array(end - start).fill(null);
  for (const p of state.pods) {
    const o = Number(p.metadata!.name!.split('-').pop());
    if (o >= start && o < end && !reserved.has(o)) slots[o - start] = p;
  }
  for (let i = 0; i < slots.length; i++) {
    const o = start + i;
    if (slots[i] !== null || reserved.has(o)) continue;
    const current = isCurrentRevisionNeeded(state.set, slots, {
      ordinal: o,
      start,
      statusCurrentReplicas: state.set.status?.currentReplicas ?? 0,
      updateRevision: UPDATE,
      featureGates: state.gates,
    });
    slots[i] = newPodStub(state.set, state.set.spec.template, current ? CURRENT : UPDATE, o);
  }
  return slots;
}

/** R9.1–R9.5 the upstream way, over the dense array by index: the oracle of the update order. */
function upstreamSortPodsToUpdate(
  ru: NonNullable<StatefulSet['spec']['updateStrategy']>['rollingUpdate'],
  totalReplicas: number,
  slots: readonly (Pod | null)[],
): number[] {
  const partition = ru?.partition ?? 0;
  const maxUpdate = totalReplicas - partition;
  if (maxUpdate <= 0) return [];
  const out: number[] = [];
  if (!ru?.unorderedUpdate) {
    for (let i = slots.length - 1; i >= partition && out.length < maxUpdate; i--) if (slots[i]) out.push(i);
    return out;
  }
  const groupA: number[] = [];
  const groupB: number[] = [];
  for (let i = slots.length - 1; i >= 0; i--) {
    const pod = slots[i];
    if (!pod) continue;
    if (pod.metadata?.deletionTimestamp || isPodUpdate(pod, UPDATE, gates)) groupA.push(i);
    else groupB.push(i);
  }
  const strategy = ru.unorderedUpdate.priorityStrategy;
  const sortedB = strategy ? sortUpdateIndexesByPriority(slots, groupB, strategy) : groupB;
  return [...groupA, ...sortedB].slice(0, maxUpdate);
}

const ordinalOfPod = (p: Pod) => Number(p.metadata!.name!.split('-').pop());

function check(c: Case, maxNew: number): void {
  const set = deepFreeze(setOf(c));
  const pods = deepFreeze(podsOf(c));
  const state = stateOf(set, pods);
  const dense = denseSlots(state);
  const layout: SlotLayout = layoutSlots(state, maxNew);
  const denseNew = dense.filter((p): p is Pod => p !== null && !pods.includes(p));
  // the built slots: every observed in-range pod and the lowest `built` missing ordinals
  expect(layout.missing).toBe(denseNew.length);
  expect(layout.built).toBe(Math.min(maxNew, denseNew.length));
  expect(countedSlots(layout)).toBe(denseNew.length - layout.built);
  const builtOrdinals = new Set(layout.slots.map((s) => s.ordinal));
  const expectSlots = dense
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => p !== null)
    .filter(({ p }) => pods.includes(p!) || denseNew.indexOf(p!) < layout.built);
  expect(layout.slots.map((s) => s.index)).toEqual(expectSlots.map(({ i }) => i));
  layout.slots.forEach((s, k) => {
    const want = expectSlots[k].p!;
    expect(s.isNew).toBe(!pods.includes(want));
    if (s.isNew) expect(s.pod).toEqual(want);
    else expect(s.pod).toBe(want);
  });
  // R9.1–R9.5: the dense list restricted to the built slots
  const ru = set.spec.updateStrategy?.rollingUpdate;
  const upstream = upstreamSortPodsToUpdate(ru, c.replicas, dense);
  expect(sortPodsToUpdate(ru, UPDATE, c.replicas, dense, state.gates)).toEqual(upstream);
  const want = upstream.map((i) => ordinalOfPod(dense[i]!)).filter((o) => builtOrdinals.has(o));
  const got = orderSlotsToUpdate(ru, UPDATE, c.replicas, layout, state.gates).map(
    (k) => layout.slots[k].ordinal,
  );
  expect(got).toEqual(want);
  // §13.2 from the claims
  const claims = new Map<string, PersistentVolumeClaim>();
  for (const cl of c.claims) {
    const name = claimName('data', 'foo', cl.ordinal);
    claims.set(name, {
      metadata: { name, namespace: 'default' },
      spec: { resources: { requests: { storage: `${cl.size}Gi` } } },
      ...(cl.bound ? { status: { capacity: { storage: `${cl.size}Gi` } } } : {}),
    });
  }
  expect(volumeClaimStatusOfRange(set, state.range, claims)).toEqual(
    computeVolumeClaimStatus(set, dense, (n) => claims.get(n)),
  );
}

/**
 * At least 2,000 draws: the cut of the ordered list binds only with reserved ordinals below the
 * partition and stand-ins counted above them, which 100 draws rarely meet.
 */
const runs = Math.max(fc.readConfigureGlobal().numRuns ?? 100, 2000);

describe('sparse slots equal the dense slot array (R3.7, R6.9, R9, §13.2)', () => {
  it('for every number of stand-ins built', () => {
    fc.assert(
      fc.property(arbCase, fc.integer({ min: 0, max: 4 }), (c, maxNew) => {
        check(c, maxNew);
        check(c, Number.POSITIVE_INFINITY);
      }),
      { numRuns: runs },
    );
  });

  it('R3.5: the replica range equals the ordinal-by-ordinal walk', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 10 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 12 }),
        (replicas, start, reserved) => {
          const set = new Set(reserved);
          let end = start;
          let count = 0;
          while (count < replicas) {
            if (!set.has(end)) count++;
            end++;
          }
          expect(replicaRange(replicas, start, set).end).toBe(end);
        },
      ),
    );
  });
});
