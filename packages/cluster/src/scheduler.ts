// The scheduler model: binds pending pods to nodes honouring resource requests
// (cpu, memory, pod count), nodeSelector, required node affinity, taints and
// tolerations, node readiness and `spec.unschedulable`. It scores feasible
// nodes by least requested resources (ties: fewer pods, then name). A pod that
// fits nowhere stays Pending with `PodScheduled=False, reason Unschedulable`
// and a kube-scheduler style message ("0/3 nodes are available: 3 Insufficient cpu."), and is
// not looked at again until capacity may have freed (`bump`): 100,000 pods beyond capacity cost
// nothing per step.
import type { KubeObject } from '@kruise-ts/api';
import { findMatchingUntoleratedTaint, matchesRequiredNodeAffinity, quantityToNumber } from '@kruise-ts/core';
import type { Node, Pod, PodCondition, Taint } from 'kubernetes-types/core/v1.js';
import type { SimContext } from './context';
import { displayName, objectKey } from './keys';
import { kubeMessages } from './kubeEvents';

interface NodeUsage {
  node: Node & KubeObject;
  name: string;
  cpu: number;
  memory: number;
  pods: number;
  capCpu: number;
  capMemory: number;
  capPods: number;
  /** Facts of the node that do not depend on the pod, computed once per run (not per pod × node). */
  ready: boolean;
  unschedulable: boolean;
  /** Its NoSchedule / NoExecute taints (the ones scheduling honours). */
  taints: Taint[];
}

/** A Kubernetes quantity as a float (`"500m"` → 0.5, `"1Gi"` → 1073741824), undefined if malformed. */
function quantityValue(q: unknown): number | undefined {
  if (typeof q === 'number') return q;
  if (q === undefined || q === null) return undefined;
  try {
    return quantityToNumber(q);
  } catch {
    return undefined;
  }
}

/** Requests of a pod: sum over containers, at least the largest init container. */
export function podRequests(pod: Pod): { cpu: number; memory: number } {
  const sum = { cpu: 0, memory: 0 };
  for (const c of pod.spec?.containers ?? []) {
    sum.cpu += quantityValue(c.resources?.requests?.cpu) ?? 0;
    sum.memory += quantityValue(c.resources?.requests?.memory) ?? 0;
  }
  for (const c of pod.spec?.initContainers ?? []) {
    sum.cpu = Math.max(sum.cpu, quantityValue(c.resources?.requests?.cpu) ?? 0);
    sum.memory = Math.max(sum.memory, quantityValue(c.resources?.requests?.memory) ?? 0);
  }
  return sum;
}

/** True when the pod has a nodeSelector or a required node affinity (otherwise every node matches). */
function hasNodeConstraints(pod: Pod): boolean {
  const sel = pod.spec?.nodeSelector;
  if (sel && Object.keys(sel).length > 0) return true;
  return pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution != null;
}

/** True when the node's Ready condition is True. */
export function isNodeReady(node: Node): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The scheduler. */
export class Scheduler {
  /** Bumped whenever capacity may have freed or nodes changed; unschedulable pods retry then. */
  private generation = 0;
  private triedAt = new Map<string, number>();
  private pendingKeys = new Set<string>();
  /** Pending keys noted since the last run: the only ones a run looks at unless `retryAll`. */
  private noted = new Set<string>();
  /** The generation moved since the last run: every pending pod is looked at again. */
  private retryAll = false;
  bindings = 0;

  constructor(private readonly ctx: SimContext) {}

  /** A pod needs scheduling (or rescheduling after a change). */
  notePending(podKey: string): void {
    this.pendingKeys.add(podKey);
    this.noted.add(podKey);
  }

  /** Capacity or nodes changed: retry pods that did not fit. */
  bump(): void {
    this.generation++;
    this.retryAll = true;
  }

  /** Forgets a pod that is gone. */
  forget(podKey: string, uid?: string): void {
    this.pendingKeys.delete(podKey);
    this.noted.delete(podKey);
    if (uid) this.triedAt.delete(uid);
  }

  /**
   * True when a run may have something to do: a pod was noted since the last run, or capacity
   * may have freed. Asked after every write of a settle, so it does not walk the pending pods.
   */
  get pending(): boolean {
    return this.noted.size > 0 || (this.retryAll && this.pendingKeys.size > 0);
  }

  /**
   * Binds every pending pod that fits; marks the others Unschedulable. A pod already tried at
   * this generation is skipped, so a run looks at the pods noted since the last one — or at all
   * of them once the generation moved.
   */
  run(): void {
    const keys = [...(this.retryAll ? this.pendingKeys : this.noted)];
    this.noted.clear();
    this.retryAll = false;
    if (this.pendingKeys.size === 0) return;
    const store = this.ctx.store;
    const pods: (KubeObject & Pod)[] = [];
    for (const k of keys) {
      const p = store.getByKey(k) as (KubeObject & Pod) | undefined;
      if (!p || p.spec?.nodeName || p.metadata.deletionTimestamp) {
        this.pendingKeys.delete(k);
        continue;
      }
      if (this.triedAt.get(p.metadata.uid ?? '') === this.generation) continue;
      pods.push(p);
    }
    if (pods.length === 0) return;
    // Oldest first (creation time, then name), as the scheduling queue's FIFO would.
    pods.sort((a, b) => {
      const ta = a.metadata.creationTimestamp ?? '';
      const tb = b.metadata.creationTimestamp ?? '';
      if (ta !== tb) return ta < tb ? -1 : 1;
      // Same second (a whole batch is created at once): by namespace, then name, the key order.
      const na = a.metadata.namespace ?? '';
      const nb = b.metadata.namespace ?? '';
      if (na !== nb) return na < nb ? -1 : 1;
      const ma = a.metadata.name ?? '';
      const mb = b.metadata.name ?? '';
      return ma < mb ? -1 : ma > mb ? 1 : 0;
    });
    const usage = this.usage();
    for (let i = 0; i < pods.length; i++) this.scheduleOne(pods[i], usage);
  }

  private usage(): NodeUsage[] {
    const out: NodeUsage[] = [];
    for (const n of this.ctx.store.list('v1', 'Node') as (Node & KubeObject)[]) {
      const cap = n.status?.allocatable ?? n.status?.capacity ?? {};
      const u: NodeUsage = {
        node: n,
        name: n.metadata.name ?? '',
        cpu: 0,
        memory: 0,
        pods: 0,
        capCpu: quantityValue(cap.cpu) ?? Number.POSITIVE_INFINITY,
        capMemory: quantityValue(cap.memory) ?? Number.POSITIVE_INFINITY,
        capPods: quantityValue(cap.pods) ?? 110,
        ready: isNodeReady(n),
        unschedulable: Boolean(n.spec?.unschedulable),
        taints: (n.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute'),
      };
      const onNode = this.ctx.store.listPodsOnNode(u.name) as Pod[];
      for (let i = 0; i < onNode.length; i++) {
        const r = podRequests(onNode[i]);
        u.cpu += r.cpu;
        u.memory += r.memory;
        u.pods++;
      }
      out.push(u);
    }
    return out;
  }

  private scheduleOne(pod: KubeObject & Pod, usage: NodeUsage[]): void {
    const req = podRequests(pod);
    const constrained = hasNodeConstraints(pod);
    let reasons: Map<string, number> | undefined;
    let best: NodeUsage | undefined;
    let bestScore = Number.POSITIVE_INFINITY;
    // An indexed loop: this runs nodes × pods times (1M for 10k pods on 100 nodes).
    for (let i = 0; i < usage.length; i++) {
      const u = usage[i];
      const why = this.filter(pod, u, req, constrained);
      if (why) {
        reasons ??= new Map();
        reasons.set(why, (reasons.get(why) ?? 0) + 1);
        continue;
      }
      // Least requested: the average fraction used after placing the pod (non-zero defaults 100m / 200Mi, as kube-scheduler scores).
      const cpu = (u.cpu + Math.max(req.cpu, 0.1)) / (Number.isFinite(u.capCpu) ? u.capCpu : 1e9);
      const mem =
        (u.memory + Math.max(req.memory, 200 * 1024 * 1024)) /
        (Number.isFinite(u.capMemory) ? u.capMemory : 1e18);
      const score = (cpu + mem) / 2 + u.pods / (u.capPods * 1e6);
      if (score < bestScore) {
        bestScore = score;
        best = u;
      }
    }
    const store = this.ctx.store;
    const ref = {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: pod.metadata.namespace,
      name: pod.metadata.name ?? '',
    };
    if (!best) {
      this.triedAt.set(pod.metadata.uid ?? '', this.generation);
      const parts = [...(reasons ?? new Map<string, number>()).entries()]
        .sort((a, b) => (a[0] < b[0] ? -1 : 1))
        .map(([r, n]) => `${n} ${r}`);
      const message = `0/${usage.length} nodes are available${parts.length ? `: ${parts.join(', ')}` : ''}.`;
      const cond: PodCondition = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message };
      const old = (pod.status?.conditions ?? []).find((c) => c.type === 'PodScheduled');
      if (old && old.status === 'False' && old.reason === 'Unschedulable' && old.message === message) return;
      const conditions = [
        ...(pod.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled'),
        // lastProbeTime null, as kube-scheduler writes it (the status is stored as JSON, not a PodStatus)
        { ...cond, lastProbeTime: null, lastTransitionTime: this.ctx.clock.now() },
      ];
      store.updateStatus(
        ref,
        { ...(pod.status ?? {}), phase: 'Pending', conditions },
        'scheduler',
        'Unschedulable',
      );
      this.ctx.log({
        type: 'FailedScheduling',
        object: displayName(pod),
        source: 'scheduler',
        detail: { message },
      });
      this.ctx.kubeEvent?.({
        involved: { kind: 'Pod', namespace: ref.namespace, name: ref.name, uid: pod.metadata.uid },
        type: 'Warning',
        reason: 'FailedScheduling',
        message,
        component: 'default-scheduler',
      });
      return;
    }
    best.cpu += req.cpu;
    best.memory += req.memory;
    best.pods++;
    const key = objectKey(pod);
    this.pendingKeys.delete(key);
    this.triedAt.delete(pod.metadata.uid ?? '');
    // The binding subresource: nodeName and PodScheduled=True in one write.
    if (!store.bind(key, best.name, 'scheduler').ok) return;
    this.bindings++;
    this.ctx.log({
      type: 'Scheduled',
      object: displayName(pod),
      source: 'scheduler',
      detail: { node: best.name },
    });
    const ns = pod.metadata.namespace ?? 'default';
    const podName = pod.metadata.name ?? '';
    this.ctx.kubeEvent?.({
      involved: { kind: 'Pod', namespace: ns, name: podName, uid: pod.metadata.uid },
      type: 'Normal',
      reason: 'Scheduled',
      message: kubeMessages.scheduled(ns, podName, best.name),
      component: 'default-scheduler',
    });
  }

  /** Why the pod cannot go on the node, in kube-scheduler's words, or undefined when it fits. */
  private filter(
    pod: Pod,
    u: NodeUsage,
    req: { cpu: number; memory: number },
    constrained: boolean,
  ): string | undefined {
    if (!u.ready) return 'node(s) had untolerated taint {node.kubernetes.io/not-ready: }';
    if (u.unschedulable) return 'node(s) were unschedulable';
    if (u.taints.length > 0) {
      const taint = findMatchingUntoleratedTaint(u.taints, pod.spec?.tolerations);
      if (taint) return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
    }
    if (constrained && !matchesRequiredNodeAffinity(pod, u.node))
      return "node(s) didn't match Pod's node affinity/selector";
    if (u.pods + 1 > u.capPods) return 'Too many pods';
    if (u.cpu + req.cpu > u.capCpu + 1e-9) return 'Insufficient cpu';
    if (u.memory + req.memory > u.capMemory) return 'Insufficient memory';
    return undefined;
  }
}
