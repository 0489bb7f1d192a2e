// A tiny DSL for structural openAPIV3Schema nodes, used by crdSchemas.ts and
// crdSchemasJobs.ts. Every node has a `type`, or `x-kubernetes-preserve-unknown-fields`,
// or is the int-or-string pattern, or refers to a generated Kubernetes type (`k8sRef`,
// expanded when a CRD is built), so the CRD schemas stay structural.
import type { JSONSchema } from './structure/jsonSchema';
import { k8sRef } from './structure/k8sRefs';

export type { JSONSchema } from './structure/jsonSchema';

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
      type: str(),
      status: str(),
      lastProbeTime: time(),
      lastTransitionTime: time(),
      reason: str(),
      message: str(),
    },
    ['type', 'status'],
  );

export const lifecycleHook = (): JSONSchema =>
  obj({ labelsHandler: strMap(), finalizersHandler: arr(str()), markPodNotReady: bool() });
export const lifecycle = (): JSONSchema =>
  obj({ preDelete: lifecycleHook(), inPlaceUpdate: lifecycleHook(), preNormal: lifecycleHook() });
export const priorityStrategy = (): JSONSchema =>
  obj({
    orderPriority: arr(obj({ orderedKey: str() }, ['orderedKey'])),
    weightPriority: arr(
      obj({ weight: int32(), matchSelector: labelSelector() }, ['matchSelector', 'weight']),
    ),
  });
export const scatterStrategy = (): JSONSchema => arr(obj({ key: str(), value: str() }, ['key', 'value']));
export const inPlaceUpdateStrategy = (): JSONSchema => obj({ gracePeriodSeconds: int32() });

/** Wraps spec and status schemas into the root object schema. */
export function root(spec: JSONSchema, status: JSONSchema, required?: string[]): JSONSchema {
  return obj(
    {
      apiVersion: str(),
      kind: str(),
      metadata: { type: 'object' },
      spec,
      status,
    },
    required,
  );
}
