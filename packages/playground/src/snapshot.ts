// One frame of the cluster, taken in the worker after the simulation settles: the `kubectl get`
// tables (the simulator's own printers: kube-apiserver's for built-in kinds, the CRDs' printer
// columns for Kruise kinds), the pods on each node and the invariants so far.
import { crdManifests, type KubeObject, LABEL_CONTROLLER_REVISION_HASH } from '@kruise-ts/api';
import { formatDuration, formatTable, Registry, type Simulation, toTable } from '@kruise-ts/sim/browser';
import type { Frame, InvariantView, NodeView, PodView } from './protocol';

/** The kinds that get a table, in the order they are printed (only those with objects). */
const TABLE_KINDS: { apiVersion: string; kind: string; command: string }[] = [
  { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', command: 'kubectl get clonesets' },
  { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', command: 'kubectl get asts' },
  { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', command: 'kubectl get ads' },
  { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', command: 'kubectl get sidecarsets' },
  {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'UnitedDeployment',
    command: 'kubectl get uniteddeployments',
  },
  { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', command: 'kubectl get imagepulljobs' },
  { apiVersion: 'apps/v1', kind: 'Deployment', command: 'kubectl get deployments' },
  { apiVersion: 'apps/v1', kind: 'StatefulSet', command: 'kubectl get statefulsets' },
  { apiVersion: 'v1', kind: 'Pod', command: 'kubectl get pods -o wide' },
  { apiVersion: 'v1', kind: 'Node', command: 'kubectl get nodes' },
];

/** Rows of a table beyond this are summarised in one line (a 10,000-pod table helps nobody). */
export const MAX_ROWS = 40;
/** Up to this many pods, the node view draws one square per pod; above it, counts per revision. */
export const MAX_POD_SQUARES = 400;

/** What a frame needs that lasts the whole run: the printers and the revision legend. */
export class Snapshotter {
  private readonly registry = new Registry(crdManifests());
  /** Revision hashes in order of first appearance: the node view's colours. */
  readonly revisions: string[] = [];

  /** The cluster as the page draws it now. */
  take(sim: Simulation, stepsDone: number): Frame {
    const nowEpochMs = sim.clock.startEpochMs + sim.nowMs;
    return {
      t: sim.nowMs,
      time: sim.clock.now(),
      stepsDone,
      tables: this.tables(sim, nowEpochMs),
      nodes: this.nodes(sim),
      invariants: invariants(sim),
    };
  }

  private tables(sim: Simulation, nowEpochMs: number): Frame['tables'] {
    const out: Frame['tables'] = [];
    for (const k of TABLE_KINDS) {
      const objects = sim.store.list(k.apiVersion, k.kind);
      const res = this.registry.forKind(k.apiVersion, k.kind);
      if (objects.length === 0 || !res) continue;
      // -o wide only for pods (their NODE column); other kinds print their priority-0 columns.
      const wide = k.kind === 'Pod';
      out.push({
        title: k.command,
        text: kubectlTable(toTable(res, objects.slice(0, MAX_ROWS), nowEpochMs), wide, objects.length),
      });
    }
    return out;
  }

  private revisionIndex(pod: KubeObject): number {
    const hash = pod.metadata.labels?.[LABEL_CONTROLLER_REVISION_HASH];
    if (hash === undefined) return -1;
    let i = this.revisions.indexOf(hash);
    if (i < 0) i = this.revisions.push(hash) - 1;
    return i;
  }

  private nodes(sim: Simulation): NodeView[] {
    const squares = sim.store.list('v1', 'Pod').length <= MAX_POD_SQUARES;
    return sim.store.list('v1', 'Node').map((node) => {
      const name = node.metadata.name ?? '';
      const pods: PodView[] = sim.store.listPodsOnNode(name).map((p) => ({
        name: p.metadata.name ?? '',
        rev: this.revisionIndex(p),
        ready: isReady(p),
        terminating: p.metadata.deletionTimestamp !== undefined,
      }));
      const counts = new Map<number, { rev: number; ready: number; notReady: number }>();
      let terminating = 0;
      for (const p of pods) {
        if (p.terminating) {
          terminating++;
          continue;
        }
        const c = counts.get(p.rev) ?? { rev: p.rev, ready: 0, notReady: 0 };
        if (p.ready) c.ready++;
        else c.notReady++;
        counts.set(p.rev, c);
      }
      const view: NodeView = {
        name,
        ready: isReady(node),
        counts: [...counts.values()].sort((a, b) => a.rev - b.rev),
        terminating,
        total: pods.length,
      };
      if (squares) view.pods = pods;
      return view;
    });
  }
}

/** The object's Ready condition is True (a pod's or a node's). */
function isReady(o: KubeObject): boolean {
  const conds = (o.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions;
  return conds?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

function invariants(sim: Simulation): InvariantView[] {
  return sim.invariantResults().map((i) => ({
    name: i.name,
    objectName: i.objectName,
    checks: i.checks,
    violations: i.violations.length,
    first: i.violations[0]
      ? `${formatDuration(i.violations[0].t * 1000)} ${i.violations[0].object}: ${i.violations[0].message}`
      : undefined,
  }));
}

/** A meta.k8s.io Table as kubectl prints it: upper-case headers, `<none>` for a missing cell. */
export function kubectlTable(table: Record<string, unknown>, wide: boolean, total: number): string {
  const columns = table.columnDefinitions as { name: string; priority: number }[];
  const rows = table.rows as { cells: unknown[] }[];
  const keep = columns.map((c) => c.priority === 0 || wide);
  const header = columns.filter((_, i) => keep[i]).map((c) => c.name.toUpperCase());
  const cells = rows.map((r) => r.cells.filter((_, i) => keep[i]).map(cellText));
  const text = formatTable(header, cells);
  return total > rows.length ? `${text}\n… and ${total - rows.length} more` : text;
}

function cellText(v: unknown): string {
  if (v === null || v === undefined || v === '') return '<none>';
  return typeof v === 'string'
    ? v
    : typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : JSON.stringify(v);
}
