import type { ImageListPullJob, ImagePullJob } from '@kruise-ts/api';
import type { CreateAction } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { listJobTemplateHash, reconcileImageListPullJob } from '../src/imagelistpulljob/reconcile';
import { at, ilpj, T0, verbs } from './fixtures';

function child(
  image: string,
  status: ImagePullJob['status'],
  hash: string | undefined,
  name = `list-${image}`,
): ImagePullJob {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'ImagePullJob',
    metadata: {
      name,
      namespace: 'default',
      uid: `${name}-uid`,
      labels: hash === undefined ? {} : { 'controller-revision-hash': hash },
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'ImageListPullJob',
          name: 'list',
          uid: 'list-uid',
          controller: true,
        },
      ],
    },
    spec: {
      image,
      completionPolicy: { type: 'Always' },
      pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 },
    },
    status,
  };
}
const labelled = (job: ImageListPullJob) => ({
  ...job,
  metadata: { ...job.metadata, labels: { 'controller-revision-hash': listJobTemplateHash(job) } },
});
const run = (job: ImageListPullJob, children: ImagePullJob[], now = T0) =>
  reconcileImageListPullJob(deepFreeze({ imageListPullJob: job, imagePullJobs: children, now }));

describe('§6.2 ImageListPullJob reconcile', () => {
  it('6.2.1 the template hash is patched onto the controller-revision-hash label', () => {
    const r = run(ilpj(['nginx']), []);
    expect(r.actions[0]).toMatchObject({
      verb: 'patch',
      patch: { metadata: { labels: { 'controller-revision-hash': listJobTemplateHash(ilpj(['nginx'])) } } },
    });
    expect(listJobTemplateHash(ilpj(['a']))).toBe(listJobTemplateHash(ilpj(['b', 'c'])));
    expect(listJobTemplateHash(ilpj(['a'], { parallelism: 2 }))).not.toBe(listJobTemplateHash(ilpj(['a'])));
  });
  it('6.2.2 completed: deleted after ttlSecondsAfterFinished, requeued before', () => {
    const done = (ttl: number) =>
      labelled({
        ...ilpj(['a'], { completionPolicy: { type: 'Always', ttlSecondsAfterFinished: ttl } }),
        status: { desired: 1, completionTime: at(-30) },
      });
    expect(run(done(100), []).requeueAfterSeconds).toBe(70);
    expect(run(done(30), []).actions.map((a) => a.reason)).toEqual(['TTLExpired']);
  });
  it('6.2.4/6.2.6 a child per image: generateName, hash label, controller owner, image and template', () => {
    const job = labelled(ilpj(['nginx', 'redis'], { parallelism: 2 }));
    const creates = verbs(run(job, []).actions, 'create') as CreateAction[];
    expect(creates.map((c) => (c.object.spec as ImagePullJob['spec']).image)).toEqual(['nginx', 'redis']);
    expect(creates[0].object).toMatchObject({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'ImagePullJob',
      metadata: {
        generateName: 'list-',
        namespace: 'default',
        labels: { 'controller-revision-hash': listJobTemplateHash(job) },
        ownerReferences: [{ kind: 'ImageListPullJob', name: 'list', uid: 'list-uid', controller: true }],
      },
      spec: {
        image: 'nginx',
        parallelism: 2,
        completionPolicy: { type: 'Always' },
        pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 },
      },
    });
    expect(
      run(job, [])
        .actions.filter((a) => a.verb === 'event')
        .map((a) => (a.verb === 'event' ? a.message : '')),
    ).toEqual(['Create 2 ImagePullJob']);
  });
  it('6.2.6 inconsistent children are replaced; children of removed images are deleted', () => {
    const job = labelled(ilpj(['nginx']));
    const h = listJobTemplateHash(job);
    const r = run(job, [child('nginx', undefined, 'stale'), child('redis', undefined, h)]);
    expect(
      r.actions
        .filter((a) => a.verb !== 'event' && a.verb !== 'updateStatus')
        .map((a) => `${a.verb}:${a.reason}`),
    ).toEqual(['create:CreateImagePullJob', 'delete:DeleteImagePullJob', 'delete:DeleteImagePullJob']);
    expect(
      run(job, [child('nginx', undefined, h)]).actions.filter(
        (a) => a.verb === 'create' || a.verb === 'delete',
      ),
    ).toEqual([]);
  });
  it('6.2.6 a child without hash label is consistent when its template is identical', () => {
    const job = labelled(ilpj(['nginx']));
    expect(
      run(job, [child('nginx', undefined, undefined)]).actions.filter((a) => a.verb === 'create'),
    ).toEqual([]);
  });
  it('6.2.4 deleting children and children of other owners are not children', () => {
    const job = labelled(ilpj(['nginx']));
    const h = listJobTemplateHash(job);
    const live = child('nginx', undefined, h);
    const deleting = { ...live, metadata: { ...live.metadata, deletionTimestamp: T0 } };
    const foreign = child('nginx', undefined, h, 'foreign');
    (foreign.metadata as { ownerReferences?: unknown }).ownerReferences = [
      {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'ImageListPullJob',
        name: 'x',
        uid: 'x',
        controller: true,
      },
    ];
    expect(verbs(run(job, [deleting, foreign]).actions, 'create')).toHaveLength(1);
  });
  it('6.2.5 status over children with a startTime; completes when every child completed', () => {
    const job = labelled(ilpj(['a', 'b', 'c']));
    const h = listJobTemplateHash(job);
    const r = run(job, [
      child('a', { startTime: T0, desired: 3, succeeded: 3, failed: 0, active: 0 }, h),
      child('b', { startTime: T0, desired: 2, succeeded: 1, failed: 1, active: 0 }, h),
      child('c', { desired: 0 }, h),
    ]);
    expect(r.status).toEqual({
      startTime: T0,
      desired: 3,
      active: 0,
      completed: 2,
      succeeded: 1,
      failedImageStatuses: [
        {
          imagePullJob: 'list-b',
          name: 'b',
          message: "Please check for details which nodes failed by 'kubectl get ImagePullJob list-b'.",
        },
      ],
    });
    const all = run(job, [
      child('a', { startTime: T0, desired: 3, succeeded: 3, failed: 0 }, h),
      child('b', { startTime: T0, desired: 2, succeeded: 1, failed: 1 }, h),
      child('c', { startTime: T0, desired: 1, succeeded: 0, failed: 0, active: 1 }, h),
    ]);
    expect(all.status).toMatchObject({ active: 1, completed: 2 });
    const done = run(job, [
      child('a', { startTime: T0, desired: 3, succeeded: 3 }, h),
      child('b', { startTime: T0, desired: 2, succeeded: 1, failed: 1 }, h),
      child('c', { startTime: T0, desired: 0 }, h),
    ]);
    expect(done.status).toMatchObject({ completed: 3, succeeded: 2, completionTime: T0 });
    expect(verbs(done.actions, 'updateStatus')).toHaveLength(1);
  });
  it('6.2.5 a Never list job never completes', () => {
    const job = labelled(ilpj(['a'], { completionPolicy: { type: 'Never' } }));
    const r = run(job, [child('a', { startTime: T0, desired: 1, succeeded: 1 }, listJobTemplateHash(job))]);
    expect(r.status.completionTime).toBeUndefined();
  });
  it('6.2.7 an unchanged status is not written', () => {
    const job = labelled(ilpj(['a']));
    const h = listJobTemplateHash(job);
    const kids = [child('a', { startTime: T0, desired: 2, succeeded: 0, active: 1 }, h)];
    const first = run(job, kids);
    expect(run({ ...job, status: first.status }, kids, at(10)).actions).toEqual([]);
  });
});
