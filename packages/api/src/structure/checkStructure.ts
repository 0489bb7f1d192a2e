// checkStructure: the one structural check every object passes before any rule of its kind runs.
// It holds the object to the schema its kind publishes (the Kruise kinds' CRD schemas with the
// Kubernetes types they embed; Pod, Node, Namespace, PersistentVolumeClaim and ControllerRevision
// from the generated Kubernetes definitions): JSON types, required fields, int32 and int64 ranges,
// quantities, enums, unknown fields, and the metadata syntax (names, labels, annotations and
// their 256 KiB total). A rule that then reads `pod.metadata.labels[k]` can rely on a string.
//
// Repeated checks of the same observed objects (thousands of pods per reconcile) are made cheap
// by a cache the caller owns and passes in (createStructureCache); nothing is kept between calls
// otherwise.
import { kindSchema } from '../crdSchemas';
import { findKruiseKind, kruiseKinds } from '../kinds';
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
   * Subtrees found clean, per walk mode (`<observed>/<admission>/<nameIsLabel>`, at most eight),
   * per schema node: a new version of a pod whose status changed shares its unchanged `spec`
   * (by identity) with the version before, and that subtree is not walked again.
   */
  readonly cleanSubtrees: Map<string, WeakMap<object, WeakSet<object>>>;
}

/** A new, empty cache for checkStructure's `cache` option. */
export function createStructureCache(): StructureCache {
  return { results: new WeakMap(), cleanSubtrees: new Map() };
}

/** The clean-subtree memory of one walk mode (created on first use). */
function cleanSubtreesFor(cache: StructureCache, mode: string): WeakMap<object, WeakSet<object>> {
  let m = cache.cleanSubtrees.get(mode);
  if (!m) {
    m = new WeakMap();
    cache.cleanSubtrees.set(mode, m);
  }
  return m;
}

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

/** The schema for `kind` and the version `apiVersion` names, or the errors why there is none. */
function rootSchema(kind: string, apiVersion: unknown): { schema?: JSONSchema; errors: StructureError[] } {
  const builtin = Object.hasOwn(structureBuiltinKinds, kind) ? structureBuiltinKinds[kind] : undefined;
  if (builtin !== undefined) {
    if (apiVersion !== undefined && apiVersion !== builtin) {
      return { schema: k8sRef(kind), errors: [enumError('apiVersion', apiVersion, [builtin])] };
    }
    return { schema: k8sRef(kind), errors: [] };
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
  return { schema: kindSchema(kind, (wanted ?? storage).name), errors };
}

function check(
  kind: string,
  object: unknown,
  observed: boolean,
  admission: boolean,
  cache: StructureCache | undefined,
): StructureError[] {
  if (!isRecord(object)) return [typeError('', 'object', object)];
  const { schema, errors } = rootSchema(kind, object.apiVersion);
  if (!schema) return errors;
  // A Kruise kind's root metadata is a bare object in its CRD (the API server checks it itself);
  // here it is the full ObjectMeta, with its syntax. The built-in kinds' schemas have it already.
  const root: JSONSchema =
    schema.$ref === undefined
      ? {
          ...schema,
          properties: {
            ...(schema.properties as Record<string, JSONSchema>),
            metadata: k8sRef('ObjectMeta'),
          },
        }
      : schema;
  const nameIsLabel = kind === 'Namespace';
  const clean = cache && {
    mode: cleanSubtreesFor(cache, `${observed}/${admission}/${nameIsLabel}`),
    observedMode: cleanSubtreesFor(cache, `true/${admission}/${nameIsLabel}`),
  };
  walk(object, root, '', { errors, observed, admission, nameIsLabel, clean: clean || undefined });
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
  const key = `${kind}/${observed}/${admission}`;
  if (cache && object !== null && typeof object === 'object') {
    const hit = cache.results.get(object)?.get(key);
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
    perObject.set(key, Object.freeze([...errors]));
  }
  return errors;
}
