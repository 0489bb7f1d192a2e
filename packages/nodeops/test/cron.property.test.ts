import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cronNext, dayMatches } from '../src/cron/next';
import { parseCronSchedule, type SpecSchedule } from '../src/cron/parse';
import { WallClock } from '../src/cron/zone';

const MIN = 60_000;
const from2024 = fc.integer({
  min: Date.parse('2024-01-01T00:00:00Z'),
  max: Date.parse('2026-12-31T00:00:00Z'),
});
const subset = (max: number, lo = 0) =>
  fc.uniqueArray(fc.integer({ min: lo, max }), { minLength: 1, maxLength: 4 }).map((xs) => xs.join(','));
/** Dense schedules (every day matches some hour), so brute force over minutes stays short. */
const denseSchedule = fc
  .tuple(
    fc.oneof(subset(59), fc.constant('*'), fc.constantFrom('*/7', '5/20')),
    fc.oneof(subset(23), fc.constant('*'), fc.constant('*/5')),
    fc.constantFrom('*', '1-5', 'mon,fri', 'sun'),
  )
  .map(([m, h, dow]) => `${m} ${h} * * ${dow}`);

function parse(spec: string, zone = 'UTC'): SpecSchedule {
  const p = parseCronSchedule(spec, zone);
  if ('error' in p || p.schedule.kind !== 'spec') throw new Error(spec);
  return p.schedule;
}

/** An independent matcher: does this whole minute's wall clock match the schedule? */
function matches(s: SpecSchedule, ms: number, clock: WallClock): boolean {
  const f = clock.fields(ms);
  return (
    f.second === 0 &&
    s.minute.values.has(f.minute) &&
    s.hour.values.has(f.hour) &&
    s.month.values.has(f.month) &&
    dayMatches(s, f)
  );
}

describe('AC3.4 properties of Next', () => {
  it('Next(t) is strictly after t and lands on a matching instant', () => {
    fc.assert(
      fc.property(
        denseSchedule,
        from2024,
        fc.constantFrom('UTC', 'America/New_York', 'Asia/Shanghai'),
        (spec, t, zone) => {
          const s = parse(spec, zone);
          const n = cronNext(s, t);
          expect(n).toBeDefined();
          expect(n as number).toBeGreaterThan(t);
          expect(matches(s, n as number, new WallClock(zone))).toBe(true);
        },
      ),
    );
  });

  it('next-run times are monotone: t1 ≤ t2 ⇒ Next(t1) ≤ Next(t2), and chains strictly increase', () => {
    fc.assert(
      fc.property(denseSchedule, from2024, fc.integer({ min: 0, max: 3 * 86400_000 }), (spec, t1, d) => {
        const s = parse(spec, 'America/New_York');
        const a = cronNext(s, t1) as number;
        const b = cronNext(s, t1 + d) as number;
        expect(a).toBeLessThanOrEqual(b);
        expect(cronNext(s, a) as number).toBeGreaterThan(a);
      }),
    );
  });

  it('no matching minute is skipped between t and Next(t) (UTC, brute force)', () => {
    fc.assert(
      fc.property(denseSchedule, from2024, (spec, t) => {
        const s = parse(spec);
        const clock = new WallClock('UTC');
        const n = cronNext(s, t) as number;
        for (let m = Math.floor(t / MIN) * MIN + MIN; m < n; m += MIN)
          expect(matches(s, m, clock)).toBe(false);
      }),
      { numRuns: 40 },
    );
  });

  it('@every d: Next(t) = t with the fraction dropped + max(1 s, whole seconds of d)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100, max: 100_000 }), from2024, (secs, t) => {
        const p = parseCronSchedule(`@every ${secs}s`);
        if ('error' in p) throw new Error(p.error);
        expect(cronNext(p.schedule, t)).toBe(Math.floor(t / 1000) * 1000 + Math.max(1, secs) * 1000);
      }),
    );
  });
});
