// The simulator's batch/v1 Job approximation (src/kinds/job.ts): the pure reconcile first, then
// end to end in a simulation, alone and as the child of an AdvancedCronJob (docs/reference/advancedcronjob.md
// AC4 with a jobTemplate, AC5.1: a child Job is finished by its Complete/Failed condition).
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Job } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_JOB_RUN_SECONDS,
  isJobFinished,
  JOB_NAME_LABEL,
  JOB_RUN_SECONDS_ANNOTATION,
  jobRunSeconds,
  reconcileJob,
} from '../src/kinds/job';
import { createSimulation } from '../src/scenario/run';
import { cronJobOfJobs } from './jobFixtures';

const T0 = '2024-01-01T00:00:00Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString().replace('.000Z', 'Z');

const job = (spec: Partial<Job['spec']> = {}, extra: Partial<Job> = {}): Job => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'pi', namespace: 'default', uid: 'uid-pi' },
  spec: {
    template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5' }] } },
    ...spec,
  },
  ...extra,
});
const pod = (name: string, readySince?: string, extra: Partial<Pod['metadata']> = {}): Pod => ({
  metadata: { name, namespace: 'default', creationTimestamp: T0, ...extra },
  spec: { nodeName: 'node-1', containers: [] },
  status: readySince
    ? { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: readySince }] }
    : { phase: 'Pending' },
});
const verbs = (r: ReturnType<typeof reconcileJob>, verb: string) => r.actions.filter((a) => a.verb === verb);

describe('Job (approximation): reconcile', () => {
  it('creates min(parallelism, completions) pods with the job-name labels and a controller reference', () => {
    const r = reconcileJob(deepFreeze(job({ completions: 5, parallelism: 2 })), [], T0);
    const creates = verbs(r, 'create');
    expect(creates).toHaveLength(2);
    const p = creates[0]!.verb === 'create' ? creates[0]!.object : undefined;
    expect(p?.metadata.generateName).toBe('pi-');
    expect(p?.metadata.labels).toMatchObject({
      [JOB_NAME_LABEL]: 'pi',
      'job-name': 'pi',
      'controller-uid': 'uid-pi',
    });
    expect(p?.metadata.ownerReferences?.[0]).toMatchObject({
      apiVersion: 'batch/v1',
      kind: 'Job',
      uid: 'uid-pi',
      controller: true,
    });
    expect(r.status).toMatchObject({ startTime: T0, active: 2, ready: 0 });
  });

  it('no completions and no parallelism → one pod (Kubernetes defaults both to 1)', () => {
    expect(verbs(reconcileJob(job(), [], T0), 'create')).toHaveLength(1);
  });

  it(`a pod Ready for the run time (default ${DEFAULT_JOB_RUN_SECONDS} s) counts as succeeded and is deleted; the next one is created`, () => {
    const j = job({ completions: 3, parallelism: 2 }, { status: { startTime: T0, active: 2 } });
    // ready since 00:05: at 00:14 still running (requeued 1 s later), at 00:15 done
    const early = reconcileJob(deepFreeze(j), [pod('a', at(5)), pod('b', at(5))], at(14));
    expect(verbs(early, 'delete')).toHaveLength(0);
    expect(early.requeueAfterSeconds).toBe(1);
    const r = reconcileJob(deepFreeze(j), [pod('a', at(5)), pod('b', at(5))], at(15));
    expect(verbs(r, 'delete').map((a) => (a.verb === 'delete' ? a.target.name : ''))).toEqual(['a', 'b']);
    expect(verbs(r, 'create')).toHaveLength(1); // min(parallelism 2, 3 − 2 left) = 1
    expect(r.status).toMatchObject({ succeeded: 2, active: 1 });
    expect(r.actions[0]?.verb).toBe('updateStatus'); // the count is written before the pods go
  });

  it('succeeded reaches completions → SuccessCriteriaMet and Complete (CompletionsReached), completionTime, surplus pods deleted', () => {
    const j = job({ completions: 3, parallelism: 2 }, { status: { startTime: T0, succeeded: 2, active: 2 } });
    const r = reconcileJob(deepFreeze(j), [pod('c', at(20)), pod('d', at(40))], at(30));
    expect(r.status.succeeded).toBe(3);
    expect(r.status.completionTime).toBe(at(30));
    expect(r.status.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['SuccessCriteriaMet', 'True', 'CompletionsReached'],
      ['Complete', 'True', 'CompletionsReached'],
    ]);
    expect(verbs(r, 'delete')).toHaveLength(2); // c succeeded, d is surplus
    expect(verbs(r, 'create')).toHaveLength(0);
    expect(r.status.active).toBeUndefined(); // 0 is omitted, as omitempty
    expect(isJobFinished({ ...j, status: r.status })).toBe(true);
  });

  it('a finished Job creates nothing, and once its status is current writes nothing', () => {
    const j = job({}, { status: { succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] } });
    const r = reconcileJob(deepFreeze(j), [], at(100));
    expect(r.actions.filter((a) => a.verb !== 'updateStatus')).toEqual([]);
    expect(r.status.conditions).toEqual(j.status?.conditions);
    expect(reconcileJob(deepFreeze({ ...j, status: r.status }), [], at(200)).actions).toEqual([]);
  });

  it('activeDeadlineSeconds exceeded → Failed (DeadlineExceeded) and the running pods deleted', () => {
    const j = job({ activeDeadlineSeconds: 30 }, { status: { startTime: T0, active: 1 } });
    const before = reconcileJob(deepFreeze(j), [pod('a')], at(20));
    expect(before.requeueAfterSeconds).toBe(10);
    const r = reconcileJob(deepFreeze(j), [pod('a')], at(30));
    expect(r.status.conditions?.find((c) => c.type === 'Failed')).toMatchObject({
      status: 'True',
      reason: 'DeadlineExceeded',
    });
    expect(verbs(r, 'delete')).toHaveLength(1);
  });

  it('suspend: true deletes the running pods and sets Suspended', () => {
    const r = reconcileJob(deepFreeze(job({ suspend: true })), [pod('a', at(1))], at(5));
    expect(verbs(r, 'delete')).toHaveLength(1);
    expect(verbs(r, 'create')).toHaveLength(0);
    expect(r.status.conditions?.[0]).toMatchObject({ type: 'Suspended', status: 'True' });
  });

  it(`the annotation ${JOB_RUN_SECONDS_ANNOTATION} sets the run time; a bad value keeps the default`, () => {
    const a = (v: string) =>
      job({}, { metadata: { name: 'pi', annotations: { [JOB_RUN_SECONDS_ANNOTATION]: v } } });
    expect(jobRunSeconds(a('45'))).toBe(45);
    expect(jobRunSeconds(a('soon'))).toBe(DEFAULT_JOB_RUN_SECONDS);
    expect(jobRunSeconds(a('-1'))).toBe(DEFAULT_JOB_RUN_SECONDS);
  });
});

describe('Job (approximation): in a simulation', () => {
  it('completions 3, parallelism 2: pods run, succeed, and the Job completes with 3 succeeded', () => {
    const sim = createSimulation([job({ completions: 3, parallelism: 2 }) as never], { seed: 1 });
    let most = 0;
    const done = sim.runUntil(
      (s) => {
        most = Math.max(most, s.list('Pod').filter((p) => !p.metadata.deletionTimestamp).length);
        return isJobFinished(s.get('Job', 'pi', 'default', 'batch/v1') as unknown as Job);
      },
      { timeoutMs: 120_000 },
    );
    expect(done).toBeTruthy();
    const j = sim.get('Job', 'pi', 'default', 'batch/v1') as unknown as Job;
    expect(j.status?.succeeded).toBe(3);
    expect(j.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True')).toBe(true);
    expect(most).toBeLessThanOrEqual(2); // never more than parallelism at a time
    sim.advance(60_000);
    expect(sim.list('Pod')).toEqual([]); // finished pods do not hold node capacity
  });

  it('AC4/AC5.1: an AdvancedCronJob with a jobTemplate creates a Job each minute, which completes', () => {
    const acj = cronJobOfJobs('hello', { namespace: 'default' });
    const sim = createSimulation([acj as never], { seed: 1 });
    sim.advance(150_000);
    const jobs = sim.list('Job', 'default', 'batch/v1') as unknown as Job[];
    expect(jobs.map((j) => j.metadata?.name)).toEqual(['hello-1704067260', 'hello-1704067320']);
    expect(jobs.every((j) => isJobFinished(j) && j.status?.succeeded === 1)).toBe(true);
    const status = sim.get('AdvancedCronJob', 'hello', 'default')?.status as {
      active?: unknown[];
      lastScheduleTime?: string;
    };
    expect(status.lastScheduleTime).toBe('2024-01-01T00:02:00Z');
    expect(status.active ?? []).toEqual([]);
  });
});
