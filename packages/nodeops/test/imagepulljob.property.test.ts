// A small world: one ImagePullJob, N NodeImages, and a fake daemon that reports pulls with random
// delays and outcomes. The job is reconciled at random times and its actions applied.
import type { ImagePullJob, ImagePullJobStatus, KubeObject, NodeImage } from '@kruise-ts/api';
import { applyActions } from '@kruise-ts/core/apply';
import { deepFreeze } from '@kruise-ts/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reconcileImagePullJob } from '../src/imagepulljob/reconcile';
import { ipj, nodeImage, T0_MS } from './fixtures';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

interface Daemon {
  /** Per node: seconds the daemon takes to start and to finish, and whether it succeeds. */
  startDelay: number[];
  pullTime: number[];
  succeeds: boolean[];
}

/** The fake daemon: for each tag owned by the job, report Pulling after a delay, then the outcome. */
function daemonStep(ni: NodeImage, i: number, d: Daemon, nowMs: number): NodeImage {
  const tag = ni.spec?.images?.nginx?.tags?.find((t) => t.tag === '1.25');
  if (!tag?.createdAt) return ni;
  const created = Date.parse(tag.createdAt);
  const v = tag.version ?? 0;
  let phase: 'Pulling' | 'Succeeded' | 'Failed' | undefined;
  if (nowMs >= created + (d.startDelay[i] + d.pullTime[i]) * 1000)
    phase = d.succeeds[i] ? 'Succeeded' : 'Failed';
  else if (nowMs >= created + d.startDelay[i] * 1000) phase = 'Pulling';
  if (!phase) return ni;
  const entry = {
    tag: '1.25',
    phase,
    version: v,
    ...(phase === 'Pulling' ? {} : { completionTime: iso(nowMs) }),
  };
  const old = ni.status?.imageStatuses?.nginx?.tags?.[0];
  if (old && old.version === v && old.phase === phase) return ni;
  if (old && old.version === v && old.phase !== 'Pulling') return ni;
  return { ...ni, status: { desired: 1, imageStatuses: { nginx: { tags: [entry] } } } };
}

/** In flight: the job owns the tag and the pull of that version has not finished. */
function inFlight(ni: NodeImage): boolean {
  const tag = ni.spec?.images?.nginx?.tags?.find((t) => t.tag === '1.25');
  if (!tag?.ownerReferences?.some((o) => o.uid === 'job-uid')) return false;
  const st = ni.status?.imageStatuses?.nginx?.tags?.find((t) => t.tag === '1.25');
  return !(st && st.version === tag.version && (st.phase === 'Succeeded' || st.phase === 'Failed'));
}

const world = fc.integer({ min: 1, max: 8 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    parallelism: fc.integer({ min: 1, max: 4 }),
    deadline: fc.option(fc.integer({ min: 600, max: 1500 }), { nil: undefined }),
    daemon: fc.record({
      startDelay: fc.array(fc.integer({ min: 0, max: 120 }), { minLength: n, maxLength: n }),
      pullTime: fc.array(fc.integer({ min: 1, max: 400 }), { minLength: n, maxLength: n }),
      succeeds: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    }),
    steps: fc.array(fc.integer({ min: 1, max: 120 }), { minLength: 10, maxLength: 60 }),
    seed: fc.integer(),
  }),
);

type World = {
  n: number;
  parallelism: number;
  deadline?: number;
  daemon: Daemon;
  steps: number[];
  seed: number;
};

function simulate(w: World, check: (job: ImagePullJob, nis: NodeImage[], nowMs: number) => void) {
  let objects: KubeObject[] = [
    ipj({
      parallelism: w.parallelism,
      completionPolicy: { type: 'Always', activeDeadlineSeconds: w.deadline },
    }),
    ...Array.from({ length: w.n }, (_, i) => nodeImage(`n${i}`)),
  ];
  let nowMs = T0_MS;
  for (const step of w.steps) {
    nowMs += step * 1000;
    objects = objects.map((o, i) =>
      o.kind === 'NodeImage' ? daemonStep(o as NodeImage, i - 1, w.daemon, nowMs) : o,
    );
    const job = objects.find((o) => o.kind === 'ImagePullJob') as ImagePullJob | undefined;
    if (!job) break;
    const nis = objects.filter((o) => o.kind === 'NodeImage') as NodeImage[];
    const r = reconcileImagePullJob(deepFreeze({ imagePullJob: job, nodeImages: nis, now: iso(nowMs) }), {
      seed: w.seed,
    });
    expect(r.errors).toEqual([]);
    objects = applyActions(objects, r.actions, iso(nowMs), { seed: 1 });
    const after = objects.find((o) => o.kind === 'ImagePullJob') as ImagePullJob | undefined;
    if (after) check(after, objects.filter((o) => o.kind === 'NodeImage') as NodeImage[], nowMs);
  }
}

describe('ImagePullJob properties', () => {
  it('the simulated world makes progress: parallelism is used up and the job completes', () => {
    const w: World = {
      n: 5,
      parallelism: 2,
      daemon: {
        startDelay: [1, 1, 1, 1, 1],
        pullTime: [30, 30, 30, 30, 30],
        succeeds: [true, true, false, true, true],
      },
      steps: Array.from({ length: 30 }, () => 10),
      seed: 3,
    };
    let maxInFlight = 0;
    let last: ImagePullJobStatus | undefined;
    simulate(w, (job, nis) => {
      maxInFlight = Math.max(maxInFlight, nis.filter(inFlight).length);
      last = job.status as ImagePullJobStatus;
    });
    expect(maxInFlight).toBe(2);
    expect(last).toMatchObject({
      desired: 5,
      succeeded: 4,
      failed: 1,
      failedNodes: ['n2'],
      message: 'job has completed',
    });
  });

  it('parallelism is never exceeded: NodeImages with an unfinished pull for the job ≤ parallelism', () => {
    fc.assert(
      fc.property(world, (w) => {
        simulate(w, (_job, nis) => {
          expect(nis.filter(inFlight).length).toBeLessThanOrEqual(w.parallelism);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('completion policy: never completed before the deadline unless every node finished; completed at or after it', () => {
    fc.assert(
      fc.property(world, (w) => {
        simulate(w, (job, _nis, nowMs) => {
          const s = job.status as ImagePullJobStatus;
          const start = Date.parse(s.startTime ?? iso(nowMs));
          const finished = (s.succeeded ?? 0) + (s.failed ?? 0) === s.desired;
          if (s.completionTime) {
            const done = Date.parse(s.completionTime);
            if (w.deadline !== undefined && done - start < w.deadline * 1000) expect(finished).toBe(true);
            if (w.deadline === undefined) expect(finished).toBe(true);
          } else if (w.deadline !== undefined) {
            expect(nowMs - start).toBeLessThan(w.deadline * 1000);
          }
        });
      }),
      { numRuns: 60 },
    );
  });
});
