import type { NodeImageSpec } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import {
  attemptTimeoutMs,
  backoffStepMs,
  buildNodeImageStatus,
  DEFAULT_PULLER_TIMINGS,
  isStillPulling,
  maxAttempts,
  planPoolSync,
  poolStatus,
  pullerRequeueMs,
  pullWorkerParams,
  statusWriteDecision,
  takeToken,
} from '../src/index';

describe('§7.5 worker policy', () => {
  it('item 1: defaults timeout 600 s and backoffLimit 3; a negative limit becomes 3; deadline = start + activeDeadlineSeconds', () => {
    expect(pullWorkerParams({}, 0)).toEqual({ timeoutMs: 600_000, backoffLimit: 3 });
    expect(
      pullWorkerParams(
        { pullPolicy: { timeoutSeconds: 2, backoffLimit: -1, activeDeadlineSeconds: 10 } },
        1000,
      ),
    ).toEqual({
      timeoutMs: 2000,
      backoffLimit: 3,
      deadlineMs: 11_000,
    });
  });

  it('item 2: backoffLimit + 1 attempts', () => {
    expect(maxAttempts({ timeoutMs: 1, backoffLimit: 0 })).toBe(1);
    expect(maxAttempts({ timeoutMs: 1, backoffLimit: 3 })).toBe(4);
  });

  it('items 2.1–2.2: per-attempt timeout = min(timeout, deadline − now); past the deadline → stop', () => {
    const p = { timeoutMs: 600_000, backoffLimit: 3, deadlineMs: 10_000 };
    expect(attemptTimeoutMs(p, 7_500)).toBe(2_500);
    expect(attemptTimeoutMs(p, 10_000)).toBe(0);
    expect(attemptTimeoutMs(p, 10_001)).toBeUndefined();
    expect(attemptTimeoutMs({ timeoutMs: 5_000, backoffLimit: 0 }, 1e12)).toBe(5_000);
  });

  it('item 2.4: backoff 1 s doubling, capped at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(backoffStepMs)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });
});

describe('§7.4 worker pool', () => {
  const spec = {
    tags: [
      { tag: 'v1', version: 1 },
      { tag: 'v2', version: 0 },
    ],
  };

  it('items 1.3–3: status of same tag+version with completionTime is final; others active; stale workers stop; new ones start', () => {
    const status = {
      tags: [{ tag: 'v1', phase: 'Succeeded' as const, version: 1, completionTime: '2024-01-01T00:00:00Z' }],
    };
    const plan = planPoolSync(spec, status, [{ tag: 'v1', version: 1 }], ['v1', 'old']);
    expect(plan.active.map((t) => t.tag)).toEqual(['v2']);
    expect(plan.finished.map((t) => t.tag)).toEqual(['v1']);
    expect(plan.stop).toEqual(['v1']);
    expect(plan.start.map((t) => t.tag)).toEqual(['v2']);
    expect(plan.forget).toEqual(['old']);
  });

  it('item 2: a worker of an older version is stopped and replaced', () => {
    const status = {
      tags: [{ tag: 'v1', phase: 'Succeeded' as const, version: 0, completionTime: '2024-01-01T00:00:00Z' }],
    };
    const plan = planPoolSync(
      spec,
      status,
      [
        { tag: 'v1', version: 0 },
        { tag: 'v2', version: 0 },
      ],
      [],
    );
    expect(plan.stop).toEqual(['v1']);
    expect(plan.start.map((t) => `${t.tag}@${t.version}`)).toEqual(['v1@1']);
  });

  it('item 1.3: a status of the same version without completionTime keeps the tag active', () => {
    const status = { tags: [{ tag: 'v2', phase: 'Pulling' as const, version: 0 }] };
    expect(planPoolSync(spec, status, [], []).active.map((t) => t.tag)).toEqual(['v1', 'v2']);
  });

  it('item 4: pool status lists stored statuses in spec order; nil when none', () => {
    const stored = new Map([
      ['v2', { tag: 'v2', phase: 'Pulling' as const }],
      ['v1', { tag: 'v1', phase: 'Failed' as const }],
    ]);
    expect(poolStatus(spec, stored)?.tags.map((t) => t.tag)).toEqual(['v1', 'v2']);
    expect(poolStatus(spec, new Map())).toBeUndefined();
  });
});

describe('§7.3 NodeImage status', () => {
  const spec: NodeImageSpec = {
    images: {
      a: { tags: [{ tag: 'v1', version: 1 }, { tag: 'v2' }] },
      b: { tags: [{ tag: 'x' }] },
    },
  };

  it('item 2: desired = spec tags; pool tags sorted; counted by phase; no imageStatuses when empty', () => {
    const st = buildNodeImageStatus(spec, {
      a: {
        tags: [
          { tag: 'v2', phase: 'Succeeded' },
          { tag: 'v1', phase: 'Pulling', version: 1 },
        ],
      },
      b: undefined,
    });
    expect(st).toEqual({
      desired: 3,
      succeeded: 1,
      failed: 0,
      pulling: 1,
      imageStatuses: {
        a: {
          tags: [
            { tag: 'v1', phase: 'Pulling', version: 1 },
            { tag: 'v2', phase: 'Succeeded' },
          ],
        },
      },
    });
    expect(buildNodeImageStatus(spec, {})).toEqual({ desired: 3, succeeded: 0, failed: 0, pulling: 0 });
  });

  it('item 4: still pulling when succeeded + failed < desired or a status version lags the spec', () => {
    const done = { desired: 1, succeeded: 1, failed: 0, pulling: 0 };
    const one: NodeImageSpec = { images: { a: { tags: [{ tag: 'v1', version: 1 }] } } };
    expect(
      isStillPulling(one, {
        ...done,
        imageStatuses: { a: { tags: [{ tag: 'v1', phase: 'Succeeded', version: 1 }] } },
      }),
    ).toBe(false);
    expect(
      isStillPulling(one, {
        ...done,
        imageStatuses: { a: { tags: [{ tag: 'v1', phase: 'Succeeded', version: 0 }] } },
      }),
    ).toBe(true);
    expect(isStillPulling(one, { desired: 1, succeeded: 0, failed: 0, pulling: 1 })).toBe(true);
  });

  it('item 4: requeue after 3 s + u·2 s while pulling or throttled, else 20 min + u·10 min', () => {
    expect(pullerRequeueMs(true, 0.5)).toBe(4_000);
    expect(pullerRequeueMs(false, 0.5)).toBe(25 * 60_000);
    expect(pullerRequeueMs(true, 0)).toBe(3_000);
  });

  it('item 3.2: token bucket 0.5 writes/s, burst 5', () => {
    let b: Parameters<typeof takeToken>[0];
    for (let i = 0; i < 5; i++) {
      const r = takeToken(b, 0, 0.5, 5);
      expect(r.ok).toBe(true);
      b = r.bucket;
    }
    expect(takeToken(b, 0, 0.5, 5).ok).toBe(false);
    expect(takeToken(b, 1_000, 0.5, 5).ok).toBe(false);
    expect(takeToken(b, 2_000, 0.5, 5).ok).toBe(true);
  });

  it('item 3.1: an unchanged status is skipped until 12 h + u·1 h after the last write', () => {
    const st = { desired: 0, succeeded: 0, failed: 0, pulling: 0 };
    const w = statusWriteDecision(st, {}, 0, 0.5);
    expect(w.decision).toBe('write');
    expect(w.state.forceWriteAtMs).toBe(12 * 3_600_000 + 1_800_000);
    expect(statusWriteDecision(st, w.state, 1_000, 0.5).decision).toBe('skip');
    expect(statusWriteDecision(st, w.state, 12.5 * 3_600_000, 0.5).decision).toBe('write');
    expect(statusWriteDecision({ ...st, desired: 1 }, w.state, 1_000, 0.5).decision).toBe('write');
  });

  it('item 3.2: a throttled write reports limited', () => {
    const state = { bucket: { tokens: 0, lastMs: 0 } };
    expect(statusWriteDecision({ desired: 1 }, state, 100, 0, DEFAULT_PULLER_TIMINGS).decision).toBe(
      'limited',
    );
  });
});
