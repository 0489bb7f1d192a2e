// One benchmark part, run in its own process by run.mjs: injectSidecars over 10 000 app pods with
// five matching SidecarSets, repeated; prints one JSON object with the median pods per second.
//   node scripts/bench/inject.mjs [rounds]
//
// Measured as a webhook server runs it: the server keeps a structure cache for its life (the
// schemas compiled once, the SidecarSets it lists checked once), but every admission request
// brings a pod object it has never seen. So each round starts a fresh cache: within the round the
// 10k pods are all new to it and are checked in full, and the schema compilation is counted.
import { dist } from './dist.mjs';
import { appPods, fiveSidecarSets, injectSidecars } from './fixtures/sidecarset.mjs';
import { interleaved } from './measure.mjs';

const api = await dist('api');
const rounds = Number(process.argv[2] ?? 15);
const pods = appPods(10_000);
const sets = fiveSidecarSets();
const now = '2025-01-01T00:00:00Z';
const { inject } = interleaved(
  [
    {
      name: 'inject',
      fn: () => {
        const opts = api.createStructureCache ? { now, structureCache: api.createStructureCache() } : { now };
        for (const p of pods) injectSidecars(p, sets, opts);
      },
    },
  ],
  rounds,
);
console.log(
  JSON.stringify({
    pods: pods.length,
    sidecarSets: sets.length,
    ms: inject,
    podsPerSecond: (pods.length / inject) * 1000,
  }),
);
