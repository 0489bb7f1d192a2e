// The kruise-daemon side of every node, played next to the kubelet model:
// - NodeImage pulls (docs/reference/daemon.md §7.3–7.5): each spec tag without a status of the same
//   version is reported `Pulling` (startTime now), pulled through the kubelet's per-node image
//   cache (sharing a running pull; the scenario's image pull time), then `Succeeded` with
//   completionTime and imageID; the image stays cached, so later pods start without a pull.
// - ContainerRecreateRequests (§9.2–9.5): one CRR per pod is picked (others go `Pending`), set
//   `Recreating`, waits `unreadyGracePeriodSeconds` after `unready-acquired`, stops one pending
//   container per pass (the kubelet restarts it: restartCount + 1, a new containerID), reports
//   `containerRecreateStates`, and completes once every container is back, ready (as the
//   controller's `sync-container-statuses` annotation says) and started for minStartedSeconds.
// Simplifications: pulls never fail (no backoff, timeout or deadline handling on the node), no
// status-write rate limit, preStop hooks are not run, restartPolicy is taken to be Always.
import {
  ANNOTATION_CRR_SYNC_CONTAINER_STATUSES,
  ANNOTATION_CRR_UNREADY_ACQUIRED,
  type ContainerRecreateRequest,
  type ContainerRecreateRequestContainerRecreateState as CrrState,
  type KubeObject,
  LABEL_CRR_ACTIVE,
  LABEL_CRR_NODE_NAME,
  LABEL_CRR_POD_UID,
  type NodeImage,
} from '@kruise-ts/api';
import { jsonEqual, kindRef, onlyOfKind } from '@kruise-ts/core';
import type { SimContext } from './context';
import { fnvHex } from './hashing';
import type { ContainerRuntime, PodRuntime } from './podStatus';

const KRUISE = 'apps.kruise.io/v1alpha1';
const NODE_IMAGE = kindRef<NodeImage>(KRUISE, 'NodeImage');
const CRR = kindRef<ContainerRecreateRequest>(KRUISE, 'ContainerRecreateRequest');
type TagStatus = {
  tag: string;
  phase: string;
  version?: number;
  startTime?: string;
  completionTime?: string;
  progress?: number;
  imageID?: string;
  message?: string;
};
type SyncEntry = { name: string; ready?: boolean; containerID?: string };

/** Phase weight of §9.2.3: Completed 1, Recreating 2, Pending 3, anything else 4. */
const PHASE_WEIGHT: Record<string, number> = { Completed: 1, Recreating: 2, Pending: 3 };

/**
 * What the node side asks of the kubelet model (kubelet.ts, which owns a NodeSide and passes
 * itself in): pull an image for a NodeImage, look up a pod's containers, stop one for a CRR.
 */
export interface NodeRuntime {
  pullForDaemon(node: string, image: string): boolean;
  runtime(uid: string): { rt: PodRuntime; containers: ContainerRuntime[] } | undefined;
  stopContainer(podUid: string, container: string, graceSeconds: number): boolean;
}

/** The node side of NodeImages and ContainerRecreateRequests (see the file header). */
export class NodeSide {
  private dirty = false;
  /** Elapsed-ms instants at which a CRR wait (grace period, minStartedSeconds) ends. */
  private timers: number[] = [];

  constructor(
    private readonly ctx: SimContext,
    private readonly kubelet: NodeRuntime,
  ) {
    ctx.store.watch((c) => {
      const k = c.object.kind;
      if (k === 'NodeImage' || k === 'ContainerRecreateRequest') this.dirty = true;
    });
  }

  /** True when a NodeImage or CRR changed, a pull finished, or a wait ended. */
  get pending(): boolean {
    return this.dirty || this.timers.some((t) => t <= this.ctx.clock.elapsedMs);
  }

  /** The kubelet finished pulling an image on a node. */
  onImagePulled(_node: string, _image: string): void {
    this.dirty = true;
  }

  /** Brings NodeImage statuses and CRRs up to date (called from the kubelet's sync). */
  sync(): void {
    const now = this.ctx.clock.elapsedMs;
    this.timers = this.timers.filter((t) => t > now);
    this.dirty = false;
    for (const ni of onlyOfKind(this.ctx.store.list(KRUISE, 'NodeImage'), NODE_IMAGE)) this.syncNodeImage(ni);
    const crrs = onlyOfKind(this.ctx.store.list(KRUISE, 'ContainerRecreateRequest'), CRR);
    const byPod = new Map<string, ContainerRecreateRequest[]>();
    for (const crr of crrs) {
      const l = crr.metadata?.labels ?? {};
      if (l[LABEL_CRR_ACTIVE] !== 'true' || !l[LABEL_CRR_NODE_NAME]) continue;
      const key = `${crr.metadata?.namespace}/${crr.spec?.podName}`;
      byPod.set(key, [...(byPod.get(key) ?? []), crr]);
    }
    for (const key of [...byPod.keys()].sort()) this.syncPodCrrs(byPod.get(key) ?? []);
  }

  // ------------------------------------------------------------------ NodeImage (§7.3–7.5)

  private syncNodeImage(ni: NodeImage): void {
    const node = ni.metadata?.name ?? '';
    if (!this.ctx.store.get('v1', 'Node', undefined, node) || this.ctx.nodeFailed(node)) return;
    const nowIso = this.ctx.clock.now();
    const old = (ni.status ?? {}) as { imageStatuses?: Record<string, { tags?: TagStatus[] }> };
    const imageStatuses: Record<string, { tags: TagStatus[] }> = {};
    let desired = 0;
    let succeeded = 0;
    let failed = 0;
    let pulling = 0;
    const images = ni.spec?.images ?? {};
    for (const name of Object.keys(images).sort()) {
      const tags: TagStatus[] = [];
      for (const t of [...(images[name]?.tags ?? [])].sort((a, b) => (a.tag < b.tag ? -1 : 1))) {
        desired++;
        const prev = old.imageStatuses?.[name]?.tags?.find((s) => s.tag === t.tag);
        const version = t.version ?? 0;
        let st: TagStatus;
        if (prev && (prev.version ?? 0) === version && prev.completionTime)
          st = prev; // §7.4.1 final
        else {
          const ref = `${name}:${t.tag}`;
          const present = this.kubelet.pullForDaemon(node, ref);
          const startTime = prev && (prev.version ?? 0) === version ? prev.startTime : nowIso;
          st = present
            ? {
                tag: t.tag,
                phase: 'Succeeded',
                progress: 100,
                version,
                startTime,
                completionTime: nowIso,
                imageID: `${name}@sha256:${fnvHex(ref, 64)}`,
              }
            : { tag: t.tag, phase: 'Pulling', version, startTime };
        }
        if (st.phase === 'Succeeded') succeeded++;
        else if (st.phase === 'Failed') failed++;
        else if (st.phase === 'Pulling') pulling++;
        tags.push(st);
      }
      if (tags.length > 0) imageStatuses[name] = { tags };
    }
    const status = {
      ...(ni.status ?? {}),
      desired,
      succeeded,
      failed,
      pulling,
      ...(Object.keys(imageStatuses).length > 0 ? { imageStatuses } : { imageStatuses: undefined }),
    };
    if (status.imageStatuses === undefined) delete (status as { imageStatuses?: unknown }).imageStatuses;
    if (jsonEqual(status, ni.status ?? {})) return;
    this.ctx.store.updateStatus(refOf(ni), status, `daemon:${node}`, 'PullImage');
  }

  // ---------------------------------------------------------------- CRR (§9.2–9.5)

  private syncPodCrrs(list: ContainerRecreateRequest[]): void {
    const eligible = list
      .filter((c) => !c.metadata?.deletionTimestamp && c.status?.phase !== 'Completed')
      .sort(
        (a, b) =>
          (PHASE_WEIGHT[a.status?.phase ?? ''] ?? 4) - (PHASE_WEIGHT[b.status?.phase ?? ''] ?? 4) ||
          (a.metadata?.creationTimestamp ?? '').localeCompare(b.metadata?.creationTimestamp ?? '') ||
          (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
      );
    const [picked, ...rest] = eligible;
    if (!picked) return;
    const node = picked.metadata?.labels?.[LABEL_CRR_NODE_NAME] ?? '';
    // Like NodeImages: only a node the simulator models plays the daemon's part, so an
    // external node daemon can own CRRs of nodes the simulator does not know.
    if (!this.ctx.store.get('v1', 'Node', undefined, node) || this.ctx.nodeFailed(node)) return;
    for (const other of rest)
      if (!other.status?.phase) this.writeCrrStatus(other, { ...(other.status ?? {}), phase: 'Pending' });
    if (picked.status?.phase !== 'Recreating') {
      this.writeCrrStatus(picked, { ...(picked.status ?? {}), phase: 'Recreating' });
      return;
    }
    const grace = picked.spec?.strategy?.unreadyGracePeriodSeconds;
    if (grace !== undefined && grace !== null) {
      const acquired = picked.metadata?.annotations?.[ANNOTATION_CRR_UNREADY_ACQUIRED];
      if (!acquired) return; // the controller acquires not-ready first (§9.6.1)
      const at = Date.parse(acquired);
      if (Number.isNaN(at)) {
        this.complete(picked, `failed to parse unready time ${acquired}`);
        return;
      }
      if (Date.parse(this.ctx.clock.now()) - at < grace * 1000) {
        this.wakeAt(at + grace * 1000 - Date.parse(this.ctx.clock.now()));
        return;
      }
    }
    this.manage(picked);
  }

  /** §9.3 steps 4–9 against the kubelet model's containers. */
  private manage(crr: ContainerRecreateRequest): void {
    const podUid = crr.metadata?.labels?.[LABEL_CRR_POD_UID] ?? '';
    const rt = this.kubelet.runtime(podUid);
    const created = Date.parse(crr.metadata?.creationTimestamp ?? '') || 0;
    const minStarted = crr.spec?.strategy?.minStartedSeconds ?? 0;
    let synced: SyncEntry[] = [];
    try {
      synced = JSON.parse(
        crr.metadata?.annotations?.[ANNOTATION_CRR_SYNC_CONTAINER_STATUSES] ?? '[]',
      ) as SyncEntry[];
    } catch {
      synced = [];
    }
    const prevStates = crr.status?.containerRecreateStates ?? [];
    const nowMs = Date.parse(this.ctx.clock.now());
    let wait: number | undefined;
    const states: CrrState[] = (crr.spec?.containers ?? []).map((spec) => {
      const prev = prevStates.find((s) => s.name === spec.name);
      if (prev?.phase === 'Succeeded' || prev?.phase === 'Failed') return prev;
      const killed = prev?.isKilled ?? false;
      const c = rt?.containers.find((x) => x.name === spec.name);
      if (!c)
        return {
          name: spec.name,
          phase: 'Pending',
          message: 'not found container on Node',
          isKilled: killed,
        };
      if (c.state !== 'running')
        return { name: spec.name, phase: killed ? 'Recreating' : 'Pending', isKilled: killed };
      const ctxId = spec.statusContext?.containerID;
      const startedAt = Date.parse(c.startedAt ?? '') || 0;
      if (
        c.containerID !== ctxId ||
        c.restartCount > (spec.statusContext?.restartCount ?? 0) ||
        startedAt > created
      ) {
        const entry = synced.find((e) => e.name === spec.name);
        if (entry?.ready && entry.containerID === c.containerID) {
          if (nowMs - startedAt > minStarted * 1000)
            return { name: spec.name, phase: 'Succeeded', isKilled: killed };
          wait = Math.min(wait ?? Infinity, startedAt + minStarted * 1000 + 1000 - nowMs);
        }
        return { name: spec.name, phase: 'Recreating', isKilled: killed };
      }
      return { name: spec.name, phase: 'Pending', isKilled: killed };
    });
    if (wait !== undefined) this.wakeAt(wait);
    if (!jsonEqual(states, prevStates)) {
      this.writeCrrStatus(crr, { ...(crr.status ?? {}), containerRecreateStates: states });
      return;
    }
    // §9.3.6: the action pass; at most one kill per sync.
    let completed = 0;
    let changed = false;
    const next = states.map((s) => ({ ...s }));
    for (const s of next) {
      if (s.phase === 'Succeeded' || s.phase === 'Failed') {
        completed++;
        continue;
      }
      if (s.phase === 'Recreating') {
        if (!s.isKilled) changed = true;
        s.isKilled = true;
        if (crr.spec?.strategy?.orderedRecreate) break;
        continue;
      }
      if (!rt?.containers.some((x) => x.name === s.name)) break;
      const grace = crr.spec?.strategy?.terminationGracePeriodSeconds ?? 30;
      this.kubelet.stopContainer(podUid, s.name, grace);
      s.isKilled = true;
      s.phase = 'Recreating';
      changed = true;
      break;
    }
    if (changed) {
      this.writeCrrStatus(crr, { ...(crr.status ?? {}), containerRecreateStates: next });
      return;
    }
    if (completed === next.length) this.complete(crr, '');
  }

  private complete(crr: ContainerRecreateRequest, message: string): void {
    this.writeCrrStatus(crr, {
      ...(crr.status ?? {}),
      phase: 'Completed',
      completionTime: this.ctx.clock.now(),
      message,
    });
  }

  private writeCrrStatus(crr: ContainerRecreateRequest, status: unknown): void {
    if (jsonEqual(status, crr.status ?? {})) return;
    const node = crr.metadata?.labels?.[LABEL_CRR_NODE_NAME] ?? '';
    this.ctx.store.updateStatus(refOf(crr), status, `daemon:${node}`, 'ContainerRecreate');
  }

  private wakeAt(delayMs: number): void {
    const ms = Math.max(1, Math.ceil(delayMs));
    this.timers.push(this.ctx.clock.elapsedMs + ms);
    this.ctx.schedule(ms, { type: 'wake' });
  }
}

function refOf(o: KubeObject) {
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    namespace: o.metadata.namespace,
    name: o.metadata.name ?? '',
  };
}
