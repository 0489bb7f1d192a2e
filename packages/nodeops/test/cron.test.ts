import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { controllerSchedule, findDueSlot } from '../src/advancedcronjob/schedule';
import { parseGoDuration } from '../src/cron/duration';
import { cronNext } from '../src/cron/next';
import { type CronSchedule, parseCronSchedule } from '../src/cron/parse';
import { isIanaZoneName, loadLocation, WallClock } from '../src/cron/zone';

function sched(spec: string, zone = 'UTC'): CronSchedule {
  const p = parseCronSchedule(spec, zone);
  if ('error' in p) throw new Error(p.error);
  return p.schedule;
}
const iso = (ms: number | undefined) =>
  ms === undefined ? 'none' : new Date(ms).toISOString().replace('.000Z', 'Z');
function slots(spec: string, from: string, n: number, zone = 'UTC'): string[] {
  const s = sched(spec, zone);
  const out: string[] = [];
  let t: number | undefined = Date.parse(from);
  for (let i = 0; i < n && t !== undefined; i++) {
    t = cronNext(s, t);
    out.push(iso(t));
  }
  return out;
}

describe('AC3.1 / AC3.2 schedule syntax (robfig/cron v3.0.1 standard parser)', () => {
  it.each([
    '*/5 * * * *',
    '? ? ? ? ?',
    '0 0 * JAN MON',
    '0 0 * jan-mar mon-FRI',
    '1-5/2 * * * *',
    '5/10 * * * *',
    '+5 * * * *',
    ',5 * * * *',
    ', * * * *',
    '@hourly',
    '@every 90m',
    '@every 0s',
    '@every -5m',
    'TZ=UTC @every 1h',
    'CRON_TZ=Asia/Shanghai 0 * * * *',
    'TZ=Local 0 * * * *',
  ])('AC3.2 valid: %s', (spec) => {
    expect(parseCronSchedule(spec)).toHaveProperty('schedule');
  });

  it.each([
    ['0 0 * * 7', 'end of range (7) above maximum (6): 7'],
    ['0 0 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['0 0 L * *', 'failed to parse int from L: strconv.Atoi: parsing "L": invalid syntax'],
    ['TZ=Nope/Zone 0 * * * *', 'provided bad location Nope/Zone: unknown time zone Nope/Zone'],
    ['', 'empty spec string'],
  ])('AC3.2 invalid: %j → %s', (spec, error) => {
    expect(parseCronSchedule(spec)).toEqual({ error });
  });

  it('AC3.2 TZ=UTC with nothing after it crashes the parser', () => {
    expect(parseCronSchedule('TZ=UTC')).toEqual({
      error: 'runtime error: slice bounds out of range [:-1]',
      crash: true,
    });
  });

  it('AC3.1 item 2 descriptors: unknown ones and bad durations', () => {
    expect(parseCronSchedule('@reboot')).toEqual({ error: 'unrecognized descriptor: @reboot' });
    expect(parseCronSchedule('@every 5')).toEqual({
      error: 'failed to parse duration @every 5: time: missing unit in duration "5"',
    });
    expect(parseCronSchedule('@every 5x')).toEqual({
      error: 'failed to parse duration @every 5x: time: unknown unit "x" in duration "5x"',
    });
  });

  it('AC3.1 item 2 descriptors mean what they say', () => {
    expect(slots('@yearly', '2024-03-01T00:00:00Z', 1)).toEqual(['2025-01-01T00:00:00Z']);
    expect(slots('@monthly', '2024-03-01T00:00:00Z', 1)).toEqual(['2024-04-01T00:00:00Z']);
    expect(slots('@weekly', '2024-03-01T00:00:00Z', 1)).toEqual(['2024-03-03T00:00:00Z']); // a Sunday
    expect(slots('@daily', '2024-03-01T00:00:00Z', 1)).toEqual(['2024-03-02T00:00:00Z']);
    expect(slots('@hourly', '2024-03-01T00:10:00Z', 1)).toEqual(['2024-03-01T01:00:00Z']);
  });

  it('AC3.1 items 3–4: names are case-insensitive, too many hyphens / slashes, a/step = a-max/step', () => {
    expect(parseCronSchedule('1-2-3 * * * *')).toEqual({ error: 'too many hyphens: 1-2-3' });
    expect(parseCronSchedule('1/2/3 * * * *')).toEqual({ error: 'too many slashes: 1/2/3' });
    expect(parseCronSchedule('5-1 * * * *')).toEqual({
      error: 'beginning of range (5) beyond end of range (1): 5-1',
    });
    expect(slots('50/5 * * * *', '2024-01-01T00:00:00Z', 3)).toEqual([
      '2024-01-01T00:50:00Z',
      '2024-01-01T00:55:00Z',
      '2024-01-01T01:50:00Z',
    ]);
    expect(slots('0 0 * jAn Mon', '2024-01-01T00:00:00Z', 1)).toEqual(['2024-01-08T00:00:00Z']);
  });

  it('Go durations: 90m, 1h30m, 1.5h are 5400 s', () => {
    for (const d of ['90m', '1h30m', '1.5h']) expect(parseGoDuration(d)).toEqual({ ns: 5.4e12 });
    expect(parseGoDuration('')).toEqual({ error: 'time: invalid duration ""' });
  });
});

describe('AC3.3 day matching', () => {
  it('0 0 13 * 5 → every 13th and every Friday', () => {
    expect(slots('0 0 13 * 5', '2024-01-01T00:00:00Z', 4)).toEqual([
      '2024-01-05T00:00:00Z',
      '2024-01-12T00:00:00Z',
      '2024-01-13T00:00:00Z',
      '2024-01-19T00:00:00Z',
    ]);
  });
  it('0 0 */2 * 5 → odd days and Fridays (*/2 is not starred)', () => {
    expect(slots('0 0 */2 * 5', '2024-01-01T00:00:00Z', 6)).toEqual([
      '2024-01-03T00:00:00Z',
      '2024-01-05T00:00:00Z',
      '2024-01-07T00:00:00Z',
      '2024-01-09T00:00:00Z',
      '2024-01-11T00:00:00Z',
      '2024-01-12T00:00:00Z',
    ]);
  });
  it('0 0 * * 5 → Fridays only', () => {
    expect(slots('0 0 * * 5', '2024-01-01T00:00:00Z', 2)).toEqual([
      '2024-01-05T00:00:00Z',
      '2024-01-12T00:00:00Z',
    ]);
  });
  it('0 0 29 2 1 → 29 February and every Monday in February', () => {
    expect(slots('0 0 29 2 1', '2024-01-01T00:00:00Z', 6)).toEqual([
      '2024-02-05T00:00:00Z',
      '2024-02-12T00:00:00Z',
      '2024-02-19T00:00:00Z',
      '2024-02-26T00:00:00Z',
      '2024-02-29T00:00:00Z',
      '2025-02-03T00:00:00Z',
    ]);
  });
  it('*/1 is starred, 1-31 is not', () => {
    expect(slots('0 0 */1 * 5', '2024-01-01T00:00:00Z', 1)).toEqual(['2024-01-05T00:00:00Z']);
    expect(slots('0 0 1-31 * 5', '2024-01-01T00:00:00Z', 1)).toEqual(['2024-01-02T00:00:00Z']);
  });
});

describe('AC3.4 Next(t)', () => {
  it('0 0 29 2 * from 2024-03-01 gives 2028-02-29', () => {
    expect(slots('0 0 29 2 *', '2024-03-01T00:00:00Z', 1)).toEqual(['2028-02-29T00:00:00Z']);
  });
  it('0 0 30 2 * and * * 31 4 * have no next slot', () => {
    expect(slots('0 0 30 2 *', '2024-03-01T00:00:00Z', 1)).toEqual(['none']);
    expect(slots('* * 31 4 *', '2024-03-01T00:00:00Z', 1)).toEqual(['none']);
    expect(slots(', * * * *', '2024-03-01T00:00:00Z', 1)).toEqual(['none']);
  });
  it('is strictly after t, with the fraction of a second dropped', () => {
    expect(slots('* * * * *', '2024-01-01T10:00:00Z', 1)).toEqual(['2024-01-01T10:01:00Z']);
    expect(slots('* * * * *', '2024-01-01T10:00:59.900Z', 1)).toEqual(['2024-01-01T10:01:00Z']);
  });
  it('DST gap: TZ=America/New_York 30 2 * * * skips 2024-03-10', () => {
    expect(slots('TZ=America/New_York 30 2 * * *', '2024-03-08T12:00:00Z', 3)).toEqual([
      '2024-03-09T07:30:00Z',
      '2024-03-11T06:30:00Z',
      '2024-03-12T06:30:00Z',
    ]);
  });
  it('DST overlap: TZ=America/New_York 30 1 * * * fires at 2024-11-03T05:30Z and 06:30Z', () => {
    expect(slots('TZ=America/New_York 30 1 * * *', '2024-11-02T12:00:00Z', 3)).toEqual([
      '2024-11-03T05:30:00Z',
      '2024-11-03T06:30:00Z',
      '2024-11-04T06:30:00Z',
    ]);
  });
  it('DST overlap: TZ=America/New_York 0 * * * * fires at 01:00 EDT and 01:00 EST', () => {
    expect(slots('TZ=America/New_York 0 * * * *', '2024-11-03T04:30:00Z', 3)).toEqual([
      '2024-11-03T05:00:00Z',
      '2024-11-03T06:00:00Z',
      '2024-11-03T07:00:00Z',
    ]);
  });
  it('midnight schedules are unaffected by a DST change away from midnight', () => {
    expect(slots('TZ=America/New_York 0 0 * * *', '2024-03-09T12:00:00Z', 3)).toEqual([
      '2024-03-10T05:00:00Z',
      '2024-03-11T04:00:00Z',
      '2024-03-12T04:00:00Z',
    ]);
  });
  it('@every d: 0s, -5m, 500ms and 1500ms all mean 1 s', () => {
    for (const d of ['0s', '-5m', '500ms', '1500ms']) {
      expect(slots(`@every ${d}`, '2024-01-01T10:00:17.500Z', 2)).toEqual([
        '2024-01-01T10:00:18Z',
        '2024-01-01T10:00:19Z',
      ]);
    }
  });
  it('@every 1h keeps the creation offset: created 10:00:17 → 11:00:17, 12:00:17', () => {
    expect(slots('@every 1h', '2024-01-01T10:00:17Z', 2)).toEqual([
      '2024-01-01T11:00:17Z',
      '2024-01-01T12:00:17Z',
    ]);
  });
  it("Go's time.Date: a skipped wall time resolves to 01:30 EST, a repeated one to its EDT occurrence", () => {
    const c = new WallClock('America/New_York');
    expect(iso(c.date(2024, 3, 10, 2, 30, 0))).toBe('2024-03-10T06:30:00Z');
    expect(iso(c.date(2024, 11, 3, 1, 30, 0))).toBe('2024-11-03T05:30:00Z');
  });
});

describe('AC3.5 which zone the controller uses', () => {
  it('no zone: D = UTC. 0 10 * * ? from 09:01Z → 10:00Z, from 11:01Z → next day 10:00Z', () => {
    const s = controllerSchedule({ schedule: '0 10 * * ?' }, 'UTC');
    if ('error' in s) throw new Error(s.error);
    expect(iso(cronNext(s.schedule, Date.parse('2022-09-05T09:01:00Z')))).toBe('2022-09-05T10:00:00Z');
    expect(iso(cronNext(s.schedule, Date.parse('2022-09-05T11:01:00Z')))).toBe('2022-09-06T10:00:00Z');
  });
  it.each([
    [{ schedule: '0 10 * * ?', timeZone: 'Asia/Shanghai' }],
    [{ schedule: 'TZ=Asia/Shanghai 0 10 * * ?' }],
  ])('Asia/Shanghai (%j): from 2022-09-05T09:01Z or 2022-09-06T01:01Z → 2022-09-06T02:00Z', (spec) => {
    const s = controllerSchedule(deepFreeze(spec), 'UTC');
    if ('error' in s) throw new Error(s.error);
    expect(iso(cronNext(s.schedule, Date.parse('2022-09-05T09:01:00Z')))).toBe('2022-09-06T02:00:00Z');
    expect(iso(cronNext(s.schedule, Date.parse('2022-09-06T01:01:00Z')))).toBe('2022-09-06T02:00:00Z');
  });
  it('a schedule containing TZ is used as written; TZ=Local and no prefix mean zone D', () => {
    const s = controllerSchedule({ schedule: 'TZ=Local 0 10 * * ?', timeZone: 'UTC' }, 'Asia/Shanghai');
    if ('error' in s) throw new Error(s.error);
    expect(iso(cronNext(s.schedule, Date.parse('2022-09-05T09:01:00Z')))).toBe('2022-09-06T02:00:00Z');
    const d = controllerSchedule({ schedule: '0 10 * * ?' }, 'Asia/Shanghai');
    if ('error' in d) throw new Error(d.error);
    expect(iso(cronNext(d.schedule, Date.parse('2022-09-05T09:01:00Z')))).toBe('2022-09-06T02:00:00Z');
  });
  it('an unloadable timeZone is ignored (zone D)', () => {
    const s = controllerSchedule({ schedule: '0 10 * * ?', timeZone: 'Nope/Zone' }, 'UTC');
    if ('error' in s) throw new Error(s.error);
    expect(iso(cronNext(s.schedule, Date.parse('2022-09-05T09:01:00Z')))).toBe('2022-09-05T10:00:00Z');
  });
  it("zone names load with Go's rules: case-sensitive, UTC and Local special", () => {
    expect(loadLocation('UTC', 'UTC')).toEqual({ zone: 'UTC' });
    expect(loadLocation('', 'UTC')).toEqual({ zone: 'UTC' });
    expect(loadLocation('Local', 'Europe/Berlin')).toEqual({ zone: 'Europe/Berlin' });
    expect(isIanaZoneName('America/New_York')).toBe(true);
    expect(isIanaZoneName('US/Eastern')).toBe(true);
    expect(isIanaZoneName('america/new_york')).toBe(false);
    expect(isIanaZoneName('utc')).toBe(false);
    expect(loadLocation('local', 'UTC')).toEqual({ error: 'unknown time zone local' });
  });
});

describe('AC4.8 due slot walk (checked values)', () => {
  const every = sched('* * * * *');
  const created = Date.parse('2024-01-01T00:00:00Z');
  it('* * * * * created 00:00:00: at 01:40:30 there are 100 missed slots, missed = 01:40:00', () => {
    const d = findDueSlot(every, created, Date.parse('2024-01-01T01:40:30Z'));
    expect(d).toEqual({
      tooManyMissed: false,
      missed: Date.parse('2024-01-01T01:40:00Z'),
      next: Date.parse('2024-01-01T01:41:00Z'),
      count: 100,
    });
  });
  it('at 01:41:30 the count hits 101 and the walk stops', () => {
    expect(findDueSlot(every, created, Date.parse('2024-01-01T01:41:30Z')).tooManyMissed).toBe(true);
  });
  it('startingDeadlineSeconds 600 at 16:40:30 counts 10 slots, missed = 16:40:00', () => {
    const d = findDueSlot(every, created, Date.parse('2024-01-01T16:40:30Z'), 600);
    expect(d).toMatchObject({ tooManyMissed: false, missed: Date.parse('2024-01-01T16:40:00Z'), count: 10 });
  });
  it('earliest after now: nothing missed, next = Next(now)', () => {
    const d = findDueSlot(every, Date.parse('2024-01-01T02:00:00Z'), Date.parse('2024-01-01T01:00:30Z'));
    expect(d).toEqual({
      tooManyMissed: false,
      missed: undefined,
      next: Date.parse('2024-01-01T01:01:00Z'),
      count: 0,
    });
  });
  it('step 6: a schedule with no future slot always ends in the stop, even with a deadline', () => {
    expect(findDueSlot(sched('0 0 30 2 *'), created, created + 1000, 60).tooManyMissed).toBe(true);
    expect(findDueSlot(sched(', * * * *'), created, created + 1000).tooManyMissed).toBe(true);
  });
  it('AC4.9 startingDeadlineSeconds 0: nothing is ever due', () => {
    const d = findDueSlot(every, created, Date.parse('2024-01-01T00:05:00Z'), 0);
    expect(d.tooManyMissed === false && d.missed).toBe(undefined);
  });
});
