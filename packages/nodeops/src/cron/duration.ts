// Go's `time.ParseDuration`, for the `@every <duration>` descriptor (docs/reference/advancedcronjob.md
// AC3.1 item 2): a signed sequence of decimal numbers with units ns, us (µs, μs), ms, s, m, h.

const UNITS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** Go's `strconv.Quote` for the printable ASCII texts durations are made of. */
function quote(s: string): string {
  return JSON.stringify(s);
}

/**
 * Parses a Go duration into nanoseconds, or returns Go's error text.
 *
 * Examples: `90m` → 5.4e12; `1h30m` → 5.4e12; `1.5h` → 5.4e12; `-5m` → −3e11; `0` → 0;
 * `5` → `{ error: 'time: missing unit in duration "5"' }`; `5x` →
 * `{ error: 'time: unknown unit "x" in duration "5x"' }`.
 */
export function parseGoDuration(orig: string): { ns: number } | { error: string } {
  let s = orig;
  const invalid = { error: `time: invalid duration ${quote(orig)}` };
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { ns: 0 };
  if (s === '') return invalid;
  let total = 0;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s);
    const intPart = m?.[1] ?? '';
    const fracPart = m?.[2];
    if (intPart === '' && (fracPart === undefined || fracPart === '')) return invalid;
    s = s.slice((m?.[0] ?? '').length);
    const u = /^[^0-9.]*/.exec(s)?.[0] ?? '';
    if (u === '') return { error: `time: missing unit in duration ${quote(orig)}` };
    const unit = UNITS[u];
    if (unit === undefined) return { error: `time: unknown unit ${quote(u)} in duration ${quote(orig)}` };
    s = s.slice(u.length);
    let v = Number(intPart || '0') * unit;
    if (fracPart) v += Math.floor((Number(fracPart) * unit) / 10 ** fracPart.length);
    total += v;
    if (total > 2 ** 63) return invalid;
  }
  return { ns: neg ? -total : total };
}
