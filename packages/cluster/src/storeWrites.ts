// The writing half of the cluster's store: create (generated names, uids,
// resourceVersion, generation 1, creationTimestamp), update and patch through
// core's applyAction, admission on create/update, generation bumped on spec
// change, and change notifications. The status and binding subresources are in
// storeSubresources.ts, deletion and garbage collection in store.ts.
import { createStructureCache, type KubeObject } from '@kruise-ts/api';
import {
  type Action,
  applyMergePatch,
  createRng,
  deterministicUid,
  extend,
  type FeatureGates,
  isKubeObject,
  jsonEqual,
  type ObjectRef,
} from '@kruise-ts/core';
import { applyAction, createApplier } from '@kruise-ts/core/apply';
import type { AdmissionChain, AdmissionContext } from './admission';
import { isNamespaced, keyOf, objectKey, refKey, resourceName } from './keys';
import { quotaDenial } from './objectQuota';
import { ObjectIndex } from './storeIndex';
import { conflict, invalid, notFound, type WriteResult } from './storeResults';

export type { WriteResult } from './storeResults';

/** A change notification, delivered synchronously after each committed write. */
export interface Change {
  type: 'added' | 'modified' | 'deleted';
  key: string;
  /** The object before the write (modified, deleted). */
  old?: KubeObject;
  /** The object after the write (added, modified); for deleted, the last state. */
  object: KubeObject;
  /** Who wrote: `user`, `controller:CloneSet`, `kubelet:node-1`, `scheduler`, ... */
  source: string;
  /** The action verb or internal operation that caused it. */
  verb: string;
  /** Action reason, when the write came from an action. */
  reason?: string;
}

/** Store options. */
export interface StoreOptions {
  /** Seed for uids and generated names. */
  seed: number;
  /** Current simulated time (RFC 3339). */
  now: () => string;
  /** Current simulated time in ms (used for pod grace periods). */
  nowMs: () => number;
  /** Renders a simulated ms as RFC 3339. */
  at: (ms: number) => string;
  admission?: AdmissionChain;
  featureGates?: Partial<FeatureGates>;
  /** Deep-freeze stored objects (tests: proves nobody mutates what the store hands out). */
  freeze?: boolean;
}

const STATUS_KEPT_ON_CREATE: ReadonlySet<string> = new Set(['Node', 'Event']);

/**
 * The store. Objects are immutable once stored: every write stores a new object,
 * so what `get`/`list` hand out never changes under the reader. Those copies are made with
 * core's `extend`, never object spreads: a spread copy that gains or overrides keys costs a
 * hidden class or a megamorphic store per object on Node 20 (core/objects.ts), ~110k times in
 * a 10k-pod rollout.
 */
/**
 * The writing half of the store: create, update, patch, status, binding, load,
 * admission and the shared replace path. Deletion and garbage collection are in
 * `Store` (store.ts).
 */
export abstract class StoreWrites extends ObjectIndex {
  protected listeners: ((c: Change) => void)[] = [];
  private controllerStates = new Map<string, unknown>();
  protected rv = 0;
  /** The store's readers as admission sees them (made once, not per write). */
  protected readonly listForAdmission: AdmissionContext['list'] = (a, k, ns) => this.list(a, k, ns);
  protected readonly getForAdmission: AdmissionContext['get'] = (a, k, ns, n) => this.get(a, k, ns, n);
  /** What the admission hooks check objects with, kept for the store's life (AdmissionContext). */
  private readonly admissionStructureCache = createStructureCache();
  protected uidCounter = 0;
  private readonly rng;
  /** Names and uids of dry runs come from their own sequence, so a dry run never shifts the real ones. */
  private readonly dryRunRng;
  private dryRunUids = 0;

  /** The most objects the store holds at once (objectQuota.ts); set with {@link limitObjects}. */
  private maxObjects = Number.POSITIVE_INFINITY;

  /**
   * Refuses creates once `max` objects exist (403 Forbidden, `exceeded quota`; objectQuota.ts).
   * `kruise-ts serve` sets it from `--max-objects`; a simulation is unlimited otherwise.
   */
  limitObjects(max: number): void {
    this.maxObjects = max;
  }

  constructor(protected readonly opts: StoreOptions) {
    super(opts.freeze ?? false);
    this.rng = createRng((opts.seed ^ 0x5bd1e995) >>> 0);
    this.dryRunRng = createRng((opts.seed ^ 0x2545f491) >>> 0);
  }

  /** The `controllerState` the last reconcile of the object at `key` returned (docs/architecture.md). */
  getControllerState(key: string): unknown {
    return this.controllerStates.get(key);
  }

  /** Keeps an object's `controllerState` for its next reconcile (`undefined` forgets it). */
  setControllerState(key: string, state: unknown): void {
    if (state === undefined) this.controllerStates.delete(key);
    else this.controllerStates.set(key, state);
  }

  /** The resourceVersion of the latest write (deletions included). */
  get resourceVersion(): number {
    return this.rv;
  }

  /** Subscribes to change notifications. */
  watch(listener: (c: Change) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  // ---------------------------------------------------------------- writing

  /**
   * Loads an object as it is (status included) without admission — used to seed
   * a store with an observed state (`kruise-ts reconcile -f`). Missing uid,
   * resourceVersion, generation and creationTimestamp are filled in.
   */
  load(obj: KubeObject): KubeObject {
    const meta = extend(obj.metadata);
    if (isNamespaced(obj.kind) && !meta.namespace) meta.namespace = 'default';
    meta.uid ??= this.nextUid();
    meta.resourceVersion = String(++this.rv);
    meta.generation ??= 1;
    meta.creationTimestamp ??= this.opts.now();
    const stored = this.commit(extend(obj, { metadata: meta }));
    this.notify({ type: 'added', key: objectKey(stored), object: stored, source: 'load', verb: 'load' });
    return stored;
  }

  /**
   * Creates an object (POST): admission, generated name, uid, resourceVersion, generation 1, creationTimestamp.
   * With `dryRun` (the API's `dryRun=All`) everything runs up to the commit and the object is answered
   * as kube-apiserver answers a dry-run create: uid and creationTimestamp set, no resourceVersion;
   * nothing is stored, nobody is notified and no resourceVersion is consumed.
   */
  create(obj: KubeObject, source: string, reason?: string, dryRun = false): WriteResult {
    const overQuota = quotaDenial(obj, this.size, this.maxObjects); // objectQuota.ts
    if (overQuota) return overQuota;
    let meta = extend(obj.metadata);
    if (isNamespaced(obj.kind) && !meta.namespace) meta.namespace = 'default';
    if (!isNamespaced(obj.kind)) delete meta.namespace;
    if (!meta.name) {
      if (!meta.generateName)
        return invalid(obj, [
          { type: 'FieldValueRequired', field: 'metadata.name', detail: 'name or generateName is required' },
        ]);
      const rng = dryRun ? this.dryRunRng : this.rng;
      do meta.name = `${meta.generateName}${rng.string(5)}`;
      while (this.objects.has(keyOf(obj.apiVersion, obj.kind, meta.namespace, meta.name)));
    }
    let candidate: KubeObject = extend(obj, { metadata: meta });
    const admitted = this.admit(candidate, 'CREATE');
    if (!admitted.ok) return admitted;
    candidate = admitted.object;
    // Built without `delete` (which would leave the stored object in slow dictionary mode):
    // the deletion fields are left out by destructuring, the status replaced or dropped.
    const { deletionTimestamp: _dt, deletionGracePeriodSeconds: _dg, ...kept } = candidate.metadata;
    meta = kept;
    const key = keyOf(candidate.apiVersion, candidate.kind, meta.namespace, meta.name!);
    if (this.objects.has(key)) {
      const message = `${resourceName(obj.kind)} "${meta.name}" already exists`;
      return { ok: false, code: 409, reason: 'AlreadyExists', message };
    }
    meta.uid = dryRun ? deterministicUid(this.opts.seed ^ 0x2545f491, this.dryRunUids++) : this.nextUid();
    if (!dryRun) meta.resourceVersion = String(++this.rv);
    meta.generation = 1;
    meta.creationTimestamp = this.opts.now();
    const { status: givenStatus, ...body } = candidate;
    const status =
      obj.kind === 'Pod'
        ? { phase: 'Pending' }
        : obj.kind === 'PersistentVolumeClaim'
          ? { phase: 'Bound' }
          : STATUS_KEPT_ON_CREATE.has(obj.kind)
            ? givenStatus
            : undefined;
    const out: KubeObject =
      status === undefined ? extend(body, { metadata: meta }) : extend(body, { metadata: meta, status });
    if (dryRun) return { ok: true, object: out };
    const stored = this.commit(out, undefined, key);
    this.notify({ type: 'added', key, object: stored, source, verb: 'create', reason });
    return { ok: true, object: stored };
  }

  /**
   * Replaces an object (PUT). Keeps uid, creationTimestamp, deletion fields and the stored status.
   * With `dryRun` the answer is the object as it would be stored (admitted, generation bumped) at the
   * stored resourceVersion, and nothing is written.
   */
  update(obj: KubeObject, source: string, reason?: string, dryRun = false): WriteResult {
    const key = objectKey(obj);
    const old = this.objects.get(key);
    if (!old) return notFound(obj.kind, obj.metadata.name ?? '');
    return this.viaCore(
      old,
      { verb: 'update', object: obj, reason: reason ?? 'Update' },
      source,
      'update',
      reason,
      true,
      dryRun,
    );
  }

  /** Patches an object (merge, json or strategic). Status changes in the patch are applied too. */
  patch(
    target: ObjectRef,
    patchType: 'merge' | 'json' | 'strategic',
    patch: unknown,
    source: string,
    reason?: string,
  ): WriteResult {
    const old = this.objects.get(refKey(target));
    if (!old) return notFound(target.kind, target.name);
    if (target.uid && old.metadata.uid !== target.uid) return conflict(target.kind, target.name, 'uid');
    // Fast path for the controllers' merge patches (~30k per 10k-pod rollout): apply the patch
    // here and let `replace` keep the server-owned fields, skipping core's one-object store.
    // A patch that touches identity or concurrency fields takes core's path, which checks them,
    // and so does one whose result is no longer an object (a patch nulling `kind`, say).
    if (patchType === 'merge' && isPlainPatch(patch)) {
      const merged = applyMergePatch(old, patch);
      if (isKubeObject(merged)) return this.replace(old, merged, source, 'patch', reason, true);
    }
    return this.viaCore(
      old,
      {
        verb: 'patch',
        target: { ...target, apiVersion: old.apiVersion, namespace: old.metadata.namespace },
        patchType,
        patch,
        reason: reason ?? 'Patch',
      },
      source,
      'patch',
      reason,
      true,
    );
  }

  /**
   * Runs one update/patch through core's `applyAction` on a store holding just
   * the target (same semantics as `applyActions`: patch formats, server-owned
   * fields kept, status kept on update), then commits the result here.
   */
  private viaCore(
    old: KubeObject,
    action: Action,
    source: string,
    verb: string,
    reason: string | undefined,
    admit: boolean,
    dryRun = false,
  ): WriteResult {
    const { result } = applyAction(createApplier([old]), action, this.opts.now());
    if (!result.ok)
      return {
        ok: false,
        code: result.code,
        reason: result.code === 404 ? 'NotFound' : result.code === 409 ? 'Conflict' : 'Invalid',
        message: result.message,
      };
    // Core answers a write that changes nothing with the stored object itself.
    if (result.object === old) return { ok: true, object: old };
    return this.replace(old, result.object, source, verb, reason, admit, dryRun);
  }

  // ---------------------------------------------------------------- internals

  /** Removes an object and garbage-collects its dependents (store.ts). */
  protected abstract remove(obj: KubeObject, source: string, reason?: string, old?: KubeObject): void;

  /** Whether a terminating object without finalizers may go (store.ts). */
  protected abstract removable(obj: KubeObject): boolean;

  /** Shared path of update, patch and updateStatus. */
  protected replace(
    old: KubeObject,
    next: KubeObject,
    source: string,
    verb: string,
    reason: string | undefined,
    admit: boolean,
    dryRun = false,
  ): WriteResult {
    // Identity and server-owned fields cannot change: they are taken from `old`, in place
    // where `next` has them (key order kept), appended otherwise; undefined values dropped.
    const om = old.metadata;
    const meta = keepServerOwned(om, next.metadata);
    let candidate: KubeObject = extend(next, {
      apiVersion: next.apiVersion || old.apiVersion,
      kind: old.kind,
      metadata: meta,
    });
    let owned = true; // `candidate` and its metadata are this function's own objects
    if (admit && !om.deletionTimestamp) {
      const admitted = this.admit(candidate, 'UPDATE', old);
      if (!admitted.ok) return admitted;
      if (admitted.object !== candidate) owned = false;
      candidate = admitted.object;
    }
    const specChanged = candidate.spec !== old.spec && !jsonEqual(candidate.spec, old.spec);
    if (
      !specChanged && candidate.status === old.status
        ? jsonEqual(candidate.metadata, om) && sameRest(candidate, old)
        : jsonEqual(candidate, old)
    )
      return { ok: true, object: old };
    // `outMeta` is the metadata object of `out`, ours to write: `meta` itself while `candidate`
    // is still the object built above, a copy once admission answered an object of its own.
    let out = candidate;
    let outMeta = meta;
    if (!owned) {
      outMeta = extend(candidate.metadata);
      out = extend(candidate, { metadata: outMeta });
    }
    if (verb !== 'updateStatus' && specChanged) outMeta.generation = (om.generation ?? 0) + 1;
    // a dry run answers here: the stored resourceVersion, nothing committed or notified
    if (dryRun) return { ok: true, object: out };
    outMeta.resourceVersion = String(++this.rv);
    // A terminating object whose last finalizer went away is removed (pods only once the kubelet is done).
    if (
      out.metadata.deletionTimestamp &&
      (out.metadata.finalizers ?? []).length === 0 &&
      this.removable(out)
    ) {
      this.remove(out, source, reason, old);
      return { ok: true, removed: true };
    }
    // The same object (name, namespace and kind are kept from `old`): the same key, and `old` is stored.
    const key = objectKey(old);
    const stored = this.commit(out, old, key);
    this.notify({ type: 'modified', key, old, object: stored, source, verb, reason });
    return { ok: true, object: stored };
  }

  private admit(
    obj: KubeObject,
    operation: 'CREATE' | 'UPDATE',
    old?: KubeObject,
  ): { ok: true; object: KubeObject } | Extract<WriteResult, { ok: false }> {
    const chain = this.opts.admission;
    if (!chain?.handles(obj.apiVersion, obj.kind)) return { ok: true, object: obj };
    const ctx: AdmissionContext = {
      operation,
      old,
      now: this.opts.now(),
      featureGates: this.opts.featureGates ?? {},
      list: this.listForAdmission,
      get: this.getForAdmission,
      structureCache: this.admissionStructureCache,
    };
    const r = chain.admit(obj, ctx);
    if (r.allowed) return { ok: true, object: r.object };
    return { ok: false, code: 422, reason: 'Invalid', message: r.message, errors: r.errors };
  }

  protected nextUid(): string {
    return deterministicUid(this.opts.seed, this.uidCounter++);
  }

  protected notify(c: Change): void {
    for (const l of this.listeners) l(c);
  }
}

/** Object metadata whose fields may be written (the store's own copies). */
type WritableMeta = { -readonly [K in keyof KubeObject['metadata']]: KubeObject['metadata'][K] };

/** Metadata the server owns on update/patch, in the order they are appended when missing. */
const SERVER_OWNED_META_ORDER = [
  'name',
  'uid',
  'creationTimestamp',
  'resourceVersion',
  'namespace',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
] as const;
const SERVER_OWNED_META: ReadonlySet<string> = new Set(SERVER_OWNED_META_ORDER);

/**
 * `next`'s metadata with the fields the server owns taken from `old`: in place where `next` has
 * them (its key order kept), appended in SERVER_OWNED_META_ORDER otherwise; undefined values are
 * dropped. Example: old `{name: 'a', uid: 'u'}`, next `{uid: 'x', labels: {}}` →
 * `{uid: 'u', labels: {}, name: 'a'}`.
 */
function keepServerOwned(old: KubeObject['metadata'], next: KubeObject['metadata']): WritableMeta {
  const meta: WritableMeta = {};
  copyFields(meta, old, next);
  for (const k of SERVER_OWNED_META_ORDER) if (!(k in meta)) copyDefined(meta, old, k);
  return meta;
}

/** Copies `next`'s own defined fields onto `to`, each server-owned one taken from `old` instead. */
function copyFields<T extends object>(to: { -readonly [K in keyof T]?: T[K] }, old: T, next: T): void {
  for (const k in next) {
    if (!Object.hasOwn(next, k)) continue;
    copyDefined(to, SERVER_OWNED_META.has(k) ? old : next, k);
  }
}

/** Sets `to[k]` to `from[k]` unless that is undefined. */
function copyDefined<T, K extends keyof T>(to: { -readonly [P in keyof T]?: T[P] }, from: T, k: K): void {
  const v = from[k];
  if (v !== undefined) to[k] = v;
}

/**
 * A merge patch the store may apply directly: an object whose `metadata` (if any) is an object
 * that leaves name, namespace, uid and resourceVersion alone (those need core's checks:
 * immutability and the optimistic-concurrency precondition).
 */
function isPlainPatch(patch: unknown): patch is Record<string, unknown> {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return false;
  const m = 'metadata' in patch ? patch.metadata : undefined;
  if (m === undefined) return true;
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return false;
  return !('name' in m || 'namespace' in m || 'uid' in m || 'resourceVersion' in m);
}

/** Top-level fields other than metadata/spec/status are equal. */
function sameRest(a: KubeObject, b: KubeObject): boolean {
  for (const k of Object.keys(a))
    if (k !== 'metadata' && k !== 'spec' && k !== 'status' && !jsonEqual(a[k], b[k])) return false;
  for (const k of Object.keys(b))
    if (k !== 'metadata' && k !== 'spec' && k !== 'status' && !(k in a) && b[k] !== undefined) return false;
  return true;
}
