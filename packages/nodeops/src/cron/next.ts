// Next(t) of a cron schedule, as robfig/cron v3.0.1 computes it (docs/reference/advancedcronjob.md
// AC3.3, AC3.4): the first slot strictly after t, walking month → day → hour → minute → second
// in the schedule's zone, with Go's DST behaviour (a wall time skipped by a gap does not fire
// that day; a wall time repeated by an overlap fires twice) and "none" after 5 years.
import type { CronField, CronSchedule, SpecSchedule } from './parse';
import { WallClock, type WallFields } from './zone';

const HOUR = 3600_000;
const MINUTE = 60_000;
const SECOND = 1000;

const has = (f: CronField, v: number) => f.values.has(v);

/**
 * AC3.3 day matching: if either day field is starred a day must match both, otherwise either.
 * Example: `0 0 13 * 5` → the 13th and every Friday; `0 0 * * 5` → Fridays only.
 */
export function dayMatches(s: SpecSchedule, f: Pick<WallFields, 'day' | 'weekday'>): boolean {
  const domMatch = has(s.dom, f.day);
  const dowMatch = has(s.dow, f.weekday);
  if (s.dom.star || s.dow.star) return domMatch && dowMatch;
  return domMatch || dowMatch;
}

function isEmpty(s: SpecSchedule): boolean {
  if ([s.second, s.minute, s.hour, s.month].some((f) => f.values.size === 0)) return true;
  const noDom = s.dom.values.size === 0;
  const noDow = s.dow.values.size === 0;
  return s.dom.star || s.dow.star ? noDom || noDow : noDom && noDow;
}

function specNext(s: SpecSchedule, fromMs: number): number | undefined {
  // A field that matches nothing (`, * * * *`) has no slot; robfig walks 5 years to say so.
  if (isEmpty(s)) return undefined;
  const clock = new WallClock(s.zone);
  // Start at the upcoming whole second.
  let t = Math.floor(fromMs / SECOND) * SECOND + SECOND;
  let added = false;
  const yearLimit = clock.fields(t).year + 5;
  wrap: for (;;) {
    let f = clock.fields(t);
    if (f.year > yearLimit) return undefined;
    while (!has(s.month, f.month)) {
      if (!added) {
        added = true;
        t = clock.date(f.year, f.month, 1, 0, 0, 0);
      }
      t = clock.addDate(t, 0, 1, 0);
      f = clock.fields(t);
      if (f.month === 1) continue wrap;
    }
    while (!dayMatches(s, f)) {
      if (!added) {
        added = true;
        t = clock.date(f.year, f.month, f.day, 0, 0, 0);
      }
      t = clock.addDate(t, 0, 0, 1);
      f = clock.fields(t);
      // Notice if the hour is no longer midnight due to DST.
      if (f.hour !== 0) {
        t = f.hour > 12 ? t + (24 - f.hour) * HOUR : t - f.hour * HOUR;
        f = clock.fields(t);
      }
      if (f.day === 1) continue wrap;
    }
    while (!has(s.hour, f.hour)) {
      if (!added) {
        added = true;
        t = clock.date(f.year, f.month, f.day, f.hour, 0, 0);
      }
      t += HOUR;
      f = clock.fields(t);
      if (f.hour === 0) continue wrap;
    }
    while (!has(s.minute, f.minute)) {
      if (!added) {
        added = true;
        t = Math.floor(t / MINUTE) * MINUTE;
      }
      t += MINUTE;
      f = clock.fields(t);
      if (f.minute === 0) continue wrap;
    }
    while (!has(s.second, f.second)) {
      if (!added) {
        added = true;
        t = Math.floor(t / SECOND) * SECOND;
      }
      t += SECOND;
      f = clock.fields(t);
      if (f.second === 0) continue wrap;
    }
    return t;
  }
}

/**
 * AC3.4 Next(t): the first slot strictly after `t` (epoch ms), or `undefined` for "none".
 *
 * - Five-field schedules: from `t` + 1 s (fraction dropped), the earliest whole second whose
 *   wall clock in the schedule's zone matches; none when the search passes the end of year
 *   Y + 5. Example: `0 0 29 2 *` from 2024-03-01 → 2028-02-29; `0 0 30 2 *` → none.
 * - `@every d`: `t` with its fraction dropped, plus d (whole seconds, at least 1). Example:
 *   `@every 1h` from 10:00:17.5 → 11:00:17.
 */
export function cronNext(schedule: CronSchedule, fromMs: number): number | undefined {
  if (!Number.isFinite(fromMs)) return undefined;
  if (schedule.kind === 'every') return Math.floor(fromMs / SECOND) * SECOND + schedule.delaySeconds * SECOND;
  return specNext(schedule, fromMs);
}
