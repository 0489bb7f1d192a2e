// Time zones for cron schedules (docs/reference/advancedcronjob.md AC2.2 item 5, AC3.1 item 1, AC3.5):
// which names load the way Go's `time.LoadLocation` loads them, and the wall clock of a zone
// with Go's `time.Date` normalisation. Zone offsets come from croner's `CronDate` (croner
// keeps one Intl formatter per zone); everything else is plain arithmetic on epoch ms.
import { CronDate } from 'croner';

/** The zone name of UTC, which needs no lookup. */
export const UTC = 'UTC';

/** Wall-clock fields in a zone; `month` is 1–12 and `weekday` 0 (Sunday) – 6. */
export interface WallFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

function intlAccepts(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * Does `name` load as an IANA zone with Go's rules? Go reads zone files by exact name, so
 * names are case-sensitive: `America/New_York` and `UTC` load, `america/new_york` and `utc`
 * do not. Names the platform's zone database does not know (`Nope/Zone`) do not load.
 * (`""`, `UTC` and `Local` are handled by {@link loadLocation} before this.)
 */
export function isIanaZoneName(name: string): boolean {
  if (name === UTC) return true;
  const resolved = intlAccepts(name);
  if (resolved === undefined) return false;
  if (resolved === name) return true;
  // Intl matches names case-insensitively; Go does not. Every IANA name component starts
  // with an uppercase letter (`Etc/GMT+5`, `US/Eastern`, `EST5EDT`).
  if (resolved.toLowerCase() === name.toLowerCase()) return false;
  return name.split('/').every((part) => /^[A-Z]/.test(part));
}

/**
 * Go's `time.LoadLocation` as the cron parser and the webhook use it: `""` and `UTC` are UTC,
 * `Local` is the controller's default zone D, any other name must be a loadable IANA zone
 * (else `unknown time zone <name>`).
 *
 * Example: `loadLocation('Local', 'Asia/Shanghai')` → `{ zone: 'Asia/Shanghai' }`;
 * `loadLocation('Nope/Zone', 'UTC')` → `{ error: 'unknown time zone Nope/Zone' }`.
 */
export function loadLocation(name: string, defaultZone: string): { zone: string } | { error: string } {
  if (name === '' || name === UTC) return { zone: UTC };
  if (name === 'Local') return { zone: defaultZone };
  if (isIanaZoneName(name)) return { zone: name };
  return { error: `unknown time zone ${name}` };
}

/** A valid default zone D: the given one if it loads, else UTC. */
export function resolveDefaultZone(zone: string | undefined): string {
  if (zone === undefined || zone === '' || zone === 'Local') return UTC;
  return isIanaZoneName(zone) ? zone : UTC;
}

function utcFields(local: number): WallFields {
  const d = new Date(local);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
  };
}

function utcMillis(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  return date.getTime();
}

/**
 * The wall clock of one zone, with a per-instance offset cache (create one per computation;
 * it holds no state beyond the cache).
 */
export class WallClock {
  private readonly cache = new Map<number, number>();
  constructor(readonly zone: string) {}

  /** The zone's UTC offset at an instant, in milliseconds (east positive). */
  offsetAt(ms: number): number {
    if (this.zone === UTC) return 0;
    const sec = Math.floor(ms / 1000) * 1000;
    const hit = this.cache.get(sec);
    if (hit !== undefined) return hit;
    const cd = new CronDate(new Date(sec), this.zone);
    const off = utcMillis(cd.year, cd.month + 1, cd.day, cd.hour, cd.minute, cd.second) - sec;
    this.cache.set(sec, off);
    return off;
  }

  /** The wall-clock fields of an instant. */
  fields(ms: number): WallFields {
    return utcFields(ms + this.offsetAt(ms));
  }

  /**
   * Go's `time.Date(y, mo, d, h, mi, s, 0, zone)`: out-of-range fields normalise (month 13 is
   * January of the next year, day 32 the next month); a wall time a DST gap skips, or that an
   * overlap repeats, resolves as Go does: look the offset up at the wall time read as UTC, and
   * if the result falls outside that offset's period use the offset of the result instead.
   *
   * Example (America/New_York): 2024-03-10 02:30 (skipped) → 06:30Z (01:30 EST);
   * 2024-11-03 01:30 (repeated) → 05:30Z (the first, EDT, occurrence).
   */
  date(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
    const local = utcMillis(y, mo, d, h, mi, s);
    const off0 = this.offsetAt(local);
    const utc = local - off0;
    const off1 = this.offsetAt(utc);
    return off1 === off0 ? utc : local - off1;
  }

  /** Go's `t.AddDate(years, months, days)`: wall-clock date arithmetic, then `time.Date`. */
  addDate(ms: number, years: number, months: number, days: number): number {
    const f = this.fields(ms);
    return this.date(f.year + years, f.month + months, f.day + days, f.hour, f.minute, f.second);
  }
}
