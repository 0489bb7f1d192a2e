// ClientNodeKube against the simulator's real Kubernetes API server (`kruise-ts serve`, issue 11 gap):
// the NodeImage list+watch by field selector, status writes through the status subresource with
// 409 on a stale resourceVersion, the node's active CRRs by label selector, CRR status replace and
// merge patch, secrets, a pod read and core/v1 events, watch re-list after the server expires its
// history, and an end-to-end image pull (ImagePuller over a fake CRI image service) driven by a
// NodeImage created in the server. Loopback only; the server's clock does not run (speed 0).
//
// @kruise-ts/sim is NOT a dependency of @kruise-ts/daemon (the daemon depends only on api and core),
// so this test imports the server from the sim package's source by relative path; tests may do that.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ANNOTATION_CRR_SYNC_CONTAINER_STATUSES,
  type ContainerRecreateRequest,
  LABEL_CRR_ACTIVE,
  LABEL_CRR_NODE_NAME,
  LABEL_CRR_POD_UID,
  type NodeImage,
} from '@kruise-ts/api';
import {
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import type { Event as CoreEvent, Pod } from 'kubernetes-types/core/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, startApiServer } from '../../sim/src/index';
import {
  ClientNodeKube,
  type CriImage,
  type CriImageService,
  type CriPullImageRequest,
  CrrDaemonController,
  ImagePuller,
  KubeConflictError,
  KubeNotFoundError,
  refOfObject,
  type StopWatch,
  type WatchEvent,
} from '../src/index';
import { FakeRuntime } from './support/fakeRuntime';
import { eventually, nodeImageWith } from './support/helpers';

const G = { group: 'apps.kruise.io', version: 'v1alpha1' };
const WAIT_MS = 5_000;

/** Collects watch events in arrival order. */
function collector<T>() {
  const events: WatchEvent<T>[] = [];
  return { events, push: (e: WatchEvent<T>) => void events.push(e) };
}

const evName = (e: WatchEvent<{ metadata: { name?: string; namespace?: string } }>) =>
  `${e.type} ${e.object.metadata.namespace ? `${e.object.metadata.namespace}/` : ''}${e.object.metadata.name}`;

function crrFor(
  namespace: string,
  name: string,
  node: string,
  active: string,
  podName = 'web-0',
): ContainerRecreateRequest {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'ContainerRecreateRequest',
    metadata: {
      namespace,
      name,
      labels: { [LABEL_CRR_NODE_NAME]: node, [LABEL_CRR_ACTIVE]: active, [LABEL_CRR_POD_UID]: 'uid-1' },
    },
    spec: { podName, containers: [{ name: 'app' }], strategy: { failurePolicy: 'Fail' } },
  } as ContainerRecreateRequest;
}

describe('ClientNodeKube against kruise-ts serve (real API server, controllers none)', () => {
  let server: ApiServer;
  let dir: string;
  let kube: ClientNodeKube;
  // An "admin" client (the test playing the manager / kubectl), built from the same kubeconfig.
  let custom: CustomObjectsApi;
  let core: CoreV1Api;
  const stops: StopWatch[] = [];

  const createNodeImage = async (ni: NodeImage) =>
    (await custom.createClusterCustomObject({ ...G, plural: 'nodeimages', body: ni })) as NodeImage;
  const getNodeImage = async (name: string) =>
    (await custom.getClusterCustomObject({ ...G, plural: 'nodeimages', name })) as NodeImage;
  const createCrr = async (crr: ContainerRecreateRequest) =>
    (await custom.createNamespacedCustomObject({
      ...G,
      namespace: crr.metadata.namespace ?? '',
      plural: 'containerrecreaterequests',
      body: crr,
    })) as ContainerRecreateRequest;
  const getCrr = async (namespace: string, name: string) =>
    (await custom.getNamespacedCustomObject({
      ...G,
      namespace,
      plural: 'containerrecreaterequests',
      name,
    })) as ContainerRecreateRequest;
  const ensureNamespace = async (name: string) => {
    await core.createNamespace({ body: { metadata: { name } } }).catch(() => undefined);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kruise-daemon-serve-'));
    server = await startApiServer({
      port: 0,
      controllers: 'none',
      speed: 0,
      kubeconfigPath: join(dir, 'kubeconfig'),
    });
    kube = new ClientNodeKube({ kubeconfig: server.kubeconfigPath, rewatchDelayMs: 100 });
    const kc = new KubeConfig();
    kc.loadFromFile(server.kubeconfigPath);
    custom = kc.makeApiClient(CustomObjectsApi);
    core = kc.makeApiClient(CoreV1Api);
    for (const ns of ['ns-a', 'ns-b']) await ensureNamespace(ns);
    // The simulator also plays a kruise-daemon on every node it models, and it acts on any active
    // CRR (whether or not the Node object exists). Here the daemon under test owns these nodes, so
    // the simulator's own node side is switched off for them (a failed node is left alone; the
    // clock does not run, so no NotReady follows).
    for (const node of ['node-c', 'node-x', 'node-s', 'node-r']) server.simulation.failNode(node);
  }, 15_000);

  afterAll(async () => {
    for (const s of stops) s();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 10_000);

  it('the kubeconfig written by the server points ClientNodeKube at its loopback URL', () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(kube.kc.getCurrentCluster()?.server).toBe(server.url);
  });

  it('§7.2 item 1: lists then watches only this node’s NodeImage (field selector metadata.name)', async () => {
    await createNodeImage(nodeImageWith('node-w1', 'nginx', { tag: '1.25' }));
    await createNodeImage(nodeImageWith('node-w2', 'nginx', { tag: '1.25' }));
    const c = collector<NodeImage>();
    const stop = await kube.watchNodeImage('node-w1', c.push);
    stops.push(stop);
    // The initial list is replayed as ADDED before watchNodeImage resolves.
    expect(c.events.map(evName)).toEqual(['ADDED node-w1']);

    // A spec change of this node's NodeImage arrives as MODIFIED; the other node's is filtered out.
    for (const node of ['node-w2', 'node-w1']) {
      await custom.patchClusterCustomObject({
        ...G,
        plural: 'nodeimages',
        name: node,
        body: [
          {
            op: 'add',
            path: '/spec/images/redis',
            value: { tags: [{ tag: '7', createdAt: '2024-01-01T00:00:00Z' }] },
          },
        ],
      });
    }
    await eventually('the MODIFIED event', () => c.events.length >= 2 || undefined, WAIT_MS);
    expect(c.events.map(evName)).toEqual(['ADDED node-w1', 'MODIFIED node-w1']);
    const modified = c.events[1].object;
    expect(Object.keys(modified.spec.images ?? {}).sort()).toEqual(['nginx', 'redis']);
    expect(Number(modified.metadata.resourceVersion)).toBeGreaterThan(
      Number(c.events[0].object.metadata.resourceVersion),
    );

    // Deleting it is a DELETED event.
    await custom.deleteClusterCustomObject({ ...G, plural: 'nodeimages', name: 'node-w1' });
    await eventually('the DELETED event', () => c.events.length >= 3 || undefined, WAIT_MS);
    expect(c.events.map(evName)).toEqual(['ADDED node-w1', 'MODIFIED node-w1', 'DELETED node-w1']);
    stop();
  });

  it('§7.2 item 1: after the server expires its watch history the watch re-lists and keeps delivering', async () => {
    await createNodeImage(nodeImageWith('node-relist', 'nginx', { tag: '1' }));
    const c = collector<NodeImage>();
    const stop = await kube.watchNodeImage('node-relist', c.push);
    stops.push(stop);
    expect(c.events.map(evName)).toEqual(['ADDED node-relist']);
    server.expireWatchHistory();
    // The re-list replays the known object as MODIFIED (it was already known).
    await eventually('the re-list', () => c.events.length >= 2 || undefined, WAIT_MS);
    expect(c.events.map(evName)).toEqual(['ADDED node-relist', 'MODIFIED node-relist']);
    // The new watch delivers later changes.
    const before = c.events.length;
    await custom.patchClusterCustomObject({
      ...G,
      plural: 'nodeimages',
      name: 'node-relist',
      body: [{ op: 'add', path: '/metadata/labels', value: { x: 'y' } }],
    });
    const labelled = await eventually(
      'a change after the re-list',
      () => c.events.slice(before).find((e) => e.object.metadata.labels?.x === 'y'),
      WAIT_MS,
    );
    expect(labelled.type).toBe('MODIFIED');
    stop();
  });

  it('§7.3 item 3.3: replaces the NodeImage status through the status subresource; a stale write is KubeConflictError (409)', async () => {
    const created = await createNodeImage(nodeImageWith('node-st', 'nginx', { tag: '1.25' }));
    const status = {
      desired: 1,
      succeeded: 1,
      failed: 0,
      pulling: 0,
      imageStatuses: {
        nginx: {
          tags: [
            {
              tag: '1.25',
              phase: 'Succeeded' as const,
              progress: 100,
              version: 0,
              imageID: 'nginx@sha256:1',
              startTime: '2024-01-01T00:00:00Z',
              completionTime: '2024-01-01T00:00:05Z',
            },
          ],
        },
      },
    };
    // The body also carries a spec change, which the status subresource must ignore.
    const withSpecChange: NodeImage = { ...created, spec: { images: {} } };
    const out = await kube.updateNodeImageStatus(withSpecChange, status);
    expect(out.status).toEqual(status);
    expect(Number(out.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    const stored = await getNodeImage('node-st');
    expect(stored.status).toEqual(status);
    expect(Object.keys(stored.spec.images ?? {})).toEqual(['nginx']);

    // `created` now carries an old resourceVersion: 409 → KubeConflictError with the Status message.
    const stale = await kube.updateNodeImageStatus(created, { desired: 0 }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(KubeConflictError);
    expect((stale as Error).message).toBe(
      'Operation cannot be fulfilled on nodeimages.apps.kruise.io "node-st": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect((await getNodeImage('node-st')).status).toEqual(status);

    // A NodeImage that is gone: 404 → KubeNotFoundError.
    const gone = await kube
      .updateNodeImageStatus(nodeImageWith('node-gone', 'nginx', { tag: '1' }), { desired: 1 })
      .catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(KubeNotFoundError);
    expect((gone as Error).message).toMatch(/"node-gone" not found/);
  });

  it('§9.2 item 1: lists and watches CRRs in all namespaces labelled node-name=<node>,active=true', async () => {
    await createCrr(crrFor('ns-a', 'r-match-a', 'node-c', 'true'));
    await createCrr(crrFor('ns-a', 'r-other-node', 'node-x', 'true'));
    await createCrr(crrFor('ns-b', 'r-inactive', 'node-c', 'false'));
    const c = collector<ContainerRecreateRequest>();
    const stop = await kube.watchContainerRecreateRequests('node-c', c.push);
    stops.push(stop);
    expect(c.events.map(evName)).toEqual(['ADDED ns-a/r-match-a']);

    // A new matching CRR in another namespace arrives as ADDED; a non-matching one does not.
    await createCrr(crrFor('ns-b', 'r-other-late', 'node-x', 'true'));
    await createCrr(crrFor('ns-b', 'r-match-b', 'node-c', 'true'));
    await eventually('the second CRR', () => c.events.length >= 2 || undefined, WAIT_MS);
    expect(c.events.map(evName)).toEqual(['ADDED ns-a/r-match-a', 'ADDED ns-b/r-match-b']);

    // When the manager clears the active label the CRR leaves the selection: DELETED.
    await custom.patchNamespacedCustomObject({
      ...G,
      namespace: 'ns-a',
      plural: 'containerrecreaterequests',
      name: 'r-match-a',
      body: [
        { op: 'replace', path: `/metadata/labels/${LABEL_CRR_ACTIVE.replace('/', '~1')}`, value: 'false' },
      ],
    });
    await eventually('the CRR leaving the selection', () => c.events.length >= 3 || undefined, WAIT_MS);
    expect(c.events.map(evName)).toEqual([
      'ADDED ns-a/r-match-a',
      'ADDED ns-b/r-match-b',
      'DELETED ns-a/r-match-a',
    ]);
    stop();
  });

  it('§9.3: replaces the CRR status (409 when stale) and merge-patches it without a precondition', async () => {
    const created = await createCrr(crrFor('ns-a', 'r-status', 'node-s', 'true'));
    const recreating = {
      phase: 'Recreating' as const,
      containerRecreateStates: [{ name: 'app', phase: 'Pending' as const }],
    };
    const out = await kube.updateContainerRecreateRequestStatus(created, recreating);
    expect(out.status).toEqual(recreating);
    expect((await getCrr('ns-a', 'r-status')).status).toEqual(recreating);

    await expect(
      kube.updateContainerRecreateRequestStatus(created, { phase: 'Completed' }),
    ).rejects.toBeInstanceOf(KubeConflictError);

    // §9.3 item 5: the merge patch needs no resourceVersion and keeps the other status fields.
    const patched = await kube.patchContainerRecreateRequestStatus('ns-a', 'r-status', {
      containerRecreateStates: [{ name: 'app', phase: 'Recreating', isKilled: true }],
    });
    expect(patched.status).toEqual({
      phase: 'Recreating',
      containerRecreateStates: [{ name: 'app', phase: 'Recreating', isKilled: true }],
    });
    const stored = await getCrr('ns-a', 'r-status');
    expect(stored.status).toEqual(patched.status);
    expect(stored.spec.podName).toBe('web-0');
  });

  it('§7.4 item 1.1: reads a pull secret; a missing secret is undefined', async () => {
    await core.createNamespacedSecret({
      namespace: 'ns-a',
      body: {
        metadata: { name: 'reg-cred', namespace: 'ns-a' },
        type: 'kubernetes.io/dockerconfigjson',
        data: { '.dockerconfigjson': Buffer.from('{"auths":{}}').toString('base64') },
      },
    });
    const s = await kube.getSecret('ns-a', 'reg-cred');
    expect(s?.type).toBe('kubernetes.io/dockerconfigjson');
    expect(Buffer.from(s?.data?.['.dockerconfigjson'] ?? '', 'base64').toString()).toBe('{"auths":{}}');
    expect(await kube.getSecret('ns-a', 'nope')).toBeUndefined();
  });

  it('reads a pod through the adapter’s KubeConfig (the daemon’s credentials reach core/v1)', async () => {
    // KubeAdapter has no pod read (the CRR daemon takes pod state from CRI, §9.3); this checks the
    // same KubeConfig serves core/v1 pods from the server.
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { namespace: 'ns-a', name: 'web-0', labels: { app: 'web' } },
      spec: { nodeName: 'node-c', containers: [{ name: 'app', image: 'nginx:1.25' }] },
    };
    const created = await core.createNamespacedPod({ namespace: 'ns-a', body: pod as never });
    const read = (await kube.kc
      .makeApiClient(CoreV1Api)
      .readNamespacedPod({ namespace: 'ns-a', name: 'web-0' })) as unknown as Pod;
    expect(read.metadata?.uid).toBe(created.metadata?.uid);
    expect(read.metadata?.uid).toBeTruthy();
    expect(read.spec?.nodeName).toBe('node-c');
    expect(read.spec?.containers.map((c) => c.name)).toEqual(['app']);
  });

  it('posts a core/v1 Event in the involved object’s namespace (cluster-scoped objects: default)', async () => {
    const pod = (await core.readNamespacedPod({ namespace: 'ns-a', name: 'web-0' })) as unknown as Pod;
    await kube.recordEvent({
      involvedObject: refOfObject(pod as never),
      type: 'Normal',
      reason: 'Killing',
      message: 'Stopping container app by ContainerRecreateRequest r1',
    });
    await kube.recordEvent({
      involvedObject: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', name: 'node-st' },
      type: 'Warning',
      reason: 'PullImageFailed',
      message: 'boom',
    });
    const inNs = (await core.listNamespacedEvent({ namespace: 'ns-a' })).items as unknown as CoreEvent[];
    const killing = inNs.find((e) => e.reason === 'Killing');
    expect(killing).toMatchObject({
      type: 'Normal',
      message: 'Stopping container app by ContainerRecreateRequest r1',
      involvedObject: { kind: 'Pod', namespace: 'ns-a', name: 'web-0', uid: pod.metadata?.uid },
      source: { component: 'kruise-daemon' },
      count: 1,
    });
    expect(killing?.metadata?.name?.startsWith('web-0.')).toBe(true);
    const inDefault = (await core.listNamespacedEvent({ namespace: 'default' }))
      .items as unknown as CoreEvent[];
    expect(inDefault.find((e) => e.reason === 'PullImageFailed')).toMatchObject({
      type: 'Warning',
      involvedObject: { kind: 'NodeImage', name: 'node-st' },
    });
  });

  it('§7.3/§7.5 end to end: a NodeImage created in the server is pulled by ImagePuller (fake CRI) and its tag becomes Succeeded in the server', async () => {
    // A fake CRI image service (test/support/fakeRuntime.ts fakes only the runtime half of CRI).
    const images: CriImage[] = [];
    const pulls: CriPullImageRequest[] = [];
    const image: CriImageService = {
      imageFsInfo: async () => ({}),
      listImages: async () => images.map((i) => ({ ...i })),
      pullImage: async (req) => {
        pulls.push(req);
        await new Promise((r) => setTimeout(r, 20));
        const id = `sha256:${'ab'.repeat(32)}`;
        images.push({ id, repoTags: [`docker.io/library/${req.image.image}`], repoDigests: [] });
        return id;
      },
    };
    await createNodeImage(
      nodeImageWith('node-e2e', 'nginx', {
        tag: '1.25',
        version: 3,
        pullPolicy: { timeoutSeconds: 30, backoffLimit: 1 },
      }),
    );
    const puller = new ImagePuller({
      nodeName: 'node-e2e',
      kube,
      image,
      timings: { pullingRequeueMs: 100, pullingRequeueJitterMs: 0 },
    });
    await puller.start();
    try {
      const final = await eventually(
        'the tag status Succeeded in the server',
        async () => {
          const st = (await getNodeImage('node-e2e')).status;
          return st?.imageStatuses?.nginx?.tags[0]?.phase === 'Succeeded' ? st : undefined;
        },
        10_000,
      );
      expect(final).toMatchObject({ desired: 1, succeeded: 1, failed: 0, pulling: 0 });
      expect(final.imageStatuses?.nginx.tags).toEqual([
        expect.objectContaining({
          tag: '1.25',
          phase: 'Succeeded',
          progress: 100,
          version: 3,
          imageID: `nginx@sha256:${'ab'.repeat(32)}`,
        }),
      ]);
      expect(final.imageStatuses?.nginx.tags[0].completionTime).toBeTruthy();
      expect(pulls.map((p) => p.image.image)).toEqual(['nginx:1.25']);
      const evs = (await core.listNamespacedEvent({ namespace: 'default' })).items as unknown as CoreEvent[];
      expect(evs.some((e) => e.reason === 'PullImageSucceed' && e.involvedObject.name === 'node-e2e')).toBe(
        true,
      );
    } finally {
      await puller.stop();
    }
  }, 15_000);

  it('§9.2–§9.5 end to end: CrrDaemonController (fake CRI runtime) stops the container of a CRR created in the server, then reports Succeeded and Completed there', async () => {
    const uid = 'uid-crr-e2e';
    const rt = new FakeRuntime();
    const c0 = rt.add(uid, 'app', 0, Date.now() - 60_000);
    const crr = crrFor('ns-b', 'r-e2e', 'node-r', 'true', 'web-1');
    crr.metadata.labels = { ...crr.metadata.labels, [LABEL_CRR_POD_UID]: uid };
    crr.spec.containers = [
      { name: 'app', statusContext: { containerID: `containerd://${c0.id}`, restartCount: 0 } },
    ];
    crr.spec.strategy = { failurePolicy: 'Fail', terminationGracePeriodSeconds: 5 };
    await createCrr(crr);
    const ctl = new CrrDaemonController({
      nodeName: 'node-r',
      kube,
      runtimeByName: (n) => (n === 'containerd' ? rt : undefined),
    });
    await ctl.start();
    try {
      const killed = await eventually(
        'the container killed and reported in the server',
        async () => {
          const st = (await getCrr('ns-b', 'r-e2e')).status;
          return st?.containerRecreateStates?.[0]?.isKilled ? st : undefined;
        },
        10_000,
      );
      expect(killed).toMatchObject({
        phase: 'Recreating',
        containerRecreateStates: [{ name: 'app', phase: 'Recreating', isKilled: true }],
      });
      expect(rt.stops.map((x) => [x.id, x.timeout])).toEqual([[c0.id, 5]]);

      // The test plays kubelet (attempt 1 of the container) and the CRR controller (the sync annotation).
      const c1 = rt.add(uid, 'app', 1, Date.now());
      await custom.patchNamespacedCustomObject(
        {
          ...G,
          namespace: 'ns-b',
          plural: 'containerrecreaterequests',
          name: 'r-e2e',
          body: {
            metadata: {
              annotations: {
                [ANNOTATION_CRR_SYNC_CONTAINER_STATUSES]: JSON.stringify([
                  { name: 'app', ready: true, restartCount: 1, containerID: `containerd://${c1.id}` },
                ]),
              },
            },
          },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      const done = await eventually(
        'the CRR Completed in the server',
        async () => {
          const st = (await getCrr('ns-b', 'r-e2e')).status;
          return st?.phase === 'Completed' ? st : undefined;
        },
        10_000,
      );
      expect(done.containerRecreateStates).toEqual([{ name: 'app', phase: 'Succeeded', isKilled: true }]);
      expect(done.completionTime).toBeTruthy();
      expect(rt.stops).toHaveLength(1);
      const evs = (await core.listNamespacedEvent({ namespace: 'ns-b' })).items as unknown as CoreEvent[];
      expect(
        evs.some(
          (e) => e.reason === 'Killing' && e.involvedObject.name === 'web-1' && e.involvedObject.uid === uid,
        ),
      ).toBe(true);
    } finally {
      await ctl.stop();
    }
  }, 15_000);
});
