#!/usr/bin/env node
// Startup benchmark: how long a new user waits for the main job and the command line, measured
// against the floor of starting Node itself (`node -e 0`) in the same run. A script, not a
// timed test: machine speed varies, so it prints the figures and the targets and exits 1 only
// when a target is missed, for a person (or a CI job that chooses to) to look at.
//
//   node scripts/bench-startup.mjs [--runs N] [--install]
//
// Measures (median of N runs, default 7):
//   node -e 0                          the floor
//   kruise-ts --help (from dist)       target: within 3x of the floor
//   pnpm start, second run             target: under 1 s wall (the bundle is cached)
//   pnpm install && pnpm start         with --install only: the README's main-job command in a
//                                      fresh clone (no node_modules) on a warm package store, as a
//                                      first-time user runs it; target: under 13 s
// Needs `pnpm build` (for dist) and pnpm on the PATH.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 7;
const withInstall = args.includes('--install');

const bin = join(root, 'packages', 'cli', 'dist', 'bin.js');
if (!existsSync(bin)) {
  console.error('packages/cli/dist/bin.js is missing: run `pnpm build` first');
  process.exit(2);
}

/** Wall time of one run of `command` in seconds; fails loudly if the command fails. */
function time(command, argv, cwd = root) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(command, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) {
    console.error(`${command} ${argv.join(' ')} failed:\n${r.stderr}`);
    process.exit(2);
  }
  return seconds;
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function measure(command, argv, n = runs) {
  return median(Array.from({ length: n }, () => time(command, argv)));
}

// Warm the start bundle (its first build is not what a second `pnpm start` pays).
time('pnpm', ['start']);

const floor = measure(process.execPath, ['-e', '0']);
const help = measure(process.execPath, [bin, '--help']);
const start = measure('pnpm', ['start']);
const rows = [
  ['node -e 0 (floor)', floor, '', true],
  [
    'kruise-ts --help (dist)',
    help,
    `within 3x of the floor (${(help / floor).toFixed(1)}x)`,
    help <= 3 * floor,
  ],
  ['pnpm start (second run)', start, 'under 1 s', start < 1],
];
if (withInstall) {
  /** One first-time run: clone the repository (not timed), then the main-job command. */
  const firstRun = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kruise-ts-start-'));
    try {
      time('git', ['clone', '--quiet', root, dir]);
      return time('sh', ['-c', 'pnpm install && pnpm start'], dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const t = median(Array.from({ length: Math.min(runs, 3) }, firstRun));
  rows.push(['pnpm install && pnpm start (warm store)', t, 'under 13 s', t < 13]);
}

let missed = 0;
for (const [name, seconds, target, ok] of rows) {
  if (!ok) missed++;
  console.log(`${name.padEnd(42)} ${seconds.toFixed(3).padStart(7)} s  ${target}${ok ? '' : '  MISSED'}`);
}
process.exitCode = missed === 0 ? 0 : 1;
