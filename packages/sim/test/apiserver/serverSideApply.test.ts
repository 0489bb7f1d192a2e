// Field ownership (src/apiserver/managedFields): fieldsV1 sets, list keys from the schemas,
// apply with conflicts, force, shared ownership and removal of given-up fields, Update entries,
// and properties over random applied configurations: the fieldsV1 set round-trips, and no leaf
// of the object is owned by two Apply managers unless their values agree.

import type { KubeObject } from '@kruise-ts/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serverSideApply } from '../../src/apiserver/managedFields/apply';
import { decodeEntries } from '../../src/apiserver/managedFields/entries';
import {
  decodePath,
  encodePath,
  fromFieldsV1,
  pathString,
  toFieldsV1,
} from '../../src/apiserver/managedFields/fieldSet';
import { resourceType } from '../../src/apiserver/managedFields/listKeys';
import { recordUpdate } from '../../src/apiserver/managedFields/update';
import { fieldSetOf } from '../../src/apiserver/managedFields/walk';
import type { ResourceInfo } from '../../src/apiserver/registry';

const CLONESET = {
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  custom: true,
  status: true,
} as ResourceInfo;
const POD = {
  group: '',
  version: 'v1',
  apiVersion: 'v1',
  kind: 'Pod',
  custom: false,
  status: true,
} as ResourceInfo;
const type = resourceType(CLONESET);
const V = CLONESET.apiVersion;

function cloneSet(spec: Record<string, unknown>, labels?: Record<string, string>): KubeObject {
  const metadata = labels ? { name: 's', namespace: 'default', labels } : { name: 's', namespace: 'default' };
  return { apiVersion: V, kind: 'CloneSet', metadata, spec } as KubeObject;
}

const template = (containers: unknown[], extra: Record<string, unknown> = {}) => ({
  metadata: { labels: { app: 's' } },
  spec: { containers, ...extra },
});

function apply(live: KubeObject | undefined, config: KubeObject, manager: string, force = false) {
  return serverSideApply({
    type,
    live,
    config,
    manager,
    apiVersion: V,
    force,
    now: 'T',
    statusSubresource: true,
  });
}

function applied(
  live: KubeObject | undefined,
  config: KubeObject,
  manager: string,
  force = false,
): KubeObject {
  const r = apply(live, config, manager, force);
  if (!r.ok) throw new Error(r.status.message);
  return r.object;
}

const owned = (obj: KubeObject, manager: string, operation = 'Apply') =>
  [...(decodeEntries(obj).find((e) => e.manager === manager && e.operation === operation)?.set ?? [])].map(
    (k) => pathString(decodePath(k)),
  );

describe('fieldsV1 sets', () => {
  it('encodes fields, keyed items with `.`, set values, in kube-apiserver order', () => {
    const set = new Set([
      encodePath(['f:spec', 'f:replicas']),
      encodePath(['f:spec', 'f:containers', 'k:{"name":"a"}']),
      encodePath(['f:spec', 'f:containers', 'k:{"name":"a"}', 'f:image']),
      encodePath(['f:metadata', 'f:finalizers', 'v:"x"']),
    ]);
    const v1 = toFieldsV1(set);
    expect(JSON.stringify(v1)).toBe(
      '{"f:metadata":{"f:finalizers":{"v:\\"x\\"":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"a\\"}":{".":{},"f:image":{}}},"f:replicas":{}}}',
    );
    expect(fromFieldsV1(v1)).toEqual(set);
  });

  it('prints paths as conflicts do', () => {
    expect(pathString(['f:spec', 'f:containers', 'k:{"name":"nginx"}', 'f:image'])).toBe(
      '.spec.containers[name="nginx"].image',
    );
    expect(pathString(['f:ports', 'k:{"containerPort":80,"protocol":"TCP"}'])).toBe(
      '.ports[containerPort=80,protocol="TCP"]',
    );
    expect(pathString(['f:metadata', 'f:finalizers', 'v:"a"'])).toBe('.metadata.finalizers[="a"]');
  });
});

describe('list keys from the schemas', () => {
  it('keys containers, env and volumes by name, ports by containerPort+protocol, volumeMounts by mountPath; tolerations are atomic', () => {
    const obj = cloneSet(
      {
        template: template(
          [
            {
              name: 'c',
              env: [{ name: 'E', value: '1' }],
              ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }],
              volumeMounts: [{ name: 'v', mountPath: '/data' }],
              args: ['a'],
            },
          ],
          {
            volumes: [{ name: 'v', emptyDir: {} }],
            tolerations: [{ key: 'k' }],
            nodeSelector: { zone: 'a' },
          },
        ),
      },
      { app: 's' },
    );
    const paths = [...fieldSetOf(obj, type)].map((k) => pathString(decodePath(k)));
    const c = '.spec.template.spec.containers[name="c"]';
    expect(paths).toEqual(
      expect.arrayContaining([
        c,
        `${c}.env[name="E"].value`,
        `${c}.ports[containerPort=80,protocol="TCP"]`,
        `${c}.ports[containerPort=53,protocol="UDP"].protocol`,
        `${c}.volumeMounts[mountPath="/data"].name`,
        `${c}.args`,
        '.spec.template.spec.volumes[name="v"].emptyDir',
        '.spec.template.spec.tolerations',
        '.spec.template.spec.nodeSelector',
        '.metadata.labels.app',
      ]),
    );
    expect(paths).not.toContain('.spec.template.spec.tolerations[key="k"]');
    expect(paths.some((p) => p.startsWith('.spec.template.spec.nodeSelector.'))).toBe(false);
  });

  it('gives a Pod ownerReferences by uid and finalizers as a set', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'p',
        finalizers: ['f'],
        ownerReferences: [{ uid: 'u1', name: 'o', kind: 'CloneSet' }],
      },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    };
    const paths = [...fieldSetOf(pod, resourceType(POD))].map((k) => pathString(decodePath(k)));
    expect(paths).toEqual(
      expect.arrayContaining(['.metadata.finalizers[="f"]', '.metadata.ownerReferences[uid="u1"]']),
    );
  });

  it("reads a CRD's x-kubernetes-list-type and map keys, and refuses a keyed item without its key with a 422", () => {
    const widget = {
      group: 'example.com',
      version: 'v1',
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      custom: true,
      status: false,
      schema: {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            properties: {
              parts: {
                type: 'array',
                'x-kubernetes-list-type': 'map',
                'x-kubernetes-list-map-keys': ['id'],
                items: { type: 'object', properties: { id: { type: 'string' }, size: { type: 'integer' } } },
              },
            },
          },
        },
      },
    } as ResourceInfo;
    const wtype = resourceType(widget);
    const obj = (parts: unknown[]) =>
      ({
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w' },
        spec: { parts },
      }) as KubeObject;
    const paths = [...fieldSetOf(obj([{ id: 'x', size: 1 }]), wtype)].map((k) => pathString(decodePath(k)));
    expect(paths).toEqual(expect.arrayContaining(['.spec.parts[id="x"]', '.spec.parts[id="x"].size']));
    const r = serverSideApply({
      type: wtype,
      live: undefined,
      config: obj([{ size: 1 }]),
      manager: 'm',
      apiVersion: 'example.com/v1',
      force: false,
      now: 'T',
      statusSubresource: false,
    });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.status.code).toBe(422);
      expect(r.status.message).toContain('omits key field "id"');
    }
  });
});

describe('apply', () => {
  const base = cloneSet({ replicas: 3, template: template([{ name: 'a', image: 'nginx:1' }]) }, { app: 's' });

  it('a second manager changing a field gets a 409 in kube-apiserver words, with causes', () => {
    const live = applied(undefined, base, 'kubectl');
    const r = apply(live, cloneSet({ replicas: 5 }), 'other');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas',
      details: {
        causes: [
          { type: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.spec.replicas' },
        ],
      },
    });
  });

  it('lists several conflicts per manager', () => {
    const live = applied(undefined, base, 'kubectl');
    const r = apply(
      live,
      cloneSet({ replicas: 5, template: template([{ name: 'a', image: 'nginx:2' }]) }),
      'other',
    );
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.status.message).toBe(
        'Apply failed with 2 conflicts: conflicts with "kubectl":\n- .spec.replicas\n- .spec.template.spec.containers[name="a"].image',
      );
  });

  it('force takes ownership; equal values are shared', () => {
    const live = applied(undefined, base, 'kubectl');
    const forced = applied(live, cloneSet({ replicas: 5 }, { app: 's' }), 'other', true);
    expect((forced.spec as any)?.replicas).toBe(5);
    expect(owned(forced, 'other')).toEqual(
      expect.arrayContaining(['.spec.replicas', '.metadata.labels.app']),
    );
    expect(owned(forced, 'kubectl')).not.toContain('.spec.replicas');
    expect(owned(forced, 'kubectl')).toContain('.metadata.labels.app'); // same value: shared
  });

  it('removes fields the applier gave up unless another manager owns them', () => {
    const live = applied(
      undefined,
      cloneSet(
        {
          replicas: 3,
          template: template([
            { name: 'a', image: 'i' },
            { name: 'b', image: 'j' },
          ]),
        },
        {
          app: 's',
          tier: 'web',
        },
      ),
      'kubectl',
    );
    const shared = applied(live, cloneSet({ replicas: 3 }, { tier: 'web' }), 'other');
    const next = applied(shared, cloneSet({ template: template([{ name: 'a', image: 'i' }]) }), 'kubectl');
    expect(next.metadata.labels).toEqual({ tier: 'web' }); // app removed, tier kept by `other`
    expect((next.spec as any)?.replicas).toBe(3); // kept by `other`
    expect((next.spec as any).template.spec.containers.map((c: any) => c.name)).toEqual(['a']);
  });

  it('merges keyed lists item by item and keeps items other managers added', () => {
    const live = applied(undefined, base, 'kubectl');
    const two = applied(live, cloneSet({ template: template([{ name: 'sidecar', image: 's' }]) }), 'other');
    expect((two.spec as any).template.spec.containers.map((c: any) => c.name)).toEqual(['a', 'sidecar']);
    const again = applied(two, base, 'kubectl');
    expect((again.spec as any).template.spec.containers.map((c: any) => c.name)).toEqual(['a', 'sidecar']);
  });

  it('an object without managedFields is first owned by before-first-apply', () => {
    const live = { ...base, metadata: { ...base.metadata, uid: 'u', resourceVersion: '1' } } as KubeObject;
    const r = apply(live, cloneSet({ replicas: 9 }), 'kubectl');
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.status.message).toContain('conflict with "before-first-apply" using apps.kruise.io/v1alpha1');
  });

  it('the kubectl applier may take over what client-side apply set, and keeps the annotation in step', () => {
    const csa = { ...base, metadata: { ...base.metadata } } as KubeObject;
    const created = recordUpdate({
      type,
      live: undefined,
      next: {
        ...csa,
        metadata: {
          ...csa.metadata,
          annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(base) },
        },
      } as KubeObject,
      manager: 'kubectl-client-side-apply',
      apiVersion: V,
      now: 'T',
      statusSubresource: true,
    });
    const next = applied(
      created,
      cloneSet({ replicas: 4, template: (base.spec as any)?.template }),
      'kubectl',
    );
    expect((next.spec as any)?.replicas).toBe(4);
    const annotation = JSON.parse(
      next.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'] ?? '',
    );
    expect(annotation.spec.replicas).toBe(4);
    // another manager gets no such pass
    expect(apply(created, cloneSet({ replicas: 4 }), 'other').ok).toBe(false);
  });
});

describe('update entries', () => {
  it('an Update owns what it changed and takes it from others; an unchanged write keeps the time', () => {
    const live = applied(undefined, cloneSet({ replicas: 3 }), 'kubectl');
    const scaled = recordUpdate({
      type,
      live,
      next: { ...live, spec: { replicas: 4 } } as KubeObject,
      manager: 'kubectl',
      apiVersion: V,
      subresource: 'scale',
      now: 'T2',
      statusSubresource: true,
    });
    const entries = decodeEntries(scaled);
    const scaler = entries.find((e) => e.operation === 'Update');
    expect(scaler).toMatchObject({ manager: 'kubectl', subresource: 'scale', time: 'T2' });
    expect([...(scaler?.set ?? [])]).toEqual([encodePath(['f:spec', 'f:replicas'])]);
    expect(owned(scaled, 'kubectl')).not.toContain('.spec.replicas');
    const again = recordUpdate({
      type,
      live: scaled,
      next: { ...scaled, spec: { replicas: 5 } } as KubeObject,
      manager: 'kubectl',
      apiVersion: V,
      subresource: 'scale',
      now: 'T3',
      statusSubresource: true,
    });
    expect(decodeEntries(again).find((e) => e.operation === 'Update')?.time).toBe('T2');
  });

  it('does not own status on the main resource; `[{}]` strips every entry', () => {
    const live = applied(undefined, cloneSet({ replicas: 3 }), 'kubectl');
    const withStatus = recordUpdate({
      type,
      live,
      next: { ...live, status: { replicas: 3 } } as KubeObject,
      manager: 'editor',
      apiVersion: V,
      now: 'T',
      statusSubresource: true,
    });
    expect(decodeEntries(withStatus).map((e) => e.manager)).toEqual(['kubectl']);
    const stripped = recordUpdate({
      type,
      live,
      next: { ...live, metadata: { ...live.metadata, managedFields: [{}] } } as KubeObject,
      manager: 'editor',
      apiVersion: V,
      now: 'T',
      statusSubresource: true,
    });
    expect(stripped.metadata.managedFields).toBeUndefined();
  });
});

describe('properties', () => {
  const name = fc.constantFrom('a', 'b', 'c');
  const container = fc.record({
    name,
    image: fc.constantFrom('nginx:1', 'nginx:2'),
    ports: fc.option(
      fc.uniqueArray(fc.record({ containerPort: fc.constantFrom(80, 443) }), {
        selector: (p) => p.containerPort,
      }),
      { nil: undefined },
    ),
  });
  const config = fc.record(
    {
      replicas: fc.integer({ min: 0, max: 3 }),
      labels: fc.dictionary(fc.constantFrom('app', 'tier', 'team'), fc.constantFrom('x', 'y')),
      containers: fc.uniqueArray(container, { selector: (c) => c.name, minLength: 1, maxLength: 3 }),
      paused: fc.boolean(),
    },
    { requiredKeys: ['containers'] },
  );
  const toObject = (c: any): KubeObject =>
    JSON.parse(
      JSON.stringify(
        cloneSet(
          {
            replicas: c.replicas,
            updateStrategy: c.paused === undefined ? undefined : { paused: c.paused },
            template: template(
              c.containers.map((x: any) => (x.ports ? x : { name: x.name, image: x.image })),
            ),
          },
          c.labels ?? {},
        ),
      ),
    );

  it('the fieldsV1 set of an applied configuration round-trips', () => {
    fc.assert(
      fc.property(config, (c) => {
        const set = fieldSetOf(toObject(c), type);
        expect(fromFieldsV1(toFieldsV1(set))).toEqual(set);
        expect(fromFieldsV1(JSON.parse(JSON.stringify(toFieldsV1(set))))).toEqual(set);
      }),
      { seed: 18, numRuns: 200 },
    );
  });

  it('every leaf is owned by at most one Apply manager unless their values agree', () => {
    const managers = ['m1', 'm2', 'm3'];
    fc.assert(
      fc.property(
        fc.array(fc.record({ manager: fc.constantFrom(...managers), config, force: fc.boolean() }), {
          minLength: 1,
          maxLength: 6,
        }),
        (steps) => {
          let live: KubeObject | undefined;
          const lastConfig = new Map<string, KubeObject>();
          for (const s of steps) {
            const cfg = toObject(s.config);
            const r = apply(live, cfg, s.manager, s.force);
            if (r.ok) {
              live = r.object;
              lastConfig.set(s.manager, cfg);
            }
          }
          if (!live) return;
          const entries = decodeEntries(live).filter((e) => e.operation === 'Apply');
          for (const [i, a] of entries.entries())
            for (const b of entries.slice(i + 1))
              for (const p of a.set) {
                if (!b.set.has(p)) continue;
                // shared: both configurations give the field the live value
                const path = decodePath(p);
                const va = valueAt(lastConfig.get(a.manager), path);
                const vb = valueAt(lastConfig.get(b.manager), path);
                expect(JSON.stringify(va), `${pathString(path)} of ${a.manager} and ${b.manager}`).toBe(
                  JSON.stringify(vb),
                );
              }
        },
      ),
      { seed: 18, numRuns: 200 },
    );
  });
});

/** The value at a field path of an object (keyed items found by their key fields). */
function valueAt(obj: unknown, path: readonly string[]): unknown {
  let cur: any = obj;
  for (const e of path) {
    if (cur === undefined) return undefined;
    const body = e.slice(2);
    if (e.startsWith('f:')) cur = cur?.[body];
    else if (e.startsWith('k:')) {
      const keys = JSON.parse(body) as Record<string, unknown>;
      cur = (cur as any[]).find((item) =>
        Object.entries(keys).every(([k, v]) => (item[k] ?? (k === 'protocol' ? 'TCP' : undefined)) === v),
      );
      // owning the item itself (`.`) is owning its existence: both configurations have it
      if (cur && path[path.length - 1] === e) return 'present';
    } else return undefined;
  }
  return cur;
}
