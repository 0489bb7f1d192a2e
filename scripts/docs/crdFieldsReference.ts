// Renders docs/reference/crd-fields.md from the CRD schemas as packages/api builds them
// (`kindSchema(kind, version)` of packages/api/src/crdSchemas.ts, the tables the CRD manifests in
// packages/api/crds/ are generated from): every Kruise kind, version and field path with its type
// and the description `kubectl explain` prints. The walk stops at an embedded Kubernetes type
// (`PodTemplateSpec`, `Toleration`, ...), naming it instead of repeating the Kubernetes API
// reference thousands of times; a sidecar container, a Kubernetes Container with fields of its
// own, lists only the fields it adds.
import type { JSONSchema } from '../../packages/api/src/crdSchemas';
import { kindSchema } from '../../packages/api/src/crdSchemas';
import { kruiseKinds } from '../../packages/api/src/kinds';
import { EXTENDS_K8S, firstSentence, k8sDefinition } from '../../packages/api/src/structure/k8sRefs';
import { banner, cell, code } from './lib';

/** One row: a field's path, its type, whether required, and its description. */
export interface CrdField {
  path: string;
  type: string;
  required: boolean;
  description: string;
}

const props = (s: JSONSchema): Record<string, JSONSchema> =>
  (s.properties ?? {}) as Record<string, JSONSchema>;

/** A node's type in the words of `kubectl explain`: `string`, `[]Container`, `map[string]string`. */
function typeOf(s: JSONSchema): string {
  if (typeof s.$ref === 'string') return s.$ref;
  if (typeof s[EXTENDS_K8S] === 'string') return `${s[EXTENDS_K8S]} (extended)`;
  if (s['x-kubernetes-int-or-string'] === true) return 'int-or-string';
  if (s.type === 'array') return `[]${typeOf((s.items ?? {}) as JSONSchema)}`;
  if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object')
    return `map[string]${typeOf(s.additionalProperties as JSONSchema)}`;
  if (s.type === 'object' && s['x-kubernetes-preserve-unknown-fields'] === true && !s.properties)
    return 'object (any fields)';
  if (s.type === 'string' && Array.isArray(s.enum))
    return `string, one of ${(s.enum as string[]).join(', ')}`;
  if (s.type === 'string' && s.format === 'date-time') return 'string (date-time)';
  if (s.type === 'integer' && typeof s.format === 'string') return `integer (${s.format})`;
  return typeof s.type === 'string' ? s.type : 'any';
}

/** The node whose fields a path continues into: a list's items, a map's values. */
function inner(s: JSONSchema): JSONSchema {
  if (s.type === 'array' && s.items) return inner(s.items as JSONSchema);
  if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object')
    return inner(s.additionalProperties as JSONSchema);
  return s;
}

/** The description of a node: its own, else the first sentence of its Kubernetes type's. */
function descriptionOf(s: JSONSchema): string {
  if (typeof s.description === 'string') return s.description;
  const named = inner(s);
  const ref = typeof named.$ref === 'string' ? named.$ref : undefined;
  const def = ref === undefined ? undefined : k8sDefinition(ref);
  return typeof def?.description === 'string' ? `(Kubernetes) ${firstSentence(def.description)}` : '';
}

/** Every field of a kind's schema at one version, depth first in the schema's order. */
export function crdFields(kind: string, version: string): CrdField[] {
  const out: CrdField[] = [];
  const visit = (s: JSONSchema, prefix: string) => {
    const node = inner(s);
    if (typeof node.$ref === 'string') return; // a Kubernetes type: named, not expanded
    const extended = typeof node[EXTENDS_K8S] === 'string' ? (node[EXTENDS_K8S] as string) : undefined;
    const base = extended === undefined ? {} : props((k8sDefinition(extended) ?? {}) as JSONSchema);
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    for (const [name, child] of Object.entries(props(node))) {
      if (Object.hasOwn(base, name)) continue; // a field of the Kubernetes type it extends
      const path = `${prefix}${prefix ? '.' : ''}${name}${inner(child) !== child && child.type === 'array' ? '[]' : ''}`;
      // The root's metadata is the API server's ObjectMeta, which a CRD schema leaves open.
      const rootMetadata = path === 'metadata' && descriptionOf(child) === '';
      out.push({
        path,
        type: rootMetadata ? 'ObjectMeta' : typeOf(child),
        required: required.has(name),
        description: rootMetadata
          ? "(Kubernetes) The object's name, namespace, labels, annotations, owners and finalizers."
          : descriptionOf(child),
      });
      visit(child, path);
    }
  };
  visit(kindSchema(kind, version), '');
  return out;
}

function table(fields: CrdField[]): string[] {
  return [
    '| field | type | description |',
    '| --- | --- | --- |',
    ...fields.map(
      (f) =>
        `| ${code(f.path)}${f.required ? ' (required)' : ''} | ${cell(f.type)} | ${cell(f.description)} |`,
    ),
  ];
}

/** The Markdown of docs/reference/crd-fields.md, from the schemas as they are now. */
export function renderCrdFieldsReference(): string {
  const kinds = [...kruiseKinds].sort((a, b) => a.kind.localeCompare(b.kind));
  let missing = 0;
  let total = 0;
  const body: string[] = [];
  for (const k of kinds) {
    body.push(`## ${k.kind}`, '');
    const names = [k.plural, ...k.shortNames].map((n) => code(n)).join(', ');
    const versions = k.versions.map((v) => `${code(v.name)}${v.storage ? ' (storage)' : ''}`).join(', ');
    body.push(
      `\`${k.group}\`, ${k.namespaced ? 'namespaced' : 'cluster-scoped'}; names ${names}; versions ${versions}.`,
      '',
    );
    let previous: { version: string; json: string } | undefined;
    for (const v of k.versions) {
      const fields = crdFields(k.kind, v.name);
      const json = JSON.stringify(fields);
      if (k.versions.length > 1) body.push(`### ${k.kind} ${v.name}`, '');
      if (previous && previous.json === json) {
        body.push(`The same fields as ${previous.version}.`, '');
        continue;
      }
      total += fields.length;
      missing += fields.filter((f) => f.description === '').length;
      body.push(...table(fields), '');
      previous = { version: v.name, json };
    }
  }
  const lines = [
    banner('scripts/docs/gen-crd-fields-reference.ts from packages/api/src/crdSchemas.ts'),
    '# CRD field reference',
    '',
    'Every field of every `apps.kruise.io` kind kruise-ts serves, per version, with its type and the',
    'description `kubectl explain` prints, read from the schemas the CRD manifests of `packages/api/crds/`',
    '(for example [clonesets.apps.kruise.io.yaml](../../packages/api/crds/clonesets.apps.kruise.io.yaml))',
    'are generated from. A field whose type names a',
    'Kubernetes type (`PodTemplateSpec`, `Toleration`, `LabelSelector`, ...) holds that type as the',
    'Kubernetes API reference describes it (`kubectl explain clonesets.spec.template` prints it too);',
    "a type marked *extended* is a Kubernetes type with the fields listed added. `[]` marks a list's",
    "items. The CRDs' names, scopes, printer columns and subresources are in [crds.md](crds.md).",
    '',
    missing === 0
      ? `${total} fields, each described.`
      : `${total} fields; ${missing} have no description yet.`,
    '',
    ...kinds.map((k) => `- [${k.kind}](#${k.kind.toLowerCase()})`),
    '',
    ...body,
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
