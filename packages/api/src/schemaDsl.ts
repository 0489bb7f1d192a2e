// A tiny DSL for structural openAPIV3Schema nodes, used by crdSchemas.ts and
// crdSchemasJobs.ts. Every node has a `type`, or `x-kubernetes-preserve-unknown-fields`,
// or is the int-or-string pattern, or refers to a generated Kubernetes type (`k8sRef`,
// expanded when a CRD is built), so the CRD schemas stay structural. `desc` gives a field the
// description `kubectl explain` prints: what the field does and its default, in our words from
// docs/reference (packages/api/test/crdDescriptions.test.ts requires one on every field).
import type { JSONSchema } from './structure/jsonSchema';
import { k8sRef } from './structure/k8sRefs';

export type { JSONSchema } from './structure/jsonSchema';

/** `schema` with a description (replacing one it had, e.g. a Kubernetes type's own). */
export const desc = (description: string, schema: JSONSchema): JSONSchema => ({ ...schema, description });

export const str = (): JSONSchema => ({ type: 'string' });
export const int32 = (): JSONSchema => ({ type: 'integer', format: 'int32' });
export const int64 = (): JSONSchema => ({ type: 'integer', format: 'int64' });
export const bool = (): JSONSchema => ({ type: 'boolean' });
export const time = (): JSONSchema => ({ type: 'string', format: 'date-time' });
export const intOrString = (): JSONSchema => ({
  anyOf: [{ type: 'integer' }, { type: 'string' }],
  'x-kubernetes-int-or-string': true,
});
export const obj = (properties: Record<string, JSONSchema>, required?: string[]): JSONSchema => ({
  type: 'object',
  properties,
  ...(required && required.length > 0 ? { required } : {}),
});
export const arr = (items: JSONSchema): JSONSchema => ({ type: 'array', items });
export const mapOf = (value: JSONSchema): JSONSchema => ({ type: 'object', additionalProperties: value });
export const strMap = (): JSONSchema => mapOf(str());
export const free = (): JSONSchema => ({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
export const enumOf = (values: string[]): JSONSchema => ({ type: 'string', enum: values });

export const labelSelector = (): JSONSchema => k8sRef('LabelSelector');

export const condition = (): JSONSchema =>
  obj(
    {
      type: desc('The kind of condition, e.g. Ready or Failed.', str()),
      status: desc('True, False or Unknown.', str()),
      lastProbeTime: desc('When the condition was last checked.', time()),
      lastTransitionTime: desc('When the status last changed.', time()),
      reason: desc('A one-word, CamelCase reason for the last transition.', str()),
      message: desc('A human-readable explanation of the last transition.', str()),
    },
    ['type', 'status'],
  );

/** `conditions` of a status: the latest observations of the object's state. */
export const conditions = (): JSONSchema =>
  desc("The latest observations of the object's state, one entry per condition type.", arr(condition()));

/** A lifecycle hook; `what` says when it holds the pod (kruise's rules, cloneset.md §11). */
export const lifecycleHook = (what: string): JSONSchema =>
  desc(
    what,
    obj({
      labelsHandler: desc('Labels (key: value) the hook looks for on the pod.', strMap()),
      finalizersHandler: desc('Finalizers the hook looks for on the pod.', arr(str())),
      markPodNotReady: desc(
        'Turns the pod not ready (its KruisePodReady condition) when it enters PreparingDelete or PreparingUpdate, so Services stop sending it traffic; only for pods whose template lists the KruisePodReady readiness gate. Default false.',
        bool(),
      ),
    }),
  );
export const lifecycle = (): JSONSchema =>
  desc(
    'Hooks that hold a pod in a preparing state so another component can act first: before it is deleted, around an in-place update, and after it is created.',
    obj({
      preDelete: lifecycleHook(
        'Before deleting a pod the controller marks it PreparingDelete and waits while any of these labels or finalizers is on it.',
      ),
      inPlaceUpdate: lifecycleHook(
        'Before updating a pod in place the controller marks it PreparingUpdate and waits while any of these labels or finalizers is on it; after the update the pod stays Updated until all of them are back.',
      ),
      preNormal: lifecycleHook(
        'A new pod stays PreparingNormal until all of these labels and finalizers are on it.',
      ),
    }),
  );
export const priorityStrategy = (): JSONSchema =>
  desc(
    'The order in which pods are updated: by weighted selectors or by the value of a label. The two forms may not be combined.',
    obj({
      orderPriority: desc(
        'Label keys that order the update, used when there are no weight terms: a pod is ranked by the first key it carries (earlier keys first, pods with none of them before all), then by the number the label value ends with, larger first.',
        arr(obj({ orderedKey: desc('A label key whose value ends with a number.', str()) }, ['orderedKey'])),
      ),
      weightPriority: desc(
        'Selectors with weights: a pod whose matching selectors add up to a larger weight is updated earlier.',
        arr(
          obj(
            {
              weight: desc('The weight of this term, 0 to 100.', int32()),
              matchSelector: desc('The pods this term adds its weight to.', labelSelector()),
            },
            ['matchSelector', 'weight'],
          ),
        ),
      ),
    }),
  );
export const scatterStrategy = (): JSONSchema =>
  desc(
    'Label key: value pairs whose pods are spread evenly through the update order instead of updated one after another.',
    arr(
      obj(
        {
          key: desc('The label key.', str()),
          value: desc('The label value.', str()),
        },
        ['key', 'value'],
      ),
    ),
  );
export const inPlaceUpdateStrategy = (): JSONSchema =>
  desc(
    'How an in-place update runs.',
    obj({
      gracePeriodSeconds: desc(
        'Seconds to wait between marking a pod not ready and changing its containers, so traffic can drain. Default 0.',
        int32(),
      ),
    }),
  );

/** Wraps spec and status schemas into the root object schema. */
export function root(spec: JSONSchema, status: JSONSchema, required?: string[]): JSONSchema {
  return obj(
    {
      apiVersion: desc(
        'The version of the schema this object is written in, e.g. apps.kruise.io/v1alpha1.',
        str(),
      ),
      kind: desc('The kind of object, e.g. CloneSet.', str()),
      // The API server refuses a CRD whose root metadata says more than its type (a
      // description included): it is always Kubernetes' ObjectMeta.
      metadata: { type: 'object' },
      spec: desc('The desired state, written by the user.', spec),
      status: desc('The observed state, written by the controller; read-only.', status),
    },
    required,
  );
}
