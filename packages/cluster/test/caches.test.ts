// The lookup tables a cluster keeps belong to its instances (the package has no module-level
// state; test/module-state.test.ts checks the sources). What the tables hold must not change what
// the cluster reports: a log record, a key prefix or an image digest is the same text with or
// without them, and two clusters built alike log alike whatever the other one did first.
import type { Action } from '@kruise-ts/core';
import { describe, expect, it } from 'vitest';
import { actionRecord, createCluster, imageIDOf, kindPrefix, type ReasonDetails } from '../src/index';

const create = (name: string, reason: string, image = 'nginx:1.27'): Extract<Action, { verb: 'create' }> => ({
  verb: 'create',
  reason,
  object: {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'main', image }] },
  },
});

describe('instance-owned lookup tables', () => {
  it('action records share one frozen {reason} per reason only when given a table, with the same text', () => {
    const details: ReasonDetails = new Map();
    const a = actionRecord(create('a', 'ScaleUp'), { ok: true }, 'controller', details);
    const b = actionRecord(create('b', 'ScaleUp'), { ok: true }, 'controller', details);
    const c = actionRecord(create('c', 'ScaleDown'), { ok: true }, 'controller', details);
    expect(a.detail).toBe(b.detail);
    expect(a.detail).not.toBe(c.detail);
    expect(Object.isFrozen(a.detail)).toBe(true);
    expect(details.size).toBe(2);
    const plain = actionRecord(create('a', 'ScaleUp'), { ok: true }, 'controller');
    const plain2 = actionRecord(create('b', 'ScaleUp'), { ok: true }, 'controller');
    expect(plain.detail).not.toBe(plain2.detail);
    expect(JSON.stringify(plain)).toBe(JSON.stringify(a));
  });

  it('stops adding reasons at 1024 and still answers the others', () => {
    const details: ReasonDetails = new Map();
    for (let i = 0; i < 1100; i++) {
      const r = actionRecord(create('p', `R${i}`), { ok: true }, 'user', details);
      expect(r.detail).toEqual({ reason: `R${i}` });
    }
    expect(details.size).toBe(1024);
  });

  it('key prefixes and image digests are plain functions of their input', () => {
    expect(kindPrefix('apps.kruise.io/v1alpha1', 'CloneSet')).toBe('apps.kruise.io/CloneSet/');
    expect(kindPrefix('apps.kruise.io/v1beta1', 'CloneSet')).toBe('apps.kruise.io/CloneSet/');
    expect(kindPrefix('v1', 'Pod')).toBe('/Pod/');
    expect(imageIDOf('nginx:1.27')).toBe(imageIDOf('nginx:1.27'));
    expect(imageIDOf('nginx:1.27')).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    expect(imageIDOf('ghcr.io/x/app@sha256:00')).toMatch(/^ghcr\.io\/x\/app@sha256:/);
  });

  it('a cluster logs the same whatever another cluster in the process did before', () => {
    const run = () => {
      const c = createCluster({ nodes: [{ name: 'node-1' }, { name: 'node-2' }], seed: 3 });
      c.apply([create('web-0', 'Apply'), create('web-1', 'Apply', 'redis:7')], 'user');
      c.advance(10_000);
      return JSON.stringify({ events: c.events, objects: c.objects() });
    };
    const first = run();
    const other = createCluster({ nodes: [{ name: 'n' }], seed: 9 });
    other.apply([create('x', 'Other', 'busybox'), create('y', 'Apply', 'redis:7')], 'user');
    other.advance(30_000);
    expect(run()).toBe(first);
  });
});
