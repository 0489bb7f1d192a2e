// The cron schedule grammar of robfig/cron v3.0.1's standard parser, which AdvancedCronJob's
// webhook and controller use (docs/reference/advancedcronjob.md AC3.1–AC3.3): an optional `TZ=` /
// `CRON_TZ=` prefix, descriptors (`@daily`, `@every 90m`, …) or five fields, with the
// parser's exact error texts. Next-slot computation is in next.ts.
import { atoi } from '../util';
import { parseGoDuration } from './duration';
import { loadLocation } from './zone';

/** The values one field matches, and whether it is "starred" (AC3.3). */
export interface CronField {
  values: ReadonlySet<number>;
  star: boolean;
}

/** A five-field (or descriptor) schedule evaluated in `zone`; seconds are always 0. */
export interface SpecSchedule {
  kind: 'spec';
  second: CronField;
  minute: CronField;
  hour: CronField;
  dom: CronField;
  month: CronField;
  dow: CronField;
  /** IANA zone name (or `UTC`). */
  zone: string;
}

/** `@every d`: a constant delay in whole seconds (at least 1). */
export interface EverySchedule {
  kind: 'every';
  delaySeconds: number;
}

/** A parsed schedule. */
export type CronSchedule = SpecSchedule | EverySchedule;

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const SECONDS: Bounds = { min: 0, max: 59 };
const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = {
  min: 1,
  max: 12,
  names: {
    jan: 1,
    feb: 2,
    mar: 3,
    apr: 4,
    may: 5,
    jun: 6,
    jul: 7,
    aug: 8,
    sep: 9,
    oct: 10,
    nov: 11,
    dec: 12,
  },
};
const DOW: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

class CronParseError extends Error {}

function range(min: number, max: number, step = 1): Set<number> {
  const s = new Set<number>();
  for (let i = min; i <= max; i += step) s.add(i);
  return s;
}
const only = (v: number): CronField => ({ values: new Set([v]), star: false });
const all = (b: Bounds): CronField => ({ values: range(b.min, b.max), star: true });

function mustParseInt(expr: string): number {
  const n = atoi(expr);
  if (n === undefined) {
    const why = /^[+-]?\d+$/.test(expr) ? 'value out of range' : 'invalid syntax';
    throw new CronParseError(
      `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: ${why}`,
    );
  }
  if (n < 0) throw new CronParseError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, names?: Record<string, number>): number {
  if (names && Object.hasOwn(names, expr.toLowerCase())) return names[expr.toLowerCase()];
  return mustParseInt(expr);
}

/**
 * One comma-separated item: `*` / `?`, `a`, `a-b`, each optionally `/step`; `a/step` means
 * `a-max/step`. `*` and `?` are "starred" unless the step is greater than 1.
 * Example (minutes): `5/10` → {5, 15, 25, 35, 45, 55}; a star with step 0 → error
 * `step of range should be a positive number: <item>`.
 */
function getRange(expr: string, r: Bounds): CronField {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0].split('-');
  const singleDigit = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
    star = true;
  } else {
    start = parseIntOrName(lowAndHigh[0], r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1], r.names);
    else throw new CronParseError(`too many hyphens: ${expr}`);
  }
  let step: number;
  if (rangeAndStep.length === 1) step = 1;
  else if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]);
    if (singleDigit) end = r.max;
    if (step > 1) star = false;
  } else throw new CronParseError(`too many slashes: ${expr}`);
  if (start < r.min)
    throw new CronParseError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new CronParseError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end)
    throw new CronParseError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronParseError(`step of range should be a positive number: ${expr}`);
  return { values: range(start, end, step), star };
}

/** A whole field: the union of its comma-separated items; empty items are skipped (AC3.1 item 4). */
function getField(field: string, r: Bounds): CronField {
  const values = new Set<number>();
  let star = false;
  for (const item of field.split(',')) {
    if (item === '') continue;
    const f = getRange(item, r);
    for (const v of f.values) values.add(v);
    star ||= f.star;
  }
  return { values, star };
}

function parseDescriptor(descriptor: string, zone: string): CronSchedule {
  const base = { kind: 'spec' as const, second: only(0), minute: only(0), zone };
  switch (descriptor) {
    case '@yearly':
    case '@annually':
      return { ...base, hour: only(0), dom: only(1), month: only(1), dow: all(DOW) };
    case '@monthly':
      return { ...base, hour: only(0), dom: only(1), month: all(MONTHS), dow: all(DOW) };
    case '@weekly':
      return { ...base, hour: only(0), dom: all(DOM), month: all(MONTHS), dow: only(0) };
    case '@daily':
    case '@midnight':
      return { ...base, hour: only(0), dom: all(DOM), month: all(MONTHS), dow: all(DOW) };
    case '@hourly':
      return { ...base, hour: all(HOURS), dom: all(DOM), month: all(MONTHS), dow: all(DOW) };
  }
  const every = '@every ';
  if (descriptor.startsWith(every)) {
    const d = parseGoDuration(descriptor.slice(every.length));
    if ('error' in d) throw new CronParseError(`failed to parse duration ${descriptor}: ${d.error}`);
    // robfig's Every: below 1 s means 1 s; the fraction of a second is dropped (AC3.4).
    const ns = Math.max(d.ns, 1e9);
    return { kind: 'every', delaySeconds: Math.floor(ns / 1e9) };
  }
  throw new CronParseError(`unrecognized descriptor: ${descriptor}`);
}

/** Go's `strings.Fields`: split on runs of whitespace, no empty parts. */
function goFields(s: string): string[] {
  return s.split(/\s+/).filter((f) => f !== '');
}

/**
 * Parses a cron expression with robfig/cron v3.0.1's standard parser (AC3.1). `defaultZone` is
 * the controller's zone D, used when there is no `TZ=` prefix and for `TZ=Local`.
 *
 * Returns the schedule, or the parser's error text; `crash` marks the input that makes the Go
 * parser panic (a `TZ=` prefix with no space after it), which the webhook reports as
 * `invalid cron schedule: <text>` (AC2.2 item 2).
 *
 * Examples: `0 10 * * ?` → 10:00 every day; `0 0 * * 7` → error
 * `end of range (7) above maximum (6): 7`; `* * * *` → `expected exactly 5 fields, found 4: [* * * *]`;
 * `TZ=UTC` → crash `runtime error: slice bounds out of range [:-1]`.
 */
export function parseCronSchedule(
  spec: string,
  defaultZone = 'UTC',
): { schedule: CronSchedule } | { error: string; crash?: boolean } {
  if (spec.length === 0) return { error: 'empty spec string' };
  let zone = defaultZone;
  let rest = spec;
  if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
    const i = rest.indexOf(' ');
    const eq = rest.indexOf('=');
    if (i < 0) return { error: 'runtime error: slice bounds out of range [:-1]', crash: true };
    const name = rest.slice(eq + 1, i);
    const loc = loadLocation(name, defaultZone);
    if ('error' in loc) return { error: `provided bad location ${name}: ${loc.error}` };
    zone = loc.zone;
    rest = rest.slice(i).trim();
  }
  try {
    if (rest.startsWith('@')) return { schedule: parseDescriptor(rest, zone) };
    const fields = goFields(rest);
    if (fields.length !== 5) {
      throw new CronParseError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
    }
    return {
      schedule: {
        kind: 'spec',
        second: getField('0', SECONDS),
        minute: getField(fields[0], MINUTES),
        hour: getField(fields[1], HOURS),
        dom: getField(fields[2], DOM),
        month: getField(fields[3], MONTHS),
        dow: getField(fields[4], DOW),
        zone,
      },
    };
  } catch (e) {
    if (e instanceof CronParseError) return { error: e.message };
    throw e;
  }
}
