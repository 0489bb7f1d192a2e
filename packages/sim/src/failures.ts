// Failures injected on a schedule (the scenario's `cluster.failures`): crash a
// container, fail readiness, delete a pod, fail or recover a node. Pods are
// named, or chosen by label selector at random (seeded).
import type { Kubelet, NodeLifecycle, Scheduler, SimEvent, Store } from '@kruise-ts/cluster';
import { matchesSelectorString } from '@kruise-ts/core';

/** A failure injected at a time: crash a container, fail readiness, delete a pod, fail or recover a node. */
export interface ScheduledFailure {
  /** Simulated ms since the start. */
  atMs: number;
  type: 'crash' | 'unready' | 'deletePod' | 'failNode' | 'recoverNode';
  /** Pod name, or a label selector (`app=sample`) with `count` pods picked at random (seeded). */
  pod?: string;
  selector?: string;
  count?: number;
  namespace?: string;
  container?: string;
  node?: string;
  /** For `unready`: how long readiness fails. */
  durationMs?: number;
}

/** What an injection touches. */
export interface FailureDeps {
  store: Store;
  kubelet: Kubelet;
  nodeLifecycle: NodeLifecycle;
  scheduler: Scheduler;
  pick<T>(pool: readonly T[], n: number): T[];
  record(e: Omit<SimEvent, 't' | 'time'>): void;
  defaultReadinessFailureMs: number;
}

function safeMatch(selector: string, labels: Record<string, string> | undefined): boolean {
  try {
    return matchesSelectorString(selector, labels);
  } catch {
    return false;
  }
}

/** Injects one failure now; pods without a running container are skipped (logged `FailureSkipped`). */
export function injectFailure(f: ScheduledFailure, d: FailureDeps): void {
  if (f.type === 'failNode' || f.type === 'recoverNode') {
    if (!f.node) return;
    if (f.type === 'failNode') d.nodeLifecycle.fail(f.node);
    else {
      d.nodeLifecycle.recover(f.node);
      d.scheduler.bump();
    }
    return;
  }
  const ns = f.namespace ?? 'default';
  let names: string[] = [];
  if (f.pod) names = [f.pod];
  else if (f.selector) {
    const sel = f.selector;
    const pool = d.store
      .list('v1', 'Pod', ns)
      .filter((p) => !p.metadata.deletionTimestamp && safeMatch(sel, p.metadata.labels))
      .map((p) => p.metadata.name ?? '');
    names = d.pick(pool, f.count ?? 1);
  }
  for (const name of names) {
    const object = `Pod/${ns}/${name}`;
    if (f.type === 'deletePod') {
      const res = d.store.delete({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name }, 'failures', {
        reason: 'ScheduledDelete',
      });
      d.record({
        type: res.ok ? 'Delete' : 'FailureSkipped',
        object,
        source: 'failures',
        detail: { reason: 'ScheduledDelete' },
      });
      continue;
    }
    const pod = d.store.get('v1', 'Pod', ns, name);
    const rt = pod?.metadata.uid ? d.kubelet.runtime(pod.metadata.uid) : undefined;
    const c = rt?.containers.find((x) => f.container === undefined || x.name === f.container);
    if (!rt || !c || c.state !== 'running') {
      d.record({
        type: 'FailureSkipped',
        object,
        source: 'failures',
        detail: { failure: f.type, reason: 'no running container' },
      });
      continue;
    }
    if (f.type === 'crash') d.kubelet.crash(rt.rt, c, 'ScheduledCrash');
    else d.kubelet.failReadiness(rt.rt, c, f.durationMs ?? d.defaultReadinessFailureMs);
  }
}
