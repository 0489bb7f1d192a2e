// What the committed CRD manifests publish beyond their facts (crds.test.ts): a description on
// every field at every level (what `kubectl explain` prints), pod templates typed in full (so
// `--validate=strict` and pruning see template typos), list and map types a real API server
// accepts, and a size a real cluster can store.
import { describe, expect, it } from 'vitest';
import { crdManifests, type KubeObject, k8sDefinitions } from '../src/index';
import { k8sExtensions } from '../src/structure/k8sExtensions.generated';
import { readRepoFile } from './helpers';

type Node = Record<string, any>;

interface Visit {
  path: string;
  node: Node;
}

/** Every schema node under `node` (properties, items, additionalProperties), with its path. */
function nodes(node: Node, path: string, out: Visit[] = []): Visit[] {
  out.push({ path, node });
  for (const [k, v] of Object.entries((node.properties ?? {}) as Record<string, Node>))
    nodes(v, `${path}.${k}`, out);
  if (node.items) nodes(node.items, `${path}[]`, out);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    nodes(node.additionalProperties, `${path}{}`, out);
  }
  return out;
}

const crds = crdManifests();
const versions = crds.flatMap((crd) =>
  (crd.spec as any).versions.map((v: any) => ({
    name: `${(crd.spec as any).names.kind}/${v.name}`,
    schema: v.schema.openAPIV3Schema as Node,
  })),
);

/** The schema at a dotted path (`spec.template.spec.containers[]`). */
function at(schema: Node, path: string): Node {
  let n = schema;
  for (const part of path.split('.')) {
    const list = part.endsWith('[]');
    n = n.properties[list ? part.slice(0, -2) : part];
    if (list) n = n.items;
  }
  return n;
}

/** JSON size of a CRD as the API server stores it (before managedFields). */
const jsonSize = (crd: KubeObject) => Buffer.byteLength(JSON.stringify(crd));

describe('CRD descriptions (kubectl explain)', () => {
  it.each(versions.map((v) => [v.name, v.schema] as const))(
    '%s: every field at every level has a description',
    (_, schema) => {
      const missing = nodes(schema, '')
        // the root's metadata is `{type: object}` and nothing more (the API server's rule)
        .filter(
          ({ path }) => path !== '' && path !== '.metadata' && !path.endsWith('[]') && !path.endsWith('{}'),
        )
        .filter(({ node }) => typeof node.description !== 'string' || node.description.trim() === '')
        .map(({ path }) => path);
      expect(missing).toEqual([]);
    },
  );

  it("Kruise's fields carry our words, the pod template Kubernetes' own", () => {
    const cs = versions.find((v) => v.name === 'CloneSet/v1alpha1')!.schema;
    expect(at(cs, 'spec.updateStrategy.type').description).toMatch(/^ReCreate .*Default ReCreate\.$/);
    expect(at(cs, 'spec.updateStrategy.maxUnavailable').description).toMatch(/Default 20%\.$/);
    expect(at(cs, 'spec.template.spec.containers[].image').description).toMatch(/^Container image name\./);
    // the full text, not only its first sentence
    expect(at(cs, 'spec.template.spec.containers[].image').description.length).toBeGreaterThan(100);
  });

  it('a nested workload keeps the first sentence of each Kubernetes description', () => {
    const ud = versions.find((v) => v.name === 'UnitedDeployment/v1alpha1')!.schema;
    const image = at(ud, 'spec.template.cloneSetTemplate.spec.template.spec.containers[].image');
    expect(image.description).toBe('Container image name.');
    expect(at(ud, 'spec.template.cloneSetTemplate.spec.updateStrategy.partition').description).toMatch(
      /Default 0/,
    );
  });
});

describe('CRD schemas for a real API server', () => {
  it.each(versions.map((v) => [v.name, v.schema] as const))(
    '%s: templates typed in full, open only where Kubernetes is free-form',
    (_, schema) => {
      // Kubernetes' own free-form fields: a RawExtension (a subset's `patch`), managedFields'
      // `fieldsV1`, and object references kept as written (`ownerReferences`, `status.active`)
      const freeForm = /(\.patch|\.fieldsV1|\.ownerReferences\[\]|^\.status\.active\[\])$/;
      const open = nodes(schema, '')
        .filter(({ node }) => node['x-kubernetes-preserve-unknown-fields'] === true)
        .map(({ path }) => path)
        .filter((path) => !freeForm.test(path));
      expect(open).toEqual([]);
    },
  );

  it.each(versions.map((v) => [v.name, v.schema] as const))(
    '%s: every list-map key is required or defaulted and not nullable (else the CRD is refused)',
    (_, schema) => {
      const bad: string[] = [];
      for (const { path, node } of nodes(schema, '')) {
        if (node['x-kubernetes-list-type'] !== 'map') continue;
        const item = node.items as Node;
        expect(item.type, path).toBe('object');
        for (const key of node['x-kubernetes-list-map-keys'] as string[]) {
          const p = item.properties?.[key];
          if (!p || p.nullable || (!(item.required ?? []).includes(key) && p.default === undefined)) {
            bad.push(`${path}: ${key}`);
          }
        }
      }
      expect(bad).toEqual([]);
    },
  );

  it.each(versions.map((v) => [v.name, v.schema] as const))(
    '%s: the root metadata is only {type: object} (the API server refuses more)',
    (_, schema) => {
      expect(schema.properties.metadata).toEqual({ type: 'object' });
    },
  );

  it('the list and map types name only definitions and fields there are (k8sExtensions.generated.ts)', () => {
    const fieldOf = (path: string) => {
      const [def, field] = path.split('.');
      return (k8sDefinitions[def]?.properties as Record<string, unknown> | undefined)?.[field];
    };
    expect(Object.keys(k8sExtensions.definitions).filter((d) => !k8sDefinitions[d])).toEqual([]);
    expect(Object.keys(k8sExtensions.fields).filter((f) => !fieldOf(f))).toEqual([]);
    expect(Object.keys(k8sExtensions.keyDefaults).filter((f) => !fieldOf(f))).toEqual([]);
    expect(k8sExtensions.fields['PodSpec.volumes']).toEqual({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    });
  });

  it('containers merge by name and ports by containerPort and protocol, as in a Deployment', () => {
    const cs = versions.find((v) => v.name === 'CloneSet/v1alpha1')!.schema;
    const containers = at(cs, 'spec.template.spec.containers');
    expect(containers['x-kubernetes-list-type']).toBe('map');
    expect(containers['x-kubernetes-list-map-keys']).toEqual(['name']);
    const ports = at(cs, 'spec.template.spec.containers[].ports');
    expect(ports['x-kubernetes-list-map-keys']).toEqual(['containerPort', 'protocol']);
    expect(ports.items.properties.protocol.default).toBe('TCP');
    expect(at(cs, 'spec.selector')['x-kubernetes-map-type']).toBe('atomic');
    // a SidecarSet container is a Container with fields of its own: same list types
    const ss = versions.find((v) => v.name === 'SidecarSet/v1alpha1')!.schema;
    expect(at(ss, 'spec.containers[].env')['x-kubernetes-list-map-keys']).toEqual(['name']);
  });
});

describe('CRD sizes', () => {
  // etcd refuses a request over 1.5 MiB (its default --max-request-bytes); the stored CRD also
  // carries managedFields (server-side apply lists every field it set), so keep a margin.
  const ETCD_LIMIT = 1.5 * 1024 * 1024;
  const BUDGET = 1024 * 1024;
  // Client-side `kubectl apply` copies the object into an annotation; annotations total 256 KiB.
  const ANNOTATIONS_LIMIT = 256 * 1024;

  it.each(crds.map((c) => [c.metadata.name!, c] as const))('%s stays within 1 MiB', (_, crd) => {
    expect(jsonSize(crd)).toBeLessThan(BUDGET);
    expect(BUDGET).toBeLessThan(ETCD_LIMIT);
  });

  it('the install instructions use server-side apply, as the larger CRDs need', () => {
    const large = crds.filter((c) => jsonSize(c) > ANNOTATIONS_LIMIT).map((c) => c.metadata.name);
    expect(large.length).toBeGreaterThan(0);
    const docs = ['packages/api/README.md', 'packages/operator/README.md', 'docs/reference/crds.md'].map(
      (f) => [f, readRepoFile(f)] as const,
    );
    for (const [file, text] of docs) {
      // every `kubectl apply` of the CRDs or of deploy/ says --server-side
      const applies = text.match(/kubectl apply[^\n`]*(crds|deploy)\/?[^\n`]*/g) ?? [];
      expect(applies.length, file).toBeGreaterThan(0);
      for (const a of applies) expect(a, file).toContain('--server-side');
    }
  });
});
