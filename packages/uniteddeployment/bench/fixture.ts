// Benchmark fixture: a settled UnitedDeployment with 10 subsets of 1 000 pods each (10 000 pods),
// and the single-pass baseline the reconcile is compared with.
import type { KubeObject } from '@kruise-ts/api';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import {
  LABEL_SUBSET_NAME,
  LABEL_UD_REVISION,
  manageRevisions,
  type ReconcileUnitedDeploymentInput,
  reconcileUnitedDeployment,
  type UnitedDeploymentObject,
} from '../src/index';

export const SUBSETS = 10;
export const PODS_PER_SUBSET = 1000;

/** The reconcile input: UD, 10 StatefulSets at the current revision, 10 000 ready pods. */
export function benchInput(adaptive = false): ReconcileUnitedDeploymentInput {
  const app = { app: 'bench' };
  const names = Array.from({ length: SUBSETS }, (_, i) => `zone-${i}`);
  const ud: UnitedDeploymentObject = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'UnitedDeployment',
    metadata: { name: 'bench', namespace: 'ns', uid: 'ud', generation: 1 },
    spec: {
      replicas: SUBSETS * PODS_PER_SUBSET,
      selector: { matchLabels: app },
      template: {
        statefulSetTemplate: {
          metadata: { labels: app },
          spec: {
            template: {
              metadata: { labels: app },
              spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
            },
          },
        },
      },
      topology: {
        subsets: names.map((name) => ({
          name,
          nodeSelectorTerm: { matchExpressions: [{ key: 'zone', operator: 'In', values: [name] }] },
        })),
        ...(adaptive ? { scheduleStrategy: { type: 'Adaptive' } } : {}),
      },
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'Manual', manualUpdate: {} },
    },
  };
  const revision = manageRevisions(ud, 'StatefulSet', []).updatedRevision as ControllerRevision;
  const rev = revision.metadata!.name!;
  const subsets: KubeObject[] = [];
  const pods: Pod[] = [];
  for (const name of names) {
    const uid = `sts-${name}`;
    subsets.push({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: {
        name: `bench-${name}`,
        namespace: 'ns',
        uid,
        labels: { ...app, [LABEL_SUBSET_NAME]: name, [LABEL_UD_REVISION]: rev },
        annotations: { 'apps.kruise.io/subset-patch': '' },
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'UnitedDeployment',
            name: 'bench',
            uid: 'ud',
            controller: true,
          },
        ],
      },
      spec: {
        replicas: PODS_PER_SUBSET,
        selector: { matchLabels: { ...app, [LABEL_SUBSET_NAME]: name } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      },
      status: { replicas: PODS_PER_SUBSET, readyReplicas: PODS_PER_SUBSET },
    });
    for (let i = 0; i < PODS_PER_SUBSET; i++) {
      pods.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `bench-${name}-${i}`,
          namespace: 'ns',
          uid: `${name}-${i}`,
          creationTimestamp: '2024-01-01T00:00:00Z',
          labels: { ...app, [LABEL_SUBSET_NAME]: name, [LABEL_UD_REVISION]: rev },
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'StatefulSet', name: `bench-${name}`, uid, controller: true },
          ],
        },
        spec: { nodeName: `node-${i % 50}`, containers: [{ name: 'main', image: 'nginx:1' }] },
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
      });
    }
  }
  const input = { unitedDeployment: ud, subsets, pods, revisions: [revision], now: '2024-01-01T00:10:00Z' };
  // settle: the status the controller would have written
  const { status } = reconcileUnitedDeployment(input);
  return { ...input, unitedDeployment: { ...ud, status } };
}

/**
 * The single-pass baseline: one loop over the pods doing the per-pod work a reconcile needs at
 * least once (owner lookup, selector labels, revision label, active and Ready checks), summed per owner.
 */
export function singlePass(input: ReconcileUnitedDeploymentInput): number {
  const selector = input.unitedDeployment.spec.selector?.matchLabels ?? {};
  const keys = Object.keys(selector);
  const counts = new Map<string, number>();
  for (const pod of input.pods) {
    const ref = pod.metadata?.ownerReferences?.find((r) => r.controller);
    if (!ref) continue;
    const labels = pod.metadata?.labels ?? {};
    if (!keys.every((k) => labels[k] === selector[k])) continue;
    if (
      pod.metadata?.deletionTimestamp ||
      pod.status?.phase === 'Failed' ||
      pod.status?.phase === 'Succeeded'
    )
      continue;
    const ready = (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
    const updated = labels[LABEL_UD_REVISION] !== undefined;
    counts.set(ref.uid, (counts.get(ref.uid) ?? 0) + (ready && updated ? 1 : 0));
  }
  let total = 0;
  for (const v of counts.values()) total += v;
  return total;
}
