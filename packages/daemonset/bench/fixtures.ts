// Benchmark fixtures: N ready nodes, each running one old, ready daemon pod, and a DaemonSet
// whose template just changed (a rolling update with maxUnavailable 10% is due).
import type { DaemonSet } from '@kruise-ts/api';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import {
  getNodesToDaemonPods,
  newDaemonSetRevision,
  nodeShouldRunDaemonPod,
  type ReconcileDaemonSetInput,
} from '../src';

export function fixture(n: number): ReconcileDaemonSetInput {
  const base: DaemonSet = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'kube-system', uid: 'agent-uid', generation: 2 },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: { containers: [{ name: 'agent', image: 'agent:1' }] },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } },
      burstReplicas: n,
    },
    status: {
      desiredNumberScheduled: n,
      currentNumberScheduled: n,
      numberMisscheduled: 0,
      numberReady: n,
      daemonSetHash: 'old',
    },
  };
  const old: ControllerRevision = newDaemonSetRevision(base, 0, 1);
  const oldHash = old.metadata?.labels?.['controller-revision-hash'] ?? '';
  const ds: DaemonSet = {
    ...base,
    spec: {
      ...base.spec,
      template: { ...base.spec.template, spec: { containers: [{ name: 'agent', image: 'agent:2' }] } },
    },
  };
  const nodes: Node[] = [];
  const pods: Pod[] = [];
  for (let i = 0; i < n; i++) {
    const name = `node-${i}`;
    nodes.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name, zone: `z${i % 3}` } },
      spec:
        i % 10 === 0 ? { taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] } : {},
    });
    pods.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `agent-${i}`,
        namespace: 'kube-system',
        uid: `pod-uid-${i}`,
        creationTimestamp: '2024-01-01T00:00:00Z',
        labels: { app: 'agent', 'controller-revision-hash': oldHash },
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'DaemonSet',
            name: 'agent',
            uid: 'agent-uid',
            controller: true,
          },
        ],
      },
      spec: {
        nodeName: name,
        containers: [{ name: 'agent', image: 'agent:1' }],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchFields: [{ key: 'metadata.name', operator: 'In', values: [name] }] },
              ],
            },
          },
        },
      },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:10Z' }],
      },
    });
  }
  return { daemonSet: ds, nodes, pods, revisions: [old], now: '2024-01-01T01:00:00Z' };
}

/**
 * The single-pass baseline: what any DaemonSet controller must at least do once per sync —
 * decide `shouldRun` for every node, map the pods to their nodes and count ready pods.
 */
export function singlePassBaseline(input: ReconcileDaemonSetInput): number {
  const byNode = getNodesToDaemonPods(input.pods);
  let ready = 0;
  for (const node of input.nodes) {
    if (!nodeShouldRunDaemonPod(node, input.daemonSet).shouldRun) continue;
    const pods = byNode.get(node.metadata?.name ?? '') ?? [];
    if (pods[0]?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) ready++;
  }
  return ready;
}
