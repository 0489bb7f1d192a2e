// docs/reference/daemonset.md §7.3 (U1–U6) and §7.4 (S1–S7): the per-node rules of the two walks,
// and §7.2/§7.3 through whole reconciles (partition, selector, budget).
import type { DaemonSet } from '@kruise-ts/api';
import { createInPlaceCache, ReconcileRecorder, refOf } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  FailedPodsBackoff,
  type NodeToPods,
  reconcileDaemonSet,
  type SyncContext,
  standardRollingDecision,
  surgeRollingDecision,
} from '../src';
import { iso, makeDaemonSet, makeNode, makePod, podCounts } from './helpers';

const T = 10_000;
const H = 'v2';
const ds = makeDaemonSet();

function ctxFor(d: DaemonSet): SyncContext {
  return {
    ds: d,
    now: iso(T),
    seed: 0,
    hash: H,
    generation: undefined,
    nodes: [],
    nodesByName: new Map(),
    shouldRun: new Map(),
    view: new Map(),
    takenNames: new Set(),
    createdNames: new Set(),
    rec: new ReconcileRecorder(refOf(d)),
    backoff: new FailedPodsBackoff(undefined, iso(T)),
    burst: 250,
    assignPodsByScheduler: true,
    featureGates: {},
    inPlaceCache: createInPlaceCache(),
  };
}

const oldOk = (n: string) => makePod(ds, `${n}-old`, n, 'v1', { ready: true, readySince: 1 });
const oldBad = (n: string) => makePod(ds, `${n}-old`, n, 'v1', { ready: false });
const newOk = (n: string) => makePod(ds, `${n}-new`, n, H, { ready: true, readySince: 1 });
const newBad = (n: string) => makePod(ds, `${n}-new`, n, H, { ready: false });
const preDel = (p: Pod): Pod => ({
  ...p,
  metadata: {
    ...p.metadata,
    labels: { ...p.metadata?.labels, 'lifecycle.apps.kruise.io/state': 'PreparingDelete' },
  },
});

function standard(map: Record<string, Pod[]>, maxUnavailable: number) {
  const m: NodeToPods = new Map(Object.entries(map));
  return standardRollingDecision(ctxFor(ds), Object.keys(map), m, maxUnavailable);
}

function surge(map: Record<string, Pod[]>, maxSurge: number) {
  const m: NodeToPods = new Map(Object.entries(map));
  return surgeRollingDecision(ctxFor(ds), Object.keys(map), m, maxSurge);
}

const names = (pods: Pod[]) => pods.map((p) => p.metadata?.name);

describe('§7.3 standard walk', () => {
  it('U1: excess (two old pods) counts as unavailable', () => {
    expect(
      standard(
        {
          a: [
            oldOk('a'),
            { ...oldOk('a'), metadata: { name: 'a-old2', labels: { 'controller-revision-hash': 'v1' } } },
          ],
        },
        1,
      ).unavailable,
    ).toBe(1);
  });
  it('U2: both gone (empty node) or both present → unavailable', () => {
    expect(standard({ a: [] }, 1).unavailable).toBe(1);
    expect(standard({ a: [oldOk('a'), newOk('a')] }, 1).unavailable).toBe(1);
    expect(standard({ a: [preDel(oldOk('a'))] }, 1).unavailable).toBe(1);
  });
  it('U3: n present → +1 if not available, +1 more if pre-deleting', () => {
    expect(standard({ a: [newOk('a')] }, 1).unavailable).toBe(0);
    expect(standard({ a: [newBad('a')] }, 1).unavailable).toBe(1);
    expect(standard({ a: [preDel(newBad('a')), oldOk('a')] }, 1).unavailable).toBe(2);
    expect(standard({ a: [preDel(oldOk('a')), newOk('a')] }, 1).unavailable).toBe(0);
  });
  it('U4: an old pod that is not available is replaced now, regardless of the budget', () => {
    const d = standard({ a: [newBad('a')], b: [oldBad('b')], c: [oldBad('c')] }, 1);
    expect(names(d.replaceNow)).toEqual(['b-old', 'c-old']);
    expect(names(d.toDelete)).toEqual(['b-old', 'c-old']);
  });
  it('U5/U6: available old pods are candidates while unavailable < maxUnavailable; k = min(max(0, max − unavailable), |candidates|)', () => {
    const d = standard({ a: [oldOk('a')], b: [oldOk('b')], c: [newBad('c')], d: [oldOk('d')] }, 2);
    expect(names(d.candidates)).toEqual(['a-old', 'b-old', 'd-old']);
    expect(d.unavailable).toBe(1);
    expect(names(d.toDelete)).toEqual(['a-old']); // k = 2 − 1
    const full = standard({ a: [oldOk('a')], c: [newBad('c')], e: [newBad('e')], d: [oldOk('d')] }, 2);
    expect(names(full.candidates)).toEqual(['a-old']); // d is met with unavailable = 2 (U6)
    expect(full.toDelete).toEqual([]); // k = max(0, 2 − 2)
  });
});

describe('§7.4 surge walk', () => {
  it('S1: excess → surging', () => {
    const two = [
      newBad('a'),
      { ...newBad('a'), metadata: { name: 'a-new2', labels: { 'controller-revision-hash': H } } },
    ];
    expect(surge({ a: two }, 1).surging).toBe(1);
  });
  it('S2: old pod gone (absent or pre-deleting) → nothing', () => {
    const d = surge({ a: [newBad('a')], b: [preDel(oldOk('b'))], c: [] }, 1);
    expect(d).toMatchObject({ surging: 0, toCreate: [], toDelete: [] });
  });
  it('S3: no new pod and the old one not available → create now, regardless of the budget', () => {
    const d = surge({ x: [oldOk('x'), newBad('x')], a: [oldBad('a')], b: [oldBad('b')] }, 1);
    expect(d.createNow).toEqual(['a', 'b']);
    expect(d.toCreate).toEqual(['a', 'b']);
  });
  it('S4/S5: available old pods surge while surging < maxSurge', () => {
    const map = { a: [oldOk('a')], x: [oldOk('x'), newBad('x')], b: [oldOk('b')] };
    expect(surge(map, 2).candidates).toEqual(['a', 'b']);
    const one = surge(map, 1); // after x, surging = 1 = maxSurge: b is skipped (S5)
    expect(one.candidates).toEqual(['a']);
    expect(one.toCreate).toEqual([]); // k = max(0, 1 − 1) = 0
  });
  it('S6: new pod not available or pre-deleting → surging; S7: new available → delete old', () => {
    const d = surge(
      { a: [oldOk('a'), newBad('a')], b: [oldOk('b'), preDel(newOk('b'))], c: [oldOk('c'), newOk('c')] },
      3,
    );
    expect(d.surging).toBe(2);
    expect(names(d.toDelete)).toEqual(['c-old']);
  });
});

describe('§7 through reconcile', () => {
  const nodes = (n: number): Node[] => Array.from({ length: n }, (_, i) => makeNode(`n${i}`));
  function rolled(
    strategy: DaemonSet['spec']['updateStrategy'],
    count: number,
    labels?: (i: number) => Record<string, string>,
  ) {
    const d = makeDaemonSet({ updateStrategy: strategy });
    const ns = nodes(count).map((n, i) => (labels ? makeNode(n.metadata!.name!, labels(i)) : n));
    const pods = ns.map((n) =>
      makePod(d, `${n.metadata!.name}-old`, n.metadata!.name!, 'v1', {
        ready: true,
        readySince: 1,
        created: 1,
      }),
    );
    return reconcileDaemonSet(deepFreeze({ daemonSet: d, nodes: ns, pods, now: iso(T) }));
  }
  const deleted = (r: ReturnType<typeof rolled>) =>
    r.actions.filter((a) => a.verb === 'delete' && a.target.kind === 'Pod').map((a: any) => a.target.name);

  it('standard: maxUnavailable 2 deletes the two largest node names first (kruise-ts order)', () => {
    expect(deleted(rolled({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } }, 5))).toEqual([
      'n4-old',
      'n3-old',
    ]);
  });
  it('partition 4 of 5 nodes: one node updates', () => {
    expect(
      deleted(rolled({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 5, partition: 4 } }, 5)),
    ).toEqual(['n4-old']);
  });
  it('selector: only matching nodes update', () => {
    const r = rolled(
      {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: 5, selector: { matchLabels: { canary: 'true' } } },
      },
      5,
      (i): Record<string, string> => (i % 2 === 0 ? { canary: 'true' } : {}),
    );
    expect(deleted(r)).toEqual(['n4-old', 'n2-old', 'n0-old']);
  });
  it('maxUnavailable "40%" of 5 desired → ceil(2) = 2 deletes', () => {
    expect(
      podCounts(rolled({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '40%' } }, 5).actions)
        .deletes,
    ).toBe(2);
  });
  it('surge: maxSurge "50%" of 5 → ceil(2.5) = 3 surge pods, nothing deleted', () => {
    expect(
      podCounts(
        rolled({ type: 'RollingUpdate', rollingUpdate: { maxSurge: '50%', maxUnavailable: 0 } }, 5).actions,
      ),
    ).toEqual({
      creates: 3,
      deletes: 0,
    });
  });
});
