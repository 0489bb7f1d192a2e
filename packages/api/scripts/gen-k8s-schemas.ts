// Generates src/structure/k8sDefinitions.generated.ts: the structural schema of every Kubernetes
// type a Kruise kind embeds or a controller observes (the roots in scripts/k8s-schema-roots.ts),
// one definition per type, linked by `{ $ref: 'Name' }`.
//
// Two maintained sources, each for what only it has:
// - kubernetes-models' declarations (read by ts-json-schema-generator): the fields, their
//   descriptions (what `kubectl explain` prints), the required fields and the enums, e.g.
//   `dnsPolicy` may only be ClusterFirst, ClusterFirstWithHostNet, Default or None;
// - @kubernetes/client-node's attribute tables: the number formats those declarations lose, e.g.
//   PodSpec.priority is an int32 and PodSpec.activeDeadlineSeconds an int64 (both `number` there).
// The list and map types of these definitions (`x-kubernetes-list-type`, ...), which neither
// package carries, come from Kubernetes' own OpenAPI documents: scripts/k8s-openapi-extensions.ts
// writes them to src/structure/k8sExtensions.generated.ts when this script is given `--openapi`,
// and the CRDs carry them (structure/k8sRefs.ts).
// Kubernetes' conventions fill the rest: a Quantity is an int-or-string with the quantity
// pattern, a Time a date-time string that may be null (metav1.Time writes its zero value as null,
// as in the `creationTimestamp: null` of every template kubectl prints).
//
// Run from the repo root after bumping either package: npx tsx packages/api/scripts/gen-k8s-schemas.ts
// and after a Kubernetes bump, with the OpenAPI documents of that release (the k8s.io/kubernetes
// Go module's api/openapi-spec/v3 folder):
//   npx tsx packages/api/scripts/gen-k8s-schemas.ts --openapi "$(go env GOMODCACHE)/k8s.io/kubernetes@v1.34.4/api/openapi-spec/v3"
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { createGenerator } from 'ts-json-schema-generator';
import { writeOpenApiExtensions } from './k8s-openapi-extensions';

type Schema = Record<string, any>;

const rootsFile = fileURLToPath(new URL('./k8s-schema-roots.ts', import.meta.url));
const tsconfig = fileURLToPath(new URL('../../../tsconfig.base.json', import.meta.url));
const outFile = fileURLToPath(new URL('../src/structure/k8sDefinitions.generated.ts', import.meta.url));

/** Each root and the client-node model class that carries its number formats. */
const roots: Record<string, string> = {
  ControllerRevision: 'V1ControllerRevision',
  DeploymentSpec: 'V1DeploymentSpec',
  StatefulSetSpec: 'V1StatefulSetSpec',
  JobTemplateSpec: 'V1JobTemplateSpec',
  Namespace: 'V1Namespace',
  Node: 'V1Node',
  PersistentVolumeClaim: 'V1PersistentVolumeClaim',
  Pod: 'V1Pod',
  PodTemplateSpec: 'V1PodTemplateSpec',
};

/** The Kubernetes quantity syntax, as controller-gen writes it into CRDs (`1Gi`, `500m`, `1e3`). */
const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

/** Definitions Kubernetes gives a special JSON form, whatever the declarations say. */
const special: Record<string, (description?: string) => Schema> = {
  IntOrString: (d) => ({
    ...desc(d),
    'x-kubernetes-int-or-string': true,
    anyOf: [{ type: 'integer' }, { type: 'string' }],
  }),
  Quantity: (d) => ({
    ...desc(d),
    'x-kubernetes-int-or-string': true,
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    pattern: QUANTITY_PATTERN,
  }),
  Time: (d) => ({ ...desc(d), type: 'string', format: 'date-time', nullable: true }),
  MicroTime: (d) => ({ ...desc(d), type: 'string', format: 'date-time', nullable: true }),
  FieldsV1: (d) => ({ ...desc(d), type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
  RawExtension: (d) => ({ ...desc(d), type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
};

function desc(d: unknown): Schema {
  return typeof d === 'string' && d !== '' ? { description: d } : {};
}

/**
 * The definitions, from the two packages as installed: what the committed module must equal
 * (packages/api/test/k8sDefinitions.test.ts checks it). Throws where the sources disagree or
 * hold something this schema subset cannot say (a union type, a number without a format).
 */
export function buildK8sDefinitions(): Record<string, Schema> {
  // ---- 1. the declarations, as JSON Schema ---------------------------------------------------------

  const generated = createGenerator({
    path: rootsFile,
    tsconfig,
    type: '*',
    skipTypeCheck: true,
    expose: 'all',
    topRef: true,
    jsDoc: 'extended',
    additionalProperties: false,
  }).createSchema('*');
  const raw = generated.definitions as Record<string, Schema>;

  /** `IPodSpec` -> `PodSpec`: kubernetes-models names each interface `I<Type>`. */
  const rename = (n: string) => n.replace(/^I(?=[A-Z])/, '');
  const refName = (ref: string) => rename(decodeURIComponent(ref.replace('#/definitions/', '')));

  // ---- 2. into the openAPIV3 subset a structural CRD schema allows ----------------------------------

  function convert(s: Schema, at: string): Schema {
    if (s.$ref) return { $ref: refName(s.$ref), ...desc(s.description) };
    const d = desc(s.description);
    if (s.const !== undefined || s.enum) {
      const values = s.enum ?? [s.const];
      if (!values.every((v: unknown) => typeof v === 'string')) throw new Error(`${at}: non-string enum`);
      return { ...d, type: 'string', enum: values };
    }
    if (Array.isArray(s.type)) throw new Error(`${at}: union type ${JSON.stringify(s.type)}`);
    if (s.anyOf || s.oneOf || s.allOf) throw new Error(`${at}: union (anyOf/oneOf/allOf)`);
    switch (s.type) {
      case 'string':
      case 'boolean':
        return { ...d, type: s.type };
      case 'number':
        return { ...d, type: 'number', 'x-format-pending': true };
      case 'array':
        return { ...d, type: 'array', items: convert(s.items, `${at}[]`) };
      case 'object': {
        const props = s.properties as Record<string, Schema> | undefined;
        if (props && Object.keys(props).length > 0) {
          const properties: Record<string, Schema> = {};
          for (const [k, v] of Object.entries(props)) properties[k] = convert(v, `${at}.${k}`);
          const required = (s.required as string[] | undefined)?.slice().sort();
          return { ...d, type: 'object', properties, ...(required?.length ? { required } : {}) };
        }
        if (s.additionalProperties && typeof s.additionalProperties === 'object') {
          return { ...d, type: 'object', additionalProperties: convert(s.additionalProperties, `${at}{}`) };
        }
        return { ...d, type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
      }
      default:
        throw new Error(`${at}: unsupported schema ${JSON.stringify(s).slice(0, 200)}`);
    }
  }

  const defs: Record<string, Schema> = {};
  for (const [name, s] of Object.entries(raw)) {
    const n = rename(name);
    const out = special[n] ? special[n](s.description) : convert(s, n);
    if (defs[n] && JSON.stringify(defs[n].properties) !== JSON.stringify(out.properties)) {
      throw new Error(`two different types are both named ${n}`);
    }
    // A root (`interface Pod extends IPod {}`) and the type it extends are the same schema.
    if (!defs[n] || name.startsWith('I')) defs[n] = out;
  }

  // A root's apiVersion and kind are plain, optional strings: kubernetes-models pins them to one
  // value (`"v1"`), but a pod handed to a controller often carries neither (it came from a list).
  for (const r of Object.keys(roots)) {
    const p = defs[r].properties;
    for (const k of ['apiVersion', 'kind']) if (p[k]) p[k] = { ...desc(p[k].description), type: 'string' };
    if (defs[r].required) {
      defs[r].required = defs[r].required.filter((k: string) => k !== 'apiVersion' && k !== 'kind');
      if (defs[r].required.length === 0) delete defs[r].required;
    }
  }

  // ---- 3. number formats from client-node's attribute tables ---------------------------------------

  type Attr = { baseName: string; type: string; format: string };
  const models = k8s as unknown as Record<string, { getAttributeTypeMap?: () => Attr[] }>;
  const classOf = new Map<string, string>();
  const queue: string[] = [];
  for (const [r, c] of Object.entries(roots)) {
    classOf.set(r, c);
    queue.push(r);
  }

  /** `Array<V1Container>` -> `V1Container`; `{ [key: string]: V1X; }` -> `V1X`. */
  function innerType(t: string): string {
    const arr = /^Array<(.+)>$/.exec(t);
    if (arr) return innerType(arr[1]);
    const map = /^\{ \[key: string\]: (.+); \}$/.exec(t);
    if (map) return innerType(map[1]);
    return t;
  }

  function numberSchema(format: string, at: string): Schema {
    if (format === 'int32' || format === 'int64') return { type: 'integer', format };
    if (format === 'double') return { type: 'number', format: 'double' };
    throw new Error(`${at}: no number format in client-node (${JSON.stringify(format)})`);
  }

  /** Fills the pending number formats under `node` and queues the definitions it refers to. */
  function annotate(node: Schema, attr: Attr, at: string): void {
    if (node.$ref) {
      const target = node.$ref as string;
      const cls = innerType(attr.type);
      if (special[target] || !/^[A-Z]/.test(cls)) return;
      if (!classOf.has(target)) {
        classOf.set(target, cls);
        queue.push(target);
      }
      return;
    }
    if (node['x-format-pending']) {
      delete node['x-format-pending'];
      Object.assign(node, numberSchema(attr.format, at));
      return;
    }
    if (node.items) annotate(node.items, attr, `${at}[]`);
    if (node.additionalProperties && typeof node.additionalProperties === 'object') {
      annotate(node.additionalProperties, attr, `${at}{}`);
    }
  }

  while (queue.length > 0) {
    const name = queue.shift()!;
    const def = defs[name];
    const cls = classOf.get(name)!;
    const attrs = models[cls]?.getAttributeTypeMap?.();
    if (!attrs) throw new Error(`${name}: client-node has no model ${cls}`);
    for (const [p, node] of Object.entries((def.properties ?? {}) as Record<string, Schema>)) {
      const attr = attrs.find((a) => a.baseName === p);
      if (!attr) {
        if (JSON.stringify(node).includes('x-format-pending')) throw new Error(`${name}.${p}: not in ${cls}`);
        if (node.$ref && !special[node.$ref]) throw new Error(`${name}.${p}: not in ${cls}, cannot follow`);
        continue;
      }
      annotate(node, attr, `${name}.${p}`);
    }
    if (def.additionalProperties) throw new Error(`${name}: a map definition`);
  }
  const unvisited = Object.keys(defs).filter((n) => !classOf.has(n) && !special[n]);
  if (unvisited.length > 0) throw new Error(`definitions not reached from a root: ${unvisited.join(', ')}`);
  if (JSON.stringify(defs).includes('x-format-pending'))
    throw new Error('a number was left without a format');
  return Object.fromEntries(
    Object.keys(defs)
      .sort()
      .map((k) => [k, defs[k]]),
  );
}

// ---- 4. write the module ----------------------------------------------------------------------------

function main(): void {
  const sorted = buildK8sDefinitions();
  writeFileSync(
    outFile,
    [
      '// biome-ignore-all format: generated by packages/api/scripts/gen-k8s-schemas.ts; do not edit.',
      '// The structural schema of each Kubernetes type a Kruise kind embeds or a controller observes,',
      '// from kubernetes-models (fields, descriptions, required, enums) and @kubernetes/client-node',
      "// (number formats). A definition refers to another as `{ $ref: 'Name' }`.",
      "import type { JSONSchema } from './jsonSchema';",
      '',
      `export const k8sDefinitions: Readonly<Record<string, JSONSchema>> = ${JSON.stringify(sorted, null, 1)};`,
      '',
    ].join('\n'),
  );
  console.log(`wrote ${Object.keys(sorted).length} definitions to ${outFile}`);
  const at = process.argv.indexOf('--openapi');
  if (at >= 0) {
    const dir = process.argv[at + 1];
    if (!dir) throw new Error('--openapi needs the api/openapi-spec/v3 folder of k8s.io/kubernetes');
    writeOpenApiExtensions(dir, Object.keys(sorted));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
