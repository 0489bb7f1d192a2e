// docs/reference/core.md 2.1 (update), 2.5 (refresh), 2.7 (annotation formats), 2.9 (adapters) and the
// merge-patch helper: upstream refresh cases plus rule-by-rule tests and a full update cycle.
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { setPodLifecycleState } from '../src/pods/lifecycle';
import {
  base64DecodeUtf8,
  base64EncodeUtf8,
  decodeInPlaceUpdateGrace,
  decodeInPlaceUpdateState,
  encodeInPlaceUpdateGrace,
  encodeInPlaceUpdateState,
} from '../src/rollout/inplace/annotations';
import { checkPodUpdateCompleted } from '../src/rollout/inplace/completion';
import { diffPodForPatch } from '../src/rollout/inplace/diff';
import {
  cloneSetRevisionAdapter,
  daemonSetGetRevision,
  inPlaceRefresh,
  inPlaceUpdate,
  statefulSetRevisionAdapter,
} from '../src/rollout/inplace/update';
import { deepFreeze } from '../src/testing';
import { loadCases, semantic } from './inplaceHelpers';

const STATE = 'apps.kruise.io/inplace-update-state';
const GRACE = 'apps.kruise.io/inplace-update-grace';

describe('inPlaceRefresh: upstream cases (inplace_refresh.json)', () => {
  const cases = loadCases('inplace_refresh.json');
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const { wallNow, clockNow, pod } = deepFreeze(c.input);
    const r = inPlaceRefresh(pod, { now: wallNow, featureGates: c.featureGates });
    expect(r.error !== undefined).toBe(c.expected.error);
    // single clock: timestamps written now carry wallNow where kruise's injected clock wrote clockNow
    expect(semantic(r.pod, '', { [wallNow]: clockNow })).toEqual(semantic(c.expected.pod));
  });
});

function revision(
  name: string,
  containers: Array<{ name: string; image: string }>,
  labels: Record<string, string> = { app: 'web' },
) {
  return deepFreeze({
    metadata: { name, labels: { 'controller-revision-hash': `h-${name}` } },
    revision: 1,
    data: JSON.stringify({
      spec: { template: { $patch: 'replace', metadata: { labels }, spec: { containers } } },
    }),
  } as unknown as ControllerRevision);
}

const oldRev = revision('web-aaa', [{ name: 'main', image: 'img-name01' }]);
const newRev = revision('web-bbb', [{ name: 'main', image: 'img-name02' }]);
const now = '2024-01-01T00:00:00Z';

function basePod(over: Partial<Pod['status']> = {}): Pod {
  return deepFreeze({
    metadata: {
      name: 'p',
      labels: { app: 'web', 'controller-revision-hash': 'web-aaa' },
      annotations: { 'inplace-update-state': '{"revision":"x"}', 'inplace-update-grace': '' },
    },
    spec: {
      containers: [{ name: 'main', image: 'img-name01' }],
      readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
    },
    status: {
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'ContainersReady', status: 'True' },
        { type: 'InPlaceUpdateReady', status: 'True' },
      ],
      containerStatuses: [{ name: 'main', imageID: 'id-01', image: 'img-name01', ready: true }],
      ...over,
    },
  } as Pod);
}

describe('2.1 inPlaceUpdate', () => {
  it('R2.1.1: revisions that cannot be updated in place → inPlaceUpdate false, no pod', () => {
    const other = revision('web-ccc', [
      { name: 'main', image: 'x' },
      { name: 'extra', image: 'y' },
    ]);
    expect(inPlaceUpdate(basePod(), oldRev, other, { now })).toEqual({ inPlaceUpdate: false });
  });

  it('R2.1.2–R2.1.3: condition False + Ready recomputed, revision labels, state, first batch applied, grace removed', () => {
    const r = inPlaceUpdate(basePod(), oldRev, newRev, { now, revisionAdapter: cloneSetRevisionAdapter });
    expect(r.inPlaceUpdate).toBe(true);
    expect(r.delaySeconds).toBeUndefined();
    const p = r.pod!;
    expect(p.status!.conditions!.find((c) => c.type === 'InPlaceUpdateReady')).toEqual({
      type: 'InPlaceUpdateReady',
      status: 'False',
      reason: 'StartInPlaceUpdate',
      lastTransitionTime: now,
    });
    expect(p.status!.conditions!.find((c) => c.type === 'Ready')?.status).toBe('False');
    expect(p.metadata!.labels).toMatchObject({
      'controller-revision-hash': 'web-bbb',
      'pod-template-hash': 'bbb',
    });
    expect(p.spec!.containers[0]!.image).toBe('img-name02');
    const state = decodeInPlaceUpdateState(p.metadata!.annotations![STATE]!);
    expect(state.ok && state.value).toMatchObject({
      revision: 'web-bbb',
      updateTimestamp: now,
      updateImages: true,
      lastContainerStatuses: { main: { imageID: 'id-01' } },
      containerBatchesRecord: [{ timestamp: now, containers: ['main'] }],
    });
    expect(p.metadata!.annotations).not.toHaveProperty('inplace-update-state');
    expect(p.metadata!.annotations).not.toHaveProperty('inplace-update-grace');
  });

  it('R2.1.3/R2.1.4: with a grace period the spec waits in the grace annotation and delaySeconds = grace', () => {
    const r = inPlaceUpdate(basePod(), oldRev, newRev, { now, gracePeriodSeconds: 30 });
    expect(r.delaySeconds).toBe(30);
    expect(r.pod!.spec!.containers[0]!.image).toBe('img-name01');
    expect(r.pod!.metadata!.annotations![GRACE]).toBe(
      '{"revision":"web-bbb","containerImages":{"main":"img-name02"},"graceSeconds":30}',
    );
  });

  it('2.9: the extra mutator runs (CloneSet lifecycle Updating); CloneSetShortHash writes the short hash', () => {
    const r = inPlaceUpdate(basePod(), oldRev, newRev, {
      now,
      featureGates: { CloneSetShortHash: true },
      revisionAdapter: cloneSetRevisionAdapter,
      extraMutator: (p) => setPodLifecycleState(p, 'Updating', now),
    });
    expect(r.pod!.metadata!.labels).toMatchObject({
      'controller-revision-hash': 'bbb',
      'pod-template-hash': 'bbb',
      'lifecycle.apps.kruise.io/state': 'Updating',
    });
  });

  it('2.9: the ADS getRevision records the revision hash label', () => {
    const r = inPlaceUpdate(basePod(), oldRev, newRev, { now, getRevision: daemonSetGetRevision });
    expect(r.pod!.metadata!.labels!['controller-revision-hash']).toBe('h-web-bbb');
  });

  it('R2.1.5: an invalid time is reported as an error with inPlaceUpdate true', () => {
    const r = inPlaceUpdate(basePod(), oldRev, newRev, { now: 'not-a-time' });
    expect(r.inPlaceUpdate).toBe(true);
    expect(r.error).toBeDefined();
  });

  it('2.9 adapters: CloneSet compares short-hash aware, StatefulSet exactly', () => {
    const p = { metadata: { labels: { 'controller-revision-hash': 'web-bbb' } } } as Pod;
    expect(cloneSetRevisionAdapter.isPodAtRevision(p, 'other-bbb')).toBe(true);
    expect(statefulSetRevisionAdapter.isPodAtRevision(p, 'other-bbb')).toBe(false);
    expect(statefulSetRevisionAdapter.isPodAtRevision(p, 'web-bbb')).toBe(true);
  });
});

describe('2.5 inPlaceRefresh', () => {
  const graced = inPlaceUpdate(basePod(), oldRev, newRev, { now, gracePeriodSeconds: 5 }).pod!;

  it('R2.5.1.4: inside the grace period nothing changes; delay = remainder rounded up', () => {
    const r = inPlaceRefresh(deepFreeze(graced), { now: '2024-01-01T00:00:02.500Z' });
    expect(r).toEqual({ pod: graced, changed: false, delaySeconds: 3 });
  });

  it('R2.5.1.5: after the grace period the batch is applied and both grace annotations removed', () => {
    const r = inPlaceRefresh(deepFreeze(graced), { now: '2024-01-01T00:00:05Z' });
    expect(r.changed).toBe(true);
    expect(r.pod.spec!.containers[0]!.image).toBe('img-name02');
    expect(r.pod.metadata!.annotations).not.toHaveProperty(GRACE);
  });

  it('R2.5.1.3: a pod no longer at the grace revision only loses the grace annotations', () => {
    const moved = deepFreeze({
      ...graced,
      metadata: { ...graced.metadata, labels: { 'controller-revision-hash': 'web-zzz' } },
    });
    const r = inPlaceRefresh(moved, { now: '2024-01-01T00:00:05Z' });
    expect(r.changed).toBe(true);
    expect(r.pod.metadata!.annotations).not.toHaveProperty(GRACE);
    expect(r.pod.spec).toBe(moved.spec);
  });

  it('R2.5.1.1/2: an unparsable grace spec or a missing state is an error; an unparsable state is ignored (D.10)', () => {
    const withAnn = (a: Record<string, string>) => deepFreeze({ metadata: { annotations: a } } as Pod);
    expect(inPlaceRefresh(withAnn({ [GRACE]: '{bad' }), { now }).error).toBeDefined();
    expect(inPlaceRefresh(withAnn({ [GRACE]: '{"revision":"r"}' }), { now }).error).toBeDefined();
    expect(inPlaceRefresh(withAnn({ [GRACE]: '{"revision":"r"}', [STATE]: '{bad' }), { now })).toEqual({
      pod: withAnn({ [GRACE]: '{"revision":"r"}', [STATE]: '{bad' }),
      changed: false,
    });
  });

  it('R2.5.2.3a: the next batch waits until the pre-check containers are ready', () => {
    const state = JSON.stringify({
      revision: 'r',
      lastContainerStatuses: { main: { imageID: 'id-01' } },
      nextContainerImages: { side: 'side-2' },
      preCheckBeforeNext: { containersRequiredReady: ['main'] },
    });
    const p = (ready: boolean) =>
      deepFreeze({
        metadata: { annotations: { [STATE]: state } },
        spec: {
          containers: [
            { name: 'main', image: 'm2' },
            { name: 'side', image: 'side-1' },
          ],
        },
        status: { containerStatuses: [{ name: 'main', imageID: 'id-02', ready }] },
      } as unknown as Pod);
    expect(inPlaceRefresh(p(false), { now }).changed).toBe(false);
    const r = inPlaceRefresh(p(true), { now });
    expect(r.changed).toBe(true);
    expect(r.pod.spec!.containers[1]!.image).toBe('side-2');
  });

  it('R2.5.2.3c / D.3: a resources-only remainder is never applied; refresh falls through to R2.5.3', () => {
    const state = JSON.stringify({
      revision: 'r',
      nextContainerResources: { main: { requests: { cpu: '2' } } },
    });
    const p = deepFreeze({
      metadata: { annotations: { [STATE]: state } },
      spec: {
        containers: [{ name: 'main', image: 'm' }],
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
      },
      status: { conditions: [{ type: 'InPlaceUpdateReady', status: 'False', reason: 'StartInPlaceUpdate' }] },
    } as Pod);
    const r = inPlaceRefresh(p, { now, featureGates: { InPlaceWorkloadVerticalScaling: true } });
    expect(r.pod.spec).toBe(p.spec);
    expect(r.pod.status!.conditions![0]).toEqual({
      type: 'InPlaceUpdateReady',
      status: 'True',
      lastTransitionTime: now,
    });
    expect(checkPodUpdateCompleted(r.pod).completed).toBe(false);
  });

  it('R2.5.3: an existing True condition with empty reason/message is left as is (same object)', () => {
    const p = basePod();
    expect(inPlaceRefresh(p, { now })).toEqual({ pod: p, changed: false });
  });
});

describe('full in-place cycle (update → kubelet → refresh)', () => {
  it('the condition returns to True only after the containers report the new image', () => {
    const started = inPlaceUpdate(basePod(), oldRev, newRev, {
      now,
      revisionAdapter: cloneSetRevisionAdapter,
    }).pod!;
    // kubelet has not restarted the container yet: imageID unchanged → not complete, no change
    const waiting = inPlaceRefresh(deepFreeze(started), {
      now: '2024-01-01T00:00:10Z',
      revisionAdapter: cloneSetRevisionAdapter,
    });
    expect(waiting.changed).toBe(false);
    expect(checkPodUpdateCompleted(started).completed).toBe(false);
    const restarted = deepFreeze({
      ...started,
      status: {
        ...started.status,
        containerStatuses: [{ name: 'main', imageID: 'id-02', image: 'img-name02', ready: true }],
      },
    } as Pod);
    expect(checkPodUpdateCompleted(restarted).completed).toBe(true);
    const done = inPlaceRefresh(restarted, {
      now: '2024-01-01T00:00:20Z',
      revisionAdapter: cloneSetRevisionAdapter,
    });
    expect(done.changed).toBe(true);
    expect(done.pod.status!.conditions!.find((c) => c.type === 'InPlaceUpdateReady')).toEqual({
      type: 'InPlaceUpdateReady',
      status: 'True',
      lastTransitionTime: '2024-01-01T00:00:20Z',
    });
  });
});

describe('2.7 annotation formats', () => {
  it('2.7.2: the grace example and the base64 metaDataPatch round-trip', () => {
    const spec = {
      revision: 'new-revision',
      containerImages: { main: 'img-name02' },
      containerResources: {},
      containerRefMetadata: {},
      updateEnvFromMetadata: false,
      graceSeconds: 30,
    };
    expect(encodeInPlaceUpdateGrace(spec)).toBe(
      '{"revision":"new-revision","containerImages":{"main":"img-name02"},"graceSeconds":30}',
    );
    const withPatch = { ...spec, metaDataPatch: '{"metadata":{"labels":{"a":"ü<"}}}' };
    const text = encodeInPlaceUpdateGrace(withPatch);
    expect(JSON.parse(text).metaDataPatch).toBe(base64EncodeUtf8(withPatch.metaDataPatch));
    const back = decodeInPlaceUpdateGrace(text);
    expect(back.ok && back.value).toEqual(withPatch);
  });

  it('base64: "{}" → "e30=" and back', () => {
    expect(base64EncodeUtf8('{}')).toBe('e30=');
    expect(base64DecodeUtf8('e30=')).toBe('{}');
    expect(base64DecodeUtf8('***')).toBeUndefined();
  });

  it('2.7.1: Go field order, null timestamps/statuses, omitted empty fields, sorted map keys', () => {
    expect(
      encodeInPlaceUpdateState({ revision: 'r', updateTimestamp: null, lastContainerStatuses: null }),
    ).toBe('{"revision":"r","updateTimestamp":null,"lastContainerStatuses":null}');
    expect(
      encodeInPlaceUpdateState({
        revision: 'r',
        updateTimestamp: now,
        lastContainerStatuses: { b: { imageID: 'x' }, a: {} },
        updateImages: true,
        nextContainerRefMetadata: { c: { labels: { k: 'v' } } },
        containerBatchesRecord: [{ timestamp: now, containers: ['a'] }],
      }),
    ).toBe(
      `{"revision":"r","updateTimestamp":"${now}","lastContainerStatuses":{"a":{},"b":{"imageID":"x"}},"updateImages":true,` +
        `"nextContainerRefMetadata":{"c":{"creationTimestamp":null,"labels":{"k":"v"}}},` +
        `"containerBatchesRecord":[{"timestamp":"${now}","containers":["a"]}]}`,
    );
  });

  it('2.7.1: readers accept unknown fields and reject wrong types', () => {
    const ok = decodeInPlaceUpdateState('{"revision":"r","future":1}');
    expect(ok.ok && ok.value).toEqual({ revision: 'r', updateTimestamp: null, lastContainerStatuses: null });
    expect(decodeInPlaceUpdateState('{"revision":5}').ok).toBe(false);
    expect(decodeInPlaceUpdateState('[]').ok).toBe(false);
  });
});

describe('diffPodForPatch', () => {
  it('RFC 7386 of metadata/spec/status: removed keys null, lists whole, {} when equal', () => {
    const a = deepFreeze({
      metadata: { labels: { a: '1', b: '2' } },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    } as Pod);
    const b = deepFreeze({
      metadata: { labels: { a: '1', c: '3' } },
      spec: { containers: [{ name: 'c', image: 'y' }] },
    } as Pod);
    expect(diffPodForPatch(a, b)).toEqual({
      metadata: { labels: { b: null, c: '3' } },
      spec: { containers: [{ name: 'c', image: 'y' }] },
    });
    expect(diffPodForPatch(a, a)).toEqual({});
  });
});
