// A small world for AdvancedCronJob: children run for random durations and finish successfully
// or not; the ACJ is reconciled at random times (and at its requeue times) and its actions applied.
import type { AdvancedCronJob, ConcurrencyPolicy, KubeObject } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyChild } from '../src/advancedcronjob/children';
import { reconcileAdvancedCronJob } from '../src/advancedcronjob/reconcile';
import { acj, T0_MS } from './fixtures';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

interface World {
  policy: ConcurrencyPolicy;
  schedule: string;
  successLimit: number;
  failedLimit: number;
  /** Per created child: run time in seconds and outcome. */
  runs: { seconds: number; ok: boolean }[];
  steps: number[];
}

const worldArb = fc.record({
  policy: fc.constantFrom<ConcurrencyPolicy>('Forbid', 'Replace', 'Allow'),
  schedule: fc.constantFrom('*/5 * * * *', '* * * * *', '@every 90s', '0,20,40 * * * *'),
  successLimit: fc.integer({ min: 0, max: 3 }),
  failedLimit: fc.integer({ min: 0, max: 2 }),
  runs: fc.array(fc.record({ seconds: fc.integer({ min: 10, max: 900 }), ok: fc.boolean() }), {
    minLength: 40,
    maxLength: 40,
  }),
  steps: fc.array(fc.integer({ min: 5, max: 400 }), { minLength: 20, maxLength: 60 }),
});

interface Child {
  obj: KubeObject;
  endsAt: number;
  ok: boolean;
}

/** Runs the world; `check` sees the children right after each reconcile's actions are applied. */
function simulate(w: World, check: (children: KubeObject[], created: number) => void): number {
  const obj: AdvancedCronJob = acj({
    schedule: w.schedule,
    concurrencyPolicy: w.policy,
    successfulJobsHistoryLimit: w.successLimit,
    failedJobsHistoryLimit: w.failedLimit,
  });
  let status = {};
  let children: Child[] = [];
  let created = 0;
  let nowMs = T0_MS;
  let requeueAt: number | undefined;
  for (const step of w.steps) {
    nowMs = requeueAt !== undefined && requeueAt < nowMs + step * 1000 ? requeueAt : nowMs + step * 1000;
    // Children finish on their own.
    children = children.map((c) =>
      c.obj.status && (c.obj.status as { conditions?: unknown[] }).conditions?.length
        ? c
        : nowMs >= c.endsAt
          ? {
              ...c,
              obj: {
                ...c.obj,
                status: {
                  ...(c.obj.status as object),
                  conditions: [{ type: c.ok ? 'Complete' : 'Failed', status: 'True' }],
                },
              },
            }
          : c,
    );
    const r = reconcileAdvancedCronJob(
      deepFreeze({
        advancedCronJob: { ...obj, status },
        children: children.map((c) => c.obj),
        now: iso(nowMs),
      }),
    );
    expect(r.errors).toEqual([]);
    for (const a of r.actions) {
      if (a.verb === 'updateStatus') status = a.status as object;
      if (a.verb === 'delete') children = children.filter((c) => c.obj.metadata.name !== a.target.name);
      if (a.verb === 'create') {
        const run = w.runs[created % w.runs.length];
        created++;
        const o = {
          ...a.object,
          metadata: { ...a.object.metadata, uid: `u${created}` },
          status: { startTime: iso(nowMs) },
        };
        children.push({ obj: o, endsAt: nowMs + run.seconds * 1000, ok: run.ok });
      }
    }
    requeueAt = r.requeueAfterSeconds === undefined ? undefined : nowMs + r.requeueAfterSeconds * 1000;
    check(
      children.map((c) => c.obj),
      created,
    );
  }
  return created;
}

const active = (children: KubeObject[]) => children.filter((c) => classifyChild('Job', c) === 'active');

describe('AdvancedCronJob properties', () => {
  it('concurrencyPolicy Forbid (and Replace) never leaves two children running', () => {
    fc.assert(
      fc.property(worldArb, (w) => {
        simulate(w, (children) => {
          if (w.policy !== 'Allow') expect(active(children).length).toBeLessThanOrEqual(1);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('history limits are respected after every reconcile', () => {
    fc.assert(
      fc.property(worldArb, (w) => {
        simulate(w, (children) => {
          expect(children.filter((c) => classifyChild('Job', c) === 'successful').length).toBeLessThanOrEqual(
            w.successLimit,
          );
          expect(children.filter((c) => classifyChild('Job', c) === 'failed').length).toBeLessThanOrEqual(
            w.failedLimit,
          );
        });
      }),
      { numRuns: 60 },
    );
  });

  it('the world makes progress: children are created at the slots, and Allow can run two at once', () => {
    const w: World = {
      policy: 'Allow',
      schedule: '* * * * *',
      successLimit: 3,
      failedLimit: 1,
      runs: [{ seconds: 150, ok: true }],
      steps: Array.from({ length: 10 }, () => 60),
    };
    let maxActive = 0;
    const created = simulate(w, (children) => {
      maxActive = Math.max(maxActive, active(children).length);
    });
    expect(created).toBeGreaterThanOrEqual(9);
    expect(maxActive).toBeGreaterThan(1);
  });
});
