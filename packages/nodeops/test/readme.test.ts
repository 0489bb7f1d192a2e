// The README's snippet, kept runnable.
import type { AdvancedCronJob, ImageListPullJob, ImagePullJob, KubeObject, NodeImage } from '@kruise-ts/api';
import type { UpdateAction } from '@kruise-ts/core';
import { applyActions } from '@kruise-ts/core/apply';
import { describe, expect, it } from 'vitest';
import { reconcileAdvancedCronJob, reconcileImageListPullJob, reconcileImagePullJob } from '../src/index';

describe('README example: scheduled image pre-warm', () => {
  it('an ACJ slot creates an ImageListPullJob, which creates one ImagePullJob per image, which spreads within parallelism', () => {
    const prewarm: AdvancedCronJob = {
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'AdvancedCronJob',
      metadata: {
        name: 'prewarm',
        namespace: 'default',
        uid: 'acj-1',
        creationTimestamp: '2025-10-10T01:00:00Z',
      },
      spec: {
        schedule: '0 2 * * *',
        timeZone: 'Asia/Shanghai',
        concurrencyPolicy: 'Replace',
        template: {
          imageListPullJobTemplate: {
            spec: {
              images: ['nginx:1.25', 'redis:7'],
              parallelism: 2,
              completionPolicy: { type: 'Always', activeDeadlineSeconds: 3600 },
            },
          },
        },
      },
    };
    const nodeImages: KubeObject[] = ['node-a', 'node-b', 'node-c'].map((name) => ({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'NodeImage',
      metadata: { name },
      spec: {},
    }));

    let now = '2025-10-10T18:00:05Z';
    const cron = reconcileAdvancedCronJob({ advancedCronJob: prewarm, children: [], now });
    expect(cron.actions.map((a) => `${a.verb} ${a.reason}`)).toEqual([
      'updateStatus UpdateStatus',
      'create CreateImageListPullJob',
    ]);
    expect(cron.requeueAfterSeconds).toBe(86395);

    let world = applyActions([prewarm, ...nodeImages], cron.actions, now, { seed: 1 });
    const list = world.find((o) => o.kind === 'ImageListPullJob') as ImageListPullJob;
    expect(list.metadata.name).toBe('prewarm-1760119200');
    const lr = reconcileImageListPullJob({ imageListPullJob: list, imagePullJobs: [], now });
    world = applyActions(world, lr.actions, now, { seed: 1 });
    expect(world.filter((o) => o.kind === 'ImagePullJob')).toHaveLength(2);

    const nginxJob = world.find(
      (o) => o.kind === 'ImagePullJob' && (o as ImagePullJob).spec.image === 'nginx:1.25',
    ) as ImagePullJob;
    now = '2025-10-10T18:00:06Z';
    const jr = reconcileImagePullJob({
      imagePullJob: nginxJob,
      nodeImages: world.filter((o) => o.kind === 'NodeImage') as NodeImage[],
      now,
    });
    expect(
      jr.actions.filter((a): a is UpdateAction => a.verb === 'update').map((a) => a.object.metadata.name),
    ).toEqual(['node-a', 'node-b']);
    expect(jr.status.message).toBe('job is running, progress 0.0%');
  });
});
