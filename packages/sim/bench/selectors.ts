// Benchmark of list selectors served from the index (src/apiserver/selectorIndex.ts) against
// filtering every object, over 10k pods (PODS=…): for each selector it prints how many objects
// each way looks at and the time per list. A script, not a timed test:
//   npx tsx --conditions=@kruise-ts/source packages/sim/bench/selectors.ts
import type { KubeObject } from '@kruise-ts/api';
import { Store } from '@kruise-ts/cluster';
import { compileFilter, matchesFilter } from '../src/apiserver/filters';
import { SelectorIndex } from '../src/apiserver/selectorIndex';

const PODS = Number(process.env.PODS ?? 10_000);
const ROUNDS = Number(process.env.ROUNDS ?? 200);

const store = new Store({
  seed: 1,
  now: () => '2024-01-01T00:00:00Z',
  nowMs: () => 0,
  at: () => '2024-01-01T00:00:00Z',
});
for (let i = 0; i < PODS; i++)
  store.create(
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `p-${i}`,
        namespace: 'default',
        labels: { app: `app-${i % 100}`, tier: i % 2 ? 'web' : 'db' },
      },
      spec: { nodeName: `node-${i % 50}`, containers: [{ name: 'c', image: 'nginx' }] },
    } as KubeObject,
    'bench',
  );
const index = new SelectorIndex(store);

const cases: [string, string | null, string | null][] = [
  ['matches nothing', 'app=none', null],
  ['matches 1%', 'app=app-7', null],
  ['matches 50%', 'tier=web', null],
  ['one node', null, 'spec.nodeName=node-3'],
  ['set-based (no index)', 'app notin (app-1)', null],
];

console.log(`${PODS} pods, ${ROUNDS} lists each`);
console.log(
  'selector                | result | visited (index) | visited (filter) | µs/list index | µs/list filter',
);
for (const [label, l, f] of cases) {
  const filter = compileFilter(l, f);
  let result = 0;
  let t0 = performance.now();
  for (let r = 0; r < ROUNDS; r++) {
    const got =
      index.select('v1', 'Pod', undefined, filter) ??
      store.list('v1', 'Pod').filter((o) => matchesFilter(o, filter));
    result = got.length;
  }
  const indexUs = ((performance.now() - t0) * 1000) / ROUNDS;
  const visitedIndex = index.select('v1', 'Pod', undefined, filter) ? index.lastVisited : PODS;
  t0 = performance.now();
  for (let r = 0; r < ROUNDS; r++) store.list('v1', 'Pod').filter((o) => matchesFilter(o, filter));
  const filterUs = ((performance.now() - t0) * 1000) / ROUNDS;
  console.log(
    `${label.padEnd(23)} | ${String(result).padStart(6)} | ${String(visitedIndex).padStart(15)} | ${String(PODS).padStart(16)} | ${indexUs.toFixed(0).padStart(13)} | ${filterUs.toFixed(0).padStart(14)}`,
  );
}
