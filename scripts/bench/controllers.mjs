// One benchmark part, run in its own process by run.mjs: the floor and each controller's steady
// and mid-rollout reconcile at one size, interleaved; prints one JSON object.
//   node scripts/bench/controllers.mjs <pods> [rounds]

import * as cloneset from './fixtures/cloneset.mjs';
import * as daemonset from './fixtures/daemonset.mjs';
import { floor } from './fixtures/floor.mjs';
import * as sidecarset from './fixtures/sidecarset.mjs';
import * as statefulset from './fixtures/statefulset.mjs';
import { interleaved } from './measure.mjs';

const n = Number(process.argv[2] ?? 10_000);
const rounds = Number(process.argv[3] ?? (n >= 100_000 ? 5 : 15));

const controllers = [
  ['CloneSet', cloneset, cloneset.cloneSetInput],
  ['Advanced StatefulSet', statefulset, statefulset.statefulSetInput],
  ['Advanced DaemonSet', daemonset, daemonset.daemonSetInput],
  ['SidecarSet', sidecarset, sidecarset.sidecarSetInput],
];

const cases = [];
const info = {};
const floorPods = cloneset.cloneSetInput(n, 'steady').input.pods;
cases.push({ name: 'floor', fn: () => floor(floorPods), times: n >= 100_000 ? 3 : 20 });
for (const [name, mod, build] of controllers) {
  for (const state of ['steady', 'mid']) {
    const { input, leftover } = build(n, state);
    // one options object per case, kept across its repetitions as a controller loop keeps its caches
    const options = mod.loopOptions();
    const actions = mod.reconcile(input, options).actions.length;
    if (state === 'steady' && leftover !== 0)
      throw new Error(`${name} steady input still has ${leftover} actions`);
    info[`${name}/${state}`] = { actions };
    cases.push({ name: `${name}/${state}`, fn: () => mod.reconcile(input, options) });
  }
}
const ms = interleaved(cases, rounds);
console.log(JSON.stringify({ pods: n, rounds, ms, info }));
