// docs/reference/operator.md §1 deletion protection (D1.1–D1.10, messages M1–M9), one test per rule.
// Moved with the logic from packages/operator/test/unit.test.ts (the admission-review tests
// D1.11 and W2.1 stay with the operator's handlers).
import type { KubeObject } from '@kruise-ts/api';
import { checkDeletionProtection, DeletionProtectionMessages as M } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';

const LABEL = 'policy.kruise.io/delete-protection';
const P = 'forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection';
const on = { enabled: true };

const obj = (apiVersion: string, kind: string, value?: string, extra: Record<string, unknown> = {}) =>
  deepFreeze({
    apiVersion,
    kind,
    metadata: { name: 'x', labels: value === undefined ? {} : { [LABEL]: value } },
    ...extra,
  }) as KubeObject;
const ns = (value?: string) => obj('v1', 'Namespace', value);
const workload = (replicas: number | undefined, value = 'Cascading') =>
  obj('apps.kruise.io/v1alpha1', 'CloneSet', value, { spec: replicas === undefined ? {} : { replicas } });
const pod = (phase: string, deleting = false) =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', ...(deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}) },
    status: { phase },
  }) as KubeObject;
const pvc = (phase: string, deleting = false) =>
  ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'c', ...(deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}) },
    status: { phase },
  }) as KubeObject;
const crd = (value: string, versions: Array<{ name: string; storage?: boolean }>) =>
  obj('apiextensions.k8s.io/v1', 'CustomResourceDefinition', value, {
    spec: { group: 'apps.example.io', versions, names: { listKind: 'WidgetList' } },
  });
const cr = (deleting = false) =>
  ({
    apiVersion: 'apps.example.io/v1',
    kind: 'Widget',
    metadata: { name: 'w', ...(deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}) },
  }) as KubeObject;

describe('deletion protection (docs/reference/operator.md §1)', () => {
  it('M1–M9: the exact message texts', () => {
    expect(M.M1).toBe(`${P}=Always`);
    expect(M.M2(3)).toBe(`${P}=Cascading and replicas 3>0`);
    expect(M.M3(2)).toBe(`${P}=Cascading and active pods 2>0`);
    expect(M.M4(1)).toBe(`${P}=Cascading and "Bound" status pvc 1>0`);
    expect(M.M5(4)).toBe(`${P}=Cascading and active CRs 4>0`);
    expect(M.M6('boom')).toBe('forbidden by ResourcesProtectionDeletion for list pods error: boom');
    expect(M.M7('boom')).toBe('forbidden by ResourcesProtectionDeletion for list pvc error: boom');
    expect(M.M8).toBe('feature-gate DeletionProtectionForCRDCascadingGate is not enabled');
    expect(M.M9('g/v, Kind=L', 'boom')).toBe('failed to list CRs of g/v, Kind=L: boom');
  });

  it('D1.1: values are exact and case-sensitive ("always", "true", "" are ignored)', () => {
    for (const v of ['always', 'true', '', 'cascading']) {
      expect(checkDeletionProtection('Namespace', ns(v), on)).toEqual({ allowed: true });
    }
    expect(checkDeletionProtection('Namespace', ns(), on)).toEqual({ allowed: true });
  });

  it('D1.2: gate ResourcesDeletionProtection off → every deletion is allowed', () => {
    expect(checkDeletionProtection('Namespace', ns('Always'), { enabled: false })).toEqual({ allowed: true });
    expect(checkDeletionProtection('Workload', workload(3), { enabled: false })).toEqual({ allowed: true });
  });

  it('D1.6 step 2: an object already being deleted is allowed, even labelled Always', () => {
    const o = ns('Always');
    const deleting = { ...o, metadata: { ...o.metadata, deletionTimestamp: '2024-01-01T00:00:00Z' } };
    expect(checkDeletionProtection('Namespace', deleting, on)).toEqual({ allowed: true });
  });

  it('D1.6 step 3/M1: Always denies with 403 for every kind', () => {
    const denied = { allowed: false, code: 403, message: M.M1 };
    expect(checkDeletionProtection('Namespace', ns('Always'), on)).toEqual(denied);
    expect(checkDeletionProtection('Workload', workload(0, 'Always'), on)).toEqual(denied);
    expect(checkDeletionProtection('Service', obj('v1', 'Service', 'Always'), on)).toEqual(denied);
    expect(checkDeletionProtection('Ingress', obj('networking.k8s.io/v1', 'Ingress', 'Always'), on)).toEqual(
      denied,
    );
    // D1.9 step 1: Always on a CRD does not depend on the cascading gate.
    expect(checkDeletionProtection('CustomResourceDefinition', crd('Always', []), on)).toEqual(denied);
  });

  it('D1.7/M3: Cascading namespace with 2 active pods (a Succeeded, a Failed and a deleting one do not count)', () => {
    const pods = [pod('Running'), pod('Pending'), pod('Succeeded'), pod('Failed'), pod('Running', true)];
    expect(checkDeletionProtection('Namespace', ns('Cascading'), { ...on, listPods: () => pods })).toEqual({
      allowed: false,
      code: 403,
      message: M.M3(2),
    });
  });

  it('D1.7/M4: no active pods → 1 Bound PVC not being deleted denies; Pending or deleting ones do not', () => {
    const pvcs = [pvc('Bound'), pvc('Pending'), pvc('Bound', true)];
    const ctx = { ...on, listPods: () => [pod('Succeeded')], listPVCs: () => pvcs };
    expect(checkDeletionProtection('Namespace', ns('Cascading'), ctx)).toMatchObject({ message: M.M4(1) });
    const empty = { ...on, listPods: () => [], listPVCs: () => [pvc('Pending')] };
    expect(checkDeletionProtection('Namespace', ns('Cascading'), empty)).toEqual({ allowed: true });
  });

  it('D1.7/M6/M7: a list error denies (pods first, then PVCs)', () => {
    const fail = () => {
      throw new Error('cache not synced');
    };
    expect(checkDeletionProtection('Namespace', ns('Cascading'), { ...on, listPods: fail })).toMatchObject({
      message: M.M6('cache not synced'),
    });
    expect(
      checkDeletionProtection('Namespace', ns('Cascading'), { ...on, listPods: () => [], listPVCs: fail }),
    ).toMatchObject({ message: M.M7('cache not synced') });
  });

  it('D1.8/M2: Cascading workload: spec.replicas 3 denies; 0 and nil are allowed', () => {
    expect(checkDeletionProtection('Workload', workload(3), on)).toEqual({
      allowed: false,
      code: 403,
      message: M.M2(3),
    });
    expect(checkDeletionProtection('Workload', workload(0), on)).toEqual({ allowed: true });
    expect(checkDeletionProtection('Workload', workload(undefined), on)).toEqual({ allowed: true });
  });

  it('D1.9 step 2/M8: a Cascading CRD is refused while DeletionProtectionForCRDCascadingGate is off', () => {
    const c = crd('Cascading', [{ name: 'v1', storage: true }]);
    expect(checkDeletionProtection('CustomResourceDefinition', c, on)).toMatchObject({ message: M.M8 });
  });

  it('D1.9 step 3/M5: gate on → CRs of the storage version not being deleted deny; only deleting ones allow', () => {
    const c = crd('Cascading', [{ name: 'v1beta1' }, { name: 'v1', storage: true }]);
    const calls: string[] = [];
    const ctx = (crs: KubeObject[]) => ({
      ...on,
      crdCascading: true,
      listCRs: (group: string, version: string, listKind: string) => {
        calls.push(`${group}/${version}/${listKind}`);
        return crs;
      },
    });
    expect(checkDeletionProtection('CustomResourceDefinition', c, ctx([cr(), cr(), cr(true)]))).toMatchObject(
      {
        message: M.M5(2),
      },
    );
    expect(checkDeletionProtection('CustomResourceDefinition', c, ctx([cr(true)]))).toEqual({
      allowed: true,
    });
    expect(calls[0]).toBe('apps.example.io/v1/WidgetList');
  });

  it('D1.9 step 3/M9: no storage version, or a list error, denies', () => {
    const gate = { ...on, crdCascading: true };
    expect(
      checkDeletionProtection('CustomResourceDefinition', crd('Cascading', [{ name: 'v1' }]), gate),
    ).toMatchObject({ message: M.M9('apps.example.io/, Kind=WidgetList', 'no storage version') });
    const failing = {
      ...gate,
      listCRs: () => {
        throw new Error('forbidden');
      },
    };
    const c = crd('Cascading', [{ name: 'v1', storage: true }]);
    expect(checkDeletionProtection('CustomResourceDefinition', c, failing)).toMatchObject({
      message: M.M9('apps.example.io/v1, Kind=WidgetList', 'forbidden'),
    });
  });

  it('D1.10: Service and Ingress ignore Cascading', () => {
    expect(checkDeletionProtection('Service', obj('v1', 'Service', 'Cascading'), on)).toEqual({
      allowed: true,
    });
    const ing = obj('networking.k8s.io/v1', 'Ingress', 'Cascading');
    expect(checkDeletionProtection('Ingress', ing, on)).toEqual({ allowed: true });
  });

  it('never throws: a lister throwing a non-Error still denies with its text', () => {
    const ctx = {
      ...on,
      listPods: () => {
        throw 'timeout';
      },
    };
    expect(checkDeletionProtection('Namespace', ns('Cascading'), ctx)).toMatchObject({
      message: M.M6('timeout'),
    });
  });
});
