import type { AdvancedCronJob, KubeObject } from '@kruise-ts/api';
import type { CreateAction, DeleteAction } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import {
  advancedCronJobForChildEvent,
  classifyChild,
  newChildForSlot,
} from '../src/advancedcronjob/children';
import { reconcileAdvancedCronJob } from '../src/advancedcronjob/reconcile';
import { acj, acjChild, ilpjTemplate } from './fixtures';

const D = '2025-10-10';
const t = (hm: string) => `${D}T${hm}:00Z`;
const run = (
  obj: AdvancedCronJob,
  children: KubeObject[],
  now: string,
  opts: Parameters<typeof reconcileAdvancedCronJob>[1] = {},
) => reconcileAdvancedCronJob(deepFreeze({ advancedCronJob: obj, children, now }), opts);
const created = (r: ReturnType<typeof run>) =>
  r.actions.filter((a): a is CreateAction => a.verb === 'create').map((a) => a.object);
const deleted = (r: ReturnType<typeof run>) =>
  r.actions.filter((a): a is DeleteAction => a.verb === 'delete').map((a) => a.target.name);
const outcome = (r: ReturnType<typeof run>) => (r.controllerState as { outcome: string }).outcome;
const COMPLETE = { conditions: [{ type: 'Complete', status: 'True' }] };
const FAILED = { conditions: [{ type: 'Failed', status: 'True' }] };
const nightly = (spec: Partial<AdvancedCronJob['spec']> = {}) => acj(spec, t('09:00'));

describe('§7 worked examples', () => {
  it('E1 09:00:00: no children, nothing due, status {type: Job}, requeue after 5 min', () => {
    const r = run(nightly(), [], t('09:00'));
    expect(r.status).toEqual({ type: 'Job' });
    expect(r.actions.map((a) => a.verb)).toEqual(['updateStatus']);
    expect(r.requeueAfterSeconds).toBe(300);
  });
  it('E1 09:05:00: Job nightly-1760087100 with scheduled-at 2025-10-10T09:05:00Z and the owner reference', () => {
    const r = run({ ...nightly(), status: { type: 'Job' } }, [], t('09:05'));
    expect(r.actions.map((a) => a.verb)).toEqual(['create']);
    expect(created(r)[0]).toMatchObject({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: 'nightly-1760087100',
        namespace: 'default',
        annotations: { 'apps.kruise.io/scheduled-at': '2025-10-10T09:05:00Z' },
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1beta1',
            kind: 'AdvancedCronJob',
            name: 'nightly',
            uid: 'acj-uid',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
    });
    expect(r.requeueAfterSeconds).toBe(300);
  });
  it('E1 09:10:00: the finished Job sets lastScheduleTime, no active, and the next Job starts', () => {
    const r = run(
      { ...nightly(), status: { type: 'Job' } },
      [acjChild('Job', t('09:05'), COMPLETE)],
      t('09:10'),
    );
    expect(r.status).toEqual({ type: 'Job', lastScheduleTime: t('09:05') });
    expect(created(r).map((o) => o.metadata.name)).toEqual(['nightly-1760087400']);
  });
  it('E1 with Allow, a still-running Job is listed in active and the next Job starts anyway', () => {
    const running = acjChild('Job', t('09:05'), {});
    const r = run(nightly(), [running], t('09:10'));
    expect(r.status.active).toEqual([
      {
        kind: 'Job',
        apiVersion: 'batch/v1',
        namespace: 'default',
        name: 'nightly-1760087100',
        uid: 'child-1760087100',
        resourceVersion: '7',
      },
    ]);
    expect(created(r)).toHaveLength(1);
  });
  it('E2 ImageListPullJob template, Replace: history cleanup, replace the active child, create the 09:10 child', () => {
    const obj = nightly({
      template: ilpjTemplate(),
      concurrencyPolicy: 'Replace',
      startingDeadlineSeconds: 360,
      successfulJobsHistoryLimit: 2,
      failedJobsHistoryLimit: 1,
    });
    const ilpjChild = (slot: string, d: number, s: number, c: number, done: boolean) => {
      const k = acjChild('ImageListPullJob', t(slot), {
        startTime: t(slot),
        desired: d,
        succeeded: s,
        completed: c,
        ...(done ? { completionTime: t(slot) } : {}),
      });
      return k;
    };
    const kids = [
      ilpjChild('08:40', 3, 3, 3, true),
      ilpjChild('08:45', 2, 1, 2, true),
      ilpjChild('08:50', 2, 1, 2, true),
      ilpjChild('08:55', 2, 2, 2, true),
      ilpjChild('09:00', 2, 2, 2, true),
      ilpjChild('09:05', 2, 0, 1, false),
    ];
    const r = run(obj, kids, t('09:10'));
    expect(r.status).toMatchObject({
      type: 'ImageListPullJob',
      lastScheduleTime: t('09:05'),
      active: [{ name: 'nightly-1760087100' }],
    });
    expect(r.actions.map((a) => a.verb)).toEqual(['updateStatus', 'delete', 'delete', 'delete', 'create']);
    expect(deleted(r)).toEqual(['nightly-1760085900', 'nightly-1760085600', 'nightly-1760087100']); // 08:45, 08:40, then Replace 09:05
    expect(created(r)[0]).toMatchObject({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'ImageListPullJob',
      metadata: { name: 'nightly-1760087400' },
      spec: { images: ['nginx:1.25'] },
    });
  });
  it('E3 Forbid with a long run: blocked slots are not recorded; at 11:41 the 101st missed slot stops the ACJ', () => {
    const obj = acj({ schedule: '* * * * *', concurrencyPolicy: 'Forbid' }, t('09:59'));
    const long = acjChild('Job', t('10:00'), {});
    const blocked = run(obj, [long], t('10:01'));
    expect(outcome(blocked)).toBe('ForbidBlocked');
    expect(blocked.status.lastScheduleTime).toBe(t('10:00'));
    expect(blocked.requeueAfterSeconds).toBe(60);
    expect(outcome(run(obj, [long], t('11:40')))).toBe('ForbidBlocked');
    const stop = run(obj, [long], t('11:41'));
    expect(outcome(stop)).toBe('TooManyMissed');
    expect(stop.requeueAfterSeconds).toBeUndefined();
    expect(outcome(run(obj, [acjChild('Job', t('10:00'), COMPLETE)], t('12:30')))).toBe('TooManyMissed');
    expect(
      outcome(
        run(
          { ...obj, spec: { ...obj.spec, startingDeadlineSeconds: 30 } },
          [acjChild('Job', t('10:00'), COMPLETE)],
          '2025-10-10T12:30:10Z',
        ),
      ),
    ).toBe('Created');
  });
  it('E4 history that runs out: with no child left, earliest falls back to the creation time', () => {
    const obj = acj({ schedule: '* * * * *', successfulJobsHistoryLimit: 0 }, t('09:00'));
    const again = run(obj, [], '2025-10-10T09:30:30Z');
    expect(created(again).map((o) => o.metadata.annotations?.['apps.kruise.io/scheduled-at'])).toEqual([
      t('09:30'),
    ]);
    expect(outcome(run(obj, [], '2025-10-10T10:41:30Z'))).toBe('TooManyMissed');
  });
});

describe('§4 reconcile rules', () => {
  it('AC4.1 kind: jobTemplate → Job, imageListPullJobTemplate → ImageListPullJob, else BroadcastJob', () => {
    expect(
      run(nightly({ template: ilpjTemplate(), concurrencyPolicy: 'Replace' }), [], t('09:00')).status.type,
    ).toBe('ImageListPullJob');
    const bj = nightly({
      template: {
        broadcastJobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'x' }] } } } },
      },
    });
    expect(run(bj, [], t('09:00')).status.type).toBe('BroadcastJob');
  });
  it('AC4.1 no template at all: nothing is created (without validation)', () => {
    const r = run({ ...nightly({ template: {} }), status: { type: 'BroadcastJob' } }, [], t('09:05'), {
      skipValidation: true,
    });
    expect(r.actions).toEqual([]);
    expect(outcome(r)).toBe('NoTemplate');
    expect(run(nightly({ template: {} }), [], t('09:05')).errors).toHaveLength(1);
  });
  it('AC4.2 children: controller owner AdvancedCronJob by name (not UID); BroadcastJobs only through v1beta1', () => {
    const job = acjChild('Job', t('09:05'), {});
    const alpha = {
      ...job,
      metadata: {
        ...job.metadata,
        name: 'a',
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'AdvancedCronJob',
            name: 'nightly',
            uid: 'old',
            controller: true,
          },
        ],
      },
    };
    const other = {
      ...job,
      metadata: {
        ...job.metadata,
        name: 'b',
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1beta1',
            kind: 'AdvancedCronJob',
            name: 'x',
            uid: 'acj-uid',
            controller: true,
          },
        ],
      },
    };
    expect(run(nightly(), [alpha, other], t('09:06')).status.active?.map((a) => a.name)).toEqual(['a']);
    const bj = nightly({
      template: {
        broadcastJobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'x' }] } } } },
      },
    });
    const bjAlpha = { ...acjChild('BroadcastJob', t('09:05'), {}), metadata: { ...alpha.metadata } };
    expect(run(bj, [bjAlpha], t('09:06')).status.active).toBeUndefined();
  });
  it('AC4.4 lastScheduleTime skips a missing or bad annotation; the child still counts', () => {
    const bad = acjChild('Job', t('09:05'), {});
    bad.metadata.annotations = { 'apps.kruise.io/scheduled-at': 'yesterday' };
    const r = run(nightly(), [bad], t('09:06'));
    expect(r.status.lastScheduleTime).toBeUndefined();
    expect(r.status.active).toHaveLength(1);
  });
  it('AC4.5 an unchanged status is not written again', () => {
    const r = run({ ...nightly(), status: { type: 'Job' } }, [], t('09:01'));
    expect(r.actions).toEqual([]);
  });
  it('AC4.6 cleanup: children without startTime first, then by startTime; ties by name', () => {
    const kid = (slot: string, start?: string) =>
      acjChild('Job', t(slot), { ...COMPLETE, ...(start ? { startTime: start } : {}) });
    const r = run(
      nightly({ successfulJobsHistoryLimit: 1 }),
      [kid('08:00', t('08:30')), kid('08:10', t('08:20')), kid('08:20')],
      t('09:01'),
    );
    expect(deleted(r)).toEqual(['nightly-1760084400', 'nightly-1760083800']);
  });
  it('AC4.7 paused: cleanup still runs, nothing created, no requeue', () => {
    const r = run(
      nightly({ paused: true, failedJobsHistoryLimit: 0 }),
      [acjChild('Job', t('08:00'), FAILED)],
      t('09:05'),
    );
    expect(r.actions.map((a) => a.verb)).toEqual(['updateStatus', 'delete']);
    expect(r.requeueAfterSeconds).toBeUndefined();
  });
  it('AC4.8 item 1: an unparsable schedule ends with no requeue and no error (controller path)', () => {
    const r = run({ ...nightly({ schedule: 'nope' }), status: { type: 'Job' } }, [], t('09:05'), {
      skipValidation: true,
    });
    expect(r).toMatchObject({ actions: [], errors: [] });
    expect(r.requeueAfterSeconds).toBeUndefined();
    expect(outcome(r)).toBe('UnparsableSchedule');
  });
  it('AC4.8 only one child per reconcile, for the latest missed slot', () => {
    const r = run({ ...nightly(), status: { type: 'Job' } }, [], t('09:27'));
    expect(created(r).map((o) => o.metadata.name)).toEqual([`nightly-${Date.parse(t('09:25')) / 1000}`]);
    expect(r.requeueAfterSeconds).toBe(180);
  });
  it('AC4.9 startingDeadlineSeconds 0: no child is ever created', () => {
    expect(created(run(nightly({ startingDeadlineSeconds: 0 }), [], t('09:05')))).toEqual([]);
  });
  it('AC4.10 Forbid with an active child requeues at next; Replace deletes the active children first', () => {
    const running = acjChild('Job', t('09:05'), {});
    const f = run(nightly({ concurrencyPolicy: 'Forbid' }), [running], t('09:10'));
    expect(created(f)).toEqual([]);
    expect(f.requeueAfterSeconds).toBe(300);
    const r = run(nightly({ concurrencyPolicy: 'Replace' }), [running], t('09:10'));
    expect(r.actions.map((a) => a.verb)).toEqual(['updateStatus', 'delete', 'create']);
  });
  it('AC4.11 child metadata: template labels and annotations copied, scheduled-at replaced, name etc. dropped', () => {
    const obj = nightly({
      template: {
        jobTemplate: {
          metadata: {
            name: 'x',
            generateName: 'y',
            labels: { a: '1' },
            annotations: { b: '2', 'apps.kruise.io/scheduled-at': 'old' },
            finalizers: ['f'],
          },
          spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } },
        },
      },
    });
    const child = newChildForSlot(obj, Date.parse(t('09:05')));
    expect(child?.metadata).toEqual({
      name: 'nightly-1760087100',
      namespace: 'default',
      labels: { a: '1' },
      annotations: { b: '2', 'apps.kruise.io/scheduled-at': t('09:05') },
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'AdvancedCronJob',
          name: 'nightly',
          uid: 'acj-uid',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    });
    expect(child?.spec).toEqual(obj.spec.template.jobTemplate?.spec);
  });
  it('AC4.13 a schedule with a zone: slots follow the zone, names and annotations the instant', () => {
    const r = run(
      acj({ schedule: '0 10 * * *', timeZone: 'Asia/Shanghai' }, '2022-09-05T00:00:00Z'),
      [],
      '2022-09-06T02:00:30Z',
    );
    expect(created(r)[0].metadata.annotations?.['apps.kruise.io/scheduled-at']).toBe('2022-09-06T02:00:00Z');
    expect(r.requeueAfterSeconds).toBe(86400 - 30);
  });
  it('AC6.2 a deleting ACJ is reconciled like any other', () => {
    const obj = { ...nightly(), status: { type: 'Job' as const } };
    obj.metadata = { ...obj.metadata, deletionTimestamp: t('09:04') };
    expect(created(run(obj, [], t('09:05')))).toHaveLength(1);
  });
});

describe('§5 when a child is finished', () => {
  it('AC5.1 Job: the first Complete/Failed condition with status True decides; interim conditions stay active', () => {
    expect(classifyChild('Job', acjChild('Job', t('09:00'), COMPLETE))).toBe('successful');
    expect(
      classifyChild(
        'Job',
        acjChild('Job', t('09:00'), {
          conditions: [
            { type: 'Failed', status: 'True' },
            { type: 'Complete', status: 'True' },
          ],
        }),
      ),
    ).toBe('failed');
    expect(
      classifyChild(
        'Job',
        acjChild('Job', t('09:00'), {
          conditions: [
            { type: 'SuccessCriteriaMet', status: 'True' },
            { type: 'Complete', status: 'False' },
          ],
        }),
      ),
    ).toBe('active');
  });
  it('AC5.2 BroadcastJob: the same test; phase is not looked at', () => {
    expect(classifyChild('BroadcastJob', acjChild('BroadcastJob', t('09:00'), { phase: 'Completed' }))).toBe(
      'active',
    );
    expect(classifyChild('BroadcastJob', acjChild('BroadcastJob', t('09:00'), FAILED))).toBe('failed');
  });
  it('AC5.3 ImageListPullJob: finished with completionTime; failed unless succeeded == desired', () => {
    expect(
      classifyChild(
        'ImageListPullJob',
        acjChild('ImageListPullJob', t('09:00'), { desired: 2, succeeded: 2 }),
      ),
    ).toBe('active');
    expect(
      classifyChild(
        'ImageListPullJob',
        acjChild('ImageListPullJob', t('09:00'), { desired: 2, succeeded: 2, completionTime: t('09:01') }),
      ),
    ).toBe('successful');
    expect(
      classifyChild(
        'ImageListPullJob',
        acjChild('ImageListPullJob', t('09:00'), { desired: 2, succeeded: 1, completionTime: t('09:01') }),
      ),
    ).toBe('failed');
  });
});

describe('§6 triggers', () => {
  it('AC6.1 BroadcastJob / ImageListPullJob create and update events enqueue the owner; deletes and Jobs do not', () => {
    const ilpjKid = acjChild('ImageListPullJob', t('09:00'), {});
    expect(advancedCronJobForChildEvent(ilpjKid, 'modified')).toEqual({
      namespace: 'default',
      name: 'nightly',
    });
    expect(advancedCronJobForChildEvent(ilpjKid, 'deleted')).toBeUndefined();
    expect(advancedCronJobForChildEvent(acjChild('Job', t('09:00'), {}), 'added')).toBeUndefined();
  });
});
