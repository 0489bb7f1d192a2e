// The controller contract's helpers (src/controller/): kind references match by API group and
// kind, `asKind` narrows only objects of the kind, and the controller ownerReference lookups.
import type { KubeObject } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import {
  apiGroupOf,
  asKind,
  CONTROLLER_REVISION,
  controllerOf,
  controllerRefOfKind,
  isOfKind,
  kindRef,
  NODE,
  NOTHING_TO_ENQUEUE,
  type ObjectReader,
  objectReaderOf,
  POD,
} from '../src/index';

const owner = (kind: string, apiVersion: string, controller: boolean) => ({
  apiVersion,
  kind,
  name: `${kind.toLowerCase()}-1`,
  uid: `${kind}-uid`,
  controller,
});

const pod = (refs: ReturnType<typeof owner>[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', ownerReferences: refs },
});

describe('kind references', () => {
  it('are frozen and name the built-in kinds', () => {
    const ref = kindRef('apps.kruise.io/v1alpha1', 'CloneSet');
    expect(Object.isFrozen(ref)).toBe(true);
    expect(ref).toEqual({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' });
    expect(CONTROLLER_REVISION).toEqual({ apiVersion: 'apps/v1', kind: 'ControllerRevision' });
    expect(Object.isFrozen(NOTHING_TO_ENQUEUE)).toBe(true);
  });

  it('match by API group and kind, any version of the group', () => {
    expect(apiGroupOf('apps.kruise.io/v1beta1')).toBe('apps.kruise.io');
    expect(apiGroupOf('v1')).toBe('');
    const sts = kindRef('apps.kruise.io/v1beta1', 'StatefulSet');
    expect(isOfKind({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'StatefulSet' }, sts)).toBe(true);
    expect(isOfKind({ apiVersion: 'apps/v1', kind: 'StatefulSet' }, sts)).toBe(false);
    expect(isOfKind({ apiVersion: 'v1', kind: 'Node' }, POD)).toBe(false);
  });

  it('asKind answers the object itself for its kind and undefined otherwise', () => {
    const p = pod([]);
    expect(asKind(p, POD)).toBe(p);
    expect(asKind(p, NODE)).toBeUndefined();
  });
});

describe('controller references', () => {
  it('controllerRefOfKind finds the controller reference of the owner kind only', () => {
    const p = pod([
      owner('ReplicaSet', 'apps/v1', false),
      owner('CloneSet', 'apps.kruise.io/v1alpha1', true),
    ]);
    expect(controllerRefOfKind(p, kindRef('apps.kruise.io/v1alpha1', 'CloneSet'))?.name).toBe('cloneset-1');
    expect(controllerRefOfKind(p, kindRef('apps/v1', 'ReplicaSet'))).toBeUndefined(); // not controller
    expect(controllerRefOfKind(pod([]), kindRef('apps/v1', 'ReplicaSet'))).toBeUndefined();
  });

  it('controllerOf reads the controlling object through the reader, in the object’s namespace', () => {
    const rs: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'replicaset-1', namespace: 'default' },
    };
    const asked: string[] = [];
    const reader: ObjectReader = {
      get: <T>(ref: { kind: string }, ns: string | undefined, name: string) => {
        asked.push(`${ref.kind} ${ns}/${name}`);
        return (ref.kind === 'ReplicaSet' ? rs : undefined) as T | undefined;
      },
      list: () => [],
      ownedBy: () => [],
    };
    expect(controllerOf(reader, pod([owner('ReplicaSet', 'apps/v1', true)]))).toBe(rs);
    expect(asked).toEqual(['ReplicaSet default/replicaset-1']);
    expect(controllerOf(reader, pod([]))).toBeUndefined();
    expect(controllerOf(reader, undefined)).toBeUndefined();
  });
});

describe('objectReaderOf', () => {
  const a = pod([owner('CloneSet', 'apps.kruise.io/v1alpha1', true)]);
  const b: KubeObject = { ...pod([]), metadata: { name: 'q', namespace: 'other' } };
  const node: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } };
  const reader = objectReaderOf(Object.freeze([a, b, node]));

  it('gets and lists by kind and namespace, in the given order', () => {
    expect(reader.get(POD, 'default', 'p')).toBe(a);
    expect(reader.get(POD, 'default', 'q')).toBeUndefined();
    expect(reader.get(NODE, undefined, 'n1')).toBe(node);
    expect(reader.list(POD)).toEqual([a, b]);
    expect(reader.list(POD, 'other')).toEqual([b]);
    expect(reader.list(CONTROLLER_REVISION)).toEqual([]);
  });

  it('answers what an owner uid owns, of one kind', () => {
    expect(reader.ownedBy(POD, 'CloneSet-uid')).toEqual([a]);
    expect(reader.ownedBy(NODE, 'CloneSet-uid')).toEqual([]);
    expect(reader.ownedBy(POD, 'nobody')).toEqual([]);
  });
});
