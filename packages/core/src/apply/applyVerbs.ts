// The verbs of the in-memory API server behind ./applyActions: create, delete (with
// finalizers and background garbage collection), patch (merge / json / strategic), update,
// updateStatus and event, each mutating a private draft of the store — never an input
// object. Only the types and `objectKey` are public (exported by ./index).
import type { KubeObject } from '@kruise-ts/api';
import type { Action, ObjectRef } from '../contract/actions';
import { KruiseError } from '../contract/errors';
import { applyJsonPatch, applyMergePatch, jsonEqual } from '../json/jsonPatch';
import { applyStrategicMergePatch } from '../json/strategicMerge';
import { createRng, deterministicUid, generateName, mix32 } from '../kube/naming';
import { timeOf } from '../kube/time';

/** Options of {@link createApplier} / {@link applyActions}. */
export interface ApplyOptions {
  /** Seed of uids and generated names (default 0). */
  seed?: number;
  /** The resourceVersion counter starts at max(this, the highest numeric input resourceVersion). */
  startResourceVersion?: number;
  /** First counter value used for uids (default 0); uids already in use are skipped. */
  uidCounterStart?: number;
}

/** The outcome of one action, as an API server would answer it. */
export type ApplyResult =
  | {
      ok: true;
      /** The object after the action (for a removal: as it was when removed). */
      object: KubeObject;
      /** True when the object left the store. */
      removed?: boolean;
    }
  | { ok: false; code: 404 | 409 | 422; message: string };

/** The simulated store. Treat as immutable: {@link applyAction} returns a new state. */
export interface ApplierState {
  readonly objects: ReadonlyMap<string, KubeObject>;
  readonly resourceVersion: number;
  readonly uidCounter: number;
  readonly nameCounter: number;
  readonly eventCounter: number;
  readonly seed: number;
  readonly uids: ReadonlySet<string>;
}

/** A mutable working copy of {@link ApplierState} used while one action is applied. */
export interface Draft {
  objects: Map<string, KubeObject>;
  resourceVersion: number;
  uidCounter: number;
  nameCounter: number;
  eventCounter: number;
  seed: number;
  uids: Set<string>;
}

/** The API group of an apiVersion: `apps.kruise.io/v1alpha1` → `apps.kruise.io`, `v1` → `""`. */
function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** The store key: API group + kind + namespace + name (versions of one group share objects). */
export function objectKey(ref: {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}): string {
  return `${groupOf(ref.apiVersion)}|${ref.kind}|${ref.namespace ?? ''}|${ref.name}`;
}

export function keyOf(obj: KubeObject): string {
  return objectKey({
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    namespace: obj.metadata?.namespace,
    name: obj.metadata?.name ?? '',
  });
}

function describeRef(ref: { kind: string; name?: string }): string {
  return `${ref.kind.toLowerCase()} ${JSON.stringify(ref.name ?? '')}`;
}

export function fail(code: 404 | 409 | 422, message: string): ApplyResult {
  return { ok: false, code, message };
}

function notFound(ref: { kind: string; name?: string }): ApplyResult {
  return fail(404, `${describeRef(ref)} not found`);
}

function conflict(ref: { kind: string; name?: string }): ApplyResult {
  return fail(
    409,
    `Operation cannot be fulfilled on ${describeRef(ref)}: the object has been modified; please apply your changes to the latest version and try again`,
  );
}

function nextUid(d: Draft): string {
  while (true) {
    const uid = deterministicUid(d.seed, d.uidCounter++);
    if (!d.uids.has(uid)) {
      d.uids.add(uid);
      return uid;
    }
  }
}

/**
 * Stores `next` in place of `prev` as one write: a no-op when nothing changed; otherwise a new
 * resourceVersion, generation + 1 when `spec` changed, and removal when a deleted object has
 * no finalizers left.
 */
function write(d: Draft, key: string, prev: KubeObject, next: KubeObject, now: string): ApplyResult {
  const meta = { ...next.metadata, resourceVersion: prev.metadata.resourceVersion };
  if (prev.metadata.generation !== undefined) meta.generation = prev.metadata.generation;
  else delete meta.generation;
  const candidate: KubeObject = { ...next, metadata: meta };
  if (jsonEqual(candidate, prev)) return { ok: true, object: prev };
  if (!jsonEqual(prev.spec, next.spec)) meta.generation = (prev.metadata.generation ?? 0) + 1;
  meta.resourceVersion = String(++d.resourceVersion);
  if (meta.deletionTimestamp && (meta.finalizers ?? []).length === 0) return remove(d, key, candidate, now);
  d.objects.set(key, candidate);
  return { ok: true, object: candidate };
}

/** Removes an object and garbage-collects its dependents (background cascade). */
function remove(d: Draft, key: string, obj: KubeObject, now: string): ApplyResult {
  d.objects.delete(key);
  const uid = obj.metadata.uid;
  if (uid) collectDependents(d, uid, now);
  return { ok: true, object: obj, removed: true };
}

/**
 * Kubernetes' garbage collector for one removed owner: a dependent whose other owners still
 * exist loses the dangling reference; a dependent with no remaining owner is deleted.
 */
function collectDependents(d: Draft, ownerUid: string, now: string): void {
  const live = new Set<string>();
  for (const o of d.objects.values()) if (o.metadata.uid) live.add(o.metadata.uid);
  for (const key of [...d.objects.keys()]) {
    const current = d.objects.get(key);
    if (current === undefined) continue; // removed by an earlier cascade step
    const refs = current.metadata.ownerReferences ?? [];
    if (!refs.some((r) => r.uid === ownerUid)) continue;
    const remaining = refs.filter((r) => r.uid !== ownerUid && live.has(r.uid));
    if (remaining.length > 0) {
      const kept = refs.filter((r) => r.uid !== ownerUid);
      write(d, key, current, { ...current, metadata: { ...current.metadata, ownerReferences: kept } }, now);
    } else {
      deleteObject(d, key, current, now);
    }
  }
}

function deleteObject(d: Draft, key: string, obj: KubeObject, now: string): ApplyResult {
  if ((obj.metadata.finalizers ?? []).length > 0) {
    if (obj.metadata.deletionTimestamp) return { ok: true, object: obj };
    const next: KubeObject = {
      ...obj,
      metadata: {
        ...obj.metadata,
        deletionTimestamp: now,
        deletionGracePeriodSeconds: obj.metadata.deletionGracePeriodSeconds ?? 0,
      },
    };
    return write(d, key, obj, next, now);
  }
  return remove(d, key, obj, now);
}

export function doCreate(d: Draft, input: KubeObject, now: string): ApplyResult {
  if (!input || typeof input !== 'object' || !input.metadata || !input.kind || !input.apiVersion) {
    return fail(422, 'apiVersion, kind and metadata are required');
  }
  let name = input.metadata.name ?? '';
  if (name === '') {
    const prefix = input.metadata.generateName ?? '';
    if (prefix === '') return fail(422, 'metadata.name: Required value: name or generateName is required');
    for (let attempt = 0; attempt < 100; attempt++) {
      const candidate = generateName(prefix, createRng(mix32(d.seed ^ mix32(d.nameCounter++))));
      if (!d.objects.has(keyOf({ ...input, metadata: { ...input.metadata, name: candidate } }))) {
        name = candidate;
        break;
      }
    }
    if (name === '') return fail(409, `${describeRef({ kind: input.kind, name: prefix })} already exists`);
  }
  const { deletionTimestamp: _dt, deletionGracePeriodSeconds: _dg, ...meta } = input.metadata;
  const key = keyOf({ ...input, metadata: { ...meta, name } });
  if (d.objects.has(key)) return fail(409, `${describeRef({ kind: input.kind, name })} already exists`);
  const obj: KubeObject = {
    ...input,
    metadata: {
      ...meta,
      name,
      uid: nextUid(d),
      resourceVersion: String(++d.resourceVersion),
      generation: 1,
      creationTimestamp: now,
    },
  };
  d.objects.set(key, obj);
  return { ok: true, object: obj };
}

/** Keeps the server-managed metadata of `prev` on a replacement object. */
function keepServerFields(prev: KubeObject, next: KubeObject): KubeObject {
  const meta = { ...next.metadata };
  meta.uid = prev.metadata.uid;
  meta.creationTimestamp = prev.metadata.creationTimestamp;
  meta.name = prev.metadata.name;
  if (prev.metadata.namespace === undefined) delete meta.namespace;
  else meta.namespace = prev.metadata.namespace;
  if (prev.metadata.deletionTimestamp) {
    meta.deletionTimestamp = prev.metadata.deletionTimestamp;
    meta.deletionGracePeriodSeconds = prev.metadata.deletionGracePeriodSeconds;
  } else {
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
  }
  return { ...next, apiVersion: next.apiVersion ?? prev.apiVersion, kind: prev.kind, metadata: meta };
}

/** Optimistic-concurrency and identity checks of a replacement; `undefined` when it may proceed. */
function checkReplacement(prev: KubeObject, next: KubeObject): ApplyResult | undefined {
  const rv = next.metadata?.resourceVersion;
  if (rv !== undefined && rv !== '' && rv !== prev.metadata.resourceVersion) return conflict(prev);
  const uid = next.metadata?.uid;
  if (uid !== undefined && uid !== '' && uid !== prev.metadata.uid) {
    return fail(
      409,
      `Precondition failed: UID in precondition: ${prev.metadata.uid}, UID in object meta: ${uid}`,
    );
  }
  if ((next.metadata?.name ?? '') !== (prev.metadata.name ?? '')) {
    return fail(
      422,
      `metadata.name: Invalid value: ${JSON.stringify(next.metadata?.name ?? '')}: field is immutable`,
    );
  }
  if ((next.metadata?.namespace ?? '') !== (prev.metadata.namespace ?? '')) {
    return fail(
      422,
      `metadata.namespace: Invalid value: ${JSON.stringify(next.metadata?.namespace ?? '')}: field is immutable`,
    );
  }
  return undefined;
}

function parsePatch(patch: unknown): unknown {
  if (typeof patch !== 'string') return patch;
  try {
    return JSON.parse(patch);
  } catch (e) {
    throw new KruiseError(`invalid patch: ${(e as Error).message}`, patch);
  }
}

export function doPatch(
  d: Draft,
  target: ObjectRef,
  patchType: string,
  patch: unknown,
  now: string,
): ApplyResult {
  const key = objectKey(target);
  const prev = d.objects.get(key);
  if (!prev) return notFound(target);
  let patched: unknown;
  try {
    const p = parsePatch(patch);
    if (patchType === 'merge') patched = applyMergePatch(prev, p);
    else if (patchType === 'json') patched = applyJsonPatch(prev, p);
    else if (patchType === 'strategic') patched = applyStrategicMergePatch(prev, p);
    else return fail(422, `unsupported patch type ${JSON.stringify(patchType)}`);
  } catch (e) {
    return fail(422, (e as Error).message);
  }
  if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) {
    return fail(422, 'the patched document is not an object');
  }
  const next = patched as KubeObject;
  if (!next.metadata || typeof next.metadata !== 'object') return fail(422, 'metadata: Required value');
  const bad = checkReplacement(prev, next);
  if (bad) return bad;
  return write(d, key, prev, keepServerFields(prev, next), now);
}

export function doUpdate(d: Draft, obj: KubeObject, now: string): ApplyResult {
  if (!obj || typeof obj !== 'object' || !obj.metadata) return fail(422, 'metadata: Required value');
  const key = keyOf(obj);
  const prev = d.objects.get(key);
  if (!prev) return notFound({ kind: obj.kind, name: obj.metadata.name });
  const bad = checkReplacement(prev, obj);
  if (bad) return bad;
  // `status` is a subresource: a main-resource update keeps the stored status.
  const { status: _s, ...rest } = obj;
  const next: KubeObject = prev.status === undefined ? { ...rest } : { ...rest, status: prev.status };
  return write(d, key, prev, keepServerFields(prev, next as KubeObject), now);
}

export function doUpdateStatus(d: Draft, target: ObjectRef, status: unknown, now: string): ApplyResult {
  const key = objectKey(target);
  const prev = d.objects.get(key);
  if (!prev) return notFound(target);
  const next: KubeObject = { ...prev };
  if (status === undefined) delete next.status;
  else next.status = status;
  return write(d, key, prev, next, now);
}

export function doEvent(d: Draft, action: Extract<Action, { verb: 'event' }>, now: string): ApplyResult {
  const ref = action.involvedObject;
  const namespace = ref.namespace || 'default';
  const nanos = BigInt(timeOf(now)) * 1000000n;
  let name = '';
  do {
    name = `${ref.name}.${(nanos + BigInt(d.eventCounter++)).toString(16)}`;
  } while (d.objects.has(objectKey({ apiVersion: 'v1', kind: 'Event', namespace, name })));
  const event: KubeObject = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace },
    involvedObject: { ...ref },
    type: action.type,
    reason: action.reason,
    message: action.message,
    count: 1,
    firstTimestamp: now,
    lastTimestamp: now,
    source: { component: 'kruise-ts' },
  };
  return doCreate(d, event, now);
}

export function doDelete(d: Draft, action: Extract<Action, { verb: 'delete' }>, now: string): ApplyResult {
  const key = objectKey(action.target);
  const obj = d.objects.get(key);
  const pre = action.preconditions;
  if (!obj) return notFound(action.target);
  if (pre?.uid !== undefined && pre.uid !== obj.metadata.uid) {
    return fail(
      409,
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`,
    );
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== obj.metadata.resourceVersion) {
    return fail(
      409,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`,
    );
  }
  return deleteObject(d, key, obj, now);
}
