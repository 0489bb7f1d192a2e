// docs/reference/statefulset.md §2.3: convertStatefulSet, v1alpha1 <-> v1beta1 field by field; v1beta1-only
// fields dropped by a v1alpha1 round trip; partition copied as is; pure and total.
import type { StatefulSet } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import {
  convertStatefulSet,
  isStatefulSetApiVersion,
  V1BETA1_ONLY_SPEC_FIELDS,
  V1BETA1_ONLY_STATUS_FIELDS,
} from '../src/index';
import { reconcileStatefulSet } from '../src/reconcile';
import { makeSet } from './world';

const ALPHA = 'apps.kruise.io/v1alpha1';
const BETA = 'apps.kruise.io/v1beta1';

/** A v1beta1 set using every v1beta1-only spec field and a full status. */
function fullBeta(): StatefulSet {
  const set = makeSet({
    reserveOrdinals: [1, '4-5'],
    lifecycle: { preDelete: { labelsHandler: { 'example.com/hook': 'true' } } },
    scaleStrategy: { maxUnavailable: 1 },
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
    ordinals: { start: 2 },
    volumeClaimUpdateStrategy: { type: 'OnDelete' },
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: {
        partition: 2,
        maxUnavailable: 1,
        podUpdatePolicy: 'InPlaceIfPossible',
        paused: false,
        inPlaceUpdateStrategy: { gracePeriodSeconds: 10 },
        minReadySeconds: 5,
      },
    },
  });
  return {
    ...set,
    status: {
      observedGeneration: 1,
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      currentReplicas: 1,
      updatedReplicas: 2,
      updatedReadyReplicas: 2,
      updatedAvailableReplicas: 2,
      currentRevision: 'foo-1',
      updateRevision: 'foo-2',
      collisionCount: 0,
      conditions: [{ type: 'FailedCreatePod', status: 'False' }],
      labelSelector: 'app=foo',
      volumeClaims: [{ volumeClaimName: 'data', compatibleReplicas: 3, compatibleReadyReplicas: 3 }],
    },
  };
}

/** A v1alpha1 set: only the §2.3 v1alpha1 fields. */
function alpha(): StatefulSet {
  const { reserveOrdinals: _r, ...spec } = makeSet({
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: {
        partition: 1,
        maxUnavailable: '50%',
        podUpdatePolicy: 'InPlaceOnly',
        paused: true,
        unorderedUpdate: { priorityStrategy: { weightPriority: [] } },
        inPlaceUpdateStrategy: { gracePeriodSeconds: 3 },
        minReadySeconds: 30,
      },
    },
    podManagementPolicy: 'Parallel',
    volumeClaimTemplates: [{ metadata: { name: 'www' } }],
  }).spec;
  return {
    apiVersion: ALPHA,
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default', uid: 'u1', labels: { app: 'web' }, generation: 4 },
    spec,
    status: {
      replicas: 3,
      readyReplicas: 2,
      availableReplicas: 2,
      currentReplicas: 3,
      updatedReplicas: 0,
      currentRevision: 'web-1',
      updateRevision: 'web-1',
      labelSelector: 'app=foo',
    },
  };
}

describe('§2.3 convertStatefulSet', () => {
  it('v1alpha1 → v1beta1 copies every v1alpha1 field and rewrites apiVersion', () => {
    const a = deepFreeze(alpha());
    const b = convertStatefulSet(a, BETA);
    expect(b).toEqual({ ...a, apiVersion: BETA });
    expect(b.metadata).toBe(a.metadata);
  });

  it.each(V1BETA1_ONLY_SPEC_FIELDS)('v1beta1 → v1alpha1 drops spec.%s (v1alpha1 has no such field)', (f) => {
    const b = deepFreeze(fullBeta());
    expect(b.spec[f]).toBeDefined();
    const a = convertStatefulSet(b, ALPHA);
    expect(a.apiVersion).toBe(ALPHA);
    expect(f in a.spec).toBe(false);
  });

  it.each(V1BETA1_ONLY_STATUS_FIELDS)('v1beta1 → v1alpha1 drops status.%s', (f) => {
    const a = convertStatefulSet(deepFreeze(fullBeta()), ALPHA);
    expect(a.status && f in a.status).toBe(false);
  });

  it('v1beta1 → v1alpha1 keeps replicas, selector, template, volumeClaimTemplates, serviceName, podManagementPolicy, updateStrategy, revisionHistoryLimit', () => {
    const b = deepFreeze(fullBeta());
    const a = convertStatefulSet(b, ALPHA);
    expect(a.spec).toEqual({
      replicas: b.spec.replicas,
      selector: b.spec.selector,
      template: b.spec.template,
      volumeClaimTemplates: b.spec.volumeClaimTemplates,
      serviceName: b.spec.serviceName,
      podManagementPolicy: b.spec.podManagementPolicy,
      updateStrategy: b.spec.updateStrategy,
      revisionHistoryLimit: b.spec.revisionHistoryLimit,
    });
    expect(a.status).toEqual({
      observedGeneration: 1,
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      currentReplicas: 1,
      updatedReplicas: 2,
      currentRevision: 'foo-1',
      updateRevision: 'foo-2',
      collisionCount: 0,
      conditions: [{ type: 'FailedCreatePod', status: 'False' }],
      labelSelector: 'app=foo',
    });
  });

  it('a v1alpha1 round trip drops the v1beta1-only fields and keeps the rest', () => {
    const b = deepFreeze(fullBeta());
    const back = convertStatefulSet(convertStatefulSet(b, ALPHA), BETA);
    const {
      reserveOrdinals: _1,
      lifecycle: _2,
      scaleStrategy: _3,
      persistentVolumeClaimRetentionPolicy: _4,
      ordinals: _5,
      volumeClaimUpdateStrategy: _6,
      ...spec
    } = b.spec;
    const { updatedReadyReplicas: _7, updatedAvailableReplicas: _8, volumeClaims: _9, ...status } = b.status!;
    expect(back).toEqual({ ...b, spec, status });
  });

  it('the same rollingUpdate sub-fields in both versions: all seven survive v1alpha1 → v1beta1 → v1alpha1', () => {
    const a = deepFreeze(alpha());
    const back = convertStatefulSet(convertStatefulSet(a, BETA), ALPHA);
    expect(back.spec.updateStrategy).toEqual(a.spec.updateStrategy);
    expect(Object.keys(back.spec.updateStrategy?.rollingUpdate ?? {}).sort()).toEqual(
      [
        'inPlaceUpdateStrategy',
        'maxUnavailable',
        'minReadySeconds',
        'partition',
        'paused',
        'podUpdatePolicy',
        'unorderedUpdate',
      ].sort(),
    );
  });

  it('partition is copied as is (count-based in both versions; no ordinal translation)', () => {
    const a = alpha();
    expect(convertStatefulSet(a, BETA).spec.updateStrategy?.rollingUpdate?.partition).toBe(1);
  });

  it('converting to the same version returns the object itself', () => {
    const a = deepFreeze(alpha());
    const b = deepFreeze(fullBeta());
    expect(convertStatefulSet(a, ALPHA)).toBe(a);
    expect(convertStatefulSet(b, BETA)).toBe(b);
  });

  it('fields neither version defines are not copied (field by field), at the top, in spec and in rollingUpdate', () => {
    const a = {
      ...alpha(),
      extra: 1,
      spec: {
        ...alpha().spec,
        bogus: true,
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1, nope: 2 }, other: 3 },
      },
    } as unknown as StatefulSet;
    const b = convertStatefulSet(deepFreeze(a), BETA) as unknown as Record<string, any>;
    expect(b.extra).toBeUndefined();
    expect(b.spec.bogus).toBeUndefined();
    expect(b.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 1 } });
  });

  it('v1alpha1 → v1beta1 ignores v1beta1-only fields a v1alpha1 object should not carry', () => {
    const a = { ...alpha(), spec: { ...alpha().spec, reserveOrdinals: [0] } } as StatefulSet;
    expect(convertStatefulSet(deepFreeze(a), BETA).spec.reserveOrdinals).toBeUndefined();
  });

  it('never throws on malformed objects: missing or non-object spec/status/metadata', () => {
    for (const o of [
      { apiVersion: ALPHA, kind: 'StatefulSet' },
      { apiVersion: ALPHA, kind: 'StatefulSet', metadata: {}, spec: null, status: 'x' },
      { apiVersion: BETA, kind: 'StatefulSet', metadata: {}, spec: { updateStrategy: 'weird' } },
      { apiVersion: BETA, kind: 'StatefulSet', metadata: {}, spec: { updateStrategy: { rollingUpdate: 7 } } },
      { apiVersion: 'something/else' },
    ] as unknown as StatefulSet[]) {
      for (const to of [ALPHA, BETA] as const) {
        const out = convertStatefulSet(deepFreeze(o), to);
        expect(out.apiVersion).toBe(to);
      }
    }
  });

  it('a source of another apiVersion is read as v1beta1 (the hub): every v1beta1 field kept', () => {
    const b = { ...fullBeta(), apiVersion: 'apps.kruise.io/v9' };
    expect(convertStatefulSet(deepFreeze(b), BETA)).toEqual({ ...b, apiVersion: BETA });
  });

  it('isStatefulSetApiVersion accepts exactly the two versions', () => {
    expect([ALPHA, BETA, 'apps.kruise.io/v1', 'apps/v1', undefined].map(isStatefulSetApiVersion)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('the controller reconciles a converted v1alpha1 set as the v1beta1 set it came from (same pods)', () => {
    const a = { ...alpha(), status: undefined, metadata: { ...alpha().metadata, uid: 'set-uid' } };
    const b = convertStatefulSet(deepFreeze(a), BETA);
    const now = '2024-01-01T00:00:00Z';
    const created = (set: StatefulSet) =>
      reconcileStatefulSet({ statefulSet: set, pods: [], revisions: [], pvcs: [], now })
        .actions.filter((x) => x.verb === 'create')
        .map((x) => (x as { object: { kind: string; metadata: { name?: string } } }).object)
        .map((o) => `${o.kind}/${o.metadata.name}`);
    expect(created(b)).toEqual(created(a));
    expect(created(b).length).toBeGreaterThan(0);
  });
});
