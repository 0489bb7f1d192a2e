// The `/openapi/v3` hashes a server keeps (openApiHashes.ts): each is the hash of the document the
// registry serves now, a registry change is seen at once, and two servers' hashes are their own.
import { crdManifests, type KubeObject } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import { contentHash, openApiDoc } from '../../src/apiserver/discovery';
import { OpenApiHashes } from '../../src/apiserver/openApiHashes';
import { Registry } from '../../src/apiserver/registry';

const GV = 'apis/apps.kruise.io/v1alpha1';
const fresh = (reg: Registry, group: string, version: string) => contentHash(openApiDoc(reg, group, version));

/** A CRD serving `Widget` in `<group>/v1alpha1`. */
const widgetsIn = (group: string): KubeObject => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { kind: 'Widget', plural: 'widgets' },
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object' } } } },
      },
    ],
  },
});
/** Widgets in apps.kruise.io/v1alpha1: that group-version's document changes. */
const widgets = widgetsIn('apps.kruise.io');

describe('OpenAPI document hashes', () => {
  it('are the hash of the document served, for the core and a named group', () => {
    const reg = new Registry(crdManifests());
    const hashes = new OpenApiHashes();
    expect(hashes.hashFor(reg, 'api/v1')).toBe(fresh(reg, '', 'v1'));
    expect(hashes.hashFor(reg, GV)).toBe(fresh(reg, 'apps.kruise.io', 'v1alpha1'));
    expect(hashes.hashFor(reg, GV)).toMatch(/^[0-9A-F]{64}$/);
  });

  it('follow a registry change, and two servers keep their own', () => {
    const a = new Registry(crdManifests());
    const b = new Registry(crdManifests());
    const ha = new OpenApiHashes();
    const hb = new OpenApiHashes();
    const before = ha.hashFor(a, GV);
    expect(hb.hashFor(b, GV)).toBe(before);
    a.addCrd(widgets);
    const after = ha.hashFor(a, GV);
    expect(after).not.toBe(before);
    expect(after).toBe(fresh(a, 'apps.kruise.io', 'v1alpha1'));
    // b's registry did not change, nor did its hash
    expect(hb.hashFor(b, GV)).toBe(before);
  });

  it('are not shared between servers whose registries are at the same generation', () => {
    // same number of changes, different apps.kruise.io/v1alpha1 documents
    const a = new Registry([...crdManifests(), widgets]);
    const b = new Registry([...crdManifests(), widgetsIn('example.com')]);
    expect(a.generation).toBe(b.generation);
    const ha = new OpenApiHashes();
    const hb = new OpenApiHashes();
    expect(ha.hashFor(a, GV)).toBe(fresh(a, 'apps.kruise.io', 'v1alpha1'));
    expect(hb.hashFor(b, GV)).toBe(fresh(b, 'apps.kruise.io', 'v1alpha1'));
    expect(hb.hashFor(b, GV)).not.toBe(ha.hashFor(a, GV));
  });
});
