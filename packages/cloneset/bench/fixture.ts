// A mid-rollout CloneSet with N pods for the benchmarks: two revisions, half the pods
// updated (some in place, with state annotations, some still Updating), a mix of ready,
// unready, PreparingNormal, specified-delete and old Normal pods on 100 nodes.
import type { CloneSet } from '@kruise-ts/api';
import { setDefaultsCloneSet } from '@kruise-ts/api';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { planRevisions } from '../src/revisions';

const NOW = '2024-01-01T01:00:00Z';

function cloneSet(replicas: number, image: string): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'bench', namespace: 'default', uid: 'bench-uid', generation: 2 },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'bench' } },
      template: { metadata: { labels: { app: 'bench' } }, spec: { containers: [{ name: 'main', image }] } },
      updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '20%' },
      lifecycle: { preNormal: { labelsHandler: { 'example.com/warm': 'true' } } },
    },
  } as CloneSet;
}

function revisionFor(cs: CloneSet): ControllerRevision {
  const rev = planRevisions(setDefaultsCloneSet(cs), []).updateRevision;
  return { ...rev, metadata: { ...rev.metadata, uid: `rev-${cs.spec.template.spec!.containers[0].image}` } };
}

export interface BenchFixture {
  cloneSet: CloneSet;
  pods: Pod[];
  revisions: ControllerRevision[];
  now: string;
  currentRevision: string;
  updateRevision: string;
}

export function midRollout(n: number): BenchFixture {
  const oldCs = cloneSet(n, 'nginx:1.25');
  const oldRev = { ...revisionFor(oldCs), revision: 1 };
  const cs = cloneSet(n, 'nginx:1.27');
  const newRev = { ...revisionFor(cs), revision: 2 };
  cs.status = {
    observedGeneration: 1,
    replicas: n,
    readyReplicas: 0,
    availableReplicas: 0,
    updatedReplicas: 0,
    updatedReadyReplicas: 0,
    currentRevision: oldRev.metadata!.name,
    updateRevision: newRev.metadata!.name,
  };
  const pods: Pod[] = [];
  for (let i = 0; i < n; i++) {
    const updated = i % 2 === 0;
    const rev = updated ? newRev.metadata!.name! : oldRev.metadata!.name!;
    const image = updated ? 'nginx:1.27' : 'nginx:1.25';
    // per 200 pods (half updated): 20 updated pods still Updating (image not pulled yet), 10
    // updated pods not ready, 8 updated pods PreparingNormal (waiting for the preNormal hook)
    // and 1 old pod not ready: 19.5% unavailable of a 20% budget, so one reconcile updates
    // about 0.5% of the pods in place.
    const k = i % 200;
    const slot = k >> 1;
    const updating = updated && slot < 20;
    const preparingNormal = updated && slot >= 30 && slot < 38;
    const ready = updated ? !(slot >= 20 && slot < 30) && !updating : k !== 199;
    const labels: Record<string, string> = {
      app: 'bench',
      'controller-revision-hash': rev,
      'pod-template-hash': rev.slice(rev.lastIndexOf('-') + 1),
      'apps.kruise.io/cloneset-instance-id': `id${i}`,
      'lifecycle.apps.kruise.io/state': preparingNormal
        ? 'PreparingNormal'
        : updating
          ? 'Updating'
          : 'Normal',
    };
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
        name: `bench-id${i}`,
        namespace: 'default',
        uid: `pod-${i}`,
        labels,
        annotations,
        creationTimestamp: '2024-01-01T00:00:00Z',
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'CloneSet',
            name: 'bench',
            uid: 'bench-uid',
            controller: true,
          },
        ],
      },
      spec: {
        nodeName: `node-${i % 100}`,
        containers: [{ name: 'main', image }],
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
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
  }
  return {
    cloneSet: cs,
    pods,
    revisions: [oldRev, newRev],
    now: NOW,
    currentRevision: oldRev.metadata!.name!,
    updateRevision: newRev.metadata!.name!,
  };
}

/** The baseline: one plain pass over the pods reading what a status count reads. */
export function plainPass(pods: readonly Pod[]): number {
  let ready = 0;
  for (const p of pods) {
    const labels = p.metadata?.labels;
    if (
      labels?.['lifecycle.apps.kruise.io/state'] === 'Normal' &&
      labels['controller-revision-hash'] !== undefined
    ) {
      const conds = p.status?.conditions ?? [];
      for (const c of conds) if (c.type === 'Ready' && c.status === 'True') ready++;
    }
  }
  return ready;
}
