// The ContainerRecreateRequest controller as every shell drives it (docs/reference/daemon.md
// §9.1, §9.6): the controller half of the CRR protocol. It reads the CRR's target pod; a pod
// change enqueues the uncompleted, non-deleting CRRs of its namespace labelled with the pod's uid
// (§9.1.1), and with the change at hand only when the pod was deleted, started deleting or
// changed its container statuses.
import {
  type ContainerRecreateRequest,
  type ContainerRecreateRequestStatus,
  LABEL_CRR_POD_UID,
  setDefaultsContainerRecreateRequest,
} from '@kruise-ts/api';
import {
  asKind,
  defineController,
  NOTHING_TO_ENQUEUE,
  type ObjectChange,
  type ObjectReader,
  POD,
  resolveFeatureGates,
} from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import {
  type ContainerRecreateRequestControllerState,
  reconcileContainerRecreateRequest,
} from '../crr/reconcile';
import { validateContainerRecreateRequest } from '../crr/validation';
import { CRR_KIND } from './kinds';

/** The pod a CRR names, in its namespace. */
function targetPod(crr: ContainerRecreateRequest, reader: ObjectReader): Pod | undefined {
  const name = crr.spec?.podName;
  return name ? reader.get(POD, crr.metadata?.namespace, name) : undefined;
}

/** §9.1.1: whether a pod change can matter to its CRRs (every change when the change is unknown). */
function relevant(pod: Pod, change: ObjectChange | undefined): boolean {
  if (!change) return true;
  const old = change.old ? asKind(change.old, POD) : undefined;
  return (
    change.type === 'deleted' ||
    (!!pod.metadata?.deletionTimestamp && !old?.metadata?.deletionTimestamp) ||
    old?.status?.containerStatuses !== pod.status?.containerStatuses
  );
}

/** `containerrecreaterequest-controller` (operator.md §3.5; needs `KruiseDaemon`). */
export const containerRecreateRequestDescriptor = defineController<
  ContainerRecreateRequest,
  ContainerRecreateRequestStatus,
  ContainerRecreateRequestControllerState
>({
  name: 'containerrecreaterequest-controller',
  primary: CRR_KIND,
  secondary: [POD],
  enabled: (g) => resolveFeatureGates(g).KruiseDaemon,
  enqueueFor: (changed, reader, change) => {
    const pod = asKind(changed, POD);
    const uid = pod?.metadata?.uid;
    if (!pod || !uid || !relevant(pod, change)) return NOTHING_TO_ENQUEUE;
    const crrs = reader.list(CRR_KIND, pod.metadata?.namespace);
    if (crrs.length === 0) return NOTHING_TO_ENQUEUE;
    return crrs.filter(
      (c) =>
        c.metadata?.labels?.[LABEL_CRR_POD_UID] === uid &&
        !c.metadata?.deletionTimestamp &&
        c.status?.phase !== 'Completed',
    );
  },
  readSet: (crr, reader) => {
    const pod = targetPod(crr, reader);
    return pod ? [crr, pod] : [crr];
  },
  reconcile: (containerRecreateRequest, reader, now, state) =>
    reconcileContainerRecreateRequest({
      containerRecreateRequest,
      pod: targetPod(containerRecreateRequest, reader),
      now,
      controllerState: state,
    }),
  admission: {
    default: (crr, env) =>
      setDefaultsContainerRecreateRequest(crr, { old: env.old, pod: targetPod(crr, env.reader) }),
    validate: (crr, env) =>
      validateContainerRecreateRequest(crr, env.old, { pod: targetPod(crr, env.reader) }),
  },
});
