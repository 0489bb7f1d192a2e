// `kruise-ts forecast --from-cluster`: the state read from the current kubeconfig's cluster, as
// `kubectl get clone,asts,ads,sidecarset,ud,pods,nodes,controllerrevisions -o yaml` would save it.
// Read-only: only GET (list) requests are sent. A kind the cluster does not serve (404) is left
// out; any other failure stops the command in kubectl's wording.
import { expectOk, openSession } from './kruise/session';

/** The collections a forecast reads: [group/version, plural, namespaced]. */
const COLLECTIONS: readonly [string, string, boolean][] = [
  ['apps.kruise.io/v1alpha1', 'clonesets', true],
  ['apps.kruise.io/v1beta1', 'statefulsets', true],
  ['apps.kruise.io/v1alpha1', 'daemonsets', true],
  ['apps.kruise.io/v1alpha1', 'sidecarsets', false],
  ['apps.kruise.io/v1alpha1', 'uniteddeployments', true],
  ['apps.kruise.io/v1alpha1', 'podunavailablebudgets', true],
  ['apps/v1', 'controllerrevisions', true],
  ['v1', 'pods', true],
  ['v1', 'nodes', false],
];

/** Lists the objects a forecast needs (in `namespace`, or the kubeconfig's), items with apiVersion and kind. */
export async function readClusterState(
  kubeconfig: string | undefined,
  namespace: string | undefined,
): Promise<unknown[]> {
  const s = openSession({ kubeconfig, namespace });
  const out: unknown[] = [];
  for (const [gv, plural, namespaced] of COLLECTIONS) {
    const base = gv.includes('/') ? `/apis/${gv}` : `/api/${gv}`;
    const path = namespaced
      ? `${base}/namespaces/${encodeURIComponent(s.namespace)}/${plural}`
      : `${base}/${plural}`;
    const res = await s.client.request('GET', path);
    if (res.status === 404) continue;
    const list = expectOk(res) as { kind?: string; items?: Record<string, unknown>[] };
    const kind = (list.kind ?? '').replace(/List$/, '');
    for (const item of list.items ?? []) out.push({ apiVersion: gv, kind, ...item });
  }
  return out;
}
