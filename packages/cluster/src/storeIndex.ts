// The store's storage and indexes: objects by key, by kind, by owner uid, by
// node and by uid, with sorted key lists cached until membership changes, so
// listing a workload's pods costs O(its pods), never O(all objects).
import type { KubeObject } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import { keyOf, kindPrefix, objectKey } from './keys';

/** Objects and their indexes; the Store builds the API-server semantics on top. */
export class ObjectIndex {
  protected objects = new Map<string, KubeObject>();
  private byKind = new Map<string, Set<string>>();
  private byOwner = new Map<string, Set<string>>();
  private byNode = new Map<string, Set<string>>();
  protected byUid = new Map<string, string>();
  private sortedCache = new Map<string, string[]>();
  /** apiVersion → kind → `group/Kind/`: looked up on every list and write, built once per pair. */
  private readonly prefixes = new Map<string, Map<string, string>>();

  /** `freeze`: deep-freeze each stored object (tests), with core's `deepFreeze`, which skips subtrees already frozen. */
  constructor(private readonly freeze: boolean) {}

  /** Number of stored objects. */
  get size(): number {
    return this.objects.size;
  }

  /** The object at a key. */
  getByKey(key: string): KubeObject | undefined {
    return this.objects.get(key);
  }

  /** The object a reference names. */
  get(apiVersion: string, kind: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.objects.get(keyOf(apiVersion, kind, namespace, name));
  }

  /** The object with a uid. */
  getByUid(uid: string): KubeObject | undefined {
    const k = this.byUid.get(uid);
    return k === undefined ? undefined : this.objects.get(k);
  }

  /** Objects of a kind (any version of its group), sorted by namespace and name. */
  list(apiVersion: string, kind: string, namespace?: string): KubeObject[] {
    const prefix = this.prefixOf(apiVersion, kind);
    const out = this.resolve(this.sortedKeys(`kind:${prefix}`, this.byKind.get(prefix)));
    return namespace === undefined
      ? out
      : out.filter((o) => (o.metadata.namespace ?? 'default') === namespace);
  }

  /** True when at least one object of the kind (any version of its group) is stored; allocates nothing. */
  hasKind(apiVersion: string, kind: string): boolean {
    return (this.byKind.get(this.prefixOf(apiVersion, kind))?.size ?? 0) > 0;
  }

  /** Objects whose ownerReferences name `uid`, sorted by key. */
  listOwnedBy(uid: string): KubeObject[] {
    return this.resolve(this.sortedKeys(`owner:${uid}`, this.byOwner.get(uid)));
  }

  /** Pods bound to a node, sorted by key. */
  listPodsOnNode(nodeName: string): KubeObject[] {
    return this.resolve(this.sortedKeys(`node:${nodeName}`, this.byNode.get(nodeName)));
  }

  /** All objects, sorted by key. */
  all(): KubeObject[] {
    return [...this.objects.keys()].sort().map((k) => this.objects.get(k)!);
  }

  /** Stores `obj` (replacing `known`, the stored version, when the caller has it) at `storeKey` or its own key. */
  protected commit(obj: KubeObject, known?: KubeObject, storeKey?: string): KubeObject {
    if (this.freeze) deepFreeze(obj);
    const key = storeKey ?? objectKey(obj);
    const prev = known ?? this.objects.get(key);
    this.objects.set(key, obj);
    if (prev && prev.metadata.ownerReferences === obj.metadata.ownerReferences && prev.spec === obj.spec)
      return obj;
    if (!prev) {
      const kp = this.prefixOf(obj.apiVersion, obj.kind);
      addIndex(this.byKind, kp, key);
      this.sortedCache.delete(`kind:${kp}`);
    }
    const prevOwners = ownerUids(prev);
    const nextOwners = ownerUids(obj);
    for (const u of prevOwners) if (!nextOwners.includes(u)) this.unindex(this.byOwner, `owner:`, u, key);
    for (const u of nextOwners) if (!prevOwners.includes(u)) this.index(this.byOwner, 'owner:', u, key);
    const prevNode = nodeOf(prev);
    const nextNode = nodeOf(obj);
    if (prevNode !== nextNode) {
      if (prevNode) this.unindex(this.byNode, 'node:', prevNode, key);
      if (nextNode) this.index(this.byNode, 'node:', nextNode, key);
    }
    if (obj.metadata.uid) this.byUid.set(obj.metadata.uid, key);
    return obj;
  }

  protected uncommit(obj: KubeObject): void {
    const key = objectKey(obj);
    this.objects.delete(key);
    const kp = this.prefixOf(obj.apiVersion, obj.kind);
    this.byKind.get(kp)?.delete(key);
    this.sortedCache.delete(`kind:${kp}`);
    for (const u of ownerUids(obj)) this.unindex(this.byOwner, 'owner:', u, key);
    const n = nodeOf(obj);
    if (n) this.unindex(this.byNode, 'node:', n, key);
    if (obj.metadata.uid) this.byUid.delete(obj.metadata.uid);
  }

  /** {@link kindPrefix}, memoised per index. */
  private prefixOf(apiVersion: string, kind: string): string {
    let byKind = this.prefixes.get(apiVersion);
    if (byKind === undefined) {
      byKind = new Map();
      this.prefixes.set(apiVersion, byKind);
    }
    let p = byKind.get(kind);
    if (p === undefined) {
      p = kindPrefix(apiVersion, kind);
      byKind.set(kind, p);
    }
    return p;
  }

  private index(map: Map<string, Set<string>>, prefix: string, id: string, key: string): void {
    addIndex(map, id, key);
    this.sortedCache.delete(prefix + id);
  }

  private unindex(map: Map<string, Set<string>>, prefix: string, id: string, key: string): void {
    const s = map.get(id);
    if (!s) return;
    s.delete(key);
    if (s.size === 0) map.delete(id);
    this.sortedCache.delete(prefix + id);
  }

  private sortedKeys(cacheKey: string, set: Set<string> | undefined): string[] {
    if (!set) return [];
    let keys = this.sortedCache.get(cacheKey);
    if (!keys) {
      keys = [...set].sort();
      this.sortedCache.set(cacheKey, keys);
    }
    return keys;
  }

  private resolve(keys: string[]): KubeObject[] {
    const out: KubeObject[] = [];
    for (const k of keys) {
      const o = this.objects.get(k);
      if (o) out.push(o);
    }
    return out;
  }
}

function addIndex(map: Map<string, Set<string>>, id: string, key: string): void {
  let s = map.get(id);
  if (!s) {
    s = new Set();
    map.set(id, s);
  }
  s.add(key);
}

function ownerUids(obj: KubeObject | undefined): string[] {
  return (obj?.metadata.ownerReferences ?? []).map((r) => r.uid);
}

function nodeOf(obj: KubeObject | undefined): string | undefined {
  if (obj?.kind !== 'Pod') return undefined;
  return specNodeName(obj) || undefined;
}

/**
 * The `spec.nodeName` of an object whose spec has one as text (a pod bound to a node), else
 * undefined. Example: a pod with `spec: {nodeName: 'node-1'}` → `"node-1"`; a pending pod → undefined.
 */
export function specNodeName(obj: KubeObject): string | undefined {
  const spec = obj.spec;
  if (typeof spec !== 'object' || spec === null || !('nodeName' in spec)) return undefined;
  return typeof spec.nodeName === 'string' ? spec.nodeName : undefined;
}

/** The `spec.terminationGracePeriodSeconds` of an object whose spec has it as a number, else undefined. */
export function specGracePeriodSeconds(obj: KubeObject): number | undefined {
  const spec = obj.spec;
  if (typeof spec !== 'object' || spec === null || !('terminationGracePeriodSeconds' in spec))
    return undefined;
  const grace = spec.terminationGracePeriodSeconds;
  return typeof grace === 'number' ? grace : undefined;
}
