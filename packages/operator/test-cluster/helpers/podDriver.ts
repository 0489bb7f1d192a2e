// The node side of the real control plane, which has no scheduler and no kubelet: a loop that
// plays both through the same API calls they make, so every write goes through kube-apiserver's
// own validation and admission.
//
// - scheduler: a pod without `spec.nodeName` is bound (POST pods/<name>/binding) to a Ready node
//   that matches its nodeSelector and any required `metadata.name` node-affinity term (how an
//   Advanced DaemonSet pins its pods), spreading by pod count;
// - kubelet: a bound pod gets status Running with one running container status per spec
//   container, `imageID` derived from the image (an in-place image change shows a new imageID and
//   one more restart, as a real runtime does), Ready recomputed from the containers and the
//   pod's readiness gates (CloneSet's InPlaceUpdateReady), and a pod IP; a bound pod being deleted
//   is removed with grace period 0 (the kubelet's final delete).
//
// Status writes are strategic-merge patches, which merge `conditions` by type, so the driver
// never overwrites a condition another writer (the operator) owns.
import { createHash } from 'node:crypto';
import { api } from './rest';

/** A node the driver registers: name, labels and pod capacity. */
export interface DriverNode {
  name: string;
  labels?: Record<string, string>;
  pods?: number;
}

const SMP = 'application/strategic-merge-patch+json';

function imageIDOf(image: string): string {
  return `docker.io/library/${image.split(':')[0]}@sha256:${createHash('sha256').update(image).digest('hex')}`;
}

/**
 * Creates the nodes (if missing) and does what a kubelet and the node lifecycle controller would:
 * marks them Ready with capacity and node info, and lifts the not-ready taint.
 */
export async function registerNodes(base: string, nodes: readonly DriverNode[]): Promise<void> {
  for (const n of nodes) {
    const created = await api(base, 'POST', '/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: n.name, labels: { 'kubernetes.io/hostname': n.name, ...n.labels } },
    });
    if (created.status !== 201 && created.status !== 409)
      throw new Error(`create node ${n.name}: ${created.status} ${JSON.stringify(created.body)}`);
    const capacity = { cpu: '8', memory: '32Gi', pods: String(n.pods ?? 110) };
    const now = new Date().toISOString();
    const r = await api(
      base,
      'PATCH',
      `/api/v1/nodes/${n.name}/status`,
      {
        status: {
          capacity,
          allocatable: capacity,
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'KubeletReady',
              message: 'kubelet is posting ready status',
              lastHeartbeatTime: now,
              lastTransitionTime: now,
            },
          ],
          nodeInfo: {
            kubeletVersion: 'v1.34.4',
            containerRuntimeVersion: 'containerd://2.1.0',
            osImage: 'pod driver (kruise-ts test-cluster)',
            operatingSystem: 'linux',
            architecture: 'amd64',
            kernelVersion: '6.1.0',
            kubeProxyVersion: '',
            machineID: '',
            systemUUID: '',
            bootID: '',
          },
        },
      },
      SMP,
    );
    if (r.status !== 200) throw new Error(`node ${n.name} status: ${r.status} ${JSON.stringify(r.body)}`);
    // kube-apiserver's TaintNodesByCondition admission gives every new node the
    // node.kubernetes.io/not-ready:NoSchedule taint; the node lifecycle controller removes it once
    // the node reports Ready (a DaemonSet does not tolerate it). That controller does not run here.
    const untaint = await api(
      base,
      'PATCH',
      `/api/v1/nodes/${n.name}`,
      { spec: { taints: null } },
      'application/merge-patch+json',
    );
    if (untaint.status !== 200)
      throw new Error(`node ${n.name} taints: ${untaint.status} ${JSON.stringify(untaint.body)}`);
  }
}

/** One node-selector requirement (`matchExpressions` on labels or `matchFields` on the name). */
function requirementHolds(value: string | undefined, r: any): boolean {
  const values: string[] = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    default:
      return false;
  }
}

/**
 * The scheduler's node filter, for what the suite's workloads use: Ready and schedulable, the
 * nodeSelector's labels, and the required node-affinity terms (any term; every requirement of it).
 */
function fits(pod: any, node: any): boolean {
  const labels: Record<string, string> = node.metadata.labels ?? {};
  const ready = (node.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');
  if (!ready || node.spec?.unschedulable) return false;
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!Array.isArray(terms) || terms.length === 0) return true;
  return terms.some(
    (t: any) =>
      (t.matchExpressions ?? []).every((r: any) => requirementHolds(labels[r.key], r)) &&
      (t.matchFields ?? []).every(
        (r: any) => r.key === 'metadata.name' && requirementHolds(node.metadata.name, r),
      ),
  );
}

function podStatusPatch(pod: any, podIP: string, now: string): Record<string, unknown> | undefined {
  const previous = new Map<string, any>(
    (pod.status?.containerStatuses ?? []).map((c: any) => [c.name, c] as [string, any]),
  );
  const containerStatuses = (pod.spec?.containers ?? []).map((c: any) => {
    const before = previous.get(c.name);
    const imageID = imageIDOf(c.image);
    const restarted = before !== undefined && before.imageID !== imageID;
    return {
      name: c.name,
      image: c.image,
      imageID,
      ready: true,
      started: true,
      restartCount: (before?.restartCount ?? 0) + (restarted ? 1 : 0),
      containerID: `containerd://${createHash('sha256').update(`${pod.metadata.uid}/${c.name}/${imageID}`).digest('hex').slice(0, 32)}`,
      state: {
        running: { startedAt: restarted || !before ? now : (before.state?.running?.startedAt ?? now) },
      },
    };
  });
  const conditions: any[] = pod.status?.conditions ?? [];
  const gatesTrue = (pod.spec?.readinessGates ?? []).every((g: any) =>
    conditions.some((c) => c.type === g.conditionType && c.status === 'True'),
  );
  const ready = gatesTrue ? 'True' : 'False';
  const changed =
    pod.status?.phase !== 'Running' ||
    JSON.stringify(containerStatuses.map((c: any) => [c.name, c.imageID])) !==
      JSON.stringify((pod.status?.containerStatuses ?? []).map((c: any) => [c.name, c.imageID])) ||
    conditions.find((c) => c.type === 'Ready')?.status !== ready;
  if (!changed) return undefined;
  const condition = (type: string, status: string) => {
    const cur = conditions.find((c) => c.type === type);
    return { type, status, lastTransitionTime: cur?.status === status ? cur.lastTransitionTime : now };
  };
  return {
    status: {
      phase: 'Running',
      hostIP: '10.0.0.1',
      podIP,
      podIPs: [{ ip: podIP }],
      startTime: pod.status?.startTime ?? now,
      containerStatuses,
      conditions: [
        condition('Initialized', 'True'),
        condition('ContainersReady', 'True'),
        condition('Ready', ready),
      ],
    },
  };
}

/** A running driver: `stop()` ends its loop; `errors` collects unexpected API answers. */
export interface PodDriver {
  stop(): Promise<void>;
  readonly errors: string[];
}

/** Starts the loop (every `intervalMs`) over all pods of the cluster at `base`. */
export function startPodDriver(base: string, intervalMs = 150): PodDriver {
  let running = true;
  const errors: string[] = [];
  let ipSeq = 1;
  const ips = new Map<string, string>();
  const ipOf = (uid: string) => {
    let ip = ips.get(uid);
    if (!ip) {
      const n = ipSeq++;
      ip = `10.244.${Math.floor(n / 250)}.${(n % 250) + 2}`;
      ips.set(uid, ip);
    }
    return ip;
  };
  const note = (what: string, r: { status: number; body: any }) => {
    // 404 and 409 are the ordinary races of a controller loop (the pod went away, or changed).
    if (r.status >= 300 && r.status !== 404 && r.status !== 409)
      errors.push(`${what}: ${r.status} ${r.body?.message ?? ''}`);
  };
  const step = async () => {
    const [podList, nodeList] = await Promise.all([
      api(base, 'GET', '/api/v1/pods'),
      api(base, 'GET', '/api/v1/nodes'),
    ]);
    if (podList.status !== 200 || nodeList.status !== 200) return;
    const nodes: any[] = nodeList.body.items ?? [];
    const load = new Map<string, number>(nodes.map((n) => [n.metadata.name, 0]));
    for (const p of podList.body.items ?? [])
      if (p.spec?.nodeName) load.set(p.spec.nodeName, (load.get(p.spec.nodeName) ?? 0) + 1);
    const now = new Date().toISOString();
    for (const pod of podList.body.items ?? []) {
      const { namespace, name } = pod.metadata;
      const path = `/api/v1/namespaces/${namespace}/pods/${name}`;
      if (pod.metadata.deletionTimestamp) {
        if (pod.spec?.nodeName)
          note(
            `delete ${name}`,
            await api(base, 'DELETE', path, {
              gracePeriodSeconds: 0,
              preconditions: { uid: pod.metadata.uid },
            }),
          );
        continue;
      }
      if (!pod.spec?.nodeName) {
        const candidates = nodes.filter((n) => fits(pod, n));
        if (candidates.length === 0) continue;
        candidates.sort((a, b) => (load.get(a.metadata.name) ?? 0) - (load.get(b.metadata.name) ?? 0));
        const target = candidates[0].metadata.name;
        const r = await api(base, 'POST', `${path}/binding`, {
          apiVersion: 'v1',
          kind: 'Binding',
          metadata: { name, namespace },
          target: { apiVersion: 'v1', kind: 'Node', name: target },
        });
        note(`bind ${name}`, r);
        if (r.status === 201) load.set(target, (load.get(target) ?? 0) + 1);
        continue;
      }
      const patch = podStatusPatch(pod, ipOf(pod.metadata.uid), now);
      if (patch) note(`status ${name}`, await api(base, 'PATCH', `${path}/status`, patch, SMP));
    }
  };
  const loop = (async () => {
    while (running) {
      try {
        await step();
      } catch (e) {
        // the API server may be restarting (the fault tests): keep going
        if (!String(e).includes('ECONNREFUSED')) errors.push(String(e));
      }
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  })();
  return {
    errors,
    async stop() {
      running = false;
      await loop;
    },
  };
}
