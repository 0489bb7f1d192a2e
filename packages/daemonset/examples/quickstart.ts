// Quick start (run from the repo root):
//   npx tsx --conditions=@kruise-ts/source packages/daemonset/examples/quickstart.ts
// Three nodes, one of them tainted NoExecute: the reconcile creates two daemon pods; after an
// image change with maxSurge 1 it starts one surge pod next to an old one.
import type { DaemonSet, KubeObject } from '@kruise-ts/api';
import { applyActions } from '@kruise-ts/core/apply';
import { nodeShouldRunDaemonPod, reconcileDaemonSet } from '@kruise-ts/daemonset';
import type { Node, Pod } from 'kubernetes-types/core/v1';

const node = (name: string, taints: Node['spec'] = {}): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  spec: taints,
});
const nodes = [
  node('node-a'),
  node('node-b'),
  node('node-c', { taints: [{ key: 'dedicated', effect: 'NoExecute' }] }),
];

const ds: DaemonSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'DaemonSet',
  metadata: { name: 'log-agent', namespace: 'default', uid: 'ds-1', generation: 1 },
  spec: {
    selector: { matchLabels: { app: 'log-agent' } },
    template: {
      metadata: { labels: { app: 'log-agent' } },
      spec: { containers: [{ name: 'agent', image: 'fluentd:v1.16' }] },
    },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
  },
};

for (const n of nodes) console.log(n.metadata?.name, nodeShouldRunDaemonPod(n, ds));

let now = '2024-01-01T00:00:00Z';
const first = reconcileDaemonSet({ daemonSet: ds, nodes, pods: [], now }, { seed: 1 });
console.log(first.actions.map((a) => `${a.verb} ${a.verb === 'create' ? a.object.kind : ''} ${a.reason}`));
console.log(first.status);

// Apply the actions like an API server, make the pods Ready, then change the image.
let objects = applyActions([], first.actions, now);
const pods = (objects.filter((o) => o.kind === 'Pod') as Pod[]).map((p) => ({
  ...p,
  status: {
    phase: 'Running' as const,
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }],
  },
}));
const revisions = objects.filter((o) => o.kind === 'ControllerRevision') as never[];
now = '2024-01-01T00:01:00Z';
const v2: DaemonSet = {
  ...ds,
  metadata: { ...ds.metadata, generation: 2 },
  spec: {
    ...ds.spec,
    template: { ...ds.spec.template, spec: { containers: [{ name: 'agent', image: 'fluentd:v1.17' }] } },
  },
  status: first.status,
};
const second = reconcileDaemonSet({ daemonSet: v2, nodes, pods, revisions, now }, { seed: 1 });
console.log(second.actions.map((a) => `${a.verb} ${a.reason}`));
objects = applyActions([...(pods as KubeObject[]), ...revisions], second.actions, now);
console.log(`${objects.filter((o) => o.kind === 'Pod').length} pods (2 old + 1 surge pod)`);
