// The pod subresources a kubelet serves behind kube-apiserver: `log` gives the simulated
// container's log, and `exec`, `attach` and `portforward` answer a Status saying why they cannot
// work here (the simulated cluster runs no processes) instead of a bare 404.
//
// The log: a simulated container writes no output of its own, so its log is what its kubelet
// model did to it, one line per happening with the simulated clock — started (image and container
// id), crashed, stopped for an in-place update or a ContainerRecreateRequest, readiness failing,
// stopping at deletion — from the simulation's event log. Parameters as the kubelet reads them:
// `container` (required when the pod has several; kubectl picks one), `previous` (the instance
// before the last restart), `tailLines`, `timestamps` (each line prefixed with its RFC 3339
// time), `limitBytes`. `follow` answers what there is so far and ends the stream.
import type { KubeObject } from '@kruise-ts/api';
import type { SimEvent } from '@kruise-ts/cluster';
import type { ApiContext, Reply } from './objects';
import type { ResourceInfo } from './registry';
import { notFoundStatus, status } from './status';

/** The pod subresources handled here. */
export const POD_SUBRESOURCES: ReadonlySet<string> = new Set(['log', 'exec', 'attach', 'portforward']);

/** Why a simulated pod cannot be exec'd into, attached to or forwarded to. */
export function noProcessesMessage(sub: string, namespace: string, pod: string): string {
  const what = sub === 'portforward' ? 'port-forward' : sub;
  return `${what} is not available: kruise-ts serve simulates pod ${namespace}/${pod} and runs no processes (no container, shell or port to connect to); use kubectl logs for what happened to its containers`;
}

/**
 * Serves `pods/<name>/<sub>` for `sub` in {@link POD_SUBRESOURCES}. `res` is the pods resource.
 *
 * Example: `GET …/pods/web-0/log?container=nginx` → `text/plain` lines such as
 * `2024-01-01T00:00:06Z container nginx started (image nginx:alpine, containerd://00…01)`.
 */
export function podSubresource(
  ctx: ApiContext,
  res: ResourceInfo,
  namespace: string,
  name: string,
  sub: string,
  method: string,
  query: URLSearchParams,
): Reply {
  const pod = ctx.sim.store.get('v1', 'Pod', namespace, name);
  if (!pod) return { code: 404, body: notFoundStatus(res, name) };
  if (sub !== 'log') {
    if (method !== 'GET' && method !== 'POST')
      return {
        code: 405,
        body: status(
          405,
          'MethodNotAllowed',
          'the server does not allow this method on the requested resource',
        ),
      };
    return { code: 400, body: status(400, 'BadRequest', noProcessesMessage(sub, namespace, name)) };
  }
  if (method !== 'GET')
    return {
      code: 405,
      body: status(
        405,
        'MethodNotAllowed',
        'the server does not allow this method on the requested resource',
      ),
    };
  const containers = ((pod.spec as { containers?: { name: string }[] } | undefined)?.containers ?? []).map(
    (c) => c.name,
  );
  let container = query.get('container') ?? '';
  if (container === '') {
    if (containers.length !== 1)
      return bad(
        `a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`,
      );
    container = containers[0];
  }
  if (!containers.includes(container)) return bad(`container ${container} is not valid for pod ${name}`);
  const instances = containerInstances(ctx.sim.events, `Pod/${namespace}/${name}`, container);
  const previous = query.get('previous') === 'true';
  let lines: LogLine[];
  if (previous) {
    if (instances.length < 2)
      return bad(`previous terminated container "${container}" in pod "${name}" not found`);
    lines = instances[instances.length - 2];
  } else {
    if (instances.length === 0)
      return bad(
        `container "${container}" in pod "${name}" is waiting to start: ${waitingReason(pod, container)}`,
      );
    lines = instances[instances.length - 1];
  }
  const tail = Number(query.get('tailLines'));
  if (query.has('tailLines') && Number.isInteger(tail) && tail >= 0)
    lines = tail === 0 ? [] : lines.slice(-tail);
  const stamps = query.get('timestamps') === 'true';
  // with timestamps the kubelet's RFC 3339 (nanosecond) prefix carries the time; without, the line does
  let text = lines
    .map((l) => (stamps ? `${l.time.replace(/Z$/, '.000000000Z')} ${l.text}\n` : `${l.time} ${l.text}\n`))
    .join('');
  const limit = Number(query.get('limitBytes'));
  if (query.has('limitBytes') && Number.isInteger(limit) && limit > 0)
    text = Buffer.from(text).subarray(0, limit).toString();
  return { code: 200, body: text, contentType: 'text/plain' };
}

const bad = (message: string): Reply => ({ code: 400, body: status(400, 'BadRequest', message) });

function waitingReason(pod: KubeObject, container: string): string {
  const cs = (
    (
      pod.status as
        | { containerStatuses?: { name: string; state?: { waiting?: { reason?: string } } }[] }
        | undefined
    )?.containerStatuses ?? []
  ).find((c) => c.name === container);
  return cs?.state?.waiting?.reason ?? 'ContainerCreating';
}

/** One line of a simulated log. */
interface LogLine {
  time: string;
  text: string;
}

/**
 * The log lines of each instance of a container (a start begins an instance), from the event
 * log records about the pod. Lines about the pod as a whole (deletion) go to the current one.
 */
function containerInstances(events: readonly SimEvent[], object: string, container: string): LogLine[][] {
  const out: LogLine[][] = [];
  const add = (e: SimEvent, text: string) => {
    if (out.length > 0) out[out.length - 1].push({ time: e.time, text });
  };
  for (const e of events) {
    if (e.object !== object) continue;
    const d = (e.detail ?? {}) as Record<string, unknown>;
    if (d.container !== undefined && d.container !== container) continue;
    switch (e.type) {
      case 'ContainerStarted':
        out.push([]);
        add(
          e,
          `container ${container} started (image ${String(d.image ?? '')}; simulated by kruise-ts, no process runs)`,
        );
        break;
      case 'ContainerCrashed':
        add(
          e,
          `container ${container} exited (${String(d.reason ?? 'Error')}); the kubelet restarts it after a back-off`,
        );
        break;
      case 'ContainerRestarting':
        add(
          e,
          `container ${container} stopped (${String(d.reason ?? 'restart')}); it restarts${d.image ? ` with image ${String(d.image)}` : ''}`,
        );
        break;
      case 'ReadinessFailed':
        add(e, `container ${container} readiness failing for ${String(d.forSeconds ?? '?')}s`);
        break;
      case 'PodTerminating':
        add(
          e,
          `container ${container} stopping: pod deleted (grace period ${String(d.gracePeriodSeconds ?? '?')}s)`,
        );
        break;
      default:
        break;
    }
  }
  return out;
}
