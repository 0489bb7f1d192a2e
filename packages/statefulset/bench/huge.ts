// The wall time of one reconcile of a Parallel Advanced StatefulSet with `spec.replicas:
// 2147483647`, a reserved range of a billion ordinals, a partition of 2147483646 and no pods: it
// returns the burst of 500 creates and a requeue at once, in milliseconds (a script, not a timed
// test; packages/cloneset/bench/huge.ts does the same for a CloneSet).
//   npx tsx --conditions=@kruise-ts/source packages/statefulset/bench/huge.ts
import type { Action } from '@kruise-ts/core';
import { reconcileStatefulSet } from '../src';

const REPLICAS = 2147483647;
const NOW = '2024-01-01T00:00:00Z';
const template = {
  metadata: { labels: { app: 'huge' } },
  spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] },
};

function measure(name: string, reconcile: () => { actions: Action[]; requeueAfterSeconds?: number }): void {
  const times: number[] = [];
  let last: { actions: Action[]; requeueAfterSeconds?: number } | undefined;
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    last = reconcile();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const creates = last!.actions.filter((a) => a.verb === 'create' && a.object.kind === 'Pod').length;
  console.log(
    `${name}: slowest ${times[times.length - 1].toFixed(1)} ms, median ${times[3].toFixed(1)} ms; ` +
      `${last!.actions.length} actions, ${creates} pod creates, requeueAfterSeconds ${last!.requeueAfterSeconds}`,
  );
}

measure('reconcileStatefulSet (Parallel, reserveOrdinals ["0-1000000000"]), replicas 2147483647', () =>
  reconcileStatefulSet({
    statefulSet: {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'StatefulSet',
      metadata: { name: 'huge', namespace: 'default', uid: 'huge-uid' },
      spec: {
        replicas: REPLICAS,
        podManagementPolicy: 'Parallel',
        reserveOrdinals: ['0-1000000000'],
        selector: { matchLabels: { app: 'huge' } },
        template,
        updateStrategy: {
          type: 'RollingUpdate',
          rollingUpdate: { partition: REPLICAS - 1, maxUnavailable: 1 },
        },
      },
    },
    pods: [],
    now: NOW,
  }),
);
