// Unit tests of the node-side kinds' admission handlers (docs/reference/advancedcronjob.md AC1.2, AC1.3,
// AC2.1; docs/reference/daemon.md §3.4, §5.1, §6.1, §8.2–8.3), the webhook tables (docs/reference/operator.md
// §2.3/§2.4: which paths are served, which are dropped and why) and the node-side flags (§3.3).
import { type KubeObject, LABEL_CRR_ACTIVE, LABEL_CRR_NODE_NAME, LABEL_CRR_POD_UID } from '@kruise-ts/api';
import { resolveFeatureGates } from '@kruise-ts/core';
import { describe, expect, it } from 'vitest';
import {
  activePaths,
  handlers,
  IMAGEPULLJOB,
  mutatingTable,
  parseOperatorArgs,
  patchConfiguration,
  review,
  unservedEntries,
  validatingEntries,
  validatingTable,
  webhookConfigurations,
} from '../src/index';
import { fakeCache, nodeImage, pod, pullJob, T0, V1A1, V1B1 } from './helpers/nodeopsFixtures';

/** Runs one admission path. */
async function admit(path: string, request: Record<string, unknown>, objects: KubeObject[] = [], gates = {}) {
  const out = (await review(
    path,
    { apiVersion: 'admission.k8s.io/v1', request: { uid: 'u1', ...request } },
    {
      cache: fakeCache(objects),
      featureGates: resolveFeatureGates(gates),
      kruiseNamespace: 'kruise-system',
      now: () => T0,
    },
  )) as { response: { allowed: boolean; status?: { code: number; message: string }; patch?: string } };
  const r = out.response;
  const ops = r.patch
    ? (JSON.parse(Buffer.from(r.patch, 'base64').toString('utf8')) as Array<{ path: string; value: any }>)
    : [];
  return { ...r, ops, at: (p: string) => ops.find((o) => o.path === p)?.value };
}

describe('admission handlers of the node-side kinds', () => {
  const acj = (apiVersion: string, template: Record<string, unknown>, schedule = '0 * * * *') =>
    ({
      apiVersion,
      kind: 'AdvancedCronJob',
      metadata: { name: 'warm', namespace: 'default' },
      spec: { schedule, template },
    }) as KubeObject;
  const ilpjTemplate = { imageListPullJobTemplate: { spec: { images: ['nginx:1.25'] } } };
  it('AC1.3/AC1.4: v1beta1 with an imageListPullJobTemplate → Replace, paused false, limits 3/1, template defaults', async () => {
    const r = await admit('/mutate-apps-kruise-io-advancedcronjob', {
      operation: 'CREATE',
      object: acj(V1B1, ilpjTemplate),
    });
    expect(r.allowed).toBe(true);
    expect(r.at('/spec')).toMatchObject({
      concurrencyPolicy: 'Replace',
      paused: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
      template: {
        imageListPullJobTemplate: {
          spec: {
            completionPolicy: { type: 'Always' },
            pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 },
            imagePullPolicy: 'IfNotPresent',
          },
        },
      },
    });
  });
  it('AC1.2: a v1alpha1 object has no imageListPullJobTemplate (dropped by the patch) and defaults to Allow', async () => {
    for (const path of [
      '/mutate-apps-kruise-io-advancedcronjob',
      '/mutate-apps-kruise-io-v1alpha1-advancedcronjob',
    ]) {
      const r = await admit(path, { operation: 'CREATE', object: acj(V1A1, ilpjTemplate) });
      expect(r.at('/spec').template).toEqual({});
      expect(r.at('/spec').concurrencyPolicy).toBe('Allow');
    }
  });
  it('AC2.1: a bad schedule is rejected with 422 at both validating paths', async () => {
    for (const path of [
      '/validate-apps-kruise-io-advancedcronjob',
      '/validate-apps-kruise-io-v1alpha1-advancedcronjob',
    ]) {
      // As the mutating webhook leaves it: the CRD requires completionPolicy (AC1.4 defaults it).
      const defaulted = {
        imageListPullJobTemplate: { spec: { images: ['nginx:1.25'], completionPolicy: { type: 'Always' } } },
      };
      const r = await admit(path, { operation: 'CREATE', object: acj(V1B1, defaulted, '0 0 * * 7') });
      expect(r.allowed).toBe(false);
      expect(r.status?.code).toBe(422);
      expect(r.status?.message).toContain('spec.schedule');
    }
  });
  it('§3.4: ImagePullJob and ImageListPullJob are refused with 403 while ImagePullJobGate is off', async () => {
    const job = pullJob('j', {
      completionPolicy: { type: 'Always' },
      pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 },
    });
    const off = await admit('/validate-apps-kruise-io-v1alpha1-imagepulljob', {
      operation: 'CREATE',
      object: job,
    });
    expect(off).toMatchObject({
      allowed: false,
      status: { code: 403, message: expect.stringContaining('feature-gate ImagePullJobGate is not enabled') },
    });
    const on = await admit(
      '/validate-apps-kruise-io-v1alpha1-imagepulljob',
      { operation: 'CREATE', object: job },
      [],
      { ImagePullJobGate: true },
    );
    expect(on.allowed).toBe(true);
    const list = {
      apiVersion: V1A1,
      kind: 'ImageListPullJob',
      metadata: { name: 'l', namespace: 'default' },
      spec: { images: ['nginx'], completionPolicy: { type: 'Always' } },
    };
    const listOff = await admit('/validate-apps-kruise-io-v1alpha1-imagelistpulljob', {
      operation: 'CREATE',
      object: list,
    });
    expect(listOff).toMatchObject({ allowed: false, status: { code: 403 } });
  });
  it('§6.1: ImageListPullJob defaults completionPolicy Always and pullPolicy 600/3, no imagePullPolicy', async () => {
    const r = await admit('/mutate-apps-kruise-io-v1alpha1-imagelistpulljob', {
      operation: 'CREATE',
      object: {
        apiVersion: V1A1,
        kind: 'ImageListPullJob',
        metadata: { name: 'l', namespace: 'default' },
        spec: { images: ['nginx'] },
      },
    });
    expect(r.at('/spec')).toEqual({
      images: ['nginx'],
      completionPolicy: { type: 'Always' },
      pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 },
    });
  });
  it('§5.1 item 2: a NodeImage tag without createdAt gets the webhook clock', async () => {
    const ni = nodeImage('n1', { spec: { images: { nginx: { tags: [{ tag: '1.25' }] } } } });
    const r = await admit('/mutate-apps-kruise-io-v1alpha1-nodeimage', { operation: 'CREATE', object: ni });
    expect(r.at('/spec').images.nginx.tags[0]).toMatchObject({ createdAt: '2025-10-10T09:00:00Z' });
  });
  const target = pod('p', {}, 'n1', {
    status: {
      phase: 'Running',
      containerStatuses: [{ name: 'app', containerID: 'containerd://abc', restartCount: 2, ready: true }],
    },
  });
  const crr = (podName = 'p') =>
    ({
      apiVersion: V1A1,
      kind: 'ContainerRecreateRequest',
      metadata: { name: 'r', namespace: 'default' },
      spec: { podName, containers: [{ name: 'app' }] },
    }) as KubeObject;
  it('daemon.md §8.3: a CRR create is filled in from the cached pod (labels, statusContext, failurePolicy Fail)', async () => {
    const r = await admit(
      '/mutate-apps-kruise-io-v1alpha1-containerrecreaterequest',
      { operation: 'CREATE', object: crr() },
      [target],
    );
    expect(r.allowed).toBe(true);
    expect(r.at('/metadata').labels).toEqual({
      [LABEL_CRR_ACTIVE]: 'true',
      [LABEL_CRR_NODE_NAME]: 'n1',
      [LABEL_CRR_POD_UID]: 'pod-p',
    });
    expect(r.at('/spec')).toMatchObject({
      strategy: { failurePolicy: 'Fail' },
      containers: [{ name: 'app', statusContext: { containerID: 'containerd://abc', restartCount: 2 } }],
    });
  });
  it('daemon.md §8.3: a CRR for a pod that does not exist is refused; §8.2: an UPDATE may not change spec', async () => {
    const missing = await admit(
      '/mutate-apps-kruise-io-v1alpha1-containerrecreaterequest',
      { operation: 'CREATE', object: crr('nope') },
      [target],
    );
    expect(missing).toMatchObject({ allowed: false, status: { code: 422 } });
    const upd = await admit('/mutate-apps-kruise-io-v1alpha1-containerrecreaterequest', {
      operation: 'UPDATE',
      object: crr('other'),
      oldObject: crr(),
    });
    expect(upd).toMatchObject({
      allowed: false,
      status: { message: expect.stringContaining('spec is immutable') },
    });
  });
});

describe('§2.3/§2.4 tables: served and dropped paths', () => {
  const render = {
    namespace: 'kruise-system',
    serviceName: 'kruise-webhook-service',
    port: 9876,
    podFailurePolicy: 'Fail' as const,
    protectionFailurePolicy: 'Ignore' as const,
  };
  it('the tables hold the 12 mutating and 25 validating entries of the spec', () => {
    expect(mutatingTable).toHaveLength(12);
    expect(validatingTable).toHaveLength(25);
  });
  it('every served entry has a handler, and no unserved path does', () => {
    for (const e of [...mutatingTable, ...validatingTable].filter((x) => !x.unserved))
      expect(handlers[e.path], e.path).toBeDefined();
    for (const e of unservedEntries) expect(handlers[e.path], e.path).toBeUndefined();
  });
  it('dropped: BroadcastJob (both), /validate-pod (vpod, vpodeviction), ResourceDistribution, WorkloadSpread, EphemeralJob, PersistentPodState, PodProbeMarker, PodUnavailableBudget', () => {
    expect(unservedEntries.map((e) => e.name)).toEqual([
      'mbroadcastjob.kb.io',
      'vpod.kb.io',
      'vpodeviction.kb.io',
      'vresourcedistribution.kb.io',
      'vworkloadspread.kb.io',
      'vbroadcastjob.kb.io',
      'vephemeraljobs.kb.io',
      'vpersistentpodstate.kb.io',
      'vpodprobemarker.kb.io',
      'vpodunavailablebudget.kb.io',
    ]);
  });
  it('W2.13: patching a configuration with every kruise entry keeps exactly the served ones', () => {
    const [mutating, validating] = webhookConfigurations(render, 'all');
    const active = activePaths(resolveFeatureGates({ ResourcesDeletionProtection: true }));
    const names = (o: KubeObject) =>
      ((o as unknown as { webhooks: Array<{ name: string }> }).webhooks ?? []).map((w) => w.name);
    expect(names(patchConfiguration(validating, 'PEM', active, render))).toEqual(
      validatingEntries.map((e) => e.name),
    );
    expect(names(patchConfiguration(mutating, 'PEM', active, render))).not.toContain('mbroadcastjob.kb.io');
    expect(names(patchConfiguration(mutating, 'PEM', active, render))).toContain(
      'mcontainerrecreaterequest.kb.io',
    );
  });
  it('AC1.3/AC2.1: the AdvancedCronJob entries cover v1alpha1 and v1beta1 at the v1.9.0 paths', () => {
    const acj = [...mutatingTable, ...validatingTable].filter((e) =>
      e.resources.includes('advancedcronjobs'),
    );
    expect(acj.map((e) => [e.path, e.versions])).toEqual([
      ['/mutate-apps-kruise-io-advancedcronjob', ['v1alpha1', 'v1beta1']],
      ['/validate-apps-kruise-io-advancedcronjob', ['v1alpha1', 'v1beta1']],
    ]);
  });
});

describe('flags (§3.3)', () => {
  it('--nodeimage-creation-delay takes a duration (default 30 s); KRUISE_DAEMON_CONFIG_NS names the copies namespace', () => {
    expect(parseOperatorArgs([], {})).toMatchObject({
      nodeImageCreationDelaySeconds: 30,
      daemonConfigNamespace: 'kruise-daemon-config',
    });
    expect(
      parseOperatorArgs(['--nodeimage-creation-delay=0s'], { KRUISE_DAEMON_CONFIG_NS: 'd' }),
    ).toMatchObject({
      nodeImageCreationDelaySeconds: 0,
      daemonConfigNamespace: 'd',
    });
    expect(IMAGEPULLJOB.apiVersion).toBe(V1A1);
  });
});
