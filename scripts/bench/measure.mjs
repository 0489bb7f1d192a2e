// Timing helpers shared by the benchmark parts: CPU time of one call (user + system, so time the
// process spends waiting for a core on a loaded machine does not count), repetitions interleaved
// across cases, medians.

/** CPU milliseconds `fn` takes, averaged over `times` back-to-back calls. */
export function cpuMs(fn, times = 1) {
  const t0 = process.cpuUsage();
  for (let i = 0; i < times; i++) fn();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000 / times;
}

/** The median of a list of numbers. */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Runs every case once per round, `rounds` rounds after `warmup` unrecorded ones, so a slow
 * moment of the machine hits every case alike; returns each case's median CPU milliseconds.
 * A case is `{ name, fn, times? }` (`times`: calls averaged per sample, for very short cases).
 */
export function interleaved(cases, rounds, warmup = 2) {
  const samples = new Map(cases.map((c) => [c.name, []]));
  for (let r = 0; r < warmup + rounds; r++) {
    for (const c of cases) {
      const ms = cpuMs(c.fn, c.times ?? 1);
      if (r >= warmup) samples.get(c.name).push(ms);
    }
  }
  return Object.fromEntries([...samples].map(([name, s]) => [name, median(s)]));
}
