// Renders the figures of one `pnpm bench:table` run as Markdown: the machine, the controller
// ratios, the other figures, and each goal of issue 22 with whether this run met it.

const CONTROLLERS = ['CloneSet', 'Advanced StatefulSet', 'Advanced DaemonSet', 'SidecarSet'];

const f1 = (x) => x.toFixed(1);
const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const yes = (ok) => (ok ? 'met' : '**not met**');

/** The Markdown of one run (see run.mjs for the shape of `r`). */
export function renderTable(r) {
  const { machine, controllers, inject, rollout, start } = r;
  const by = Object.fromEntries(controllers.map((c) => [c.pods, c]));
  const k10 = by[10_000];
  const k100 = by[100_000];
  const ratio = (run, name, state) => run.ms[`${name}/${state}`] / run.ms.floor;
  const lines = [];
  lines.push(
    `Measured ${machine.date} at commit ${machine.commit} on ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; ` +
      `load average ${machine.load} at the end of the run. CPU time (user + system) of each call, median of ` +
      `${k10.rounds} interleaved rounds at 10k${k100 ? ` and ${k100.rounds} at 100k` : ''}; every ratio is between figures of the same process.`,
    '',
  );
  const sizes = k100 ? [k10, k100] : [k10];
  const head = [
    'reconcile',
    ...sizes.flatMap((s) => [`${s.pods / 1000}k steady`, `${s.pods / 1000}k mid-rollout`]),
  ];
  if (k100) head.push('100k / 10k steady', '100k / 10k mid');
  lines.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
  const floorCells = sizes.flatMap((s) => [`${ms(s.ms.floor)} ms`, `${ms(s.ms.floor)} ms`]);
  if (k100) floorCells.push(`${f1(k100.ms.floor / k10.ms.floor)}x`, '');
  lines.push(
    `| floor: one loop over the same pods reading labels and conditions | ${floorCells.join(' | ')} |`,
  );
  for (const name of CONTROLLERS) {
    const cells = sizes.flatMap((s) => [
      `${f1(ratio(s, name, 'steady'))}x (${ms(s.ms[`${name}/steady`])} ms)`,
      `${f1(ratio(s, name, 'mid'))}x (${ms(s.ms[`${name}/mid`])} ms, ${s.info[`${name}/mid`].actions} actions)`,
    ]);
    if (k100)
      cells.push(
        `${f1(k100.ms[`${name}/steady`] / k10.ms[`${name}/steady`])}x`,
        `${f1(k100.ms[`${name}/mid`] / k10.ms[`${name}/mid`])}x`,
      );
    lines.push(`| ${name} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  lines.push('| other | figure |', '|---|---|');
  if (!inject.failed)
    lines.push(
      `| injectSidecars, ${inject.sidecarSets} SidecarSets, ${inject.pods / 1000}k pods | ${Math.round(inject.podsPerSecond / 1000)}k pods/s (${f1((inject.ms * 1000) / inject.pods)} us per pod) |`,
    );
  for (const x of rollout) {
    const figure = x.failed
      ? x.failed
      : `${f1(x.cpuMs / 1000)} s CPU, peak RSS ${Math.round(x.peakRssMiB)} MiB, ${x.logRecords} log records kept`;
    lines.push(`| simulator: in-place CloneSet rollout, ${x.pods / 1000}k pods | ${figure} |`);
  }
  lines.push(
    `| CLI start-up: \`kruise-ts --help\` against \`node -e 0\` | ${ms(start.helpMs)} ms against ${ms(start.floorMs)} ms (${f1(start.helpMs / start.floorMs)}x, wall) |`,
  );
  lines.push('');

  const goals = [];
  const steady = CONTROLLERS.map((n) => [n, ratio(k10, n, 'steady')]);
  goals.push([
    'steady state at 10k within 10x of the floor',
    steady.map(([n, x]) => `${n} ${f1(x)}x`).join(', '),
    steady.every(([, x]) => x <= 10),
  ]);
  const mid = CONTROLLERS.map((n) => [n, ratio(k10, n, 'mid')]);
  goals.push([
    'mid-rollout at 10k within 25x of the floor (measured with the actions built)',
    mid.map(([n, x]) => `${n} ${f1(x)}x`).join(', '),
    mid.every(([, x]) => x <= 25),
  ]);
  if (k100) {
    const growth = CONTROLLERS.flatMap((n) =>
      ['steady', 'mid'].map((s) => [`${n} ${s}`, k100.ms[`${n}/${s}`] / k10.ms[`${n}/${s}`]]),
    );
    const worst = growth.reduce((a, b) => (b[1] > a[1] ? b : a));
    goals.push([
      '100k / 10k within 11x',
      `worst ${worst[0]} ${f1(worst[1])}x`,
      growth.every(([, x]) => x <= 11),
    ]);
  }
  if (!inject.failed)
    goals.push([
      'injectSidecars at 150k pods/s or more (5 SidecarSets)',
      `${Math.round(inject.podsPerSecond / 1000)}k pods/s`,
      inject.podsPerSecond >= 150_000,
    ]);
  const at = (n) => rollout.find((x) => x.pods === n && !x.failed);
  if (at(10_000))
    goals.push([
      '10k-pod rollout in 1 s of CPU or less',
      `${f1(at(10_000).cpuMs / 1000)} s`,
      at(10_000).cpuMs <= 1000,
    ]);
  if (at(100_000)) {
    goals.push([
      '100k-pod rollout in 12 s of CPU or less',
      `${f1(at(100_000).cpuMs / 1000)} s`,
      at(100_000).cpuMs <= 12_000,
    ]);
    goals.push([
      '100k-pod rollout under 600 MB peak',
      `${Math.round((at(100_000).peakRssMiB * 2 ** 20) / 1e6)} MB RSS`,
      at(100_000).peakRssMiB * 2 ** 20 < 600e6,
    ]);
  }
  const unfinished = rollout.find((x) => x.pods === 100_000 && x.failed);
  if (unfinished)
    goals.push(['100k-pod rollout in 12 s of CPU or less, under 600 MB peak', unfinished.failed, false]);
  goals.push([
    'CLI start-up within 3x of `node -e 0`',
    `${f1(start.helpMs / start.floorMs)}x`,
    start.helpMs <= 3 * start.floorMs,
  ]);
  lines.push('| goal | this run | |', '|---|---|---|');
  for (const [goal, got, ok] of goals) lines.push(`| ${goal} | ${got} | ${yes(ok)} |`);
  return lines.join('\n');
}
