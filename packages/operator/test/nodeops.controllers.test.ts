// Unit tests of the node-side controllers' wiring in the operator (docs/reference/operator.md §3.5;
// docs/reference/daemon.md §4.7, §5.2, §9.1; docs/reference/advancedcronjob.md AC6.1): the gates, which informers,
// which keys an event enqueues, the read set, the reconcile input built from the cache, and the
// discovery step of §3.5 ("CRD").
import {
  ANNOTATION_SCHEDULED_AT,
  type KubeObject,
  LABEL_CRR_ACTIVE,
  LABEL_CRR_NODE_NAME,
  LABEL_CRR_POD_UID,
} from '@kruise-ts/api';
import { resolveFeatureGates } from '@kruise-ts/core';
import { describe, expect, it } from 'vitest';
import {
  ADVANCEDCRONJOB,
  advancedCronJobController,
  containerRecreateRequestController,
  imageListPullJobController,
  imagePullJobController,
  JOB,
  type KubeClient,
  nodeImageController,
  nodeImageFromNodeController,
  resolveControllers,
  selectControllers,
} from '../src/index';
import {
  at,
  daemonNs,
  env,
  fakeCache,
  iso,
  node,
  nodeImage,
  pod,
  pullJob,
  T0,
  V1A1,
  V1B1,
  verbs,
} from './helpers/nodeopsFixtures';

describe('§3.5 controllers, gating and registration order', () => {
  it('registration order starts with advancedcronjob-controller and ends with imagelistpulljob-controller', () => {
    const names = selectControllers('all').map((c) => c.name);
    expect(names[0]).toBe('advancedcronjob-controller');
    expect(names.at(-1)).toBe('imagelistpulljob-controller');
    expect(names).toEqual(
      expect.arrayContaining(['containerrecreaterequest-controller', 'nodeimage-controller']),
    );
  });
  it('v1.8.2 default gates: ImagePullJobGate off → no imagepulljob / imagelistpulljob controller', () => {
    const names = selectControllers('all', resolveFeatureGates({})).map((c) => c.name);
    expect(names).not.toContain('imagepulljob-controller');
    expect(names).not.toContain('imagelistpulljob-controller');
    expect(names).toContain('nodeimage-controller');
    expect(names).toContain('advancedcronjob-controller');
  });
  it('KruiseDaemon off → no CRR, NodeImage or ImagePullJob controller (advancedcronjob needs only the CRD)', () => {
    const names = selectControllers(
      'all',
      resolveFeatureGates({ KruiseDaemon: false, ImagePullJobGate: true }),
    ).map((c) => c.name);
    expect(names.filter((n) => /image|recreate/.test(n))).toEqual([]);
    expect(names).toContain('advancedcronjob-controller');
  });
  it('--controllers nodeimage selects both NodeImage runners (by NodeImage and by Node)', () => {
    expect(selectControllers(['nodeimage']).map((c) => c.primary.kind)).toEqual(['NodeImage', 'Node']);
  });
});

describe('imagepulljob-controller wiring (daemon.md §4.7)', () => {
  const c = imagePullJobController;
  const all = pullJob('all', {});
  const named = pullJob('named', { selector: { names: ['n2'] } });
  const done = pullJob('done', {}, { completionTime: iso(T0) });
  const bySel = pullJob('web', { podSelector: { matchLabels: { app: 'web' } } });
  const secret = pullJob('secret', { pullSecrets: ['regcred'] });
  it('a NodeImage event enqueues the active jobs that match it (nil selector, names, podSelector via a pod on it)', () => {
    const cache = fakeCache([all, named, done, bySel, nodeImage('n1'), pod('w1', { app: 'web' }, 'n1')]);
    expect(c.keysFor?.(nodeImage('n1'), cache).sort()).toEqual(['default/all', 'default/web']);
    expect(c.keysFor?.(nodeImage('n2'), cache).sort()).toEqual(['default/all', 'default/named']);
  });
  it('a pod event enqueues the podSelector jobs of its namespace matching its labels', () => {
    const cache = fakeCache([all, bySel]);
    expect(c.keysFor?.(pod('w1', { app: 'web' }), cache)).toEqual(['default/web']);
    expect(c.keysFor?.(pod('x', { app: 'other' }), cache)).toEqual([]);
  });
  it('daemon.md §4.5 item 4: a Secret event enqueues the jobs of its namespace naming it in pullSecrets', () => {
    const s = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'regcred', namespace: 'default' },
    } as KubeObject;
    expect(c.keysFor?.(s, fakeCache([all, secret]))).toEqual(['default/secret']);
  });
  it('the read set holds the job and every NodeImage (a spread is not repeated on a stale NodeImage)', () => {
    const cache = fakeCache([all, nodeImage('n1'), nodeImage('n2')]);
    expect(c.readSet(all, cache).map((o) => o.metadata?.name)).toEqual(['all', 'n1', 'n2']);
  });
  it('§4.2/§4.4: parallelism 1 over two NodeImages → finalizer, one NodeImage tagged, status desired 2', () => {
    const cache = fakeCache([all, nodeImage('n1'), nodeImage('n2'), daemonNs]);
    const r = c.reconcile(all, cache, T0, undefined, env);
    expect(verbs(r.actions)).toEqual([
      'patch:AddFinalizer',
      'update:SyncNodeImage',
      'updateStatus:UpdateStatus',
    ]);
    expect(r.status).toMatchObject({ desired: 2, active: 0 });
  });
  it('daemon.md §4.5 item 2.4: without the kruise-daemon-config namespace the secret sync fails and retries after 5 s', () => {
    const r = c.reconcile(all, fakeCache([all, nodeImage('n1')]), T0, undefined, env);
    expect(verbs(r.actions)).toContain('event:SyncSecretsFailed');
    expect(r.requeueAfterSeconds).toBe(5);
  });
});

describe('nodeimage-controller wiring (daemon.md §5.2)', () => {
  const job = pullJob('all', {});
  const tagged = nodeImage('n1', {
    spec: {
      images: {
        nginx: { tags: [{ tag: '1.25', createdAt: iso(T0), ownerReferences: [{ uid: 'ipj-all' }] }] },
      },
    },
  });
  it('a Node event enqueues the NodeImage of the same name', () => {
    expect(nodeImageController.keysFor?.(node('n1'), fakeCache([]))).toEqual(['n1']);
  });
  it('§5.2 item 3: a deleted ImagePullJob enqueues the NodeImages naming it; a live one none', () => {
    expect(nodeImageController.keysFor?.(job, fakeCache([tagged, nodeImage('n2')]))).toEqual(['n1']);
    expect(nodeImageController.keysFor?.(job, fakeCache([job, tagged]))).toEqual([]);
  });
  it('§5.2 item 1: the node is gone → the NodeImage is deleted', () => {
    const r = nodeImageController.reconcile(
      nodeImage('n1'),
      fakeCache([nodeImage('n1')]),
      T0,
      undefined,
      env,
    );
    expect(verbs(r.actions)).toEqual(['delete:NodeGone']);
  });
  it('§5.2 item 2: the Node runner creates a missing NodeImage once the node has been Ready for the delay', () => {
    const r = nodeImageFromNodeController.reconcile(node('n1'), fakeCache([node('n1')]), T0, undefined, env);
    expect(r.actions).toMatchObject([
      { verb: 'create', object: { kind: 'NodeImage', metadata: { name: 'n1' } } },
    ]);
    const young = {
      ...node('n1'),
      status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: iso(T0) }] },
    };
    const wait = nodeImageFromNodeController.reconcile(
      young as KubeObject,
      fakeCache([young as KubeObject]),
      at(10),
      undefined,
      {
        ...env,
        nodeImageCreationDelaySeconds: 30,
      },
    );
    expect(wait).toMatchObject({ actions: [], requeueAfterSeconds: 20 });
  });
  it('the Node runner does nothing while the NodeImage exists, and a deleted NodeImage enqueues its node', () => {
    const cache = fakeCache([node('n1'), nodeImage('n1')]);
    expect(nodeImageFromNodeController.reconcile(node('n1'), cache, T0, undefined, env).actions).toEqual([]);
    expect(nodeImageFromNodeController.keysFor?.(nodeImage('n1'), cache)).toEqual([]);
    expect(nodeImageFromNodeController.keysFor?.(nodeImage('n1'), fakeCache([node('n1')]))).toEqual(['n1']);
  });
});

describe('containerrecreaterequest-controller wiring (daemon.md §9.1)', () => {
  const crr = (name: string, podUid: string, phase?: string) =>
    ({
      apiVersion: V1A1,
      kind: 'ContainerRecreateRequest',
      metadata: {
        name,
        namespace: 'default',
        uid: `crr-${name}`,
        creationTimestamp: iso(T0),
        labels: { [LABEL_CRR_POD_UID]: podUid, [LABEL_CRR_NODE_NAME]: 'n1', [LABEL_CRR_ACTIVE]: 'true' },
      },
      spec: { podName: 'p', containers: [{ name: 'app' }] },
      ...(phase ? { status: { phase } } : {}),
    }) as KubeObject;
  const p = pod('p', {});
  it('daemon.md §9.1 item 1: a pod event enqueues the uncompleted CRRs whose pod-uid label is the pod uid', () => {
    const cache = fakeCache([crr('a', 'pod-p'), crr('b', 'pod-p', 'Completed'), crr('c', 'other')]);
    expect(containerRecreateRequestController.keysFor?.(p, cache)).toEqual(['default/a']);
  });
  it('the read set is the CRR and its pod: daemon.md §9.1 item 3: no pod → completed with "pod has gone"', () => {
    expect(
      containerRecreateRequestController.readSet(crr('a', 'pod-p'), fakeCache([p])).map((o) => o.kind),
    ).toEqual(['ContainerRecreateRequest', 'Pod']);
    const r = containerRecreateRequestController.reconcile(
      crr('a', 'pod-p'),
      fakeCache([]),
      at(1),
      undefined,
      env,
    );
    expect(r.status).toMatchObject({ phase: 'Completed', message: 'pod has gone' });
  });
});

describe('imagelistpulljob-controller and advancedcronjob-controller wiring', () => {
  const ilpj = {
    apiVersion: V1A1,
    kind: 'ImageListPullJob',
    metadata: { name: 'list', namespace: 'default', uid: 'ilpj-list' },
    spec: { images: ['nginx:1.25', 'busybox:1.36'], completionPolicy: { type: 'Always' } },
  } as KubeObject;
  it('§6.2: one child ImagePullJob per image; the read set adds the owned children', () => {
    const r = imageListPullJobController.reconcile(ilpj, fakeCache([ilpj]), T0, undefined, env);
    expect(r.actions.filter((a) => a.verb === 'create')).toHaveLength(2);
    const child = {
      ...pullJob('list-1', {}),
      metadata: {
        ...pullJob('list-1', {}).metadata,
        ownerReferences: [
          { apiVersion: V1A1, kind: 'ImageListPullJob', name: 'list', uid: 'ilpj-list', controller: true },
        ],
      },
    } as KubeObject;
    expect(
      imageListPullJobController.readSet(ilpj, fakeCache([ilpj, child])).map((o) => o.metadata?.name),
    ).toEqual(['list', 'list-1']);
    // A child's event enqueues its controller owner (the adapter's default, no `enqueueFor`).
    expect(imageListPullJobController.keysFor?.(child, fakeCache([ilpj, child]))).toEqual(['default/list']);
  });
  const acj = {
    apiVersion: V1B1,
    kind: 'AdvancedCronJob',
    metadata: { name: 'nightly', namespace: 'default', uid: 'acj-1', creationTimestamp: iso(T0) },
    spec: {
      schedule: '*/5 * * * *',
      concurrencyPolicy: 'Allow',
      template: {
        broadcastJobTemplate: {
          spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
        },
      },
    },
  } as KubeObject;
  const child = (kind: string, apiVersion: string) =>
    ({
      apiVersion,
      kind,
      metadata: {
        name: 'nightly-1760087100',
        namespace: 'default',
        ownerReferences: [
          { apiVersion: V1B1, kind: 'AdvancedCronJob', name: 'nightly', uid: 'acj-1', controller: true },
        ],
      },
    }) as KubeObject;
  it('AC6.1: a BroadcastJob child create/update enqueues its owner; its delete does not; Job events never do', () => {
    const bcj = child('BroadcastJob', V1A1);
    expect(advancedCronJobController.keysFor?.(bcj, fakeCache([bcj]))).toEqual(['default/nightly']);
    expect(advancedCronJobController.keysFor?.(bcj, fakeCache([]))).toEqual([]);
    const job = child('Job', 'batch/v1');
    expect(advancedCronJobController.keysFor?.(job, fakeCache([job]))).toEqual([]);
    expect(advancedCronJobController.secondary).toContainEqual(JOB);
    expect(advancedCronJobController.primary).toEqual(ADVANCEDCRONJOB);
  });
  it('E1: created 09:00:00, every 5 minutes; at 09:05:00 the child nightly-1760087100 is created', () => {
    const r = advancedCronJobController.reconcile(acj, fakeCache([acj]), at(300), undefined, env);
    const create = r.actions.find((a) => a.verb === 'create');
    expect(create).toMatchObject({
      object: {
        kind: 'BroadcastJob',
        metadata: {
          name: 'nightly-1760087100',
          annotations: { [ANNOTATION_SCHEDULED_AT]: '2025-10-10T09:05:00Z' },
        },
      },
    });
    expect(r.requeueAfterSeconds).toBe(300);
    const c = child('BroadcastJob', V1A1);
    expect(advancedCronJobController.readSet(acj, fakeCache([acj, c])).map((o) => o.kind)).toEqual([
      'AdvancedCronJob',
      'BroadcastJob',
    ]);
  });
});

describe('§3.5 "CRD": discovery', () => {
  const client = (
    served: Record<string, string[]>,
    failing: string[] = [],
  ): KubeClient & { calls: string[] } => {
    const calls: string[] = [];
    return {
      calls,
      request: async (_m, path) => {
        calls.push(path);
        if (failing.includes(path)) return { status: 503, body: {} };
        const kinds = served[path];
        if (!kinds) return { status: 404, body: { code: 404 } };
        return {
          status: 200,
          body: { resources: kinds.map((k) => ({ name: `${k.toLowerCase()}s`, kind: k })) },
        };
      },
      watch: () => ({ stop() {} }),
    };
  };
  const everything = {
    '/api/v1': ['Pod', 'Node', 'Namespace', 'Secret'],
    '/apis/apps.kruise.io/v1alpha1': [
      'ImagePullJob',
      'ImageListPullJob',
      'NodeImage',
      'BroadcastJob',
      'ContainerRecreateRequest',
    ],
    '/apis/apps.kruise.io/v1beta1': ['AdvancedCronJob'],
  };
  it('an informer of a kind the server does not serve (batch Jobs on kruise-ts serve) is left out', async () => {
    const out = await resolveControllers(client(everything), [advancedCronJobController]);
    expect(out).toHaveLength(1);
    expect(out[0].secondary.map((r) => r.kind)).toEqual(['BroadcastJob', 'ImageListPullJob']);
    expect(advancedCronJobController.secondary).toHaveLength(3); // the table itself is untouched
  });
  it('a controller whose primary kind is not served registers nothing', async () => {
    const { '/apis/apps.kruise.io/v1beta1': _acj, ...noAcj } = everything;
    expect(
      await resolveControllers(client(noAcj), [advancedCronJobController, imagePullJobController]),
    ).toEqual([imagePullJobController]);
  });
  it('§2.2: a discovery error is retried, then taken as "present"', async () => {
    const c = client(everything, ['/apis/batch/v1']);
    const out = await resolveControllers(c, [advancedCronJobController], undefined, {
      attempts: 3,
      backoffMs: 1,
    });
    expect(out[0].secondary).toContainEqual(JOB);
    expect(c.calls.filter((p) => p === '/apis/batch/v1')).toHaveLength(3);
  });
});
