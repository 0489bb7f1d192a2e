// The live state a forecast starts from: the objects of a `kubectl get ... -o yaml` file (a `List`,
// or `*List`s, or plain documents) sorted into nodes, pods, revisions, workloads and the rest, and
// the workload the change is about. Nothing here reads a file or a cluster: the caller hands in
// parsed documents (the CLI reads the file, or lists the objects with --from-cluster).
import type { KubeObject } from '@kruise-ts/api';
import { groupOf } from '@kruise-ts/cluster';
import { isKubeObject } from '@kruise-ts/core';

/** The kinds a forecast can roll out. */
export const FORECAST_KINDS: readonly string[] = [
  'CloneSet',
  'StatefulSet',
  'DaemonSet',
  'SidecarSet',
  'UnitedDeployment',
];

/** The objects of a saved cluster state, sorted. */
export interface LiveState {
  nodes: KubeObject[];
  pods: KubeObject[];
  revisions: KubeObject[];
  /** Kruise workloads a forecast can roll out. */
  workloads: KubeObject[];
  /** Everything else that is loaded as it is (PVCs, NodeImages, PodUnavailableBudgets, ...). */
  others: KubeObject[];
  /** Documents that are not objects, or kinds not loaded, with why. */
  skipped: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Kinds never loaded: they are the cluster's bookkeeping, not state a rollout depends on. */
const NOT_LOADED: ReadonlySet<string> = new Set([
  'Event',
  'Lease',
  'Endpoints',
  'EndpointSlice',
  'CustomResourceDefinition',
]);

/** Sorts parsed documents (a `List`'s items flattened) into a LiveState. */
export function readLiveState(docs: readonly unknown[]): LiveState {
  const st: LiveState = { nodes: [], pods: [], revisions: [], workloads: [], others: [], skipped: [] };
  const visit = (d: unknown, where: string) => {
    if (!isObject(d)) {
      st.skipped.push(`${where}: not an object`);
      return;
    }
    if (typeof d.kind === 'string' && d.kind.endsWith('List') && Array.isArray(d.items)) {
      d.items.forEach((item, i) => {
        visit(item, `${where}.items[${i}]`);
      });
      return;
    }
    if (!isKubeObject(d) || !d.metadata.name) {
      st.skipped.push(`${where}: not a Kubernetes object (apiVersion, kind and metadata.name are needed)`);
      return;
    }
    if (NOT_LOADED.has(d.kind)) return;
    const kruise = groupOf(d.apiVersion) === 'apps.kruise.io';
    if (d.kind === 'Node') st.nodes.push(d);
    else if (d.kind === 'Pod') st.pods.push(d);
    else if (d.kind === 'ControllerRevision') st.revisions.push(d);
    else if (kruise && FORECAST_KINDS.includes(d.kind)) st.workloads.push(d);
    else st.others.push(d);
  };
  docs.forEach((d, i) => {
    visit(d, `document ${i}`);
  });
  return st;
}

/** Which workload to forecast: `kind/name`, `name`, or the only workload there is. */
export function findTarget(
  st: LiveState,
  want?: { kind?: string; name?: string; namespace?: string },
): { target?: KubeObject; error?: string } {
  const matches = st.workloads.filter(
    (w) =>
      (!want?.kind ||
        w.kind.toLowerCase() === want.kind.toLowerCase() ||
        shortName(w.kind) === want.kind.toLowerCase()) &&
      (!want?.name || w.metadata.name === want.name) &&
      (!want?.namespace || (w.metadata.namespace ?? 'default') === want.namespace),
  );
  const list = st.workloads.map((w) => `${w.kind}/${w.metadata.name}`).join(', ') || 'none';
  if (matches.length === 1) return { target: matches[0] };
  if (matches.length === 0)
    return {
      error: `no ${want?.kind ?? 'workload'}${want?.name ? ` named ${want.name}` : ''} in the state (workloads: ${list})`,
    };
  return {
    error: `${matches.length} workloads match; name one with --target kind/name (workloads: ${list})`,
  };
}

/** kubectl's short names of the Kruise kinds (`clone`, `asts`, `ads`, `sidecarset`, `ud`). */
export function shortName(kind: string): string {
  return (
    (
      {
        CloneSet: 'clone',
        StatefulSet: 'asts',
        DaemonSet: 'ads',
        SidecarSet: 'sidecarset',
        UnitedDeployment: 'ud',
      } as Record<string, string>
    )[kind] ?? kind.toLowerCase()
  );
}
