// One benchmark part, run in its own process by run.mjs: injectSidecars over 10 000 app pods with
// five matching SidecarSets, repeated; prints one JSON object with the median pods per second.
//   node scripts/bench/inject.mjs [rounds]
import { appPods, fiveSidecarSets, injectSidecars } from './fixtures/sidecarset.mjs';
import { interleaved } from './measure.mjs';

const rounds = Number(process.argv[2] ?? 15);
const pods = appPods(10_000);
const sets = fiveSidecarSets();
const opts = { now: '2025-01-01T00:00:00Z' };
const { inject } = interleaved(
  [
    {
      name: 'inject',
      fn: () => {
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
