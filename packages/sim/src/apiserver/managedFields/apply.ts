// Server-side apply with field ownership, the rules of kube-apiserver's structured merge:
// 1. The applied configuration is merged over the live object (walk.ts `merge`).
// 2. The applier now owns exactly the fields its configuration sets.
// 3. Fields the applier owned at its previous apply and leaves out now are removed from the
//    object, unless another manager owns them.
// 4. Every field the result changes (adds or modifies) that another manager owns is a conflict:
//    without `force` the apply is refused with a 409 listing them; with `force` the other
//    managers lose those fields. A field set to the value it already has is no change, so two
//    appliers that agree on a value share it.
// 5. Removed fields leave every manager's set.
// An object that has no managedFields yet (created before anyone applied) is first owned as a
// whole by an Update manager named `before-first-apply`, so applying over values that someone
// else set conflicts. For the `kubectl` manager, conflicts with fields that the client-side
// `last-applied-configuration` annotation holds with their live values are allowed (the upgrade
// from client-side to server-side apply), and that annotation is kept in step with the applied
// configuration, so a later client-side `kubectl apply` still computes the right patch.
import type { KubeObject } from '@kruise-ts/api';
import type { StatusObject } from '../status';
import {
  type Conflict,
  conflictsStatus,
  decodeEntries,
  entryId,
  type ManagerEntry,
  ownableView,
  stripUnowned,
  withEntries,
} from './entries';
import { decodePath, difference, pathString, union } from './fieldSet';
import type { FieldType } from './listKeys';
import { compare, FieldStructureError, fieldSetOf, merge, removeFields } from './walk';

/** kubectl's client-side apply annotation. */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** What an apply needs. */
export interface ApplyRequest {
  /** The structure of the resource's objects (listKeys.ts `resourceType`). */
  type: FieldType;
  /** The live object at the request's version, or undefined when the apply creates it. */
  live: KubeObject | undefined;
  /** The applied configuration (apiVersion, kind, metadata.name filled in). */
  config: KubeObject;
  manager: string;
  /** The request's apiVersion (recorded on the entry). */
  apiVersion: string;
  force: boolean;
  /** The time stamped on the applier's entry. */
  now: string;
  /** The resource has a status subresource: `status` is neither applied nor owned here. */
  statusSubresource: boolean;
}

/** The merged object with its managedFields, or the Status refusing the apply. */
export type ApplyResult = { ok: true; object: KubeObject } | { ok: false; status: StatusObject };

/** Applies `req.config` (see the header). Never throws. */
export function serverSideApply(req: ApplyRequest): ApplyResult {
  try {
    return applyOnce(req, req.force, true);
  } catch (e) {
    if (e instanceof FieldStructureError) return invalid(e.message);
    throw e;
  }
}

function invalid(message: string): ApplyResult {
  return {
    ok: false,
    status: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `failed to create typed patch object: ${message}`,
      reason: 'Invalid',
      code: 422,
    },
  };
}

function applyOnce(req: ApplyRequest, force: boolean, allowUpgrade: boolean): ApplyResult {
  const { type, live, manager } = req;
  const config = withoutManagedFields(req.config);
  let entries = decodeEntries(live);
  if (live !== undefined && entries.length === 0)
    entries = [
      {
        manager: 'before-first-apply',
        operation: 'Update',
        apiVersion: req.apiVersion,
        set: stripUnowned(fieldSetOf(ownableView(live, req.statusSubresource), type)),
      },
    ];
  const me: ManagerEntry = {
    manager,
    operation: 'Apply',
    apiVersion: req.apiVersion,
    time: req.now,
    set: new Set(),
  };
  const myId = entryId(me);
  const previous = entries.find((e) => entryId(e) === myId);
  const others = entries.filter((e) => entryId(e) !== myId);

  // 1–2: merge, and the applier's new set
  const configView = ownableView(config, req.statusSubresource);
  me.set = stripUnowned(fieldSetOf(configView, type));
  const liveView = ownableView(live, req.statusSubresource) ?? {};
  let mergedView = merge(liveView, configView, type);

  // 3: fields given up
  if (previous) {
    const kept = union(me.set, ...others.map((e) => e.set));
    const drop = difference(previous.set, kept);
    if (drop.size > 0) mergedView = removeFields(mergedView, type, drop, previous.set, kept);
  }

  // 4: conflicts
  const cmp = compare(liveView, mergedView, type);
  const changed = union(cmp.added, cmp.modified);
  const conflicts: Conflict[] = [];
  for (const e of others) for (const p of e.set) if (changed.has(p)) conflicts.push({ manager: e, path: p });
  if (conflicts.length > 0 && !force) {
    const allowed = allowUpgrade && manager === 'kubectl' ? upgradableFields(live, type, req) : undefined;
    if (allowed && conflicts.every((c) => allowed.has(c.path))) return applyOnce(req, true, false);
    const left = allowed ? conflicts.filter((c) => !allowed.has(c.path)) : conflicts;
    return { ok: false, status: conflictsStatus(sortConflicts(left)) };
  }

  // 4–5: the others lose what this apply took or removed
  const lost = union(changed, cmp.removed);
  const next: ManagerEntry[] = others.map((e) => ({ ...e, set: difference(e.set, lost) }));
  // the time moves only when the applier's fields do
  if (previous && previous.set.size === me.set.size && [...me.set].every((p) => previous.set.has(p)))
    me.time = previous.time;
  next.push(me);

  let object = assemble(live, config, mergedView, req.statusSubresource);
  object = syncLastApplied(object, live, req);
  return { ok: true, object: withEntries(object, next) };
}

/** The applied object: the merged ownable fields with the server's own fields of `live`. */
function assemble(
  live: KubeObject | undefined,
  config: KubeObject,
  mergedView: unknown,
  statusSubresource: boolean,
): KubeObject {
  const base: Record<string, unknown> = live ?? config;
  const merged = mergedView as Record<string, unknown>;
  const out: Record<string, unknown> = {
    apiVersion: config.apiVersion,
    kind: config.kind,
    metadata: {},
    ...merged,
  };
  const serverMeta: Record<string, unknown> = {};
  const baseMeta = (base.metadata ?? {}) as Record<string, unknown>;
  for (const f of [
    'name',
    'namespace',
    'creationTimestamp',
    'uid',
    'generation',
    'resourceVersion',
    'selfLink',
  ])
    if (baseMeta[f] !== undefined) serverMeta[f] = baseMeta[f];
  const configMeta = (config.metadata ?? {}) as Record<string, unknown>;
  // a resourceVersion in the configuration asks for optimistic concurrency: keep it
  if (configMeta.resourceVersion !== undefined) serverMeta.resourceVersion = configMeta.resourceVersion;
  if (configMeta.name !== undefined) serverMeta.name = configMeta.name;
  if (configMeta.namespace !== undefined) serverMeta.namespace = configMeta.namespace;
  out.metadata = { ...serverMeta, ...((merged.metadata as Record<string, unknown> | undefined) ?? {}) };
  if (statusSubresource && live?.status !== undefined) out.status = live.status;
  if (statusSubresource && live === undefined) delete out.status;
  // apiVersion and kind from the configuration (the merged view has neither), metadata always set
  return out as KubeObject;
}

function withoutManagedFields(obj: KubeObject): KubeObject {
  const meta = { ...(obj.metadata ?? {}) } as Record<string, unknown>;
  delete meta.managedFields;
  return { ...obj, metadata: meta as KubeObject['metadata'] };
}

function sortConflicts(conflicts: Conflict[]): Conflict[] {
  const key = (c: Conflict) => `${c.manager.manager}\u0000${pathString(decodePath(c.path))}`;
  return [...conflicts].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function lastApplied(obj: KubeObject | undefined): string | undefined {
  const v = obj?.metadata?.annotations?.[LAST_APPLIED];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * The fields a client-side apply set and that still hold those values: the `kubectl` applier
 * may take them over without a conflict (kube-apiserver's upgrade path).
 */
function upgradableFields(
  live: KubeObject | undefined,
  type: FieldType,
  req: ApplyRequest,
): Set<string> | undefined {
  const text = lastApplied(live);
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || (parsed as KubeObject).apiVersion !== req.apiVersion)
    return undefined;
  const view = ownableView(parsed as KubeObject, req.statusSubresource);
  const set = fieldSetOf(view, type);
  const cmp = compare(view, ownableView(live, req.statusSubresource), type);
  const out = new Set<string>();
  for (const p of set) if (!cmp.modified.has(p) && !cmp.added.has(p) && !cmp.removed.has(p)) out.add(p);
  return out;
}

/** For the `kubectl` applier, the client-side annotation follows the applied configuration. */
function syncLastApplied(object: KubeObject, live: KubeObject | undefined, req: ApplyRequest): KubeObject {
  if (req.manager !== 'kubectl' || !lastApplied(live)) return object;
  const config = withoutManagedFields(req.config);
  const annotations = { ...(config.metadata?.annotations ?? {}) };
  delete annotations[LAST_APPLIED];
  const recorded = {
    ...config,
    metadata: {
      ...config.metadata,
      annotations: Object.keys(annotations).length > 0 ? annotations : undefined,
    },
  };
  if (recorded.metadata.annotations === undefined) delete recorded.metadata.annotations;
  return {
    ...object,
    metadata: {
      ...object.metadata,
      annotations: { ...(object.metadata.annotations ?? {}), [LAST_APPLIED]: JSON.stringify(recorded) },
    },
  };
}
