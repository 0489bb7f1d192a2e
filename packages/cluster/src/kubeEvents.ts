// The Kubernetes events the scheduler, kubelet and node lifecycle models raise, in the reasons and
// words of kube-scheduler 1.32 and the kubelet 1.32 (`Scheduled`, `FailedScheduling`, `Pulling`,
// `Pulled`, `Created`, `Started`, `Killing`, `BackOff`, `NodeNotReady`). They are not records of
// the simulator's event log (which stays as it is, so reports and recorded runs do not change);
// the models hand them to the context's `kubeEvent` hook (`Simulation.onKubeEvent` listeners), and `kruise-ts serve` stores them as
// core/v1 Events so `kubectl describe` and `kubectl get events` tell what happened to a pod.
import { fnv32a } from '@kruise-ts/core';

/** One event as a component records it. */
export interface KubeEventRecord {
  /** The object it is about; `fieldPath` names a container (`spec.containers{nginx}`). */
  involved: { kind: 'Pod' | 'Node'; namespace?: string; name: string; uid?: string; fieldPath?: string };
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  /** `default-scheduler`, `kubelet` or `node-controller`. */
  component: string;
  /** The node of a kubelet's event. */
  host?: string;
  /** RFC 3339 simulated time. */
  time: string;
}

/** Go's `time.Duration` text of a millisecond count (`5s`, `1.5s`, `2m3s`, `150ms`). */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  const sec = `${Number.isInteger(s) ? s : s.toFixed(3).replace(/0+$/, '')}s`;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${sec}`;
}

/** The size the model reports for an image: deterministic from its name (core's FNV-1a), 10–90 MB. */
export function imageSize(image: string): number {
  return 10_000_000 + (fnv32a(image) % 80_000_000);
}

/** kubelet and scheduler messages, word for word. */
export const kubeMessages = {
  scheduled: (namespace: string, pod: string, node: string) =>
    `Successfully assigned ${namespace}/${pod} to ${node}`,
  pulling: (image: string) => `Pulling image "${image}"`,
  pulled: (image: string, pullMs: number, waitedMs: number) =>
    `Successfully pulled image "${image}" in ${goDuration(pullMs)} (${goDuration(waitedMs)} including waiting). Image size: ${imageSize(image)} bytes.`,
  alreadyPresent: (image: string) => `Container image "${image}" already present on machine`,
  created: (container: string) => `Created container: ${container}`,
  started: (container: string) => `Started container ${container}`,
  stopping: (container: string) => `Stopping container ${container}`,
  definitionChanged: (container: string) => `Container ${container} definition changed, will be restarted`,
  backOff: (container: string, pod: string, namespace: string, uid: string) =>
    `Back-off restarting failed container ${container} in pod ${pod}_${namespace}(${uid})`,
  nodeNotReady: () => 'Node is not ready',
};
