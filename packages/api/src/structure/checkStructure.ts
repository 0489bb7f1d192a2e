// checkStructure: the one structural check every object passes before any rule of its kind runs.
// It holds the object to the schema its kind publishes (the Kruise kinds' CRD schemas with the
// Kubernetes types they embed; Pod, Node, Namespace, PersistentVolumeClaim and ControllerRevision
// from the generated Kubernetes definitions): JSON types, required fields, int32 and int64 ranges,
// quantities, enums, unknown fields, and the metadata syntax (names, labels, annotations and
// their 256 KiB total). A rule that then reads `pod.metadata.labels[k]` can rely on a string.
//
// Each kind's schema is compiled into a checker (compiledSchema.ts) and walked (walk.ts). Repeated
// checks of the same observed objects (thousands of pods per reconcile) are made cheap by a cache
// the caller owns and passes in (createStructureCache): the schemas are compiled once, an object
// already checked is answered by one lookup, and a new version of one is walked only along what
// changed since its last clean version. Nothing is kept between calls otherwise.
import { kindSchema } from '../crdSchemas';
import { findKruiseKind, kruiseKinds } from '../kinds';
import { CompiledSchemas, walkMode } from './compiledSchema';
import { enumError, invalidError, type StructureError, typeError } from './errors';
import type { JSONSchema } from './jsonSchema';
import { k8sRef } from './k8sRefs';
import { walk } from './walk';

/** The Kubernetes kinds checkStructure knows besides the Kruise kinds, and their apiVersions. */
export const structureBuiltinKinds: Readonly<Record<string, string>> = {
  Pod: 'v1',
  Node: 'v1',
  Namespace: 'v1',
  PersistentVolumeClaim: 'v1',
  ControllerRevision: 'apps/v1',
};

/**
 * Memory of earlier checks that a caller keeps across calls, e.g. for one reconcile's pods or
 * for the life of an informer cache. Objects are remembered by identity, so it is only sound for
 * objects nobody mutates (kruise-ts never mutates its inputs). Create with createStructureCache.
 */
export interface StructureCache {
  /** Per object, per `<kind>/<observed>/<admission>`: the errors found. */
  readonly results: WeakMap<object, Map<string, readonly StructureError[]>>;
  /**
   * The schemas compiled into checkers (once per cache, not per call), and per root schema and
   * walk mode the last version of each `spec` found clean: a new version of a pod whose status
   * changed keeps its `spec` (by identity), is walked beside that version, and what it shares
   * with it by identity (the spec, labels, most conditions) is not walked again.
   */
  readonly schemas: CompiledSchemas;
  /**
   * For the guard at a reconcile's entry (core's screenObservedInput and dedupeObserved): per
   * observed list, keyed by its first element, the elements of the last version of it found
   * clean. A later list holding the same objects at the same places is answered by one identity
   * comparison per element, cheaper than a lookup in `results` per object. Kept weakly: the
   * memory goes when that first object does.
   */
  readonly observedLists: WeakMap<object, ObservedListMemo>;
}

/**
 * What StructureCache remembers of one observed list: every element was found to fit `kind`,
 * and, once `distinct` is set, no two of them share an identity (core's dedupeObserved).
 */
export interface ObservedListMemo {
  /** The kind the elements were checked against (a kind name, or the function naming it). */
  readonly kind: unknown;
  /** A copy of the list's elements, in order (a copy: the caller's array may change later). */
  readonly elements: readonly unknown[];
  /** The elements are known to be one copy per object identity. */
  distinct: boolean;
}

/** A new, empty cache for checkStructure's `cache` option. */
export function createStructureCache(): StructureCache {
  return { results: new WeakMap(), schemas: new CompiledSchemas(), observedLists: new WeakMap() };
}

/** The answer of a clean object, shared by every cache entry that has no error. */
const NO_ERRORS: readonly StructureError[] = Object.freeze([]);

/** Options of checkStructure. */
export interface CheckStructureOptions {
  /**
   * The object was read from a cluster (an observed pod, node or revision), not written by a
   * user: fields and enum values unknown to this schema are let through, as they may come from
   * a newer Kubernetes. Types, ranges, required fields and syntax are still checked. Default false.
   */
  observed?: boolean;
  /**
   * Check the object as a validating webhook receives it (what every validate<Kind> does): the
   * API server has already dropped the fields its schema does not declare (or refused them, under
   * `kubectl --validate=strict`) and checked the object's own name and namespace, so neither is
   * checked again. A kind's own name rule then applies, e.g. a SidecarSet name may hold capitals;
   * and a v1alpha1 StatefulSet carrying a v1beta1-only field has it ignored, as once pruned.
   * Default false.
   */
  admission?: boolean;
  /** Remembers results by object identity across calls (see StructureCache). */
  cache?: StructureCache;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The root schema for `kind` at the version `apiVersion` names: a key naming it (kind and
 * version), a function building it, and the errors of the kind and apiVersion themselves.
 */
function rootSchema(
  kind: string,
  apiVersion: unknown,
): { key?: string; schema?: () => JSONSchema; errors: StructureError[] } {
  const builtin = Object.hasOwn(structureBuiltinKinds, kind) ? structureBuiltinKinds[kind] : undefined;
  if (builtin !== undefined) {
    const errors =
      apiVersion !== undefined && apiVersion !== builtin
        ? [enumError('apiVersion', apiVersion, [builtin])]
        : [];
    return { key: kind, schema: () => k8sRef(kind), errors };
  }
  const info = findKruiseKind(kind);
  if (!info) {
    const known = [...Object.keys(structureBuiltinKinds), ...kruiseKinds.map((k) => k.kind)].sort();
    return { errors: [enumError('kind', kind, known)] };
  }
  const served = info.versions.filter((v) => v.served);
  const storage = served.find((v) => v.storage) ?? served[0];
  const wanted = served.find((v) => `${info.group}/${v.name}` === apiVersion);
  const errors: StructureError[] = [];
  if (apiVersion !== undefined && !wanted) {
    errors.push(
      enumError(
        'apiVersion',
        apiVersion,
        served.map((v) => `${info.group}/${v.name}`),
      ),
    );
  }
  const version = (wanted ?? storage).name;
  return { key: `${kind}/${version}`, schema: () => kruiseRoot(kindSchema(kind, version)), errors };
}

/**
 * A Kruise kind's root with its metadata as the full ObjectMeta: the CRD has a bare object there
 * (the API server checks it itself); the built-in kinds' schemas have it already.
 */
function kruiseRoot(schema: JSONSchema): JSONSchema {
  if (schema.$ref !== undefined) return schema;
  return {
    ...schema,
    properties: { ...(schema.properties as Record<string, JSONSchema>), metadata: k8sRef('ObjectMeta') },
  };
}

function check(
  kind: string,
  object: unknown,
  observed: boolean,
  admission: boolean,
  cache: StructureCache | undefined,
): StructureError[] {
  if (!isRecord(object)) return [typeError('', 'object', object)];
  const { key, schema, errors } = rootSchema(kind, object.apiVersion);
  if (key === undefined || schema === undefined) return errors;
  // Without a cache the schemas are compiled into a fresh object, lazily: only the nodes this
  // object reaches are compiled, and the work stays linear in its size.
  const root = (cache?.schemas ?? new CompiledSchemas()).root(key, schema);
  const mode = walkMode(observed, admission, kind === 'Namespace');
  const cleanBy = cache === undefined ? undefined : root.cleanVersions(mode);
  const before = errors.length;
  const spec = isRecord(object.spec) ? object.spec : undefined;
  walk(object, spec && cleanBy?.get(spec), root.node, {
    errors,
    observed,
    admission,
    nameIsLabel: kind === 'Namespace',
    path: [],
  });
  // found clean: the version a later one with the same spec is walked beside
  if (cleanBy && spec && errors.length === before) cleanBy.set(spec, object);
  return errors;
}

/**
 * Checks `object` against the structural schema of `kind` (a Kruise kind such as `CloneSet`, or
 * `Pod`, `Node`, `Namespace`, `PersistentVolumeClaim`, `ControllerRevision`) at the version its
 * `apiVersion` names (the storage version when it has none), and returns Kubernetes field errors
 * in the API server's words; `[]` when the shape is right. Never throws, whatever the value, and
 * takes time linear in the object's size.
 *
 * Examples:
 * - `spec.replicas: "3"` → `spec.replicas: Invalid value: "string": spec.replicas in body must
 *   be of type integer: "string"`;
 * - `spec.replicas: 5e9` → `... must be of type int32: "5000000000"`;
 * - `spec.replcias: 3` → `spec.replcias: Forbidden: unknown field "spec.replcias"`;
 * - `spec.template.spec.containers[0]` without `name` → `spec.template.spec.containers[0].name:
 *   Required value`;
 * - `metadata.labels: {"app%": "x"}` → `metadata.labels: Invalid value: "app%": name part must
 *   consist of alphanumeric characters, ...`.
 */
export function checkStructure(
  kind: string,
  object: unknown,
  options: CheckStructureOptions = {},
): StructureError[] {
  const observed = options.observed === true;
  const admission = options.admission === true;
  const cache = options.cache;
  if (cache) {
    const hit = cachedStructureErrors(cache, kind, object, options);
    if (hit) return [...hit];
  }
  let errors: StructureError[];
  try {
    errors = check(kind, object, observed, admission, cache);
  } catch {
    // Not reachable with JSON; a getter that throws or a Proxy is answered, not propagated.
    errors = [invalidError('', '<unreadable>', 'the object could not be read as JSON')];
  }
  if (cache && object !== null && typeof object === 'object') {
    let perObject = cache.results.get(object);
    if (!perObject) {
      perObject = new Map();
      cache.results.set(object, perObject);
    }
    perObject.set(
      cache.schemas.resultKey(kind, observed, admission),
      errors.length === 0 ? NO_ERRORS : Object.freeze([...errors]),
    );
  }
  return errors;
}

/**
 * The answer `cache` holds for `object` checked as `kind` with `options` (its `observed` and
 * `admission`), frozen and not copied; `undefined` when this cache has not checked it so.
 */
function cachedStructureErrors(
  cache: StructureCache,
  kind: string,
  object: unknown,
  options: Pick<CheckStructureOptions, 'observed' | 'admission'> = {},
): readonly StructureError[] | undefined {
  if (object === null || typeof object !== 'object') return undefined;
  const perObject = cache.results.get(object);
  if (perObject === undefined) return undefined;
  return perObject.get(cache.schemas.resultKey(kind, options.observed === true, options.admission === true));
}
