// Go's duration syntax as kubectl's --timeout takes it (`30s`, `5m`, `1h2m3.5s`, `500ms`, `0`).
// Pure.

const UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Milliseconds of a Go duration, or `{error}` in Go's wording.
 *
 * Example: `parseDuration('1m30s')` → `90000`; `parseDuration('30')` → `{error: 'time: missing
 * unit in duration "30"'}`.
 */
export function parseDuration(text: string): number | { error: string } {
  if (text === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let at = 0;
  let m: RegExpExecArray | null = re.exec(text);
  if (m === null) {
    return /^\d+(\.\d*)?$/.test(text)
      ? { error: `time: missing unit in duration ${JSON.stringify(text)}` }
      : { error: `time: invalid duration ${JSON.stringify(text)}` };
  }
  while (m !== null) {
    total += Number.parseFloat(m[1]) * UNITS[m[2]];
    at = re.lastIndex;
    m = re.exec(text);
  }
  if (at !== text.length) return { error: `time: invalid duration ${JSON.stringify(text)}` };
  return total;
}
