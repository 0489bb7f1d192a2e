// References from the Kruise schemas (crdSchemas.ts) to the generated Kubernetes definitions
// (k8sDefinitions.generated.ts), and their expansion into the self-contained schema a CRD must
// publish. Inside the package a schema keeps `{ $ref: 'PodTemplateSpec' }` (small, built per call,
// what checkStructure walks); only a CRD manifest inlines it, as a structural CRD schema may not
// use $ref.
//
// A CRD publishes the Kubernetes types with their descriptions (from kubernetes-models, the text
// `kubectl explain` prints) and with their list and map types (from Kubernetes' OpenAPI,
// k8sExtensions.generated.ts), so a real API server validates, prunes and merges a pod template
// as it does a Deployment's (containers by name, ports by containerPort and protocol). What a
// CRD may weigh bounds it: etcd refuses an object over 1.5 MiB, and a UnitedDeployment publishes
// four workload templates (an AdvancedCronJob four pod templates over two versions), about
// 1.5 MB each in full. So a template nested one workload deeper (`nestedWorkload()`) keeps every
// field, type and list type but only the first sentence of each Kubernetes description (about
// 0.7 MB per CRD). A CRD of a pod template is still over 256 KiB, the most client-side `kubectl
// apply` can copy into its last-applied annotation: install the CRDs with
// `kubectl apply --server-side` (or `kubectl create`).
import type { JSONSchema } from './jsonSchema';
import { k8sDefinitions } from './k8sDefinitions.generated';
import { k8sExtensions } from './k8sExtensions.generated';

/** The marker `nestedWorkload()` puts on a node (removed when a CRD is built). */
export const NESTED_WORKLOAD = 'x-kruise-ts-nested-workload';

/**
 * The marker `extendsK8s()` puts on a node built from a Kubernetes definition's fields (removed
 * when a CRD is built, where the definition's list and map types are added to those fields).
 */
export const EXTENDS_K8S = 'x-kruise-ts-extends';

/**
 * Marks `schema` as Kubernetes' definition `name` with fields of its own added, e.g. a SidecarSet
 * container (a Container plus podInjectPolicy, ...): its CRD carries the list and map types of
 * the Container fields, as a `$ref` would.
 */
export function extendsK8s(name: string, schema: JSONSchema): JSONSchema {
  return { ...schema, [EXTENDS_K8S]: name };
}

/**
 * A schema node standing for a Kubernetes type, e.g. `k8sRef('Toleration')` for one entry of
 * `topology.subsets[].tolerations`.
 */
export function k8sRef(name: string): JSONSchema {
  return { $ref: name };
}

/**
 * Marks a workload spec embedded in another kind (a UnitedDeployment subset template): checked
 * and published in full, with the Kubernetes descriptions under it cut to their first sentence
 * in the CRD (see the header).
 */
export function nestedWorkload(schema: JSONSchema): JSONSchema {
  return { ...schema, [NESTED_WORKLOAD]: true };
}

/** The definition a `$ref` names, or undefined for a name the generator did not produce. */
export function k8sDefinition(name: unknown): JSONSchema | undefined {
  return typeof name === 'string' && Object.hasOwn(k8sDefinitions, name) ? k8sDefinitions[name] : undefined;
}

/**
 * The schema a CRD publishes for `schema`: a deep copy with every `$ref` replaced by the
 * definition it names, and the Kubernetes descriptions under a nested workload cut to their
 * first sentence (see the header). Kubernetes' types do not refer to themselves, so the expansion
 * ends; a cycle or an unknown name is a generator bug and throws (this runs when the CRDs are
 * built, never on user input).
 */
export function inlineK8sRefs(schema: JSONSchema): JSONSchema {
  return inline(schema, [], false, false);
}

/**
 * A definition with the list and map types Kubernetes' OpenAPI gives it and its fields
 * (k8sExtensions.generated.ts), and the defaults of list-map keys that are not required: a CRD
 * may only key a list by fields that are required or defaulted.
 */
function withExtensions(name: string, def: JSONSchema): JSONSchema {
  const props = (def.properties ?? {}) as Record<string, JSONSchema>;
  const properties: Record<string, JSONSchema> = {};
  for (const [p, s] of Object.entries(props)) {
    const key = `${name}.${p}`;
    const d = k8sExtensions.keyDefaults[key];
    properties[p] = { ...s, ...k8sExtensions.fields[key], ...(d !== undefined ? { default: d } : {}) };
  }
  return { ...def, ...k8sExtensions.definitions[name], ...(def.properties ? { properties } : {}) };
}

/**
 * The first sentence of a Kubernetes description: up to the first full stop followed by a
 * capital letter or the end (`e.g. the` and `1.5 cores` do not end one).
 */
export function firstSentence(text: string): string {
  return /^[\s\S]*?\.(?=\s+[A-Z]|\s*$)/.exec(text)?.[0] ?? text;
}

/**
 * `nested`: under a nested workload; `k8s`: inside an expanded Kubernetes definition, whose
 * descriptions are Kubernetes' own (a description written beside a `$ref` outside one is ours).
 */
function inline(schema: JSONSchema, seen: readonly string[], nested: boolean, k8s: boolean): JSONSchema {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref;
    const def = k8sDefinition(name);
    if (!def) throw new Error(`no Kubernetes definition named ${name}`);
    if (seen.includes(name)) throw new Error(`the Kubernetes definitions refer to ${name} in a cycle`);
    const { $ref: _ref, description, ...rest } = schema;
    const out = inline({ ...withExtensions(name, def), ...rest }, [...seen, name], nested, true);
    if (typeof description !== 'string') return out;
    return { ...out, description: nested && k8s ? firstSentence(description) : description };
  }
  const extended = schema[EXTENDS_K8S];
  if (typeof extended === 'string') {
    const { [EXTENDS_K8S]: _name, ...rest } = schema;
    return inline(withExtensions(extended, rest), seen, nested, k8s);
  }
  const isNested = nested || schema[NESTED_WORKLOAD] === true;
  const out: JSONSchema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === NESTED_WORKLOAD) continue;
    if (k === 'description' && typeof v === 'string' && nested && k8s) {
      out[k] = firstSentence(v);
    } else if (k === 'properties' && v && typeof v === 'object') {
      out[k] = Object.fromEntries(
        Object.entries(v as Record<string, JSONSchema>).map(([p, s]) => [p, inline(s, seen, isNested, k8s)]),
      );
    } else if ((k === 'items' || k === 'additionalProperties') && v && typeof v === 'object') {
      out[k] = inline(v as JSONSchema, seen, isNested, k8s);
    } else if (k === 'required' && Array.isArray(v) && v.length === 0) {
      // `required: []` lifts a definition's requirements (see walk.ts); a CRD omits it.
    } else if (Array.isArray(v)) {
      out[k] = v.map((x) =>
        x && typeof x === 'object' && !Array.isArray(x) ? inline(x, seen, isNested, k8s) : x,
      );
    } else {
      out[k] = v;
    }
  }
  return out;
}
