import { describe, expect, it } from 'vitest';
import { backoffDelayMs, WorkQueue } from '../src/index';
import { FakeClock, flush } from './support/fakeClock';

describe('§7.2 item 2 / §9.2 item 2: work queue', () => {
  it('per-item backoff 500 ms doubling, capped at 50 s + u·5 s', () => {
    expect([0, 1, 2, 3].map((n) => backoffDelayMs(n, 0))).toEqual([500, 1_000, 2_000, 4_000]);
    expect(backoffDelayMs(20, 0.5)).toBe(52_500);
  });

  it('a key is processed once at a time; an add while processing runs it again', async () => {
    const clock = new FakeClock();
    const seen: string[] = [];
    let release: () => void = () => undefined;
    const q = new WorkQueue(
      async (k) => {
        seen.push(k);
        if (seen.length === 1) await new Promise<void>((r) => (release = r));
        return {};
      },
      { clock, rng: () => 0, workers: 4 },
    );
    q.add('a');
    q.add('a');
    await flush();
    q.add('a');
    expect(seen).toEqual(['a']);
    release();
    await flush();
    expect(seen).toEqual(['a', 'a']);
    await q.shutdown();
  });

  it('a failing key is retried after the backoff; requeueAfterMs delays the next run', async () => {
    const clock = new FakeClock();
    const at: number[] = [];
    const q = new WorkQueue(
      async () => {
        at.push(clock.now());
        if (at.length < 3) throw new Error('boom');
        return at.length === 3 ? { requeueAfterMs: 10_000 } : {};
      },
      { clock, rng: () => 0, workers: 1 },
    );
    const t0 = clock.now();
    q.add('k');
    await clock.advance(20_000);
    expect(at.map((t) => t - t0)).toEqual([0, 500, 1_500, 11_500]);
    await q.shutdown();
  });
});
