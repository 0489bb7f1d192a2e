// Unit tests with small fakes: work queue (O3.3–O3.4), expectations (E4.8–E4.10), executor
// (preconditions, 409, status subresource), informer (410 → relist, other failures → rewatch),
// leader election (Lease), deletion protection (§1: the handler's answer; the rules are core's),
// certificates (W2.8–W2.10), webhook configuration patching (W2.13), flags (§3.3).
import type { KubeObject } from '@kruise-ts/api';
import * as core from '@kruise-ts/core';
import { resolveFeatureGates } from '@kruise-ts/core';
import { describe, expect, it } from 'vitest';
import {
  activePaths,
  certsValid,
  checkDeletionProtection,
  Expectations,
  ensureCerts,
  executeActions,
  generateCerts,
  Informer,
  LeaderElector,
  Messages,
  parseOperatorArgs,
  parseRenewBefore,
  patchConfiguration,
  RateLimiter,
  resourceFor,
  review,
  splitStatusPatch,
  WorkQueue,
  webhookConfigurations,
} from '../src/index';
import { createLogger } from '../src/log';
import { FakeKube } from './helpers/fakeKube';

const T0 = new Date('2024-01-01T00:00:00Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);
const pod = (name: string, rv = '1', extra: Record<string, unknown> = {}): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `u-${name}`, resourceVersion: rv },
    ...extra,
  }) as KubeObject;
const silent = createLogger('silent', 'test');

describe('work queue (O3.3, O3.4)', () => {
  it('O3.4: per-key exponential back-off 5 ms · 2^failures, reset by forget', () => {
    const rl = new RateLimiter({ baseDelayMs: 5, maxDelayMs: 1000, qps: 1000, burst: 1000 }, () => 0);
    expect([rl.when('k'), rl.when('k'), rl.when('k'), rl.when('k'), rl.when('k')]).toEqual([
      5, 10, 20, 40, 80,
    ]);
    rl.forget('k');
    expect(rl.when('k')).toBe(5);
  });
  it('O3.4: the overall token bucket (10 qps, burst 100) delays the 101st retry by 100 ms', () => {
    const rl = new RateLimiter({ baseDelayMs: 5, qps: 10, burst: 100 }, () => 0);
    for (let i = 0; i < 100; i++) rl.when(`k${i}`);
    expect(rl.when('k100')).toBe(100);
  });
  it('O3.3: adds coalesce, and an add while in flight runs exactly once more afterwards', async () => {
    const q = new WorkQueue();
    q.add('a');
    q.add('a');
    expect(q.len()).toBe(1);
    const k = await q.get();
    q.add('a'); // in flight
    expect(q.len()).toBe(0); // not handed to a second worker
    q.done(k as string);
    expect(q.len()).toBe(1);
    q.shutdown();
  });
  it('O3.3: one key is never processed by two workers at once', async () => {
    const q = new WorkQueue();
    let inFlight = 0;
    let maxInFlight = 0;
    let runs = 0;
    const done = q.run(4, async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      if (++runs < 5) q.add('x');
      inFlight--;
    });
    q.add('x');
    await new Promise((r) => setTimeout(r, 100));
    q.shutdown();
    await done;
    expect(maxInFlight).toBe(1);
    expect(runs).toBe(5);
  });
});

describe('expectations (§4.4)', () => {
  it('E4.8/E4.9: a create waits for the ADDED event; a delete for DELETED', () => {
    const e = new Expectations();
    e.expect('default/cs', 'create', 'Pod', 'default', 'cs-a', T0);
    expect(e.gate('default/cs', [], at(1))).toMatchObject({ proceed: false, requeueAfterSeconds: 299 });
    e.onEvent('add', pod('cs-a'));
    expect(e.gate('default/cs', [], at(2)).proceed).toBe(true);
    e.expect('default/cs', 'delete', 'Pod', 'default', 'cs-a', T0);
    expect(e.gate('default/cs', [], at(2)).proceed).toBe(false);
    e.onEvent('delete', pod('cs-a'));
    expect(e.gate('default/cs', [], at(3)).proceed).toBe(true);
  });
  it('E4.9: an ADDED object that already has a deletionTimestamp observes a delete', () => {
    const e = new Expectations();
    e.expect('default/cs', 'delete', 'Pod', 'default', 'p', T0);
    e.onEvent('add', pod('p', '5', {}) as KubeObject);
    expect(e.gate('default/cs', [], at(1)).proceed).toBe(false);
    e.onEvent('add', {
      ...pod('p'),
      metadata: { ...pod('p').metadata, deletionTimestamp: '2024-01-01T00:00:01Z' },
    });
    expect(e.gate('default/cs', [], at(1)).proceed).toBe(true);
  });
  it('E4.10 step 3: a cached resourceVersion below the recorded one gates; equal is enough (trap 11)', () => {
    const e = new Expectations();
    e.expectVersion('u-p1', '42', T0);
    expect(e.gate('k', [pod('p1', '41')], at(1))).toMatchObject({ proceed: false, requeueAfterSeconds: 299 });
    expect(e.gate('k', [pod('p1', '42')], at(2)).proceed).toBe(true);
    expect(e.size().resourceVersions).toBe(0);
  });
  it('E4.10 step 2: past 5 minutes pending creates are dropped and the key requeued after 10 s', () => {
    const e = new Expectations();
    e.expect('k', 'create', 'Pod', 'default', 'lost', T0);
    expect(e.gate('k', [], at(301))).toMatchObject({ proceed: false, requeueAfterSeconds: 10 });
    expect(e.gate('k', [], at(302)).proceed).toBe(true);
  });
});

describe('executor', () => {
  const ctx = (kube: FakeKube, exp = new Expectations(), cache = new Map<string, KubeObject>()) => ({
    client: kube,
    expectations: exp,
    workloadKey: 'default/cs',
    cached: (r: { name: string }) => cache.get(r.name),
    now: () => T0,
    uniqueSuffix: () => 'x',
  });
  it('delete carries uid/resourceVersion preconditions; a stale one is a 409 conflict, nothing deleted', async () => {
    const kube = new FakeKube();
    const p = kube.put('/api/v1/namespaces/default/pods/p1', pod('p1'));
    const r = await executeActions(
      [
        {
          verb: 'delete',
          target: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'p1' },
          reason: 'ScaleDown',
          preconditions: { uid: p.metadata.uid, resourceVersion: '1' },
        },
      ],
      ctx(kube),
    );
    expect(r.conflict).toBe(true);
    expect(kube.objects.has('/api/v1/namespaces/default/pods/p1')).toBe(true);
    expect((kube.log[0].body as { preconditions: unknown }).preconditions).toEqual({
      uid: p.metadata.uid,
      resourceVersion: '1',
    });
  });
  it('update with an old resourceVersion gets 409 and never overwrites; execution stops there', async () => {
    const kube = new FakeKube();
    kube.put('/apis/apps/v1/namespaces/default/controllerrevisions/r1', {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'r1', namespace: 'default' },
      revision: 1,
    });
    const stale = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'r1', namespace: 'default', resourceVersion: '1' },
      revision: 2,
    } as KubeObject;
    const r = await executeActions(
      [
        { verb: 'update', object: stale, reason: 'x' },
        { verb: 'create', object: pod('never'), reason: 'ScaleUp' },
      ],
      ctx(kube),
    );
    expect(r).toMatchObject({ conflict: true, done: 0 });
    expect(kube.objects.get('/apis/apps/v1/namespaces/default/controllerrevisions/r1').revision).toBe(1);
    expect(kube.log.some((l) => l.method === 'POST')).toBe(false);
  });
  it('updateStatus is a PUT to /status with the cached resourceVersion; its response version is expected', async () => {
    const kube = new FakeKube();
    const cs = kube.put('/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets/cs', {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'cs', namespace: 'default' },
      spec: {},
    });
    const exp = new Expectations();
    const r = await executeActions(
      [
        {
          verb: 'updateStatus',
          target: {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'CloneSet',
            namespace: 'default',
            name: 'cs',
          },
          status: { replicas: 3 },
          reason: 'Status',
        },
      ],
      ctx(kube, exp, new Map([['cs', cs]])),
    );
    expect(r.error).toBeUndefined();
    expect(kube.log[0]).toMatchObject({
      method: 'PUT',
      path: '/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets/cs/status',
    });
    expect((kube.log[0].body as KubeObject).metadata.resourceVersion).toBe(cs.metadata.resourceVersion);
    expect(exp.gate('default/cs', [cs], T0).proceed).toBe(false); // cache still at the old version
  });
  it('a failed create rolls its expectation back (E4.8, AlreadyExists included)', async () => {
    const kube = new FakeKube();
    kube.put('/api/v1/namespaces/default/pods/dup', pod('dup'));
    const exp = new Expectations();
    const r = await executeActions(
      [{ verb: 'create', object: pod('dup'), reason: 'ScaleUp' }],
      ctx(kube, exp),
    );
    expect(r.error).toBeDefined();
    expect(exp.gate('default/cs', [], T0).proceed).toBe(true);
  });
  it('a create answered 2xx with a body that is not an object fails the action, never throws', async () => {
    const kube = new FakeKube();
    const request = kube.request.bind(kube);
    kube.request = async (method, path, opts) =>
      method === 'POST' ? { status: 201, body: '<html>proxy</html>' } : request(method, path, opts);
    const r = await executeActions([{ verb: 'create', object: pod('p-'), reason: 'ScaleUp' }], ctx(kube));
    expect(r.done).toBe(0);
    expect(String(r.error)).toMatch(/not a Kubernetes object/);
  });
  it('malformed JSON patch operations are not status writes and do not throw', () => {
    expect(
      splitStatusPatch('json', [null, { path: 5 }, { op: 'add', path: '/spec/y', value: 2 }], true),
    ).toEqual([{ status: false, patch: [null, { path: 5 }, { op: 'add', path: '/spec/y', value: 2 }] }]);
  });
  it('pod patches: the status part goes to the status subresource first, the rest to the object', () => {
    expect(
      splitStatusPatch('merge', { metadata: { labels: { a: '1' } }, status: { conditions: [] } }, true),
    ).toEqual([
      { status: true, patch: { status: { conditions: [] } } },
      { status: false, patch: { metadata: { labels: { a: '1' } } } },
    ]);
    expect(
      splitStatusPatch(
        'json',
        [
          { op: 'add', path: '/status/x', value: 1 },
          { op: 'add', path: '/spec/y', value: 2 },
        ],
        true,
      ),
    ).toHaveLength(2);
  });
});

describe('informer', () => {
  const res = resourceFor('v1', 'Pod');
  it('lists, then watches from the list resourceVersion; events update the cache and owner index', async () => {
    const kube = new FakeKube();
    kube.put('/api/v1/pods/a', {
      ...pod('a'),
      metadata: {
        ...pod('a').metadata,
        ownerReferences: [{ uid: 'owner', kind: 'CloneSet', name: 'cs', apiVersion: 'x' }],
      },
    });
    const inf = new Informer(kube, res, { backoffMs: 1 });
    inf.start();
    await inf.waitForSync();
    expect(inf.list()).toHaveLength(1);
    expect(inf.listOwnedBy('owner')).toHaveLength(1);
    expect(kube.watchers[0].query.resourceVersion).toBe(String(kube.rv));
    kube.put('/api/v1/pods/b', pod('b'));
    expect(inf.list()).toHaveLength(2);
    inf.stop();
  });
  it('a watch failing for a reason other than 410 is restarted from the last resourceVersion (no re-list)', async () => {
    const kube = new FakeKube();
    const inf = new Informer(kube, res, { backoffMs: 1 });
    inf.start();
    await inf.waitForSync();
    kube.put('/api/v1/pods/a', pod('a'));
    const rv = String(kube.rv);
    kube.endWatches(Object.assign(new Error('reset'), { statusCode: 500 }));
    await new Promise((r) => setTimeout(r, 20));
    expect(inf.stats).toMatchObject({ lists: 1, watchFailures: 1 });
    expect(kube.watchers.at(-1)?.query.resourceVersion).toBe(rv);
    inf.stop();
  });
  it('410 Gone triggers a re-list whose differences arrive as events (a missed delete is seen)', async () => {
    const kube = new FakeKube();
    kube.put('/api/v1/pods/a', pod('a'));
    const inf = new Informer(kube, res, { backoffMs: 1 });
    const deleted: string[] = [];
    inf.on({ delete: (o) => deleted.push(o.metadata.name ?? '') });
    inf.start();
    await inf.waitForSync();
    kube.objects.delete('/api/v1/pods/a'); // deleted while the watch was down
    kube.endWatches(Object.assign(new Error('gone'), { statusCode: 410 }));
    await new Promise((r) => setTimeout(r, 20));
    expect(inf.stats).toMatchObject({ lists: 2, gone: 1 });
    expect(deleted).toEqual(['a']);
    inf.stop();
  });
});

describe('leader election (§3.1)', () => {
  it('two replicas: one takes the free Lease, the other waits until it is released', async () => {
    const kube = new FakeKube();
    const o = {
      namespace: 'kruise-system',
      name: 'kruise-manager',
      leaseDurationMs: 60_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 10,
    };
    const a = new LeaderElector(
      kube,
      { ...o, identity: 'a' },
      { onStartedLeading() {}, onStoppedLeading() {} },
      silent,
    );
    const b = new LeaderElector(
      kube,
      { ...o, identity: 'b' },
      { onStartedLeading() {}, onStoppedLeading() {} },
      silent,
    );
    expect(await a.tryAcquireOrRenew()).toBe(true);
    expect(await b.tryAcquireOrRenew()).toBe(false);
    expect(await a.tryAcquireOrRenew()).toBe(true); // renew
    a.start();
    await new Promise((r) => setTimeout(r, 30));
    await a.stop(true); // release
    expect(await b.tryAcquireOrRenew()).toBe(true);
    const lease = kube.objects.get(
      '/apis/coordination.k8s.io/v1/namespaces/kruise-system/leases/kruise-manager',
    );
    expect(lease.spec.holderIdentity).toBe('b');
    expect(lease.spec.leaseTransitions).toBe(0); // a released (holder ''), so no transition counted
  });
});

describe('deletion protection (§1)', () => {
  const ns = (v?: string) =>
    ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'n', labels: v ? { 'policy.kruise.io/delete-protection': v } : {} },
    }) as KubeObject;
  it('the rules are those of core: the operator re-exports checkDeletionProtection and its messages', () => {
    // D1.1–D1.10 and M1–M9 are tested once, in packages/core/test/deletionProtection.test.ts.
    expect(checkDeletionProtection).toBe(core.checkDeletionProtection);
    expect(Messages).toBe(core.DeletionProtectionMessages);
  });
  it('D1.11: the AdmissionReview response of a denial has allowed false and code 403', async () => {
    const out = (await review(
      '/validate-namespace',
      {
        apiVersion: 'admission.k8s.io/v1',
        request: { uid: 'u1', operation: 'DELETE', oldObject: ns('Always') },
      },
      {
        cache: { get: () => undefined, list: () => [], ownedBy: () => [] },
        featureGates: resolveFeatureGates({ ResourcesDeletionProtection: true }),
        kruiseNamespace: 'kruise-system',
        now: () => T0,
      },
    )) as { response: unknown };
    expect(out.response).toEqual({ uid: 'u1', allowed: false, status: { code: 403, message: Messages.M1 } });
  });
  it('W2.1: Service/Ingress paths are served only with the gate on', () => {
    expect(activePaths(resolveFeatureGates({})).has('/validate-service')).toBe(false);
    expect(
      activePaths(resolveFeatureGates({ ResourcesDeletionProtection: true })).has('/validate-service'),
    ).toBe(true);
  });
});

describe('certificates (§2.8)', () => {
  it('W2.8/W2.9: the generated set is valid for its DNS name and not for another', () => {
    const c = generateCerts('kruise-webhook-service.kruise-system.svc', T0);
    expect(certsValid(c, 'kruise-webhook-service.kruise-system.svc', at(3600))).toBe(true);
    expect(certsValid(c, 'other.svc', at(3600))).toBe(false);
    expect(
      certsValid(
        { ...c, key: generateCerts('x', T0).key },
        'kruise-webhook-service.kruise-system.svc',
        at(1),
      ),
    ).toBe(false);
  });
  it('W2.9: CERTS_RENEW_BEFORE keeps kruise’s unit bug (d = 7 h, m = 30 h, y = 365 h), default 180 days', () => {
    expect(parseRenewBefore('6m')).toBe(180 * 3600 * 1000);
    expect(parseRenewBefore('2d')).toBe(14 * 3600 * 1000);
    expect(parseRenewBefore('bogus')).toBe(180 * 24 * 3600 * 1000);
  });
  it('W2.10: created once in the Secret with both key aliases, then reused', async () => {
    const kube = new FakeKube();
    const o = {
      namespace: 'kruise-system',
      secretName: 'kruise-webhook-certs',
      dnsName: '127.0.0.1',
      renewBeforeMs: parseRenewBefore(undefined),
    };
    const c1 = await ensureCerts(kube, o, T0);
    const secret = kube.objects.get('/api/v1/namespaces/kruise-system/secrets/kruise-webhook-certs');
    expect(Object.keys(secret.data).sort()).toEqual([
      'ca-cert.pem',
      'ca-key.pem',
      'cert.pem',
      'key.pem',
      'tls.crt',
      'tls.key',
    ]);
    const c2 = await ensureCerts(kube, o, at(60));
    expect(c2.cert).toBe(c1.cert);
  });
});

describe('webhook configurations (§2.9)', () => {
  const render = {
    namespace: 'kruise-system',
    serviceName: 'kruise-webhook-service',
    port: 9876,
    podFailurePolicy: 'Fail' as const,
    protectionFailurePolicy: 'Ignore' as const,
  };
  it('W2.13: caBundle set, template recorded, inactive paths dropped, Service namespace/name overwritten', () => {
    const [, validating] = webhookConfigurations(render);
    const active = activePaths(resolveFeatureGates({}));
    const out = patchConfiguration(validating, 'PEM', active, {
      ...render,
      namespace: 'elsewhere',
    }) as unknown as {
      metadata: { annotations: Record<string, string> };
      webhooks: Array<{ name: string; clientConfig: { caBundle: string; service: { namespace: string } } }>;
    };
    expect(out.webhooks.every((w) => w.clientConfig.caBundle === Buffer.from('PEM').toString('base64'))).toBe(
      true,
    );
    expect(out.webhooks.map((w) => w.name)).not.toContain('vservice.kb.io');
    expect(out.webhooks[0].clientConfig.service.namespace).toBe('elsewhere');
    expect(JSON.parse(out.metadata.annotations.template).map((w: { name: string }) => w.name)).toContain(
      'vservice.kb.io',
    );
  });
  it('§2.5: every entry excludes kube-system and control-plane: openkruise; the pod entry takes the configured failure policy', () => {
    const [mutating] = webhookConfigurations({ ...render, podFailurePolicy: 'Ignore' });
    const mpod = (mutating as unknown as { webhooks: Array<Record<string, unknown>> }).webhooks[0];
    expect(mpod).toMatchObject({
      name: 'mpod.kb.io',
      failurePolicy: 'Ignore',
      namespaceSelector: {
        matchExpressions: [
          { key: 'control-plane', operator: 'NotIn', values: ['openkruise'] },
          { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] },
        ],
      },
    });
  });
});

describe('flags (§3.3)', () => {
  it('defaults: leader election on with Lease kruise-manager in kruise-system, 15 s / 10 s / 2 s; ports 8080/8000/9876', () => {
    const o = parseOperatorArgs([], {});
    expect(o).toMatchObject({
      metricsAddr: ':8080',
      healthProbeAddr: ':8000',
      webhook: { port: 9876 },
      leaderElection: {
        enabled: true,
        namespace: 'kruise-system',
        id: 'kruise-manager',
        leaseDurationMs: 15000,
        renewDeadlineMs: 10000,
        retryPeriodMs: 2000,
      },
    });
  });
  it('--enable-deletion-protection turns the ResourcesDeletionProtection gate on; --feature-gates parses', () => {
    expect(parseOperatorArgs(['--enable-deletion-protection'], {})).toMatchObject({
      featureGates: { ResourcesDeletionProtection: true },
    });
    expect(parseOperatorArgs(['--feature-gates=PodWebhook=false'], {})).toMatchObject({
      featureGates: { PodWebhook: false },
    });
  });
  it('§0: a WEBHOOK_PORT that is not an integer is fatal', () => {
    expect(parseOperatorArgs([], { WEBHOOK_PORT: 'abc' })).toHaveProperty('error');
  });
});
