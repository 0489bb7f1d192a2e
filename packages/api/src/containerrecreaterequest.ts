// ContainerRecreateRequest types (apps.kruise.io/v1alpha1), field names as OpenKruise v1.8.2
// `apis/apps/v1alpha1/containerrecreaterequest_types.go` (docs/reference/daemon.md §8.1), and the
// create-time defaults of the mutating webhook (docs/reference/daemon.md §8.3).
import type {
  ContainerPort,
  ExecAction,
  HTTPGetAction,
  Pod,
  TCPSocketAction,
} from 'kubernetes-types/core/v1.js';
import { LABEL_CRR_ACTIVE, LABEL_CRR_NODE_NAME, LABEL_CRR_POD_UID } from './constants';
import { clone, type DefaultingOptions, defaultEmpty, ensureObject, isObject, type Obj } from './defaulting';
import type { TypedObject } from './meta';

/** A preStop handler copied from the pod's container (exec / httpGet / tcpSocket). */
export interface ProbeHandler {
  exec?: ExecAction;
  httpGet?: HTTPGetAction;
  tcpSocket?: TCPSocketAction;
}

/** The runtime identity of a container when the CRR was created (system-filled). */
export interface ContainerRecreateRequestContainerContext {
  containerID: string;
  restartCount: number;
}

/** One container to recreate. `preStop`, `ports` and `statusContext` are system-filled. */
export interface ContainerRecreateRequestContainer {
  name: string;
  preStop?: ProbeHandler;
  ports?: ContainerPort[];
  statusContext?: ContainerRecreateRequestContainerContext;
}

/** `strategy.failurePolicy`; `""` means `Fail`. */
export type ContainerRecreateRequestFailurePolicyType = 'Fail' | 'Ignore';

/** `spec.strategy`. */
export interface ContainerRecreateRequestStrategy {
  failurePolicy?: ContainerRecreateRequestFailurePolicyType;
  orderedRecreate?: boolean;
  forceRecreate?: boolean;
  terminationGracePeriodSeconds?: number;
  unreadyGracePeriodSeconds?: number;
  minStartedSeconds?: number;
}

/** `spec` of a CRR. */
export interface ContainerRecreateRequestSpec {
  podName: string;
  containers: ContainerRecreateRequestContainer[];
  strategy?: ContainerRecreateRequestStrategy;
  activeDeadlineSeconds?: number;
  ttlSecondsAfterFinished?: number;
}

/** CRR phases; the top-level phase only takes `""`, Pending, Recreating, Completed. */
export type ContainerRecreateRequestPhase = 'Pending' | 'Recreating' | 'Succeeded' | 'Failed' | 'Completed';

/** One `status.containerRecreateStates` entry. */
export interface ContainerRecreateRequestContainerRecreateState {
  name: string;
  phase: ContainerRecreateRequestPhase;
  message?: string;
  isKilled?: boolean;
}

/** `status` of a CRR. */
export interface ContainerRecreateRequestStatus {
  phase?: ContainerRecreateRequestPhase | '';
  completionTime?: string;
  message?: string;
  containerRecreateStates?: ContainerRecreateRequestContainerRecreateState[];
}

/** A ContainerRecreateRequest (apps.kruise.io/v1alpha1). */
export type ContainerRecreateRequest = TypedObject<
  ContainerRecreateRequestSpec,
  ContainerRecreateRequestStatus
>;

/**
 * Returns a new CRR with the mutating webhook's create-time fill-in (docs/reference/daemon.md §8.3):
 * `strategy` `{}` and `failurePolicy` `Fail`. When `opts.pod` (the target pod) is given, also:
 * labels `crr.apps.kruise.io/active: "true"`, `…/node-name`, `…/pod-uid`;
 * `strategy.terminationGracePeriodSeconds` from the pod spec if unset; per container `preStop` =
 * the pod container's `lifecycle.preStop` (exec / httpGet / tcpSocket), `ports` = its ports only
 * when preStop has httpGet, `statusContext` = `{containerID, restartCount}` from the pod status.
 * Nothing is done on UPDATE (`opts.old` given): the spec is immutable (§8.2). Admission checks
 * (§8.3 "Reject unless") are validation, not defaulting, and are not done here.
 */
export function setDefaultsContainerRecreateRequest(
  obj: ContainerRecreateRequest,
  opts?: DefaultingOptions & { pod?: Pod },
): ContainerRecreateRequest {
  const out = clone(obj) as Obj;
  if (opts?.old !== undefined && opts.old !== null) return out as ContainerRecreateRequest;
  const spec = ensureObject(out, 'spec');
  const strategy = ensureObject(spec, 'strategy');
  defaultEmpty(strategy, 'failurePolicy', 'Fail');
  const pod = opts?.pod;
  if (!isObject(pod)) return out as ContainerRecreateRequest;
  const labels = ensureObject(ensureObject(out, 'metadata'), 'labels');
  labels[LABEL_CRR_ACTIVE] = 'true';
  labels[LABEL_CRR_NODE_NAME] = pod.spec?.nodeName ?? '';
  labels[LABEL_CRR_POD_UID] = pod.metadata?.uid ?? '';
  if (
    strategy.terminationGracePeriodSeconds === undefined ||
    strategy.terminationGracePeriodSeconds === null
  ) {
    const g = pod.spec?.terminationGracePeriodSeconds;
    if (typeof g === 'number') strategy.terminationGracePeriodSeconds = g;
  }
  const podContainers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  if (!Array.isArray(spec.containers)) return out as ContainerRecreateRequest;
  for (const c of spec.containers) {
    if (!isObject(c)) continue;
    const pc = podContainers.find((x) => x.name === c.name);
    const preStop = pc?.lifecycle?.preStop;
    if (preStop) {
      const handler: Obj = {};
      if (preStop.exec) handler.exec = clone(preStop.exec);
      if (preStop.httpGet) handler.httpGet = clone(preStop.httpGet);
      if (preStop.tcpSocket) handler.tcpSocket = clone(preStop.tcpSocket);
      c.preStop = handler;
      if (preStop.httpGet && pc?.ports) c.ports = clone(pc.ports);
    }
    const st = statuses.find((x) => x.name === c.name);
    if (st) c.statusContext = { containerID: st.containerID ?? '', restartCount: st.restartCount ?? 0 };
  }
  return out as ContainerRecreateRequest;
}
