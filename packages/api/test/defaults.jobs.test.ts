// setDefaults* of the job-like and node-side kinds, one `it` per defaulting rule, with frozen inputs.
import { describe, expect, it } from 'vitest';
import {
  type AdvancedCronJob,
  type BroadcastJob,
  type ContainerRecreateRequest,
  type ImageListPullJob,
  type ImagePullJob,
  type NodeImage,
  setDefaultsAdvancedCronJob,
  setDefaultsBroadcastJob,
  setDefaultsContainerRecreateRequest,
  setDefaultsImageListPullJob,
  setDefaultsImagePullJob,
  setDefaultsNodeImage,
} from '../src/index';
import { meta, podDefaults, template } from './fixtures';
import { deepFreeze } from './helpers';

describe('image pull jobs and NodeImage (docs/reference/daemon.md §3.3, §5.1, §6.1)', () => {
  const ipj = (extra: Record<string, unknown> = {}): ImagePullJob =>
    deepFreeze({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'ImagePullJob',
      metadata: meta,
      spec: { image: 'nginx', ...extra },
    }) as ImagePullJob;

  it('§3.3 ImagePullJob: Always, pullPolicy {600, 3}, IfNotPresent, finalizer on create', () => {
    const out = setDefaultsImagePullJob(ipj());
    expect(out.spec.completionPolicy).toEqual({ type: 'Always' });
    expect(out.spec.pullPolicy).toEqual({ timeoutSeconds: 600, backoffLimit: 3 });
    expect(out.spec.imagePullPolicy).toBe('IfNotPresent');
    expect(out.spec.parallelism).toBeUndefined();
    expect(out.metadata.finalizers).toEqual(['apps.kruise.io/deletion-protection']);
  });

  it('§3.3 ImagePullJob: the finalizer is added on create only', () => {
    const out = setDefaultsImagePullJob(ipj(), { old: ipj() });
    expect(out.metadata.finalizers).toBeUndefined();
    expect(out.spec.pullPolicy).toEqual({ timeoutSeconds: 600, backoffLimit: 3 });
  });

  it('§6.1 ImageListPullJob: as §3.3 but neither imagePullPolicy nor finalizer', () => {
    const input = deepFreeze({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'ImageListPullJob',
      metadata: meta,
      spec: { images: ['nginx', 'redis'], pullPolicy: { timeoutSeconds: 60 } },
    }) as ImageListPullJob;
    const out = setDefaultsImageListPullJob(input);
    expect(out.spec.completionPolicy).toEqual({ type: 'Always' });
    expect(out.spec.pullPolicy).toEqual({ timeoutSeconds: 60, backoffLimit: 3 });
    expect(out.spec.imagePullPolicy).toBeUndefined();
    expect(out.metadata.finalizers).toBeUndefined();
  });

  it('§5.1 item 2 NodeImage: createdAt now, pullPolicy {600, 3}, tags sorted in spec and status', () => {
    const input = deepFreeze({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'NodeImage',
      metadata: { name: 'node-1' },
      spec: {
        images: {
          nginx: {
            tags: [
              { tag: 'v2' },
              { tag: 'v1', createdAt: '2023-05-05T00:00:00Z', pullPolicy: { timeoutSeconds: 5 } },
            ],
          },
        },
      },
      status: {
        desired: 2,
        imageStatuses: {
          nginx: {
            tags: [
              { tag: 'v2', phase: 'Pulling' },
              { tag: 'v1', phase: 'Succeeded' },
            ],
          },
        },
      },
    }) as NodeImage;
    const out = setDefaultsNodeImage(input, { now: '2024-01-01T00:00:00.500Z' });
    expect(out.spec.images!.nginx.tags).toEqual([
      { tag: 'v1', createdAt: '2023-05-05T00:00:00Z', pullPolicy: { timeoutSeconds: 5, backoffLimit: 3 } },
      { tag: 'v2', createdAt: '2024-01-01T00:00:00Z', pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } },
    ]);
    expect(out.status!.imageStatuses!.nginx.tags.map((t) => t.tag)).toEqual(['v1', 'v2']);
    expect(setDefaultsNodeImage(input).spec.images!.nginx.tags[1].createdAt).toBeUndefined();
  });
});

describe('setDefaultsContainerRecreateRequest (docs/reference/daemon.md §8.3)', () => {
  const crr = deepFreeze({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'ContainerRecreateRequest',
    metadata: { name: 'r', namespace: 'default' },
    spec: { podName: 'p', containers: [{ name: 'app' }, { name: 'side' }] },
  }) as ContainerRecreateRequest;
  const pod = deepFreeze({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', uid: 'uid-1' },
    spec: {
      nodeName: 'node-a',
      terminationGracePeriodSeconds: 45,
      containers: [
        {
          name: 'app',
          image: 'a',
          ports: [{ containerPort: 8080 }],
          lifecycle: { preStop: { httpGet: { port: 8080, path: '/quit' } } },
        },
        { name: 'side', image: 'b', lifecycle: { preStop: { exec: { command: ['sleep', '1'] } } } },
      ],
    },
    status: {
      containerStatuses: [
        {
          name: 'app',
          containerID: 'containerd://aaa',
          restartCount: 2,
          image: 'a',
          imageID: '',
          ready: true,
        },
        {
          name: 'side',
          containerID: 'containerd://bbb',
          restartCount: 0,
          image: 'b',
          imageID: '',
          ready: true,
        },
      ],
    },
  });

  it('§8.3 strategy {} and failurePolicy Fail without a pod', () => {
    const out = setDefaultsContainerRecreateRequest(crr);
    expect(out.spec.strategy).toEqual({ failurePolicy: 'Fail' });
    expect(out.metadata.labels).toBeUndefined();
  });

  it('§8.3 with the pod: labels, grace period, preStop, ports only for httpGet, statusContext', () => {
    const out = setDefaultsContainerRecreateRequest(crr, { pod: pod as any });
    expect(out.metadata.labels).toEqual({
      'crr.apps.kruise.io/active': 'true',
      'crr.apps.kruise.io/node-name': 'node-a',
      'crr.apps.kruise.io/pod-uid': 'uid-1',
    });
    expect(out.spec.strategy).toEqual({ failurePolicy: 'Fail', terminationGracePeriodSeconds: 45 });
    expect(out.spec.containers).toEqual([
      {
        name: 'app',
        preStop: { httpGet: { port: 8080, path: '/quit' } },
        ports: [{ containerPort: 8080 }],
        statusContext: { containerID: 'containerd://aaa', restartCount: 2 },
      },
      {
        name: 'side',
        preStop: { exec: { command: ['sleep', '1'] } },
        statusContext: { containerID: 'containerd://bbb', restartCount: 0 },
      },
    ]);
  });

  it('§8.2 nothing changes on update (spec immutable)', () => {
    expect(setDefaultsContainerRecreateRequest(crr, { old: crr, pod: pod as any })).toEqual(crr);
  });
});

const acj = (apiVersion: string, spec: Record<string, unknown>): AdvancedCronJob =>
  deepFreeze({
    apiVersion,
    kind: 'AdvancedCronJob',
    metadata: meta,
    spec: { schedule: '0 * * * *', ...spec },
  }) as AdvancedCronJob;

describe('setDefaultsAdvancedCronJob (docs/reference/advancedcronjob.md AC1.3, AC1.4)', () => {
  it('AC1.3 items 3-4: Allow, paused false, history 3 and 1; no startingDeadlineSeconds/timeZone', () => {
    const out = setDefaultsAdvancedCronJob(
      acj('apps.kruise.io/v1alpha1', {
        template: { broadcastJobTemplate: { spec: { template: template() } } },
      }),
    );
    expect(out.spec).toMatchObject({
      concurrencyPolicy: 'Allow',
      paused: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
    expect(out.spec.startingDeadlineSeconds).toBeUndefined();
    expect(out.spec.timeZone).toBeUndefined();
  });

  it('AC1.3 item 1: pod defaults in jobTemplate and broadcastJobTemplate (restartPolicy Always too)', () => {
    const job = setDefaultsAdvancedCronJob(
      acj('apps.kruise.io/v1beta1', { template: { jobTemplate: { spec: { template: template() } } } }),
    );
    expect(job.spec.template.jobTemplate!.spec!.template.spec).toMatchObject(podDefaults);
    const bcj = setDefaultsAdvancedCronJob(
      acj('apps.kruise.io/v1beta1', {
        template: { broadcastJobTemplate: { spec: { template: template() } } },
      }),
    );
    expect(bcj.spec.template.broadcastJobTemplate!.spec.template.spec).toMatchObject(podDefaults);
  });

  it('AC1.3 item 1: TemplateNoDefaults switches pod defaults off', () => {
    const out = setDefaultsAdvancedCronJob(
      acj('apps.kruise.io/v1beta1', { template: { jobTemplate: { spec: { template: template() } } } }),
      { featureGates: { TemplateNoDefaults: true } },
    );
    expect(out.spec.template.jobTemplate!.spec!.template).toEqual(template());
  });

  it('AC1.3 item 3 + AC1.4: imageListPullJobTemplate → Replace and the template defaults', () => {
    const out = setDefaultsAdvancedCronJob(
      acj('apps.kruise.io/v1beta1', {
        template: { imageListPullJobTemplate: { spec: { images: ['nginx'] } } },
      }),
    );
    expect(out.spec.concurrencyPolicy).toBe('Replace');
    expect(out.spec.template.imageListPullJobTemplate!.spec).toEqual({
      images: ['nginx'],
      completionPolicy: { type: 'Always' },
      pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 },
      imagePullPolicy: 'IfNotPresent',
    });
  });

  it('AC1.4 quirk: a template that names completionPolicy.type gets none of the other defaults', () => {
    const out = setDefaultsAdvancedCronJob(
      acj('apps.kruise.io/v1beta1', {
        concurrencyPolicy: 'Forbid',
        template: {
          imageListPullJobTemplate: { spec: { images: ['nginx'], completionPolicy: { type: 'Always' } } },
        },
      }),
    );
    expect(out.spec.concurrencyPolicy).toBe('Forbid');
    expect(out.spec.template.imageListPullJobTemplate!.spec).toEqual({
      images: ['nginx'],
      completionPolicy: { type: 'Always' },
    });
  });
});

describe('setDefaultsBroadcastJob', () => {
  it('pod-template defaults, completionPolicy Always, parallelism unlimited, failurePolicy FailFast', () => {
    const input = deepFreeze({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'BroadcastJob',
      metadata: meta,
      spec: { template: template() },
    }) as BroadcastJob;
    const out = setDefaultsBroadcastJob(input);
    expect(out.spec.template.spec).toMatchObject(podDefaults);
    expect(out.spec.completionPolicy).toEqual({ type: 'Always' });
    expect(out.spec.parallelism).toBe(2147483647);
    expect(out.spec.failurePolicy).toEqual({ type: 'FailFast' });
  });
});
