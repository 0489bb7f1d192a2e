#!/usr/bin/env node
// Where a benchmark's time goes: reads a V8 CPU profile (what `node --cpu-prof` writes) and
// prints the functions with the most self time, then the most inclusive time (a function's own
// samples plus those of everything it called, each sample counted once per function even under
// recursion), with their share of the profile.
//
//   node --cpu-prof --cpu-prof-dir=/tmp/prof scripts/bench/rollout.mjs 10000
//   node scripts/bench/profile-summary.mjs /tmp/prof/<file>.cpuprofile [self rows] [inclusive rows]
//
// The profiler samples wall-clock time, so on a loaded machine the shares are what to read, not
// the milliseconds.
import { readFileSync } from 'node:fs';

const [file, selfRows = '30', inclusiveRows = '30'] = process.argv.slice(2);
if (!file) {
  console.error(
    'usage: node scripts/bench/profile-summary.mjs <file.cpuprofile> [self rows] [inclusive rows]',
  );
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** `name package/dist/file.js:line`: the last three path segments are enough to place it. */
const label = (node) => {
  const f = node.callFrame;
  return `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-3).join('/')}:${f.lineNumber}`;
};

// microseconds of samples per profile node
const perNode = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  perNode.set(id, (perNode.get(id) ?? 0) + dt);
});

const self = new Map();
const inclusive = new Map();
for (const [id, us] of perNode) {
  const own = label(byId.get(id));
  self.set(own, (self.get(own) ?? 0) + us);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const l = label(byId.get(at));
    if (seen.has(l)) continue;
    seen.add(l);
    inclusive.set(l, (inclusive.get(l) ?? 0) + us);
  }
}

const top = (m, n) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(n))
    .map(
      ([l, us]) =>
        `${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${l}`,
    )
    .join('\n');

console.log(`profile: ${(total / 1000).toFixed(0)} ms sampled\n\nself time\n${top(self, selfRows)}`);
console.log(`\ninclusive time\n${top(inclusive, inclusiveRows)}`);
