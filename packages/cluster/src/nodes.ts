// Nodes and the node lifecycle model: building Node objects from the scenario's
// cluster section, failing and recovering nodes. A failed node's kubelet stops
// reporting; after the node monitor grace period the node turns Ready=Unknown,
// gets the unreachable taints and its pods are marked NotReady; after the
// eviction timeout (the pods' toleration seconds, default 300 s) they are evicted
// (deleted). As in a real cluster, an evicted pod on an unreachable node stays
// Terminating until the node comes back and its kubelet confirms termination.
import type { KubeObject } from '@kruise-ts/api';
import type { Node, NodeCondition, Pod, Taint } from 'kubernetes-types/core/v1.js';
import type { NodePayload, SimContext } from './context';
import { fnvHex } from './hashing';
import { displayName } from './keys';
import { kubeMessages } from './kubeEvents';
import type { Kubelet } from './kubelet';
import { nodeAddresses } from './podNetwork';

/** One node of the simulated cluster. */
export interface NodeConfig {
  name: string;
  /** Capacity, e.g. `{ cpu: '4', memory: '16Gi', pods: '110' }`. */
  capacity?: Record<string, string | number>;
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
  /** Images already cached on the node. */
  images?: string[];
}

/** Default node capacity. */
export const DEFAULT_NODE_CAPACITY: Record<string, string> = { cpu: '4', memory: '16Gi', pods: '110' };

/**
 * What a simulated node's kubelet reports about its machine (`kubectl get nodes -o wide`): the
 * Kubernetes version the API server reports, and a container runtime and OS of a common kind of
 * node. They are labels for the reader; nothing in the simulation depends on them.
 */
export const NODE_INFO = {
  kubeletVersion: 'v1.32.0',
  kubeProxyVersion: 'v1.32.0',
  containerRuntimeVersion: 'containerd://1.7.24',
  osImage: 'Debian GNU/Linux 12 (bookworm)',
  kernelVersion: '6.1.0-28-amd64',
  operatingSystem: 'linux',
  architecture: 'amd64',
} as const;

/**
 * The Node object for a node config, Ready. `index` is the node's registration order: it picks
 * the pod CIDR and InternalIP (podNetwork.ts).
 */
export function nodeObject(cfg: NodeConfig, now: string, index = 0): KubeObject {
  const capacity: Record<string, string> = { ...DEFAULT_NODE_CAPACITY };
  for (const [k, v] of Object.entries(cfg.capacity ?? {})) capacity[k] = String(v);
  const { podCIDR, internalIP } = nodeAddresses(index);
  const spec: Record<string, unknown> = { podCIDR, podCIDRs: [podCIDR] };
  if (cfg.taints && cfg.taints.length > 0) spec.taints = cfg.taints;
  if (cfg.unschedulable) spec.unschedulable = true;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: cfg.name,
      labels: {
        'kubernetes.io/hostname': cfg.name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        ...(cfg.labels ?? {}),
      },
    },
    spec,
    status: {
      capacity,
      allocatable: capacity,
      conditions: [readyCondition('True', 'KubeletReady', 'kubelet is posting ready status', now)],
      addresses: [
        { type: 'InternalIP', address: internalIP },
        { type: 'Hostname', address: cfg.name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: machineId(cfg.name),
        systemUUID: machineId(`uuid:${cfg.name}`).replace(
          /^(.{8})(.{4})(.{4})(.{4})(.{12})$/,
          '$1-$2-$3-$4-$5',
        ),
        bootID: machineId(`boot:${cfg.name}`).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
        ...NODE_INFO,
      },
    },
  };
}

/** 32 hex digits derived from `s` (FNV-1a, four rounds): stable ids for a node's machine. */
function machineId(s: string): string {
  return fnvHex(s, 32);
}

function readyCondition(status: string, reason: string, message: string, now: string): NodeCondition {
  return { type: 'Ready', status, reason, message, lastHeartbeatTime: now, lastTransitionTime: now };
}

const UNREACHABLE = 'node.kubernetes.io/unreachable';

/** The node lifecycle controller model. */
export class NodeLifecycle {
  private failed = new Map<string, number>();
  private token = 0;

  constructor(
    private readonly ctx: SimContext,
    private readonly kubelet: Kubelet,
  ) {}

  /** True when the node is failed. */
  isFailed(name: string): boolean {
    return this.failed.has(name);
  }

  /** Fails a node now: its kubelet stops reporting. */
  fail(name: string): void {
    if (this.failed.has(name)) return;
    const token = ++this.token;
    this.failed.set(name, token);
    this.ctx.log({ type: 'NodeFailed', object: `Node/${name}`, source: 'step' });
    this.ctx.schedule(this.ctx.timings.nodeMonitorGracePeriodMs, { type: 'nodeNotReady', node: name, token });
  }

  /** Recovers a node: Ready again, taints removed, the kubelet re-reports its pods. */
  recover(name: string): void {
    if (!this.failed.has(name)) return;
    this.failed.delete(name);
    const node = this.ctx.store.get('v1', 'Node', undefined, name) as (KubeObject & Node) | undefined;
    if (node) {
      const now = this.ctx.clock.now();
      const conditions = (node.status?.conditions ?? []).map((c) =>
        c.type === 'Ready'
          ? readyCondition('True', 'KubeletReady', 'kubelet is posting ready status', now)
          : c,
      );
      const taints = (node.spec?.taints ?? []).filter((t) => t.key !== UNREACHABLE);
      this.ctx.store.patch(
        { apiVersion: 'v1', kind: 'Node', name },
        'merge',
        { spec: { taints } },
        'node-lifecycle',
        'NodeRecovered',
      );
      this.ctx.store.updateStatus(
        { apiVersion: 'v1', kind: 'Node', name },
        { ...(node.status ?? {}), conditions },
        `kubelet:${name}`,
        'NodeReady',
      );
    }
    this.ctx.log({ type: 'NodeRecovered', object: `Node/${name}`, source: 'step' });
    this.kubelet.resyncNode(name);
  }

  /** Handles the node monitor and eviction timers. */
  handle(ev: NodePayload): void {
    if (this.failed.get(ev.node) !== ev.token) return;
    const store = this.ctx.store;
    const node = store.get('v1', 'Node', undefined, ev.node) as (KubeObject & Node) | undefined;
    if (!node) return;
    const now = this.ctx.clock.now();
    if (ev.type === 'nodeNotReady') {
      const conditions = (node.status?.conditions ?? []).map((c) =>
        c.type === 'Ready'
          ? readyCondition('Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.', now)
          : c,
      );
      store.updateStatus(
        { apiVersion: 'v1', kind: 'Node', name: ev.node },
        { ...(node.status ?? {}), conditions },
        'node-lifecycle',
        'NodeNotReady',
      );
      const taints = [
        ...(node.spec?.taints ?? []).filter((t) => t.key !== UNREACHABLE),
        { key: UNREACHABLE, effect: 'NoSchedule', timeAdded: now },
        { key: UNREACHABLE, effect: 'NoExecute', timeAdded: now },
      ];
      store.patch(
        { apiVersion: 'v1', kind: 'Node', name: ev.node },
        'merge',
        { spec: { taints } },
        'node-lifecycle',
        'NodeNotReady',
      );
      this.ctx.log({ type: 'NodeNotReady', object: `Node/${ev.node}`, source: 'node-lifecycle' });
      // MarkPodsNotReady: every pod on the node gets Ready=False.
      for (const p of store.listPodsOnNode(ev.node) as (KubeObject & Pod)[]) {
        const conds = p.status?.conditions ?? [];
        const ready = conds.find((c) => c.type === 'Ready');
        if (ready?.status === 'False') continue;
        const next = conds.map((c) =>
          c.type === 'Ready' ? { ...c, status: 'False', reason: 'NodeNotReady', lastTransitionTime: now } : c,
        );
        store.updateStatus(
          { apiVersion: 'v1', kind: 'Pod', namespace: p.metadata.namespace, name: p.metadata.name ?? '' },
          { ...(p.status ?? {}), conditions: next },
          'node-lifecycle',
          'NodeNotReady',
        );
        this.ctx.log({
          type: 'PodNotReady',
          object: displayName(p),
          source: 'node-lifecycle',
          detail: { node: ev.node },
        });
        this.ctx.kubeEvent?.({
          involved: {
            kind: 'Pod',
            namespace: p.metadata.namespace,
            name: p.metadata.name ?? '',
            uid: p.metadata.uid,
          },
          type: 'Warning',
          reason: 'NodeNotReady',
          message: kubeMessages.nodeNotReady(),
          component: 'node-controller',
        });
      }
      this.ctx.schedule(this.ctx.timings.podEvictionTimeoutMs, {
        type: 'nodeEvict',
        node: ev.node,
        token: ev.token,
      });
      return;
    }
    // Taint-based eviction of every pod that does not tolerate the NoExecute taint forever.
    for (const p of store.listPodsOnNode(ev.node) as (KubeObject & Pod)[]) {
      if (p.metadata.deletionTimestamp) continue;
      const forever = (p.spec?.tolerations ?? []).some(
        (t) =>
          (t.key === UNREACHABLE || (!t.key && t.operator === 'Exists')) &&
          (!t.effect || t.effect === 'NoExecute') &&
          t.tolerationSeconds === undefined,
      );
      if (forever) continue;
      store.delete(
        { apiVersion: 'v1', kind: 'Pod', namespace: p.metadata.namespace, name: p.metadata.name ?? '' },
        'node-lifecycle',
        { reason: 'TaintManagerEviction' },
      );
      this.ctx.log({
        type: 'PodEvicted',
        object: displayName(p),
        source: 'node-lifecycle',
        detail: { node: ev.node },
      });
    }
  }
}
