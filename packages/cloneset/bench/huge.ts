// The wall time of one reconcile of a CloneSet with `spec.replicas: 2147483647` and no pods: it
// returns the burst of 500 creates and a requeue at once, in milliseconds (a script, not a timed
// test; packages/statefulset/bench/huge.ts does the same for an Advanced StatefulSet).
//   npx tsx --conditions=@kruise-ts/source packages/cloneset/bench/huge.ts
import type { Action } from '@kruise-ts/core';
import { reconcileCloneSet } from '../src';

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

measure('reconcileCloneSet, replicas 2147483647', () =>
  reconcileCloneSet({
    cloneSet: {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'huge', namespace: 'default', uid: 'huge-uid' },
      spec: { replicas: REPLICAS, selector: { matchLabels: { app: 'huge' } }, template },
    },
    pods: [],
    now: NOW,
  }),
);
