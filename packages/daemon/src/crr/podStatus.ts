// The pod status the CRR daemon reads from CRI (docs/reference/daemon.md §9.3 item 3): kubelet's container
// labels and annotations mapped to {id, name, restartCount, state, times}, newest first.
import type { CriContainerStatus } from '../cri/types';

/** Kubelet's CRI labels and annotations (docs/reference/daemon.md §1). */
export const KUBELET_LABEL_POD_UID = 'io.kubernetes.pod.uid';
export const KUBELET_LABEL_POD_NAME = 'io.kubernetes.pod.name';
export const KUBELET_LABEL_POD_NAMESPACE = 'io.kubernetes.pod.namespace';
export const KUBELET_LABEL_CONTAINER_NAME = 'io.kubernetes.container.name';
export const KUBELET_ANNOTATION_RESTART_COUNT = 'io.kubernetes.container.restartCount';

/** One container as the daemon sees it. Times are epoch ms; `createdAtNs` keeps full precision for sorting. */
export interface RuntimeContainerStatus {
  /** `<runtime_name>://<id>`, comparable with a CRR's `statusContext.containerID`. */
  id: string;
  /** The bare runtime id, for CRI calls. */
  runtimeId: string;
  name: string;
  restartCount: number;
  state: 'created' | 'running' | 'exited' | 'unknown';
  createdAtNs: bigint;
  startedAtMs?: number;
  finishedAtMs?: number;
  exitCode?: number;
  reason?: string;
}

function nsOf(v: string | number | undefined): bigint {
  try {
    return BigInt(v ?? 0);
  } catch {
    return 0n;
  }
}

const msOf = (ns: bigint): number => Number(ns / 1_000_000n);

/**
 * §9.3 item 3.3: maps a CRI ContainerStatus. `restartCount` is the decimal annotation (0 if missing
 * or bad); `startedAt` is set unless CREATED; exit data only when EXITED.
 *
 * Example: `{id: 'abc', state: 'CONTAINER_RUNNING', labels: {'io.kubernetes.container.name': 'app'},
 * annotations: {'io.kubernetes.container.restartCount': '2'}}` with runtime `containerd` →
 * `{id: 'containerd://abc', name: 'app', restartCount: 2, state: 'running', …}`.
 */
export function toRuntimeContainerStatus(s: CriContainerStatus, runtimeName: string): RuntimeContainerStatus {
  const rcText = s.annotations?.[KUBELET_ANNOTATION_RESTART_COUNT];
  const rc = rcText !== undefined && /^\d+$/.test(rcText) ? Number(rcText) : 0;
  const state =
    s.state === 'CONTAINER_RUNNING'
      ? 'running'
      : s.state === 'CONTAINER_EXITED'
        ? 'exited'
        : s.state === 'CONTAINER_CREATED'
          ? 'created'
          : 'unknown';
  const out: RuntimeContainerStatus = {
    id: `${runtimeName}://${s.id}`,
    runtimeId: s.id,
    name: s.labels?.[KUBELET_LABEL_CONTAINER_NAME] ?? '',
    restartCount: rc,
    state,
    createdAtNs: nsOf(s.createdAt),
  };
  if (state !== 'created') out.startedAtMs = msOf(nsOf(s.startedAt));
  if (state === 'exited') {
    out.finishedAtMs = msOf(nsOf(s.finishedAt));
    out.exitCode = s.exitCode;
    out.reason = s.reason;
  }
  return out;
}

/** §9.3 item 3.4: newest `created_at` first (a new array). */
export function sortNewestFirst(list: readonly RuntimeContainerStatus[]): RuntimeContainerStatus[] {
  return [...list].sort((a, b) =>
    a.createdAtNs > b.createdAtNs ? -1 : a.createdAtNs < b.createdAtNs ? 1 : 0,
  );
}

/** §9.3 item 3.4: "the container status of X" = the first (newest) entry named X. */
export function findContainerStatus(
  sorted: readonly RuntimeContainerStatus[],
  name: string,
): RuntimeContainerStatus | undefined {
  return sorted.find((c) => c.name === name);
}
