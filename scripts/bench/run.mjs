#!/usr/bin/env node
// `pnpm bench:table`: the whole benchmark table from one run, against the built packages
// (`pnpm build` first). Each part runs in a child process of its own (fresh heap, its own peak
// memory) and every ratio is taken between figures measured in the same child, interleaved.
//
//   node scripts/bench/run.mjs [--write] [--quick]
//     --write  also replace the generated part of docs/benchmarks.md
//     --quick  fewer repetitions and no 100k sizes (to try a change; never for --write)
//     --rollout-minutes M  stop the 100k-pod rollout after M minutes of wall time (default 40)
//
// Prints a Markdown table with each goal of issue 22 and whether it is met. A script, not a test:
// the figures depend on the machine, so it always exits 0 once the parts ran.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './dist.mjs';
import { median } from './measure.mjs';
import { renderTable } from './table.mjs';

const args = process.argv.slice(2);
const write = args.includes('--write');
const quick = args.includes('--quick');
const limitAt = args.indexOf('--rollout-minutes');
/** Wall minutes the 100k-pod rollout may take before it is stopped (and reported as such). */
const rolloutMinutes = limitAt >= 0 ? Number(args[limitAt + 1]) : 40;
if (write && quick) {
  console.error('--write needs the full run (drop --quick)');
  process.exit(2);
}

/**
 * Runs one part in a child Node and returns the JSON it printed on its last line; a part that
 * fails or outlives `timeoutMinutes` gives `{ failed: why }` (the table says so) instead of
 * losing the figures of the other parts.
 */
function part(script, partArgs, nodeArgs = [], timeoutMinutes = 30) {
  process.stderr.write(`bench: ${script} ${partArgs.join(' ')}\n`);
  const progress = join(tmpdir(), `kruise-ts-bench-${process.pid}.json`);
  rmSync(progress, { force: true });
  try {
    const out = execFileSync(
      process.execPath,
      [...nodeArgs, join(root, 'scripts', 'bench', script), ...partArgs],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 24,
        stdio: ['ignore', 'pipe', 'inherit'],
        timeout: timeoutMinutes * 60_000,
        env: { ...process.env, BENCH_PROGRESS: progress },
      },
    );
    return JSON.parse(out.trim().split('\n').at(-1));
  } catch (e) {
    let why =
      e.code === 'ETIMEDOUT' ? `stopped after ${timeoutMinutes} min` : `failed (${e.message.split('\n')[0]})`;
    if (existsSync(progress)) {
      const p = JSON.parse(readFileSync(progress, 'utf8'));
      why += ` with ${(p.cpuMs / 1000).toFixed(0)} s of CPU used, ${p.simulatedSeconds} simulated seconds in, RSS ${Math.round(p.rssMiB)} MiB`;
    }
    process.stderr.write(`bench: ${script} ${partArgs.join(' ')} ${why}\n`);
    return { failed: why };
  } finally {
    rmSync(progress, { force: true });
  }
}

/** Wall seconds of `node -e 0` and of `kruise-ts --help`, interleaved, median of `runs`. */
function startup(runs) {
  const bin = join(root, 'packages', 'cli', 'dist', 'bin.js');
  const wall = (argv) => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, argv, { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`node ${argv.join(' ')} exited ${r.status}`);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const floor = [];
  const help = [];
  wall([bin, '--help']);
  for (let i = 0; i < runs; i++) {
    floor.push(wall(['-e', '0']));
    help.push(wall([bin, '--help']));
  }
  return { floorMs: median(floor), helpMs: median(help) };
}

const bigHeap = ['--max-old-space-size=8192'];
const sizes = quick ? [10_000] : [10_000, 100_000];
const controllers = sizes
  .map((n) => part('controllers.mjs', quick ? [String(n), '5'] : [String(n)], n >= 100_000 ? bigHeap : []))
  .filter((c) => !c.failed);
const inject = part('inject.mjs', [quick ? '5' : '15']);
const rolloutSizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
const rollout = rolloutSizes.map((n) => {
  // the smaller rollouts are repeated (median CPU time, largest peak); 100k once
  const reps = n >= 100_000 || quick ? 1 : 3;
  const runs = Array.from({ length: reps }, () =>
    part('rollout.mjs', [String(n)], n >= 100_000 ? bigHeap : [], n >= 100_000 ? rolloutMinutes : 30),
  );
  const done = runs.filter((r) => !r.failed);
  if (done.length === 0) return { pods: n, failed: runs[0].failed };
  return {
    ...done[0],
    cpuMs: median(done.map((r) => r.cpuMs)),
    peakRssMiB: Math.max(...done.map((r) => r.peakRssMiB)),
  };
});
process.stderr.write('bench: startup\n');
const start = startup(quick ? 5 : 15);

const machine = {
  cpu: cpus()[0]?.model.trim() ?? 'unknown',
  cores: cpus().length,
  node: process.version,
  load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
  commit: (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  })(),
  date: new Date().toISOString().slice(0, 10),
};

const table = renderTable({ machine, controllers, inject, rollout, start });
console.log(table);

if (write) {
  const file = join(root, 'docs', 'benchmarks.md');
  const begin = '<!-- bench:table:begin -->';
  const end = '<!-- bench:table:end -->';
  const doc = readFileSync(file, 'utf8');
  const a = doc.indexOf(begin);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) {
    console.error(`docs/benchmarks.md has no ${begin} ... ${end} section to replace`);
    process.exit(2);
  }
  writeFileSync(file, `${doc.slice(0, a + begin.length)}\n${table}\n${doc.slice(b)}`);
  process.stderr.write('bench: docs/benchmarks.md updated\n');
}
