// The structure server-side apply merges and owns an object by: for each node whether it is a
// scalar, a struct or map (granular, or atomic: owned as one field), or a list (atomic, a set of
// scalars, or a map keyed by some fields of its items), read from the schemas the project has:
// - Kruise kinds: @kruise-ts/api's `kindSchema`, whose pod templates, selectors, tolerations...
//   refer to the generated Kubernetes definitions (`{ $ref: 'PodTemplateSpec' }`); the list and
//   map types of those definitions come from Kubernetes' OpenAPI (k8sListTypes.generated.ts), so
//   containers, volumes, env merge by name, ports by containerPort and protocol, volumeMounts by
//   mountPath, while tolerations and args are atomic, as kube-apiserver has them;
// - other custom resources: the CRD's `openAPIV3Schema`, with its `x-kubernetes-list-type`,
//   `x-kubernetes-list-map-keys` and `x-kubernetes-map-type`;
// - built-in kinds the definitions cover (Pod, Node, Deployment, StatefulSet, Job, ...);
// - anything else is "deduced" from the value, as kube-apiserver does for unknown fields:
//   objects are granular maps, lists atomic.
// An explicit extension in a schema node wins over the generated table.
import { type JSONSchema, k8sDefinitions, kindSchema } from '@kruise-ts/api';
import type { ResourceInfo } from '../registry';
import { k8sAtomicTypes, k8sListTypes } from './k8sListTypes.generated';

/** A node of the structure. */
export type FieldType = ScalarType | MapType | ListType | DeducedType;

/** A leaf. */
export interface ScalarType {
  kind: 'scalar';
}

/** Structure unknown: decided by the value (object → map of deduced, list → atomic). */
export interface DeducedType {
  kind: 'deduced';
}

/** A struct (named fields) and/or a map (any key, one element type). */
export interface MapType {
  kind: 'map';
  /** Owned and replaced as one field. */
  atomic: boolean;
  /** The type of a declared field, or undefined when `name` is not one. */
  field(name: string): FieldType | undefined;
  /** The type of a key that is not a declared field. */
  element(): FieldType;
}

/** A list. */
export interface ListType {
  kind: 'list';
  listType: 'atomic' | 'set' | 'map';
  /** Key fields of a `map` list. */
  keys: readonly string[];
  /** Defaults of key fields an item may leave out. */
  keyDefaults: Readonly<Record<string, unknown>>;
  element(): FieldType;
}

const SCALAR: ScalarType = { kind: 'scalar' };
const DEDUCED: DeducedType = { kind: 'deduced' };

const ATOMIC: ReadonlySet<string> = new Set(k8sAtomicTypes);

/** The deduced structure's map node (any key, deduced values). */
export const DEDUCED_MAP: MapType = {
  kind: 'map',
  atomic: false,
  field: () => undefined,
  element: () => DEDUCED,
};

/** The deduced structure's list node (atomic). */
export const DEDUCED_LIST: ListType = {
  kind: 'list',
  listType: 'atomic',
  keys: [],
  keyDefaults: {},
  element: () => DEDUCED,
};

/** The concrete type of `type` for `value` (a deduced node takes the value's shape). */
export function concrete(type: FieldType, value: unknown): FieldType {
  if (type.kind !== 'deduced') return type;
  if (Array.isArray(value)) return DEDUCED_LIST;
  if (value !== null && typeof value === 'object') return DEDUCED_MAP;
  return SCALAR;
}

/**
 * The structure of a schema node. `where` names the node as `<Definition>.<field>` when it is a
 * field of a generated Kubernetes definition (the key of the generated table).
 */
export function typeOfSchema(schema: unknown, where?: string): FieldType {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return DEDUCED;
  const s = schema as JSONSchema;
  if (typeof s.$ref === 'string') {
    const def = Object.hasOwn(k8sDefinitions, s.$ref) ? k8sDefinitions[s.$ref] : undefined;
    if (!def) return DEDUCED;
    return mapOf(def, s.$ref, ATOMIC.has(s.$ref) || (where !== undefined && ATOMIC.has(where)));
  }
  if (s.type === 'array' || s.items !== undefined) {
    const generated = where !== undefined ? k8sListTypes[where] : undefined;
    const explicit = s['x-kubernetes-list-type'];
    const listType =
      explicit === 'set' || explicit === 'map' || explicit === 'atomic'
        ? explicit
        : (generated?.type ?? 'atomic');
    const keys =
      explicit !== undefined
        ? Array.isArray(s['x-kubernetes-list-map-keys'])
          ? (s['x-kubernetes-list-map-keys'] as unknown[]).filter((k): k is string => typeof k === 'string')
          : []
        : (generated?.keys ?? []);
    const items = s.items;
    return {
      kind: 'list',
      listType: listType === 'map' && keys.length === 0 ? 'atomic' : listType,
      keys,
      keyDefaults: keyDefaults(items, explicit !== undefined ? undefined : generated?.defaults),
      element: () => typeOfSchema(items),
    };
  }
  if (
    s.properties !== undefined ||
    s.additionalProperties !== undefined ||
    s.type === 'object' ||
    s['x-kubernetes-preserve-unknown-fields'] === true
  ) {
    const atomic = s['x-kubernetes-map-type'] === 'atomic' || (where !== undefined && ATOMIC.has(where));
    return mapOf(s, undefined, atomic);
  }
  return SCALAR;
}

/** Key defaults: the generated ones, or the `default`s of the key properties of a CRD's items. */
function keyDefaults(items: unknown, generated?: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (generated) return { ...generated };
  const props = (items as JSONSchema | undefined)?.properties as Record<string, JSONSchema> | undefined;
  const out: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(props ?? {})) if (p?.default !== undefined) out[k] = p.default;
  return out;
}

function mapOf(s: JSONSchema, defName: string | undefined, atomic: boolean): MapType {
  const props = (s.properties ?? {}) as Record<string, unknown>;
  const additional = s.additionalProperties;
  return {
    kind: 'map',
    atomic,
    field: (name) =>
      Object.hasOwn(props, name)
        ? typeOfSchema(props[name], defName !== undefined ? `${defName}.${name}` : undefined)
        : undefined,
    element: () =>
      additional !== undefined && additional !== null && typeof additional === 'object'
        ? typeOfSchema(additional)
        : DEDUCED,
  };
}

/** Root schemas of the built-in kinds the generated definitions describe. */
const BUILTIN_ROOTS: Readonly<Record<string, () => JSONSchema>> = {
  Pod: () => ({ $ref: 'Pod' }),
  Node: () => ({ $ref: 'Node' }),
  Namespace: () => ({ $ref: 'Namespace' }),
  PersistentVolumeClaim: () => ({ $ref: 'PersistentVolumeClaim' }),
  ControllerRevision: () => ({ $ref: 'ControllerRevision' }),
  Deployment: () => withSpec({ $ref: 'DeploymentSpec' }),
  StatefulSet: () => withSpec({ $ref: 'StatefulSetSpec' }),
  Job: () => withSpec({ $ref: 'JobSpec' }),
  ReplicaSet: () =>
    withSpec({
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        minReadySeconds: { type: 'integer' },
        selector: { $ref: 'LabelSelector' },
        template: { $ref: 'PodTemplateSpec' },
      },
    }),
};

function withSpec(spec: JSONSchema): JSONSchema {
  return {
    type: 'object',
    properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, spec },
    'x-kubernetes-preserve-unknown-fields': true,
  };
}

/**
 * The structure of a served resource's objects (see the header). `metadata` is always
 * Kubernetes' ObjectMeta: labels and annotations granular, ownerReferences keyed by uid,
 * finalizers a set.
 */
export function resourceType(res: ResourceInfo): FieldType {
  let root: JSONSchema | undefined;
  if (res.custom && res.group.endsWith('kruise.io')) root = kindSchema(res.kind, res.version);
  else if (res.custom) root = res.schema as JSONSchema | undefined;
  else if (res.group === '' || res.group === 'apps' || res.group === 'batch')
    root = BUILTIN_ROOTS[res.kind]?.();
  const base =
    root !== undefined && root !== null && typeof root === 'object'
      ? typeOfSchema(root)
      : (DEDUCED_MAP as FieldType);
  if (base.kind !== 'map') return base;
  const metadata = typeOfSchema({ $ref: 'ObjectMeta' });
  return { ...base, field: (name) => (name === 'metadata' ? metadata : base.field(name)) };
}
