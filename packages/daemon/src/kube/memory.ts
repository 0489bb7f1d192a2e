// An in-memory Kubernetes API for the daemon: an object store with resourceVersions, conflicts,
// label/field-filtered watches (ADDED/MODIFIED/DELETED as a selector-filtered watch sees them) and
// recorded events. The integration tests use it in place of `kruise-ts serve`.
import type {
  ContainerRecreateRequest,
  ContainerRecreateRequestStatus,
  KubeObject,
  NodeImage,
  NodeImageStatus,
} from '@kruise-ts/api';
import { LABEL_CRR_ACTIVE, LABEL_CRR_NODE_NAME } from '@kruise-ts/api';
import type { Secret } from 'kubernetes-types/core/v1.js';
import { rfc3339 } from '../clock';
import {
  type EventRecord,
  type KubeAdapter,
  KubeConflictError,
  KubeNotFoundError,
  type StopWatch,
  type WatchEvent,
} from './adapter';

interface Watcher {
  kind: string;
  match: (o: KubeObject) => boolean;
  handler: (ev: WatchEvent<KubeObject>) => void;
  seen: Set<string>;
  stopped: boolean;
}

const keyOf = (kind: string, ns: string | undefined, name: string) => `${kind}/${ns ?? ''}/${name}`;

/** The in-memory API server. Objects handed out are copies; inputs are never mutated. */
export class InMemoryKube implements KubeAdapter {
  /** Every recorded event, in order. */
  readonly events: EventRecord[] = [];
  private readonly objects = new Map<string, KubeObject>();
  private readonly watchers: Watcher[] = [];
  private rv = 0;
  private uid = 0;
  private readonly now: () => number;

  constructor(opts: { now?: () => number } = {}) {
    this.now = opts.now ?? (() => Date.now());
  }

  /** Creates an object (fills uid, resourceVersion, creationTimestamp). Throws if it exists. */
  create<T extends KubeObject>(obj: T): T {
    const k = keyOf(obj.kind, obj.metadata.namespace, obj.metadata.name ?? '');
    if (this.objects.has(k)) throw new KubeConflictError(`${k} already exists`);
    const o = structuredClone(obj) as KubeObject;
    this.uid++;
    o.metadata = {
      ...o.metadata,
      uid: o.metadata.uid ?? `uid-${this.uid}`,
      creationTimestamp: o.metadata.creationTimestamp ?? rfc3339(this.now()),
      resourceVersion: String(++this.rv),
    };
    this.objects.set(k, o);
    this.notify(o.kind, k, o);
    return structuredClone(o) as T;
  }

  /** Reads an object (a copy). */
  get<T extends KubeObject>(kind: string, namespace: string | undefined, name: string): T | undefined {
    const o = this.objects.get(keyOf(kind, namespace, name));
    return o ? (structuredClone(o) as T) : undefined;
  }

  /** Lists the objects of a kind (copies). */
  list<T extends KubeObject>(kind: string): T[] {
    return [...this.objects.values()].filter((o) => o.kind === kind).map((o) => structuredClone(o) as T);
  }

  /** Replaces an object; a stale `resourceVersion` throws KubeConflictError. */
  update<T extends KubeObject>(obj: T): T {
    const k = keyOf(obj.kind, obj.metadata.namespace, obj.metadata.name ?? '');
    const cur = this.objects.get(k);
    if (!cur) throw new KubeNotFoundError(`${k} not found`);
    if (obj.metadata.resourceVersion && obj.metadata.resourceVersion !== cur.metadata.resourceVersion) {
      throw new KubeConflictError(`Operation cannot be fulfilled on ${k}: the object has been modified`);
    }
    const o = structuredClone(obj) as KubeObject;
    o.metadata = {
      ...o.metadata,
      uid: cur.metadata.uid,
      creationTimestamp: cur.metadata.creationTimestamp,
      resourceVersion: String(++this.rv),
    };
    this.objects.set(k, o);
    this.notify(o.kind, k, o);
    return structuredClone(o) as T;
  }

  /** Read-modify-write: `fn` gets a copy and returns the new object. */
  mutate<T extends KubeObject>(
    kind: string,
    namespace: string | undefined,
    name: string,
    fn: (o: T) => T,
  ): T {
    const cur = this.get<T>(kind, namespace, name);
    if (!cur) throw new KubeNotFoundError(`${keyOf(kind, namespace, name)} not found`);
    return this.update(fn(cur));
  }

  /** Deletes an object (no finalizers). */
  delete(kind: string, namespace: string | undefined, name: string): void {
    const k = keyOf(kind, namespace, name);
    const cur = this.objects.get(k);
    if (!cur) return;
    this.objects.delete(k);
    this.notify(kind, k, undefined, cur);
  }

  private notify(kind: string, k: string, obj: KubeObject | undefined, old?: KubeObject): void {
    for (const w of this.watchers) {
      if (w.kind !== kind || w.stopped) continue;
      const was = w.seen.has(k);
      const is = obj !== undefined && w.match(obj);
      let ev: WatchEvent<KubeObject> | undefined;
      if (!was && is) ev = { type: 'ADDED', object: structuredClone(obj) };
      else if (was && is) ev = { type: 'MODIFIED', object: structuredClone(obj) };
      else if (was && !is) ev = { type: 'DELETED', object: structuredClone(obj ?? old) as KubeObject };
      if (is) w.seen.add(k);
      else w.seen.delete(k);
      if (ev) {
        const e = ev;
        setImmediate(() => {
          if (!w.stopped) w.handler(e);
        });
      }
    }
  }

  private watch(
    kind: string,
    match: (o: KubeObject) => boolean,
    handler: (ev: WatchEvent<KubeObject>) => void,
  ): StopWatch {
    const w: Watcher = { kind, match, handler, seen: new Set(), stopped: false };
    this.watchers.push(w);
    for (const [k, o] of this.objects) {
      if (o.kind === kind && match(o)) {
        w.seen.add(k);
        const ev: WatchEvent<KubeObject> = { type: 'ADDED', object: structuredClone(o) };
        setImmediate(() => {
          if (!w.stopped) handler(ev);
        });
      }
    }
    return () => {
      w.stopped = true;
      const i = this.watchers.indexOf(w);
      if (i >= 0) this.watchers.splice(i, 1);
    };
  }

  // ---- KubeAdapter ----
  async watchNodeImage(nodeName: string, onEvent: (ev: WatchEvent<NodeImage>) => void): Promise<StopWatch> {
    return this.watch(
      'NodeImage',
      (o) => o.metadata.name === nodeName,
      onEvent as (ev: WatchEvent<KubeObject>) => void,
    );
  }

  async updateNodeImageStatus(nodeImage: NodeImage, status: NodeImageStatus): Promise<NodeImage> {
    const cur = this.get<NodeImage>('NodeImage', undefined, nodeImage.metadata.name ?? '');
    if (!cur) throw new KubeNotFoundError(`NodeImage ${nodeImage.metadata.name} not found`);
    if (
      nodeImage.metadata.resourceVersion &&
      nodeImage.metadata.resourceVersion !== cur.metadata.resourceVersion
    ) {
      throw new KubeConflictError(
        `Operation cannot be fulfilled on nodeimages "${nodeImage.metadata.name}": the object has been modified`,
      );
    }
    return this.update({ ...cur, status: structuredClone(status) });
  }

  async getSecret(namespace: string, name: string): Promise<Secret | undefined> {
    return this.get('Secret', namespace, name) as Secret | undefined;
  }

  async watchContainerRecreateRequests(
    nodeName: string,
    onEvent: (ev: WatchEvent<ContainerRecreateRequest>) => void,
  ): Promise<StopWatch> {
    return this.watch(
      'ContainerRecreateRequest',
      (o) =>
        o.metadata.labels?.[LABEL_CRR_NODE_NAME] === nodeName &&
        o.metadata.labels?.[LABEL_CRR_ACTIVE] === 'true',
      onEvent as (ev: WatchEvent<KubeObject>) => void,
    );
  }

  async updateContainerRecreateRequestStatus(
    crr: ContainerRecreateRequest,
    status: ContainerRecreateRequestStatus,
  ): Promise<ContainerRecreateRequest> {
    const cur = this.get<ContainerRecreateRequest>(
      'ContainerRecreateRequest',
      crr.metadata.namespace,
      crr.metadata.name ?? '',
    );
    if (!cur) throw new KubeNotFoundError(`ContainerRecreateRequest ${crr.metadata.name} not found`);
    if (crr.metadata.resourceVersion && crr.metadata.resourceVersion !== cur.metadata.resourceVersion) {
      throw new KubeConflictError(
        `Operation cannot be fulfilled on containerrecreaterequests "${crr.metadata.name}": the object has been modified`,
      );
    }
    return this.update({ ...cur, status: structuredClone(status) });
  }

  async patchContainerRecreateRequestStatus(
    namespace: string,
    name: string,
    status: Partial<ContainerRecreateRequestStatus>,
  ): Promise<ContainerRecreateRequest> {
    return this.mutate<ContainerRecreateRequest>('ContainerRecreateRequest', namespace, name, (cur) => ({
      ...cur,
      status: { ...(cur.status ?? {}), ...structuredClone(status) },
    }));
  }

  async recordEvent(ev: EventRecord): Promise<void> {
    this.events.push(structuredClone(ev));
  }
}
