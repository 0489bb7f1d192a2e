// The committed CRD manifests (packages/api/crds/*.yaml) against OpenKruise's own CRDs: names,
// short names, scope, versions, subresources and printer columns come from
// testdata/crds/kruise-crds.json (the facts of docs/reference/crds.md as data), so the check is
// against OpenKruise, not against the generator's own table.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildCrdManifests, crdManifests, type KubeObject, kruiseKinds, readManifests } from '../src/index';
import { readPackageFile, readTestdata } from './helpers';

// ---- OpenKruise's CRD facts (testdata/crds/kruise-crds.json) ---------------------------------

interface SpecColumn {
  name: string;
  type: string;
  jsonPath: string;
  priority: number;
}
interface SpecVersion {
  name: string;
  served: boolean;
  storage: boolean;
  subresources: string[];
  scale?: Record<string, string>;
  columns: SpecColumn[];
}
interface SpecKind {
  kind: string;
  group: string;
  scope: string;
  plural: string;
  singular: string;
  shortNames: string[];
  listKind: string;
  versions: SpecVersion[];
}

// AdvancedCronJob's versions are v1.9.0's (v1beta1 stored, v1alpha1 served only), as kruise-ts
// serves the v1.9.0 AdvancedCronJob (docs/reference/advancedcronjob.md); every other kind is v1.8.2's.
const specKinds = JSON.parse(readTestdata('crds/kruise-crds.json')) as SpecKind[];

// Deliberate additions beyond OpenKruise's CRD list (see kinds.ts): BroadcastJob (needed by AdvancedCronJob)
// and the v1beta1 versions AdvancedCronJob v1beta1 creates its children at.
const extraKinds = ['BroadcastJob'];
const extraVersions = ['ImageListPullJob/v1beta1'];

// ---- read the committed YAML --------------------------------------------------------------

const crdDir = fileURLToPath(new URL('../crds/', import.meta.url));
const yamlFiles = readdirSync(crdDir).filter((f) => f.endsWith('.yaml'));
const crdsByKind = new Map<string, KubeObject>();
for (const f of yamlFiles) {
  const obj = parse(readPackageFile(`crds/${f}`)) as KubeObject;
  crdsByKind.set((obj.spec as any).names.kind, obj);
}

/** Returns the paths of schema nodes that are not structural (no type / preserve / int-or-string). */
function nonStructuralNodes(node: any, at: string, out: string[] = []): string[] {
  if (node === null || typeof node !== 'object') {
    out.push(`${at} (not an object)`);
    return out;
  }
  const ok =
    typeof node.type === 'string' ||
    node['x-kubernetes-preserve-unknown-fields'] === true ||
    node['x-kubernetes-int-or-string'] === true;
  if (!ok) out.push(at);
  if (node.properties && node.additionalProperties) out.push(`${at} (properties and additionalProperties)`);
  for (const [k, v] of Object.entries(node.properties ?? {})) nonStructuralNodes(v, `${at}.${k}`, out);
  if (node.items) nonStructuralNodes(node.items, `${at}[]`, out);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    nonStructuralNodes(node.additionalProperties, `${at}{}`, out);
  }
  for (const key of ['anyOf', 'allOf', 'oneOf']) {
    (node[key] ?? []).forEach((v: unknown, i: number) => {
      nonStructuralNodes(v, `${at}.${key}[${i}]`, out);
    });
  }
  return out;
}

describe('CRD manifests (packages/api/crds)', () => {
  it('the CRD facts list 10 kinds with columns', () => {
    expect(specKinds.map((k) => k.kind)).toEqual([
      'CloneSet',
      'StatefulSet',
      'DaemonSet',
      'SidecarSet',
      'UnitedDeployment',
      'ImagePullJob',
      'ImageListPullJob',
      'NodeImage',
      'ContainerRecreateRequest',
      'AdvancedCronJob',
    ]);
    expect(specKinds.find((k) => k.kind === 'CloneSet')!.versions[0].columns).toHaveLength(10);
  });

  it('there is one YAML file per Kruise kind, named <plural>.<group>.yaml', () => {
    expect(yamlFiles.sort()).toEqual(kruiseKinds.map((k) => `${k.plural}.${k.group}.yaml`).sort());
  });

  it.each(yamlFiles)('%s parses as one CustomResourceDefinition accepted by the manifest reader', (f) => {
    const { objects, errors } = readManifests(readPackageFile(`crds/${f}`));
    expect(errors).toEqual([]);
    expect(objects).toHaveLength(1);
    expect(objects[0].apiVersion).toBe('apiextensions.k8s.io/v1');
    expect(objects[0].kind).toBe('CustomResourceDefinition');
  });

  it.each(yamlFiles)('%s has a structural schema in every version', (f) => {
    const crd = parse(readPackageFile(`crds/${f}`));
    for (const v of crd.spec.versions) {
      const schema = v.schema.openAPIV3Schema;
      expect(schema.type).toBe('object');
      expect(nonStructuralNodes(schema, `${v.name}`)).toEqual([]);
      expect(schema.properties.spec.type).toBe('object');
      expect(schema.properties.status.type).toBe('object');
    }
  });

  it.each(specKinds.map((k) => [k.kind, k] as const))(
    '%s: names, scope and short names as crds.md',
    (_, sk) => {
      const crd = crdsByKind.get(sk.kind)!;
      expect(crd).toBeDefined();
      const spec = crd.spec as any;
      expect(crd.metadata.name).toBe(`${sk.plural}.${sk.group}`);
      expect(spec.group).toBe(sk.group);
      expect(spec.scope).toBe(sk.scope);
      expect(spec.names.plural).toBe(sk.plural);
      expect(spec.names.singular).toBe(sk.singular);
      expect(spec.names.listKind).toBe(sk.listKind);
      expect(spec.names.shortNames ?? []).toEqual(sk.shortNames);
    },
  );

  it.each(specKinds.map((k) => [k.kind, k] as const))(
    '%s: versions, subresources and printer columns as crds.md',
    (_, sk) => {
      const spec = crdsByKind.get(sk.kind)!.spec as any;
      for (const sv of sk.versions) {
        const v = spec.versions.find((x: any) => x.name === sv.name);
        expect(v, `${sk.kind} ${sv.name}`).toBeDefined();
        expect([v.served, v.storage]).toEqual([sv.served, sv.storage]);
        expect(Object.keys(v.subresources).sort()).toEqual([...sv.subresources].sort());
        if (sv.scale) expect(v.subresources.scale).toEqual(sv.scale);
        const columns = v.additionalPrinterColumns.map((c: any) => ({
          name: c.name,
          type: c.type,
          jsonPath: c.jsonPath,
          priority: c.priority ?? 0,
        }));
        expect(columns).toEqual(sv.columns);
      }
      const extra = spec.versions
        .map((x: any) => `${sk.kind}/${x.name}`)
        .filter((n: string) => !sk.versions.some((sv) => `${sk.kind}/${sv.name}` === n));
      expect(extra.every((n: string) => extraVersions.includes(n))).toBe(true);
      expect(spec.versions.filter((x: any) => x.storage)).toHaveLength(1);
    },
  );

  it('only BroadcastJob is a kind beyond crds.md (advancedcronjob.md needs it)', () => {
    const beyond = [...crdsByKind.keys()].filter((k) => !specKinds.some((s) => s.kind === k));
    expect(beyond).toEqual(extraKinds);
  });

  it('AdvancedCronJob v1beta1 alone has spec.template.imageListPullJobTemplate (crds.md)', () => {
    const spec = crdsByKind.get('AdvancedCronJob')!.spec as any;
    const tmpl = (name: string) =>
      spec.versions.find((v: any) => v.name === name).schema.openAPIV3Schema.properties.spec.properties
        .template.properties;
    expect(tmpl('v1alpha1').imageListPullJobTemplate).toBeUndefined();
    const ilpj = tmpl('v1beta1').imageListPullJobTemplate;
    expect(Object.keys(ilpj.properties).sort()).toEqual(['metadata', 'spec']);
    expect([...ilpj.properties.spec.required].sort()).toEqual(['completionPolicy', 'images']);
  });

  it('the committed YAML is up to date with the generator (crdManifests())', () => {
    const built = crdManifests();
    expect(built.map((c) => c.metadata.name)).toEqual(buildCrdManifests().map((c) => c.metadata.name));
    for (const crd of built) {
      expect(parse(readPackageFile(`crds/${crd.metadata.name}.yaml`))).toEqual(crd);
    }
  });

  it('crdManifests() returns a fresh copy on every call', () => {
    const a = crdManifests();
    (a[0].metadata as any).name = 'changed';
    expect(crdManifests()[0].metadata.name).not.toBe('changed');
  });
});
