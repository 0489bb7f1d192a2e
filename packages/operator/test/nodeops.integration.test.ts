// The node-side controllers through the operator, against `kruise-ts serve --controllers none`:
// the server's node model still plays kruise-daemon (NodeImage pulls, container restarts for
// ContainerRecreateRequests, packages/cluster/src/nodeSide.ts), the operator does the controller half
// and the admission (the server calls its webhooks over HTTPS).
import { ANNOTATION_SCHEDULED_AT, LABEL_CRR_ACTIVE, LABEL_CRR_POD_UID } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import { api, CS_PATH, isReady, podsOf, sampleCloneSet, useCluster, waitFor } from './helpers/cluster';

const cluster = useCluster();

const K = '/apis/apps.kruise.io/v1alpha1';
const list = async (base: string, path: string): Promise<any[]> =>
  (await api(base, 'GET', path)).body?.items ?? [];
const createNamespace = (base: string, name: string) =>
  api(base, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

describe('node-side controllers through the operator (kruise-ts serve --controllers none)', () => {
  it('§5.2/§4: the operator creates a NodeImage per node, spreads an ImagePullJob onto them and completes it from the pulls the nodes report', async () => {
    const server = await cluster.start();
    const base = server.url;
    // daemon.md §4.5: the pull-secret copies' namespace must exist (the chart creates it)
    expect((await createNamespace(base, 'kruise-daemon-config')).status).toBe(201);
    await cluster.operator('replica-a', {
      featureGates: { ImagePullJobGate: true },
      nodeImageCreationDelaySeconds: 0,
    });
    const nodes = (await list(base, '/api/v1/nodes')).map((n) => n.metadata.name).sort();
    expect(nodes.length).toBeGreaterThan(0);
    await waitFor(
      async () => (await list(base, `${K}/nodeimages`)).length === nodes.length,
      10_000,
      'a NodeImage per node',
    );

    const created = await api(base, 'POST', `${K}/namespaces/default/imagepulljobs`, {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'ImagePullJob',
      metadata: { name: 'warm', namespace: 'default' },
      spec: { image: 'nginx:1.25', parallelism: 2 },
    });
    expect(created.status).toBe(201);
    // §3.3: the operator's mutating webhook defaulted it
    expect(created.body.spec).toMatchObject({
      completionPolicy: { type: 'Always' },
      pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 },
      imagePullPolicy: 'IfNotPresent',
    });
    expect(created.body.metadata.finalizers).toContain('apps.kruise.io/deletion-protection');
    const uid = created.body.metadata.uid;

    const job = await waitFor(
      async () => {
        const j = (await api(base, 'GET', `${K}/namespaces/default/imagepulljobs/warm`)).body;
        return j?.status?.completionTime ? j : undefined;
      },
      15_000,
      'the job completes',
    );
    expect(job.status).toMatchObject({ desired: nodes.length, succeeded: nodes.length, failed: 0 });
    expect(job.status.message).toBe('job has completed');
    for (const ni of await list(base, `${K}/nodeimages`)) {
      const tag = ni.spec.images.nginx.tags.find((t: any) => t.tag === '1.25');
      expect(tag.ownerReferences.map((r: any) => r.uid)).toEqual([uid]);
      expect(ni.status.imageStatuses.nginx.tags[0]).toMatchObject({ tag: '1.25', phase: 'Succeeded' });
    }
    // §4.2 item 4: a completed job is finalized (finalizer removed) ...
    await waitFor(
      async () =>
        !(await api(base, 'GET', `${K}/namespaces/default/imagepulljobs/warm`)).body.metadata.finalizers
          ?.length,
      10_000,
      'finalizer removed',
    );
    // ... and once it is deleted, §5.3 prunes its owner reference and drops the tag it owned
    expect((await api(base, 'DELETE', `${K}/namespaces/default/imagepulljobs/warm`)).status).toBeLessThan(
      300,
    );
    await waitFor(
      async () => (await list(base, `${K}/nodeimages`)).every((ni) => !ni.spec?.images?.nginx),
      10_000,
      'tags pruned',
    );
  }, 40_000);

  it('daemon.md §9: a ContainerRecreateRequest is admitted by the operator, run by the node and completed by the operator', async () => {
    const server = await cluster.start();
    const base = server.url;
    await cluster.operator();
    await api(base, 'POST', CS_PATH, sampleCloneSet('crr', { replicas: 1 }));
    const [pod] = await waitFor(
      async () => {
        const p = (await podsOf(base, 'crr')).filter(isReady);
        return p.length === 1 ? p : undefined;
      },
      20_000,
      'a ready pod',
    );
    const restarts = pod.status.containerStatuses[0].restartCount;
    const crrPath = `${K}/namespaces/default/containerrecreaterequests`;
    const created = await api(base, 'POST', crrPath, {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'ContainerRecreateRequest',
      metadata: { name: 'restart-nginx', namespace: 'default' },
      spec: { podName: pod.metadata.name, containers: [{ name: 'nginx' }] },
    });
    expect(created.status).toBe(201);
    // daemon.md §8.3: filled in by the operator's mutating webhook from the pod
    expect(created.body.metadata.labels).toMatchObject({
      [LABEL_CRR_POD_UID]: pod.metadata.uid,
      [LABEL_CRR_ACTIVE]: 'true',
    });
    expect(created.body.spec.containers[0].statusContext.containerID).toBe(
      pod.status.containerStatuses[0].containerID,
    );

    const done = await waitFor(
      async () => {
        const c = (await api(base, 'GET', `${crrPath}/restart-nginx`)).body;
        // daemon.md §9.1 item 2: the operator removes the `active` label of a completed CRR
        return c?.status?.phase === 'Completed' && !c.metadata.labels?.[LABEL_CRR_ACTIVE] ? c : undefined;
      },
      20_000,
      'the CRR completes',
    );
    expect(done.status.containerRecreateStates).toMatchObject([{ name: 'nginx', phase: 'Succeeded' }]);
    // daemon.md §9.1 item 7: the operator mirrored the restarted container into sync-container-statuses
    expect(JSON.parse(done.metadata.annotations['crr.apps.kruise.io/sync-container-statuses'])).toMatchObject(
      [{ name: 'nginx', restartCount: restarts + 1 }],
    );
    const after = (await api(base, 'GET', `/api/v1/namespaces/default/pods/${pod.metadata.name}`)).body;
    expect(after.metadata.uid).toBe(pod.metadata.uid);
    expect(after.status.containerStatuses[0].restartCount).toBe(restarts + 1);
  }, 40_000);

  it('AC4: a v1beta1 AdvancedCronJob creates its ImageListPullJob at the scheduled time, whose ImagePullJobs follow', async () => {
    // speed 1: the server's clock (creationTimestamp) keeps pace with the operator's, which schedules
    const server = await cluster.start(1);
    const base = server.url;
    await cluster.operator('replica-a', { featureGates: { ImagePullJobGate: true } });
    const created = await api(
      base,
      'POST',
      '/apis/apps.kruise.io/v1beta1/namespaces/default/advancedcronjobs',
      {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'AdvancedCronJob',
        metadata: { name: 'prewarm', namespace: 'default' },
        spec: {
          schedule: '@every 2s',
          concurrencyPolicy: 'Forbid', // no Replace deletions while the test looks at the first run
          template: { imageListPullJobTemplate: { spec: { images: ['nginx:1.25', 'busybox:1.36'] } } },
        },
      },
    );
    expect(created.status).toBe(201);
    // AC1.3/AC1.4 through the operator's mutating webhook (the Replace default is unit-tested)
    expect(created.body.spec).toMatchObject({
      concurrencyPolicy: 'Forbid',
      paused: false,
      successfulJobsHistoryLimit: 3,
    });
    expect(created.body.spec.template.imageListPullJobTemplate.spec.completionPolicy).toEqual({
      type: 'Always',
    });
    const createdAt = Date.parse(created.body.metadata.creationTimestamp);

    const child = await waitFor(
      async () =>
        (await list(base, `${K}/namespaces/default/imagelistpulljobs`)).find((l) =>
          l.metadata.ownerReferences?.some((r: any) => r.kind === 'AdvancedCronJob' && r.name === 'prewarm'),
        ),
      15_000,
      'a scheduled ImageListPullJob',
    );
    // AC4.11: named <acj>-<unix seconds of the slot>, the slot in the scheduled-at annotation
    const slot = Date.parse(child.metadata.annotations[ANNOTATION_SCHEDULED_AT]);
    expect(child.metadata.name).toBe(`prewarm-${slot / 1000}`);
    expect(slot).toBeGreaterThanOrEqual(createdAt + 2000);
    // §6.2: the ImageListPullJob controller creates one ImagePullJob per image
    const children = await waitFor(
      async () => {
        const jobs = (await list(base, `${K}/namespaces/default/imagepulljobs`)).filter((j) =>
          j.metadata.ownerReferences?.some((r: any) => r.uid === child.metadata.uid),
        );
        return jobs.length === 2 ? jobs : undefined;
      },
      10_000,
      'two ImagePullJobs',
    );
    expect(children.map((j) => j.spec.image).sort()).toEqual(['busybox:1.36', 'nginx:1.25']);
    await waitFor(
      async () =>
        (await api(base, 'GET', '/apis/apps.kruise.io/v1beta1/namespaces/default/advancedcronjobs/prewarm'))
          .body.status?.type === 'ImageListPullJob',
      5000,
      'status.type',
    );
  }, 40_000);
});
