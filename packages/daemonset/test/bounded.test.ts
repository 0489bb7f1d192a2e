// A DaemonSet reconcile's work is bounded by the nodes and pods it observed (docs/architecture.md
// principle 6): `burstReplicas` caps creates and deletes per sync as in OpenKruise (§5.6), a
// `burstReplicas` or `maxUnavailable` of 2,147,483,647 asks for no more work than there are
// nodes, and a sync the burst cut short asks to run again at once (`requeueAfterSeconds: 0`,
// README "Differences").
import type { DaemonSet } from '@kruise-ts/api';
import type { Action } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Node } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { reconcileDaemonSet } from '../src';

const INT32_MAX = 2147483647;
const NOW = '2024-01-01T00:00:00Z';

function daemonSet(spec: Partial<DaemonSet['spec']>, desired: number): DaemonSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'kube-system', uid: 'agent-uid', generation: 1 },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: { containers: [{ name: 'agent', image: 'agent:1' }] },
      },
      ...spec,
    },
    status: {
      desiredNumberScheduled: desired,
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      numberReady: 0,
    },
  } as DaemonSet;
}

function nodes(n: number): Node[] {
  return Array.from({ length: n }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: `node-${i}`, labels: { 'kubernetes.io/hostname': `node-${i}` } },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  }));
}

const podCreates = (actions: readonly Action[]) =>
  actions.filter((a) => a.verb === 'create' && a.object.kind === 'Pod');

describe('DaemonSet: bounded work per reconcile', () => {
  it('600 nodes, burstReplicas unset (250): 250 creates and a requeue at once', () => {
    const r = reconcileDaemonSet(
      deepFreeze({ daemonSet: daemonSet({}, 600), nodes: nodes(600), pods: [], now: NOW }),
    );
    expect(podCreates(r.actions)).toHaveLength(250);
    expect(r.requeueAfterSeconds).toBe(0);
  });

  it('burstReplicas and maxUnavailable of 2,147,483,647: one pod per node, no more, no requeue at once', () => {
    const ds = daemonSet(
      {
        burstReplicas: INT32_MAX,
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: INT32_MAX, maxSurge: 0 } },
      },
      600,
    );
    const r = reconcileDaemonSet(deepFreeze({ daemonSet: ds, nodes: nodes(600), pods: [], now: NOW }));
    expect(podCreates(r.actions)).toHaveLength(600);
    expect(r.requeueAfterSeconds).toBeUndefined();
    expect(r.actions.length).toBeLessThanOrEqual(600 + 2);
  });
});
