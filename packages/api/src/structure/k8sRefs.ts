// References from the Kruise schemas (crdSchemas.ts) to the generated Kubernetes definitions
// (k8sDefinitions.generated.ts), and their expansion into the self-contained schema a CRD must
// publish. Inside the package a schema keeps `{ $ref: 'PodTemplateSpec' }` (small, built per call,
// what checkStructure walks); only a CRD manifest inlines it, as a structural CRD schema may not
// use $ref.
//
// What a CRD publishes is bounded by `kubectl apply`: client-side apply copies the whole object
// into the `last-applied-configuration` annotation, and annotations may total 256 KiB. A pod
// template with Kubernetes' descriptions is about 180 KB, so a CloneSet CRD with them (375 KB)
// could not be applied. Hence a CRD carries the Kubernetes types without their descriptions (the
// generated definitions keep them), and a template nested one workload deeper (a
// UnitedDeployment's subset templates, an AdvancedCronJob's job templates: four pod templates
// each) publishes its pod and PVC templates as `x-kubernetes-preserve-unknown-fields`; those are
// still checked in full by checkStructure, which the validating webhooks run.
import type { JSONSchema } from './jsonSchema';
import { k8sDefinitions } from './k8sDefinitions.generated';

/** The marker `nestedWorkload()` puts on a node (removed when a CRD is built). */
export const NESTED_WORKLOAD = 'x-kruise-ts-nested-workload';

/** The Kubernetes types a nested workload's CRD schema leaves open (see the header). */
const OPEN_IN_NESTED: readonly string[] = ['PodTemplateSpec', 'PersistentVolumeClaim'];

/**
 * A schema node standing for a Kubernetes type, e.g. `k8sRef('Toleration')` for one entry of
 * `topology.subsets[].tolerations`.
 */
export function k8sRef(name: string): JSONSchema {
  return { $ref: name };
}

/**
 * Marks a workload spec embedded in another kind (a UnitedDeployment subset template): checked
 * in full, published in the CRD with its pod and PVC templates open (see the header).
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
 * definition it names, without the Kubernetes types' descriptions, and with nested workloads'
 * pod and PVC templates left open (see the header). Kubernetes' types do not refer to themselves,
 * so the expansion ends; a cycle or an unknown name is a generator bug and throws (this runs when
 * the CRDs are built, never on user input).
 */
export function inlineK8sRefs(schema: JSONSchema): JSONSchema {
  return inline(schema, [], false);
}

function inline(schema: JSONSchema, seen: readonly string[], nested: boolean): JSONSchema {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref;
    const def = k8sDefinition(name);
    if (!def) throw new Error(`no Kubernetes definition named ${name}`);
    if (seen.includes(name)) throw new Error(`the Kubernetes definitions refer to ${name} in a cycle`);
    if (nested && OPEN_IN_NESTED.includes(name)) {
      return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    }
    const { $ref: _ref, ...rest } = schema;
    return inline({ ...def, ...rest }, [...seen, name], nested);
  }
  const isNested = nested || schema[NESTED_WORKLOAD] === true;
  const out: JSONSchema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === NESTED_WORKLOAD || k === 'description') continue;
    if (k === 'properties' && v && typeof v === 'object') {
      out[k] = Object.fromEntries(
        Object.entries(v as Record<string, JSONSchema>).map(([p, s]) => [p, inline(s, seen, isNested)]),
      );
    } else if ((k === 'items' || k === 'additionalProperties') && v && typeof v === 'object') {
      out[k] = inline(v as JSONSchema, seen, isNested);
    } else if (k === 'required' && Array.isArray(v) && v.length === 0) {
      // `required: []` lifts a definition's requirements (see walk.ts); a CRD omits it.
    } else if (Array.isArray(v)) {
      out[k] = v.map((x) =>
        x && typeof x === 'object' && !Array.isArray(x) ? inline(x, seen, isNested) : x,
      );
    } else {
      out[k] = v;
    }
  }
  return out;
}
