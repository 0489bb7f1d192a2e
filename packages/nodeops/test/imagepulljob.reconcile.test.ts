import type { ImagePullJob, NodeImage } from '@kruise-ts/api';
import { createRng, type UpdateAction } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Namespace, Secret } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { reconcileImagePullJob } from '../src/imagepulljob/reconcile';
import { releaseSecretCopies, syncPullSecrets } from '../src/imagepulljob/secrets';
import { addJobToNodeImage } from '../src/imagepulljob/spread';
import {
  calculateImagePullJobStatus,
  classifyNodeImage,
  tagPullPolicyForJob,
} from '../src/imagepulljob/status';
import {
  getNodeImagesForJob,
  imagePullJobsForNodeImageEvent,
  imagePullJobsForPodEvent,
  imagePullJobsForSecretEvent,
} from '../src/imagepulljob/targets';
import { deleteWorkloadImagePullJobs, newWorkloadImagePullJob } from '../src/imagepulljob/workload';
import { at, ipj, nodeImage, nodeImageWithTag, pod, T0, T0_MS, verbs } from './fixtures';

const names = (l: NodeImage[]) => l.map((n) => n.metadata.name);
const run = (
  job: ImagePullJob,
  nodeImages: NodeImage[],
  now = T0,
  extra: Partial<Parameters<typeof reconcileImagePullJob>[0]> = {},
) => reconcileImagePullJob(deepFreeze({ imagePullJob: job, nodeImages, now, ...extra }), { seed: 7 });
const updatedNodeImages = (actions: ReturnType<typeof run>['actions']) =>
  (verbs(actions, 'update') as UpdateAction[])
    .filter((a) => a.object.kind === 'NodeImage')
    .map((a) => a.object as NodeImage);

describe('§4.1 which NodeImages a job targets', () => {
  const nis = [
    nodeImage('n3', { zone: 'b' }),
    nodeImage('n1', { zone: 'a' }),
    nodeImage('n2', { zone: 'a' }),
  ];
  it('4.1.1 podSelector: the nodes of active, scheduled matching pods, each once; missing NodeImages skipped', () => {
    const pods = [
      pod('p1', 'n2'),
      pod('p2', 'n2'),
      pod('p3', 'n9'),
      pod('p4', undefined),
      pod('p5', 'n1', { app: 'other' }),
      pod('p6', 'n3', { app: 'web' }, { status: { phase: 'Succeeded' } }),
      pod(
        'p7',
        'n1',
        { app: 'web' },
        { metadata: { name: 'p7', namespace: 'default', labels: { app: 'web' }, deletionTimestamp: T0 } },
      ),
      pod('p8', 'n1'),
    ];
    const job = ipj({ podSelector: { matchLabels: { app: 'web' } } });
    expect(names(getNodeImagesForJob(deepFreeze(job), deepFreeze(nis), deepFreeze(pods)))).toEqual([
      'n2',
      'n1',
    ]);
  });
  it('4.1.1 with a CloneSet owner the pods come in the workload update order', () => {
    const job = ipj(
      { podSelector: { matchLabels: { app: 'web' } } },
      {
        metadata: {
          name: 'job',
          namespace: 'default',
          uid: 'u',
          ownerReferences: [
            {
              apiVersion: 'apps.kruise.io/v1alpha1',
              kind: 'CloneSet',
              name: 'cs',
              uid: 'cs',
              controller: true,
            },
          ],
        },
      },
    );
    const pods = [pod('a', 'n1'), pod('b', 'n2'), pod('c', 'n3')];
    expect(names(getNodeImagesForJob(deepFreeze(job), nis, pods, ['c', 'a']))).toEqual(['n3', 'n1', 'n2']);
  });
  it('4.1.2 no selector: all NodeImages', () => {
    expect(names(getNodeImagesForJob(deepFreeze(ipj()), nis))).toEqual(['n1', 'n2', 'n3']);
  });
  it('4.1.3 selector.names: in list order, missing ones skipped', () => {
    expect(
      names(getNodeImagesForJob(deepFreeze(ipj({ selector: { names: ['n3', 'n9', 'n1'] } })), nis)),
    ).toEqual(['n3', 'n1']);
  });
  it('4.1.4 label selector: matching NodeImages; an empty selector matches all', () => {
    expect(
      names(getNodeImagesForJob(deepFreeze(ipj({ selector: { matchLabels: { zone: 'a' } } })), nis)),
    ).toEqual(['n1', 'n2']);
    expect(names(getNodeImagesForJob(deepFreeze(ipj({ selector: { matchLabels: {} } })), nis))).toHaveLength(
      3,
    );
  });
  it('4.1.5 the controller remembers the targeted NodeImages per job', () => {
    expect(run(ipj(), nis).controllerState).toEqual({ nodeImages: ['n1', 'n2', 'n3'] });
  });
});

describe('§4.3 status computation', () => {
  const refs = [{ namespace: 'kruise-daemon-config', name: 's-abcde' }];
  it('4.3.2.1 an image entry lacking one of the job secret references is notSynced', () => {
    const ni = nodeImageWithTag('n1', {}, { phase: 'Succeeded' });
    expect(classifyNodeImage(ipj(), ni, refs)).toBe('notSynced');
    expect(classifyNodeImage(ipj(), ni, [])).toBe('succeeded');
  });
  it('4.3.2.2 a missing tag, or a tag the job does not own, is notSynced', () => {
    expect(classifyNodeImage(ipj(), nodeImage('n1'), [])).toBe('notSynced');
    expect(classifyNodeImage(ipj(), nodeImageWithTag('n1', { owners: ['other'] }), [])).toBe('notSynced');
  });
  it('4.3.2.3 no status entry for the image → pulling', () => {
    expect(classifyNodeImage(ipj(), nodeImageWithTag('n1', {}), [])).toBe('pulling');
  });
  it('4.3.2.4 version ≠ v → pulling; Succeeded / Failed; other phases → pulling', () => {
    expect(
      classifyNodeImage(
        ipj(),
        nodeImageWithTag('n1', { version: 2 }, { phase: 'Succeeded', version: 1 }),
        [],
      ),
    ).toBe('pulling');
    expect(classifyNodeImage(ipj(), nodeImageWithTag('n1', {}, { phase: 'Succeeded' }), [])).toBe(
      'succeeded',
    );
    expect(classifyNodeImage(ipj(), nodeImageWithTag('n1', {}, { phase: 'Failed' }), [])).toBe('failed');
    expect(classifyNodeImage(ipj(), nodeImageWithTag('n1', {}, { phase: 'Waiting' }), [])).toBe('pulling');
  });
  it('4.3.2.5 quirk: an image status without this tag counts in no bucket', () => {
    const ni = nodeImageWithTag('n1', {}, { tag: 'other' });
    expect(classifyNodeImage(ipj(), ni, [])).toBe('none');
    const r = calculateImagePullJobStatus(ipj(), [ni], [], T0_MS);
    expect(r.status).toMatchObject({ desired: 1, active: 0, succeeded: 0, failed: 0 });
    expect(r.notSynced).toEqual([]);
  });
  it('4.3.1 desired = number of targets; startTime kept or set to now', () => {
    const job = ipj({}, { status: { desired: 0, startTime: at(-100) } });
    expect(
      calculateImagePullJobStatus(job, [nodeImage('a'), nodeImage('b')], [], T0_MS).status,
    ).toMatchObject({ desired: 2, startTime: at(-100) });
    expect(calculateImagePullJobStatus(ipj(), [nodeImage('a')], [], T0_MS).status.startTime).toBe(T0);
  });
  it('4.3.3 active deadline: complete now, failed = failed + pulling + notSynced with names in that order', () => {
    const job = ipj(
      { completionPolicy: { type: 'Always', activeDeadlineSeconds: 600 } },
      { status: { desired: 4, startTime: at(-600) } },
    );
    const targets = [
      nodeImage('z-notsynced'),
      nodeImageWithTag('y-pulling', {}),
      nodeImageWithTag('x-failed', {}, { phase: 'Failed' }),
      nodeImageWithTag('w-ok', {}, { phase: 'Succeeded' }),
    ];
    const r = calculateImagePullJobStatus(job, targets, [], T0_MS);
    expect(r.status).toEqual({
      startTime: at(-600),
      completionTime: T0,
      desired: 4,
      active: 0,
      succeeded: 1,
      failed: 3,
      message: 'job exceeds activeDeadlineSeconds',
      failedNodes: ['x-failed', 'y-pulling', 'z-notsynced'],
    });
    expect(r.notSynced).toEqual([]);
  });
  it('4.3.3 the deadline is not applied to Never jobs or before it passes', () => {
    const job = ipj(
      { completionPolicy: { type: 'Always', activeDeadlineSeconds: 600 } },
      { status: { desired: 1, startTime: at(-599) } },
    );
    expect(
      calculateImagePullJobStatus(job, [nodeImage('a')], [], T0_MS).status.completionTime,
    ).toBeUndefined();
  });
  it('4.3.4 active = #pulling, failedNodes sorted; nothing left → completed now', () => {
    const targets = [
      nodeImageWithTag('b', {}, { phase: 'Failed' }),
      nodeImageWithTag('a', {}, { phase: 'Failed' }),
      nodeImageWithTag('c', {}, { phase: 'Succeeded' }),
    ];
    const r = calculateImagePullJobStatus(ipj(), targets, [], T0_MS);
    expect(r.status).toMatchObject({
      active: 0,
      failed: 2,
      succeeded: 1,
      failedNodes: ['a', 'b'],
      completionTime: T0,
      message: 'job has completed',
    });
  });
  it('4.3.4 note: a job matching zero NodeImages completes immediately (not a Never job)', () => {
    expect(calculateImagePullJobStatus(ipj(), [], [], T0_MS).status).toMatchObject({
      desired: 0,
      completionTime: T0,
      message: 'job has completed',
    });
    const never = calculateImagePullJobStatus(
      ipj({ completionPolicy: { type: 'Never' } }),
      [],
      [],
      T0_MS,
    ).status;
    expect(never.completionTime).toBeUndefined();
    expect(never.message).toBe('job is running, no progress');
  });
  it('4.3.5 message: progress X% with one decimal', () => {
    const targets = [
      nodeImageWithTag('a', {}, { phase: 'Succeeded' }),
      nodeImageWithTag('b', {}),
      nodeImageWithTag('c', {}),
    ];
    expect(calculateImagePullJobStatus(ipj(), targets, [], T0_MS).status.message).toBe(
      'job is running, progress 33.3%',
    );
    const four = [...targets, nodeImageWithTag('d', {}, { phase: 'Failed' })];
    expect(calculateImagePullJobStatus(ipj(), four, [], T0_MS).status).toMatchObject({
      active: 2,
      message: 'job is running, progress 50.0%',
    });
  });
});

describe('§4.4 spreading to NodeImages', () => {
  const rng = () => createRng(1);
  it('4.4.1–2 at most parallelism − active NodeImages get the job, in target order', () => {
    const nis = [nodeImage('n1'), nodeImage('n2'), nodeImage('n3')];
    expect(names(updatedNodeImages(run(ipj({ parallelism: 2 }), nis).actions))).toEqual(['n1', 'n2']);
    const busy = [nodeImageWithTag('n0', {}), ...nis];
    expect(names(updatedNodeImages(run(ipj({ parallelism: 2 }), busy).actions))).toEqual(['n1']);
    expect(updatedNodeImages(run(ipj({ parallelism: '50%' }), nis).actions)).toEqual([]);
  });
  it('4.4.2.4 a new tag: version = status version + 1 (or 0), pull policy, owner, createdAt, imagePullPolicy', () => {
    const ni = nodeImage('n1');
    ni.status = {
      desired: 0,
      imageStatuses: { nginx: { tags: [{ tag: '1.25', phase: 'Succeeded', version: 4 }] } },
    };
    const next = addJobToNodeImage(ipj(), deepFreeze(ni), [], at(5), rng());
    expect(next?.spec?.images?.nginx.tags[0]).toMatchObject({
      tag: '1.25',
      version: 5,
      createdAt: at(5),
      imagePullPolicy: 'IfNotPresent',
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'ImagePullJob',
          name: 'job',
          namespace: 'default',
          uid: 'job-uid',
        },
      ],
      pullPolicy: { backoffLimit: 3, timeoutSeconds: 600 },
    });
    expect(
      addJobToNodeImage(ipj(), nodeImage('n2'), [], at(5), rng())?.spec?.images?.nginx.tags[0].version,
    ).toBe(0);
  });
  it('4.4.2.4 an existing tag of another job: version + 1, owner appended, createdAt now, its pullPolicy kept', () => {
    const ni = nodeImageWithTag('n1', { owners: ['other'], version: 3, imagePullPolicy: 'Always' });
    const tag = addJobToNodeImage(ipj(), deepFreeze(ni), [], at(9), rng())?.spec?.images?.nginx.tags[0];
    expect(tag?.version).toBe(4);
    expect(tag?.ownerReferences?.map((o) => o.uid)).toEqual(['other', 'job-uid']);
    expect(tag).toMatchObject({
      createdAt: at(9),
      imagePullPolicy: 'IfNotPresent',
      pullPolicy: ni.spec?.images?.nginx.tags[0].pullPolicy,
    });
  });
  it('4.4.2.4 quirk: a tag already owned by the job is skipped, secret and sandbox edits included', () => {
    const job = ipj({ sandboxConfig: { labels: { a: 'b' } } });
    expect(
      addJobToNodeImage(job, nodeImageWithTag('n1', {}), [{ namespace: 'x', name: 'y' }], T0, rng()),
    ).toBeUndefined();
  });
  it('4.4.2.2–3 sandboxConfig: last writer wins; missing secret references appended', () => {
    const ni = nodeImageWithTag('n1', { owners: ['other'] });
    ni.spec!.images!.nginx.sandboxConfig = { labels: { old: '1' } };
    ni.spec!.images!.nginx.pullSecrets = [{ namespace: 'k', name: 's1' }];
    const img = addJobToNodeImage(
      ipj({ sandboxConfig: { annotations: { n: 'v' } } }),
      deepFreeze(ni),
      [
        { namespace: 'k', name: 's1' },
        { namespace: 'k', name: 's2' },
      ],
      T0,
      rng(),
    )?.spec?.images?.nginx;
    expect(img?.sandboxConfig).toEqual({ annotations: { n: 'v' } });
    expect(img?.pullSecrets).toEqual([
      { namespace: 'k', name: 's1' },
      { namespace: 'k', name: 's2' },
    ]);
  });
  it('4.4.2.5 tags are sorted ascending by tag', () => {
    const ni = nodeImageWithTag('n1', { tag: 'z', owners: ['x'] });
    const tags = addJobToNodeImage(ipj(), deepFreeze(ni), [], T0, rng())?.spec?.images?.nginx.tags.map(
      (t) => t.tag,
    );
    expect(tags).toEqual(['1.25', 'z']);
  });
});

describe('§4.6 the per-node pull policy', () => {
  it('4.6 Never jobs: TTL 86400 ± 600, deadline max(1800, timeout)', () => {
    for (let seed = 0; seed < 50; seed++) {
      const p = tagPullPolicyForJob(ipj({ completionPolicy: { type: 'Never' } }), createRng(seed));
      expect(p.ttlSecondsAfterFinished).toBeGreaterThanOrEqual(85800);
      expect(p.ttlSecondsAfterFinished).toBeLessThan(87000);
      expect(p).toMatchObject({ activeDeadlineSeconds: 1800, backoffLimit: 3, timeoutSeconds: 600 });
    }
    expect(
      tagPullPolicyForJob(
        ipj({ completionPolicy: { type: 'Never' }, pullPolicy: { timeoutSeconds: 2000 } }),
        createRng(0),
      ).activeDeadlineSeconds,
    ).toBe(2000);
  });
  it('4.6 Always jobs: TTL = base + 300 + [0,300), base = ttl, else deadline, else timeout × backoffLimit', () => {
    const ttl = (cp: ImagePullJob['spec']['completionPolicy']) =>
      tagPullPolicyForJob(ipj({ completionPolicy: cp }), createRng(3)).ttlSecondsAfterFinished ?? 0;
    const within = (v: number, base: number) => v >= base + 300 && v < base + 600;
    expect(within(ttl({ type: 'Always', ttlSecondsAfterFinished: 100 }), 100)).toBe(true);
    expect(within(ttl({ type: 'Always', activeDeadlineSeconds: 700 }), 700)).toBe(true);
    expect(within(ttl({ type: 'Always' }), 1800)).toBe(true);
    expect(
      tagPullPolicyForJob(
        ipj({ completionPolicy: { type: 'Always', activeDeadlineSeconds: 700 } }),
        createRng(3),
      ).activeDeadlineSeconds,
    ).toBe(700);
  });
});

describe('§4.5 pull secrets', () => {
  const source: Secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'reg', namespace: 'default', uid: 'src-uid', labels: { l: '1' } },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': 'e30=' },
  };
  const copy = (name: string, refs: string, extra: Partial<Secret> = {}): Secret => ({
    apiVersion: 'v1',
    kind: 'Secret',
    type: source.type,
    data: source.data,
    metadata: {
      name,
      namespace: 'kruise-daemon-config',
      resourceVersion: '3',
      labels: { 'imagepulljobs.kruise.io/source-uid': 'src-uid' },
      annotations: {
        'imagepulljobs.kruise.io/source-key': 'default/reg',
        'imagepulljobs.kruise.io/references': refs,
      },
    },
    ...extra,
  });
  const job = ipj({ pullSecrets: ['reg', 'missing'] });
  it('4.5.1 a job in kruise-daemon-config references its secrets directly', () => {
    const j = ipj(
      { pullSecrets: ['a'] },
      { metadata: { name: 'j', namespace: 'kruise-daemon-config', uid: 'u' } },
    );
    expect(syncPullSecrets(j, [], { rng: createRng(0) })).toEqual({
      actions: [],
      references: [{ namespace: 'kruise-daemon-config', name: 'a' }],
    });
  });
  it('4.5.2.5 no copy → one is created (generateName, labels, annotations, type, data); a missing source is skipped', () => {
    const r = syncPullSecrets(deepFreeze(job), deepFreeze([source]), { rng: createRng(0) });
    expect(r.actions).toHaveLength(1);
    const created = r.actions[0] as { object: Secret };
    expect(created.object.metadata?.name).toMatch(/^reg-[a-z0-9]{5}$/);
    expect(created.object).toMatchObject({
      type: source.type,
      data: source.data,
      metadata: {
        namespace: 'kruise-daemon-config',
        generateName: 'reg-',
        labels: { l: '1', 'imagepulljobs.kruise.io/source-uid': 'src-uid' },
        annotations: {
          'imagepulljobs.kruise.io/source-key': 'default/reg',
          'imagepulljobs.kruise.io/references': 'default/job',
        },
      },
    });
    expect(r.references).toEqual([
      { namespace: 'kruise-daemon-config', name: created.object.metadata?.name },
    ]);
  });
  it('4.5.2.5 a copy with other data, or not listing the job, is updated and gets the job added', () => {
    const r = syncPullSecrets(
      deepFreeze(job),
      deepFreeze([source, copy('reg-x', 'default/other', { data: { '.dockerconfigjson': 'old' } })]),
      { rng: createRng(0) },
    );
    expect(r.actions).toHaveLength(1);
    expect((r.actions[0] as { object: Secret }).object).toMatchObject({
      data: source.data,
      metadata: {
        name: 'reg-x',
        annotations: { 'imagepulljobs.kruise.io/references': 'default/other,default/job' },
      },
    });
    expect(
      syncPullSecrets(job, [source, copy('reg-x', 'default/job')], { rng: createRng(0) }).actions,
    ).toEqual([]);
  });
  it('4.5.2.2 copies whose source is no longer in pullSecrets are released', () => {
    const r = syncPullSecrets(
      deepFreeze(ipj({ pullSecrets: [] })),
      deepFreeze([copy('reg-x', 'default/job')]),
      { rng: createRng(0) },
    );
    expect(r.actions).toEqual([
      {
        verb: 'delete',
        target: { apiVersion: 'v1', kind: 'Secret', namespace: 'kruise-daemon-config', name: 'reg-x' },
        reason: 'DeleteSecretCopy',
      },
    ]);
  });
  it('4.5.2.4 the kruise-daemon-config namespace must exist', () => {
    const ns: Namespace[] = [{ metadata: { name: 'default' } }];
    expect(syncPullSecrets(job, [source], { rng: createRng(0), namespaces: ns }).error).toBe(
      'namespaces "kruise-daemon-config" not found',
    );
    const r = run(job, [nodeImage('n1')], T0, { secrets: [source], namespaces: ns });
    expect(r.actions.map((a) => a.verb)).toEqual(['event']);
    expect(r.requeueAfterSeconds).toBe(5);
  });
  it('4.5.3 quirk: releasing returns at the first copy still referenced by another job', () => {
    const acts = releaseSecretCopies(
      ipj(),
      deepFreeze([copy('a', 'default/job'), copy('b', 'default/job,default/j2'), copy('c', 'default/job')]),
    );
    expect(
      acts.map(
        (a) =>
          `${a.verb}:${a.verb === 'update' ? a.object.metadata.name : a.verb === 'delete' ? a.target.name : ''}`,
      ),
    ).toEqual(['delete:a', 'update:b']);
    expect(
      (acts[1] as UpdateAction).object.metadata.annotations?.['imagepulljobs.kruise.io/references'],
    ).toBe('default/j2');
  });
  it('4.5.2.3 a deleting job releases all its copies and gets no references', () => {
    const deleting = ipj(
      { pullSecrets: ['reg'] },
      {
        metadata: {
          name: 'job',
          namespace: 'default',
          uid: 'job-uid',
          deletionTimestamp: T0,
          finalizers: ['apps.kruise.io/deletion-protection'],
        },
      },
    );
    const r = syncPullSecrets(deleting, [source, copy('a', 'default/job')], { rng: createRng(0) });
    expect(r.references).toEqual([]);
    expect(r.actions.map((a) => a.verb)).toEqual(['delete']);
  });
  it('4.2 step 7: the references reach the NodeImage entries', () => {
    const r = run(job, [nodeImage('n1')], T0, { secrets: [source] });
    const name = (r.actions[0] as { object: Secret }).object.metadata?.name;
    expect(updatedNodeImages(r.actions)[0].spec?.images?.nginx.pullSecrets).toEqual([
      { namespace: 'kruise-daemon-config', name },
    ]);
  });
});

describe('§4.2 reconcile order', () => {
  it('4.2.3 deleting → release copies, then remove the finalizer; nothing else', () => {
    const job = ipj(
      {},
      {
        metadata: {
          name: 'job',
          namespace: 'default',
          uid: 'job-uid',
          deletionTimestamp: T0,
          finalizers: ['apps.kruise.io/deletion-protection', 'x'],
        },
      },
    );
    const r = run(job, [nodeImage('n1')]);
    expect(r.actions).toEqual([
      {
        verb: 'patch',
        target: expect.objectContaining({ name: 'job' }),
        patchType: 'merge',
        patch: { metadata: { finalizers: ['x'] } },
        reason: 'RemoveFinalizer',
      },
    ]);
  });
  it('4.2.4 completed: finalize, delete once now − completionTime ≥ ttl, else requeue after the remainder', () => {
    const job = (ttl?: number) =>
      ipj(
        { completionPolicy: { type: 'Always', ttlSecondsAfterFinished: ttl } },
        { status: { desired: 1, completionTime: at(-60) } },
      );
    const waiting = run(job(100), []);
    expect(waiting.actions.map((a) => a.reason)).toEqual(['RemoveFinalizer']);
    expect(waiting.requeueAfterSeconds).toBe(40);
    expect(run(job(60), []).actions.map((a) => a.reason)).toEqual(['RemoveFinalizer', 'TTLExpired']);
    expect(run(job(undefined), []).requeueAfterSeconds).toBeUndefined();
  });
  it('4.2.5 the finalizer is ensured', () => {
    const job = ipj({}, { metadata: { name: 'job', namespace: 'default', uid: 'job-uid' } });
    expect(run(job, [nodeImage('n1')]).actions[0]).toMatchObject({
      verb: 'patch',
      patch: { metadata: { finalizers: ['apps.kruise.io/deletion-protection'] } },
    });
  });
  it('4.2.10 a changed status is written; an unchanged one is not', () => {
    const first = run(ipj(), [nodeImageWithTag('n1', {})]);
    expect(verbs(first.actions, 'updateStatus')).toHaveLength(1);
    expect(first.status).toMatchObject({ desired: 1, active: 1, message: 'job is running, progress 0.0%' });
    const again = run(ipj({}, { status: first.status }), [nodeImageWithTag('n1', {})]);
    expect(again.actions).toEqual([]);
  });
  it('4.2.11 requeue for the active deadline: deadline − (now − startTime), at least 1 s', () => {
    const job = ipj(
      { completionPolicy: { type: 'Always', activeDeadlineSeconds: 900 } },
      { status: { desired: 1, startTime: at(-300) } },
    );
    expect(run(job, [nodeImageWithTag('n1', {})]).requeueAfterSeconds).toBe(600);
    const late = ipj(
      { completionPolicy: { type: 'Always', activeDeadlineSeconds: 900 } },
      { status: { desired: 1, startTime: at(-899.5) } },
    );
    expect(run(late, [nodeImageWithTag('n1', {})]).requeueAfterSeconds).toBe(1);
  });
  it('an invalid job gets its field errors and no action', () => {
    const r = run(ipj({ image: 'Bad' }), [nodeImage('n1')]);
    expect(r.actions).toEqual([]);
    expect(r.errors).toHaveLength(1);
  });
});

describe('§4.7 event handlers', () => {
  const jobs = [
    ipj({}, { metadata: { name: 'all', namespace: 'default', uid: '1' } }),
    ipj({ selector: { names: ['n1'] } }, { metadata: { name: 'names', namespace: 'default', uid: '2' } }),
    ipj(
      { selector: { matchLabels: { zone: 'a' } } },
      { metadata: { name: 'labels', namespace: 'default', uid: '3' } },
    ),
    ipj({ selector: { matchLabels: {} } }, { metadata: { name: 'empty', namespace: 'default', uid: '4' } }),
    ipj(
      { podSelector: { matchLabels: { app: 'web' } } },
      { metadata: { name: 'pods', namespace: 'default', uid: '5' } },
    ),
    ipj(
      {},
      {
        metadata: { name: 'done', namespace: 'default', uid: '6' },
        status: { desired: 0, completionTime: T0 },
      },
    ),
  ];
  const jobNames = (l: ImagePullJob[]) => l.map((j) => j.metadata.name);
  it('4.7 NodeImage create: every active matching job (empty label selector does not match; completed jobs skipped)', () => {
    expect(
      jobNames(
        imagePullJobsForNodeImageEvent({ new: nodeImage('n1', { zone: 'a' }) }, jobs, [pod('p', 'n1')]),
      ),
    ).toEqual(['all', 'names', 'labels', 'pods']);
    expect(
      jobNames(
        imagePullJobsForNodeImageEvent({ old: nodeImage('n2', { zone: 'b' }) }, jobs, [pod('p', 'n1')]),
      ),
    ).toEqual(['all']);
  });
  it('4.7 NodeImage update: jobs whose match changed, plus matching jobs whose image entry changed', () => {
    const relabel = imagePullJobsForNodeImageEvent(
      { old: nodeImage('n2', { zone: 'b' }), new: nodeImage('n2', { zone: 'a' }) },
      jobs,
    );
    expect(jobNames(relabel)).toEqual(['labels']);
    const statusChange = imagePullJobsForNodeImageEvent(
      { old: nodeImageWithTag('n2', {}), new: nodeImageWithTag('n2', {}, { phase: 'Succeeded' }) },
      jobs,
    );
    expect(jobNames(statusChange)).toEqual(['all']);
  });
  it('4.7 pod events enqueue the matching podSelector jobs of the namespace', () => {
    expect(jobNames(imagePullJobsForPodEvent({ new: pod('p', 'n1') }, jobs))).toEqual(['pods']);
    expect(imagePullJobsForPodEvent({ old: pod('p', 'n1'), new: pod('p', 'n1') }, jobs)).toEqual([]);
    expect(
      jobNames(imagePullJobsForPodEvent({ old: pod('p', 'n1'), new: pod('p', 'n1', { app: 'x' }) }, jobs)),
    ).toEqual(['pods']);
  });
});

describe('§4.5 item 4 secret watch', () => {
  it('4.5.4 a source Secret whose data changes requeues the jobs of its namespace naming it', () => {
    const s = (data: Record<string, string>): Secret => ({
      metadata: { name: 'reg', namespace: 'default' },
      data,
    });
    const jobs = [
      ipj({ pullSecrets: ['reg'] }),
      ipj({ pullSecrets: ['other'] }, { metadata: { name: 'j2', namespace: 'default' } }),
    ];
    expect(
      imagePullJobsForSecretEvent({ old: s({ a: '1' }), new: s({ a: '2' }) }, jobs).map(
        (j) => j.metadata.name,
      ),
    ).toEqual(['job']);
    expect(imagePullJobsForSecretEvent({ old: s({ a: '1' }), new: s({ a: '1' }) }, jobs)).toEqual([]);
  });
});

describe('§6.4 workload-driven pre-download jobs', () => {
  const cs = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: {
      name: 'web',
      namespace: 'default',
      uid: 'cs-uid',
      annotations: { 'apps.kruise.io/image-predownload-parallelism': '5' },
    },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { spec: { imagePullSecrets: [{ name: 'reg' }], containers: [] } },
    },
  };
  it('6.4 podSelector, parallelism, pullPolicy {1, 300}, completionPolicy {Always, 600}, sandbox, pullSecrets, owner', () => {
    const job = newWorkloadImagePullJob(
      deepFreeze({ workload: cs, name: 'web-nginx', image: 'nginx:2', sandboxLabels: { a: 'b' } }),
    );
    expect(job.spec).toEqual({
      image: 'nginx:2',
      podSelector: { matchLabels: { app: 'web' } },
      parallelism: 5,
      pullPolicy: { backoffLimit: 1, timeoutSeconds: 300 },
      completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 600 },
      sandboxConfig: { labels: { a: 'b' }, annotations: {} },
      pullSecrets: ['reg'],
    });
    expect(job.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'CloneSet',
      uid: 'cs-uid',
      controller: true,
    });
  });
  it('6.4 deleting the workload jobs deletes every job controlled by it', () => {
    const mine = newWorkloadImagePullJob({ workload: cs, name: 'a', image: 'x' });
    expect(
      deleteWorkloadImagePullJobs(cs, [mine, ipj()]).map((a) => (a.verb === 'delete' ? a.target.name : '')),
    ).toEqual(['a']);
  });
});

describe('purity', () => {
  it('same input, same output (seeded), inputs deep-frozen', () => {
    const input = deepFreeze({
      imagePullJob: ipj({ parallelism: 3 }),
      nodeImages: [nodeImage('a'), nodeImage('b')],
      now: T0,
    });
    expect(reconcileImagePullJob(input, { seed: 4 })).toEqual(reconcileImagePullJob(input, { seed: 4 }));
  });
});
