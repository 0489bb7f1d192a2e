// Kruise's deletion protection in the simulator itself (docs/reference/operator.md §1): the DELETE admission
// of the AdmissionChain (`admitDelete`, `installDeletionProtection`) on every protected kind, then
// the API server with the simulator playing kruise (`controllers: 'all'`), through kubectl and
// @kubernetes/client-node: 403 and `admission webhook "<entry>" denied the request: <M1..M9>`.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '@kruise-ts/api';
import {
  AdmissionChain,
  DELETION_PROTECTED_KINDS,
  type DeleteAdmissionContext,
  installDeletionProtection,
} from '@kruise-ts/cluster';
import { type FeatureGates, DeletionProtectionMessages as M } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import { AppsV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingFile, skipWithoutRealTool } from '../../../test/support/realTools';
import { ControllerRegistry, createDefaultRegistry } from '../src/controllers';
import { createSimulation } from '../src/scenario/run';
import { call, sampleCloneSet, startTestServer } from './apiserver/helpers';

const LABEL = 'policy.kruise.io/delete-protection';
const ON: Partial<FeatureGates> = { ResourcesDeletionProtection: true };

const obj = (apiVersion: string, kind: string, labels: Record<string, string>, spec?: object): KubeObject =>
  deepFreeze({
    apiVersion,
    kind,
    metadata: { name: 'x', namespace: 'default', labels },
    ...(spec ? { spec } : {}),
  });
const ctx = (featureGates: Partial<FeatureGates>, objects: KubeObject[] = []): DeleteAdmissionContext => ({
  now: '2024-01-01T00:00:00Z',
  featureGates,
  list: (apiVersion, kind, ns) =>
    objects.filter(
      (o) =>
        o.kind === kind &&
        o.apiVersion.split('/')[0] === apiVersion.split('/')[0] &&
        (ns === undefined || o.metadata.namespace === ns),
    ),
  get: () => undefined,
});
const chain = installDeletionProtection(new AdmissionChain());

/** One object per protected kind, as `[group/Kind, apiVersion, kind, webhook entry]`. */
const KINDS = [...DELETION_PROTECTED_KINDS].map(([key, v]) => {
  const group = key.slice(0, key.indexOf('/'));
  const kind = key.slice(key.indexOf('/') + 1);
  const apiVersion =
    group === ''
      ? 'v1'
      : group === 'apps.kruise.io'
        ? kind === 'StatefulSet'
          ? 'apps.kruise.io/v1beta1'
          : 'apps.kruise.io/v1alpha1'
        : `${group}/v1`;
  return [key, apiVersion, kind, v.webhook] as const;
});

describe('AdmissionChain DELETE admission: deletion protection (§1)', () => {
  it.each(KINDS)(
    'D1.6/D1.11 %s labelled Always → 403 "admission webhook \\"%s\\" …" (M1)',
    (_key, apiVersion, kind, webhook) => {
      const d = chain.admitDelete(obj(apiVersion, kind, { [LABEL]: 'Always' }), ctx(ON));
      expect(d).toEqual({
        allowed: false,
        code: 403,
        reason: '',
        message: `admission webhook "${webhook}" denied the request: ${M.M1}`,
      });
    },
  );

  it('D1.2: with ResourcesDeletionProtection off (the v1.8.2 default) every delete is allowed', () => {
    expect(
      chain.admitDelete(obj('apps.kruise.io/v1alpha1', 'CloneSet', { [LABEL]: 'Always' }), ctx({})),
    ).toEqual({
      allowed: true,
    });
  });

  it('D1.1: values are exact and case-sensitive (`always` is no protection)', () => {
    expect(chain.admitDelete(obj('v1', 'Namespace', { [LABEL]: 'always' }), ctx(ON)).allowed).toBe(true);
  });

  it('D1.8: a Cascading workload with spec.replicas 3 → M2(3); with 0 → allowed', () => {
    const d = chain.admitDelete(
      obj('apps/v1', 'Deployment', { [LABEL]: 'Cascading' }, { replicas: 3 }),
      ctx(ON),
    );
    expect(d).toMatchObject({
      allowed: false,
      message: `admission webhook "vbuiltindeployment.kb.io" denied the request: ${M.M2(3)}`,
    });
    expect(
      chain.admitDelete(obj('apps/v1', 'Deployment', { [LABEL]: 'Cascading' }, { replicas: 0 }), ctx(ON))
        .allowed,
    ).toBe(true);
  });

  it('D1.7: a Cascading Namespace with 2 active pods (and 1 Succeeded) → M3(2)', () => {
    const ns: KubeObject = deepFreeze({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team', labels: { [LABEL]: 'Cascading' } },
    });
    const pod = (name: string, phase: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'team' },
      status: { phase },
    });
    const d = chain.admitDelete(
      ns,
      ctx(ON, [pod('a', 'Running'), pod('b', 'Pending'), pod('c', 'Succeeded')]),
    );
    expect(d).toMatchObject({
      code: 403,
      message: `admission webhook "vnamespace.kb.io" denied the request: ${M.M3(2)}`,
    });
  });

  it('D1.9: a Cascading CRD without the cascading gate → M8; with it and 1 live CR → M5(1)', () => {
    const crd: KubeObject = deepFreeze({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'clonesets.apps.kruise.io', labels: { [LABEL]: 'Cascading' } },
      spec: {
        group: 'apps.kruise.io',
        names: { kind: 'CloneSet', listKind: 'CloneSetList' },
        versions: [{ name: 'v1alpha1', storage: true }],
      },
    });
    const entry = 'admission webhook "vcustomresourcedefinition.kb.io" denied the request: ';
    expect(chain.admitDelete(crd, ctx(ON))).toMatchObject({ message: entry + M.M8 });
    const cr = obj('apps.kruise.io/v1alpha1', 'CloneSet', {});
    const gates = { ...ON, DeletionProtectionForCRDCascadingGate: true };
    expect(chain.admitDelete(crd, ctx(gates, [cr]))).toMatchObject({ message: entry + M.M5(1) });
    expect(chain.admitDelete(crd, ctx(gates, [])).allowed).toBe(true);
  });

  it('D1.10: Service and Ingress ignore Cascading', () => {
    expect(chain.admitDelete(obj('v1', 'Service', { [LABEL]: 'Cascading' }), ctx(ON)).allowed).toBe(true);
    expect(
      chain.admitDelete(obj('networking.k8s.io/v1', 'Ingress', { [LABEL]: 'Cascading' }), ctx(ON)).allowed,
    ).toBe(true);
  });

  it('§1.3 not protected: Advanced DaemonSet, Pods, Jobs', () => {
    for (const [apiVersion, kind] of [
      ['apps.kruise.io/v1alpha1', 'DaemonSet'],
      ['v1', 'Pod'],
      ['batch/v1', 'Job'],
    ])
      expect(chain.admitDelete(obj(apiVersion, kind, { [LABEL]: 'Always' }), ctx(ON)).allowed).toBe(true);
  });

  it('installed with the controllers (default registry), not by an empty registry (serve --controllers none)', () => {
    const cs = obj('apps.kruise.io/v1alpha1', 'CloneSet', { [LABEL]: 'Always' });
    expect(
      createDefaultRegistry().installAdmission(new AdmissionChain()).admitDelete(cs, ctx(ON)).allowed,
    ).toBe(false);
    expect(
      new ControllerRegistry().installAdmission(new AdmissionChain()).admitDelete(cs, ctx(ON)).allowed,
    ).toBe(true);
    // idempotent: installing twice registers one validator per kind; a clone keeps it
    const twice = installDeletionProtection(installDeletionProtection(new AdmissionChain())).clone();
    expect(twice.admitDelete(cs, ctx(ON)).allowed).toBe(false);
  });

  it('a validator that throws refuses with a 500 InternalError', () => {
    const c = new AdmissionChain().registerDelete('v1', 'ConfigMap', () => {
      throw new Error('boom');
    });
    expect(c.admitDelete(obj('v1', 'ConfigMap', {}), ctx(ON))).toMatchObject({
      allowed: false,
      code: 500,
      reason: 'InternalError',
    });
  });
});

const KUBECTL = '/usr/bin/kubectl';
const CS = '/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets';

function kubectl(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(KUBECTL, args, { env, timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the API server playing kruise enforces deletion protection (gate on)', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    s = await startTestServer({ featureGates: ON });
    const home = join(s.dir, 'home');
    mkdirSync(home);
    env = { PATH: process.env.PATH, HOME: home, KUBECONFIG: s.kubeconfigPath };
  });
  afterAll(async () => {
    await s?.close();
  });

  it.skipIf(
    skipWithoutRealTool('kubectl delete under deletion protection', missingFile(KUBECTL, existsSync)),
  )(
    'kubectl delete of a CloneSet labelled Always fails with the webhook denial; unlabelled, it goes',
    async () => {
      const body = sampleCloneSet('keep', 2);
      body.metadata.labels[LABEL] = 'Always';
      expect((await call(s.url, 'POST', CS, body)).status).toBe(201);
      const r = await kubectl(env, 'delete', 'clone', 'keep');
      expect(r.code).not.toBe(0);
      expect(r.stderr.trim()).toBe(
        `Error from server: admission webhook "vcloneset.kb.io" denied the request: ${M.M1}`,
      );
      expect((await call(s.url, 'GET', `${CS}/keep`)).status).toBe(200);
      expect((await kubectl(env, 'label', 'clone', 'keep', `${LABEL}-`)).code).toBe(0);
      const ok = await kubectl(env, 'delete', 'clone', 'keep');
      expect(ok.stdout).toContain('cloneset.apps.kruise.io "keep" deleted');
    },
  );

  it('D1.8 over HTTP: Cascading with replicas 3 → 403 M2(3); scaled to 0 → deleted', async () => {
    const body = sampleCloneSet('casc', 3);
    body.metadata.labels[LABEL] = 'Cascading';
    await call(s.url, 'POST', CS, body);
    const r = await call(s.url, 'DELETE', `${CS}/casc`);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({
      kind: 'Status',
      code: 403,
      message: `admission webhook "vcloneset.kb.io" denied the request: ${M.M2(3)}`,
    });
    await call(
      s.url,
      'PATCH',
      `${CS}/casc`,
      { spec: { replicas: 0 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect((await call(s.url, 'DELETE', `${CS}/casc`)).status).toBe(200);
  });

  it('D1.11: a dry-run delete is refused like a real one', async () => {
    const body = sampleCloneSet('dry', 1);
    body.metadata.labels[LABEL] = 'Always';
    await call(s.url, 'POST', CS, body);
    expect((await call(s.url, 'DELETE', `${CS}/dry?dryRun=All`)).status).toBe(403);
  });

  it('D1.7 over HTTP: a Cascading Namespace with running pods → 403 M3', async () => {
    await call(s.url, 'POST', '/api/v1/namespaces', {
      metadata: { name: 'team', labels: { [LABEL]: 'Cascading' } },
    });
    await call(
      s.url,
      'POST',
      '/apis/apps.kruise.io/v1alpha1/namespaces/team/clonesets',
      sampleCloneSet('web', 2),
    );
    s.advance(20_000);
    const r = await call(s.url, 'DELETE', '/api/v1/namespaces/team');
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(`admission webhook "vnamespace.kb.io" denied the request: ${M.M3(2)}`);
  });

  it('client-node: AppsV1Api.deleteNamespacedDeployment of an Always Deployment rejects with code 403', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(s.kubeconfigPath);
    const apps = kc.makeApiClient(AppsV1Api);
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'd', labels: { [LABEL]: 'Always' } },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'd' } },
          template: {
            metadata: { labels: { app: 'd' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        },
      },
    });
    const err = await apps.deleteNamespacedDeployment({ namespace: 'default', name: 'd' }).catch((e) => e);
    expect(err.code).toBe(403);
    expect(JSON.parse(err.body).message).toBe(
      `admission webhook "vbuiltindeployment.kb.io" denied the request: ${M.M1}`,
    );
  });
});

describe('which simulation enforces it', () => {
  it('the default server (gate off, as v1.8.2) lets a labelled CloneSet go', async () => {
    const s = await startTestServer();
    try {
      const body = sampleCloneSet('x', 1);
      body.metadata.labels[LABEL] = 'Always';
      await call(s.url, 'POST', CS, body);
      expect((await call(s.url, 'DELETE', `${CS}/x`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('a served scenario simulation uses its own gates (cluster.featureGates)', async () => {
    const cs = sampleCloneSet('scn', 1);
    cs.metadata.namespace = 'default';
    cs.metadata.labels[LABEL] = 'Always';
    const sim = createSimulation([cs], { seed: 1, featureGates: ON, startTime: new Date().toISOString() });
    const s = await startTestServer({ simulation: sim });
    try {
      expect((await call(s.url, 'DELETE', `${CS}/scn`)).status).toBe(403);
    } finally {
      await s.close();
    }
  });

  it('controllers: none leaves it to the operator: the simulator itself does not check', async () => {
    const s = await startTestServer({ controllers: 'none', featureGates: ON });
    try {
      const body = sampleCloneSet('ext', 1);
      body.metadata.labels[LABEL] = 'Always';
      await call(s.url, 'POST', CS, body);
      expect((await call(s.url, 'DELETE', `${CS}/ext`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
