// The AdvancedCronJob controller's view of its schedule (docs/reference/advancedcronjob.md AC3.5) and
// the due-slot walk (AC4.8): which zone applies, the latest missed slot, the next slot, and
// the "too many missed start times" stop.
import type { AdvancedCronJobSpec } from '@kruise-ts/api';
import { cronNext } from '../cron/next';
import { type CronSchedule, parseCronSchedule } from '../cron/parse';
import { loadLocation } from '../cron/zone';

/** AC4.8 item 5: more missed slots than this stop the reconcile for good. */
export const MAX_MISSED_SLOTS = 100;

/** The log message of the AC4.8 stop. */
export const TOO_MANY_MISSED_MESSAGE =
  'too many missed start times (> 100). Set or decrease .spec.startingDeadlineSeconds or check clock skew';

/**
 * AC3.5: the schedule as the controller parses it. A schedule containing `TZ` anywhere is used
 * as written (its own prefix, else zone D); otherwise a set `timeZone` that loads is put in
 * front as `TZ=<timeZone> `; otherwise zone D. An unloadable `timeZone` is ignored.
 *
 * Example: `{schedule: '0 10 * * ?', timeZone: 'Asia/Shanghai'}` parses
 * `TZ=Asia/Shanghai 0 10 * * ?`, whose slots from 2022-09-05T09:01Z are 2022-09-06T02:00Z, ….
 */
export function controllerSchedule(
  spec: Pick<AdvancedCronJobSpec, 'schedule' | 'timeZone'>,
  defaultZone: string,
): { schedule: CronSchedule } | { error: string } {
  const text = spec.schedule ?? '';
  if (text.includes('TZ')) return parseCronSchedule(text, defaultZone);
  if (
    spec.timeZone !== undefined &&
    spec.timeZone !== null &&
    'zone' in loadLocation(spec.timeZone, defaultZone)
  ) {
    return parseCronSchedule(`TZ=${spec.timeZone} ${text}`, defaultZone);
  }
  return parseCronSchedule(text, defaultZone);
}

/** The outcome of {@link findDueSlot}. */
export type DueSlot =
  | { tooManyMissed: true; count: number }
  | {
      tooManyMissed: false;
      /** The latest missed slot (epoch ms), if any. */
      missed?: number;
      /** Next(now), or `undefined` when the schedule has no future slot. */
      next?: number;
      /** How many slots were missed. */
      count: number;
    };

/**
 * AC4.8 steps 2–7: `earliest` = `lastScheduleTime` or the creation time, raised to
 * `now − startingDeadlineSeconds` when a deadline is set. If `earliest > now` nothing is missed.
 * Otherwise walk Next(earliest), Next(…), … while ≤ now; the last one is `missed`. A 101st
 * missed slot stops the walk (`tooManyMissed`); so does a "none" from Next, which upstream
 * (Go's zero time) also ends in that stop. Then `next` = Next(now).
 *
 * Example: `* * * * *`, created 00:00:00, now 01:40:30 → 100 missed, `missed` = 01:40:00,
 * `next` = 01:41:00; at 01:41:30 → `tooManyMissed`.
 */
export function findDueSlot(
  schedule: CronSchedule,
  earliestMs: number,
  nowMs: number,
  startingDeadlineSeconds?: number | null,
): DueSlot {
  let earliest = earliestMs;
  if (startingDeadlineSeconds !== undefined && startingDeadlineSeconds !== null) {
    earliest = Math.max(earliest, nowMs - startingDeadlineSeconds * 1000);
  }
  let missed: number | undefined;
  let count = 0;
  if (earliest <= nowMs) {
    let t = cronNext(schedule, earliest);
    for (;;) {
      if (t === undefined) return { tooManyMissed: true, count: MAX_MISSED_SLOTS + 1 };
      if (t > nowMs) break;
      missed = t;
      count++;
      if (count > MAX_MISSED_SLOTS) return { tooManyMissed: true, count };
      t = cronNext(schedule, t);
    }
  }
  return { tooManyMissed: false, missed, next: cronNext(schedule, nowMs), count };
}
