// One benchmark part, run in its own process by run.mjs: the floor and each controller's steady
// and mid-rollout reconcile at one size, interleaved; prints one JSON object.
//   node scripts/bench/controllers.mjs <pods> [rounds] [--only <name>]
// `--only statefulset` (or cloneset, daemonset, sidecarset) measures the floor and that one
// controller, for quicker runs while working on it.

import * as cloneset from './fixtures/cloneset.mjs';
import * as daemonset from './fixtures/daemonset.mjs';
import { floor } from './fixtures/floor.mjs';
import * as sidecarset from './fixtures/sidecarset.mjs';
import * as statefulset from './fixtures/statefulset.mjs';
import { interleaved } from './measure.mjs';

const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args.splice(onlyAt, 2)[1] : undefined;
const n = Number(args[0] ?? 10_000);
const rounds = Number(args[1] ?? (n >= 100_000 ? 5 : 15));

const controllers = [
  ['CloneSet', cloneset, cloneset.cloneSetInput, 'cloneset'],
  ['Advanced StatefulSet', statefulset, statefulset.statefulSetInput, 'statefulset'],
  ['Advanced DaemonSet', daemonset, daemonset.daemonSetInput, 'daemonset'],
  ['SidecarSet', sidecarset, sidecarset.sidecarSetInput, 'sidecarset'],
].filter((c) => only === undefined || c[3] === only);
if (controllers.length === 0)
  throw new Error(`--only ${only}: not one of cloneset, statefulset, daemonset, sidecarset`);

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
