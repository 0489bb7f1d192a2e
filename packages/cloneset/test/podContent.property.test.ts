// The fact table and the per-pod content facts (src/podContent.ts) against the §4 predicates read
// straight from the pods: the same answers on first sight of a pod, from facts read before, and
// for new objects with the same content.
import { CONDITION_INPLACE_UPDATE_READY } from '@kruise-ts/api';
import { activePodsKey, compareActivePods, hasInPlaceUpdateGrace, memoizedTimeParser } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import fc from 'fast-check';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { computePodFacts, type PodFacts } from '../src/facts';
import { lazyUpdateOrder } from '../src/order';
import {
  isInPlaceRefreshNoopWith,
  isRefreshNoopState,
  memoisedActivePodsKey,
  readPodContentFacts,
} from '../src/podContent';
import {
  hashEquals,
  isCloneSetPodAvailable,
  isCloneSetPodReady,
  specifiedDeleteChecker,
  updateReady,
} from '../src/predicates';
import { makeCloneSet } from './builders';

const T0 = '2024-01-01T00:00:00Z';
const NOW_MS = Date.parse('2024-01-01T00:00:10Z');
const REVISION = 'sample-new12';

const condition: fc.Arbitrary<PodCondition> = fc.record(
  {
    type: fc.constantFrom('Ready', 'InPlaceUpdateReady', 'ContainersReady'),
    status: fc.constantFrom('True', 'False'),
    reason: fc.constantFrom('', 'StartInPlaceUpdate'),
    message: fc.constantFrom('', 'm'),
    lastTransitionTime: fc.constantFrom(T0, '2024-01-01T00:00:08Z', 'not-a-time', ''),
  },
  { requiredKeys: ['type', 'status'] },
);

const stateText = fc.constantFrom(
  '{"revision":"sample-new12","updateTimestamp":null,"lastContainerStatuses":null}',
  '{"revision":"r","nextContainerImages":{"c":"x"}}',
  '',
);

/** Pods with every field the facts read, in the combinations that change an answer. */
const pod: fc.Arbitrary<Pod> = fc
  .record({
    name: fc.constantFrom('p-0', 'p-1', 'p-2', ''),
    state: fc.constantFrom(
      undefined,
      '',
      'Normal',
      'PreparingNormal',
      'PreparingUpdate',
      'Updating',
      'Updated',
      'PreparingDelete',
      'Odd',
    ),
    revision: fc.constantFrom(undefined, REVISION, 'new12', 'other-new12', 'sample-old34'),
    templateHash: fc.boolean(),
    specifiedLabel: fc.constantFrom(undefined, 'true', ''),
    grace: fc.constantFrom(undefined, '', '{"revision":"r"}'),
    graceLegacy: fc.constantFrom(undefined, '', 'x'),
    state1: fc.option(stateText, { nil: undefined }),
    stateLegacy: fc.option(stateText, { nil: undefined }),
    gate: fc.boolean(),
    phase: fc.constantFrom(undefined, 'Running', 'Pending', 'Unknown', 'Succeeded'),
    nodeName: fc.constantFrom(undefined, '', 'node-1'),
    conditions: fc.option(fc.array(condition, { maxLength: 4 }), { nil: undefined }),
    restarts: fc.integer({ min: 0, max: 2 }),
    created: fc.constantFrom(undefined, T0, '2024-01-01T00:00:05Z'),
  })
  .map((o): Pod => {
    const labels: Record<string, string> = {};
    if (o.state !== undefined) labels['lifecycle.apps.kruise.io/state'] = o.state;
    if (o.revision !== undefined) labels['controller-revision-hash'] = o.revision;
    if (o.templateHash) labels['pod-template-hash'] = 'new12';
    if (o.specifiedLabel !== undefined) labels['apps.kruise.io/specified-delete'] = o.specifiedLabel;
    const annotations: Record<string, string> = {};
    if (o.grace !== undefined) annotations['apps.kruise.io/inplace-update-grace'] = o.grace;
    if (o.graceLegacy !== undefined) annotations['inplace-update-grace'] = o.graceLegacy;
    if (o.state1 !== undefined) annotations['apps.kruise.io/inplace-update-state'] = o.state1;
    if (o.stateLegacy !== undefined) annotations['inplace-update-state'] = o.stateLegacy;
    return {
      metadata: { name: o.name, labels, annotations, creationTimestamp: o.created },
      spec: {
        containers: [{ name: 'c' }],
        ...(o.nodeName !== undefined ? { nodeName: o.nodeName } : {}),
        ...(o.gate ? { readinessGates: [{ conditionType: CONDITION_INPLACE_UPDATE_READY }] } : {}),
      },
      status: {
        ...(o.phase !== undefined ? { phase: o.phase } : {}),
        ...(o.conditions !== undefined ? { conditions: o.conditions } : {}),
        containerStatuses: [{ name: 'c', restartCount: o.restarts } as never],
      },
    };
  });

/** The in-place refresh no-op test with the pod's first `InPlaceUpdateReady` condition found here. */
function isInPlaceRefreshNoop(p: Pod): boolean {
  const ipu = p.status?.conditions?.find((c) => c.type === CONDITION_INPLACE_UPDATE_READY);
  return isInPlaceRefreshNoopWith(p, ipu);
}

/** The whole refresh no-op test: the in-place part and the label part. */
function isRefreshNoop(p: Pod): boolean {
  const labels = p.metadata?.labels;
  const state = (labels?.['lifecycle.apps.kruise.io/state'] ?? '') as never;
  return isInPlaceRefreshNoop(p) && isRefreshNoopState(labels, state);
}

/** The facts read straight from a pod with the §4 predicates. */
function expectedFacts(p: Pod, isSpecifiedDelete: (pod: Pod) => boolean, minReadySeconds: number) {
  const firstReady = p.status?.conditions?.find((c) => c.type === 'Ready');
  return {
    ready: isCloneSetPodReady(p),
    state: p.metadata?.labels?.['lifecycle.apps.kruise.io/state'] ?? '',
    updated: hashEquals(p, REVISION),
    specified: isSpecifiedDelete(p),
    updateReady: updateReady(p, 0, NOW_MS),
    available: isCloneSetPodAvailable(p, minReadySeconds, NOW_MS),
    refreshNoop: isRefreshNoop(p),
    inPlaceRefreshNoop: isInPlaceRefreshNoop(p),
    grace: hasInPlaceUpdateGrace(p),
    // §9.3.1 rules 1–3: assigned, phase (Running > Unknown > other), first Ready condition True
    bucket:
      (p.spec?.nodeName ? 6 : 0) +
      (p.status?.phase === 'Running' ? 4 : p.status?.phase === 'Unknown' ? 2 : 0) +
      (firstReady?.status === 'True' ? 1 : 0),
  };
}

function tableRow(f: PodFacts, i: number) {
  return {
    ready: f.ready(i),
    state: f.state(i),
    updated: f.updated(i),
    specified: f.specified(i),
    updateReady: f.updateReady(i),
    available: f.available(i),
    refreshNoop: f.refreshNoop(i),
    inPlaceRefreshNoop: f.inPlaceRefreshNoop(i),
    grace: f.inPlaceGrace(i),
    bucket: f.orderBucket(i),
  };
}

const minReady = fc.constantFrom(0, 5, 30);
const podsToDelete = fc.subarray(['p-0', 'p-2']);

describe('computePodFacts from the per-pod content facts equals the §4 predicates', () => {
  it('on first sight, again, for new objects with the same content, and from content read before', () => {
    fc.assert(
      fc.property(fc.array(pod, { maxLength: 8 }), minReady, podsToDelete, (pods0, min, names) => {
        const pods = deepFreeze(pods0);
        const cs = makeCloneSet({ scaleStrategy: { podsToDelete: names } });
        const checker = specifiedDeleteChecker(cs);
        const expected = pods.map((p) => expectedFacts(p, checker, min));
        const rows = (f: PodFacts) => pods.map((_, i) => tableRow(f, i));
        const options = {
          updateRevision: REVISION,
          podsToDelete: new Set(names),
          minReadySeconds: min,
          nowMs: NOW_MS,
        };
        expect(rows(computePodFacts(pods, options))).toEqual(expected); // first sight
        expect(rows(computePodFacts(pods, options))).toEqual(expected); // again
        const copies = pods.map((p) => ({ ...p }));
        expect(rows(computePodFacts(copies, options))).toEqual(expected);
        const contents = pods.map(readPodContentFacts);
        expect(rows(computePodFacts(pods, { ...options, contents }))).toEqual(expected);
      }),
    );
  });

  it('the memoised active-pods key is core`s activePodsKey', () => {
    fc.assert(
      fc.property(pod, (p0) => {
        const p = deepFreeze(p0);
        const time = memoizedTimeParser();
        const f = readPodContentFacts(p);
        expect(memoisedActivePodsKey(f, p, time)).toEqual(activePodsKey(p));
        expect(memoisedActivePodsKey(f, p, time)).toBe(memoisedActivePodsKey(f, p, time)); // kept in the facts
      }),
    );
  });

  it('the update order from the fact table (buckets, memoised keys) is the stable sort of the pods', () => {
    fc.assert(
      fc.property(fc.array(pod, { maxLength: 30 }), fc.func(fc.boolean()), (pods0, firstFn) => {
        const pods = deepFreeze(pods0);
        const facts = computePodFacts(pods, {
          updateRevision: REVISION,
          podsToDelete: new Set(),
          minReadySeconds: 0,
          nowMs: NOW_MS,
        });
        const indexes = pods.map((_, i) => i);
        const first = (i: number) => firstFn(i);
        const sorted = [...indexes].sort((i, j) => compareActivePods(pods[i], pods[j]));
        const expected = [...sorted.filter(first), ...sorted.filter((i) => !first(i))];
        expect([...lazyUpdateOrder(pods, facts, indexes, first)]).toEqual(expected);
        expect([...lazyUpdateOrder(pods, facts, indexes, first)]).toEqual(expected); // keys kept in the facts
      }),
    );
  });
});
