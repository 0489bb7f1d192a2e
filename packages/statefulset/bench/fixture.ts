// A mid-rollout Advanced StatefulSet with N pods for the benchmarks: Parallel,
// InPlaceIfPossible, maxUnavailable 10 %, one claim template, two revisions; half the pods
// updated in place (with state annotations, a few still Updating), some not ready, the rest
// old and Normal — and the single-pass baseline the reconcile is compared with.
import type { StatefulSet } from '@kruise-ts/api';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import { candidateRevision } from '../src/revisions';

const NOW = '2024-01-01T01:00:00Z';

function set(replicas: number, image: string): StatefulSet {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name: 'bench', namespace: 'default', uid: 'bench-uid', generation: 2 },
    spec: {
      replicas,
      serviceName: 'bench',
      podManagementPolicy: 'Parallel',
      selector: { matchLabels: { app: 'bench' } },
      template: {
        metadata: { labels: { app: 'bench' } },
        spec: {
          containers: [{ name: 'main', image }],
          readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
        },
      },
      volumeClaimTemplates: [
        { metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1Gi' } } } },
      ],
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: {
          partition: 0,
          maxUnavailable: '10%',
          podUpdatePolicy: 'InPlaceIfPossible',
          minReadySeconds: 0,
        },
      },
      revisionHistoryLimit: 10,
    },
  } as StatefulSet;
}

export interface BenchFixture {
  statefulSet: StatefulSet;
  pods: Pod[];
  revisions: ControllerRevision[];
  pvcs: PersistentVolumeClaim[];
  now: string;
}

/** N pods: per 100, 50 updated (5 still Updating, 3 not ready), 50 old (1 not ready). */
export function midRollout(n: number): BenchFixture {
  const oldRev = {
    ...candidateRevision(set(n, 'nginx:1.25'), 1, 0),
    metadata: { ...candidateRevision(set(n, 'nginx:1.25'), 1, 0).metadata, uid: 'r1' },
  };
  const s = set(n, 'nginx:1.27');
  const newRev = {
    ...candidateRevision(s, 2, 0),
    metadata: { ...candidateRevision(s, 2, 0).metadata, uid: 'r2' },
  };
  s.status = {
    observedGeneration: 1,
    replicas: n,
    readyReplicas: 0,
    availableReplicas: 0,
    currentReplicas: 0,
    updatedReplicas: 0,
    currentRevision: oldRev.metadata.name,
    updateRevision: newRev.metadata.name,
  };
  const pods: Pod[] = [];
  const pvcs: PersistentVolumeClaim[] = [];
  for (let i = 0; i < n; i++) {
    const k = i % 100;
    const updated = k >= 50;
    const updating = updated && k < 55;
    const ready = updated ? !updating && !(k >= 55 && k < 58) : k !== 0;
    const name = `bench-${i}`;
    const rev = updated ? newRev.metadata.name! : oldRev.metadata.name!;
    const image = updated ? 'nginx:1.27' : 'nginx:1.25';
    const annotations: Record<string, string> = { 'lifecycle.apps.kruise.io/timestamp': NOW };
    if (updated) {
      annotations['apps.kruise.io/inplace-update-state'] = JSON.stringify({
        revision: rev,
        updateTimestamp: '2024-01-01T00:30:00Z',
        lastContainerStatuses: { main: { imageID: 'sha-nginx:1.25' } },
        updateImages: true,
        containerBatchesRecord: [{ timestamp: '2024-01-01T00:30:00Z', containers: ['main'] }],
      });
    }
    const statusImage = updating ? 'nginx:1.25' : image;
    pods.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'default',
        uid: `pod-${i}`,
        labels: {
          app: 'bench',
          'controller-revision-hash': rev,
          'statefulset.kubernetes.io/pod-name': name,
          'apps.kubernetes.io/pod-index': String(i),
          'lifecycle.apps.kruise.io/state': updating ? 'Updating' : 'Normal',
        },
        annotations,
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1beta1',
            kind: 'StatefulSet',
            name: 'bench',
            uid: 'bench-uid',
            controller: true,
          },
        ],
      },
      spec: {
        hostname: name,
        subdomain: 'bench',
        containers: [{ name: 'main', image }],
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: `data-${name}` } }],
      },
      status: {
        phase: 'Running',
        conditions: [
          { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2024-01-01T00:40:00Z' },
          updating
            ? {
                type: 'InPlaceUpdateReady',
                status: 'False',
                reason: 'StartInPlaceUpdate',
                lastTransitionTime: '2024-01-01T00:40:00Z',
              }
            : { type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: '2024-01-01T00:40:00Z' },
        ],
        containerStatuses: [
          { name: 'main', image: statusImage, imageID: `sha-${statusImage}`, ready, restartCount: 0 },
        ],
      },
    } as Pod);
    pvcs.push({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: `data-${name}`, namespace: 'default', labels: { app: 'bench' } },
      spec: { resources: { requests: { storage: '1Gi' } } },
      status: { capacity: { storage: '1Gi' } },
    });
  }
  return { statefulSet: s, pods, revisions: [oldRev, newRev], pvcs, now: NOW };
}

/**
 * The baseline: one plain pass over the pods doing the per-pod reads any reconcile of this set
 * needs — the revision and lifecycle labels, the Ready condition, the in-place state annotation
 * (parsed: R8.4 needs the completion check of every pod that carries one) and the pod's claim,
 * looked up by name.
 */
export function plainPass(f: BenchFixture): number {
  const claims = new Map(f.pvcs.map((c) => [c.metadata?.name, c]));
  let ready = 0;
  for (const p of f.pods) {
    const labels = p.metadata?.labels;
    if (
      labels?.['lifecycle.apps.kruise.io/state'] === 'Normal' &&
      labels['controller-revision-hash'] !== undefined
    ) {
      for (const c of p.status?.conditions ?? []) if (c.type === 'Ready' && c.status === 'True') ready++;
    }
    const state = p.metadata?.annotations?.['apps.kruise.io/inplace-update-state'];
    if (state !== undefined && JSON.parse(state).revision === labels?.['controller-revision-hash']) ready++;
    if (claims.has(`data-${p.metadata?.name}`)) ready++;
  }
  return ready;
}
