// The conversion webhook (docs/reference/operator.md W2.2): `/convert` answers ConversionReview v1 and v1beta1
// with convertStatefulSet; W2.14's CRD patching (which CRDs, the desired clientConfig, UPDATE only
// when it differs); the HTTPS server serves /convert on every replica; deploy/crds is api's CRDs
// plus the conversion stanza on statefulsets only.
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { fileURLToPath } from 'node:url';
import { crdManifests, type KubeObject } from '@kruise-ts/api';
import { resolveFeatureGates } from '@kruise-ts/core';
import { convertStatefulSet } from '@kruise-ts/statefulset';
import { describe, expect, it } from 'vitest';
import { CONVERSION_CRD_FILE, deployCrdText } from '../scripts/copy-crds';
import { generateCerts } from '../src/webhook/certs';
import {
  conversionClientConfig,
  convertReview,
  isConversionCrd,
  patchConversionCrd,
  syncConversionCrds,
} from '../src/webhook/conversion';
import { startWebhookServer } from '../src/webhook/server';
import { FakeKube } from './helpers/fakeKube';

const ALPHA = 'apps.kruise.io/v1alpha1';
const BETA = 'apps.kruise.io/v1beta1';

function sts(apiVersion: string, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion,
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
      ...extra,
    },
    status: { replicas: 3, readyReplicas: 3, updatedReadyReplicas: 1 },
  } as KubeObject;
}

const reviewOf = (reviewVersion: string, desiredAPIVersion: unknown, objects: unknown[]) => ({
  apiVersion: `apiextensions.k8s.io/${reviewVersion}`,
  kind: 'ConversionReview',
  request: { uid: 'uid-1', desiredAPIVersion, objects },
});

describe('W2.2 /convert handler', () => {
  it.each(['v1', 'v1beta1'])(
    'ConversionReview %s: Success with convertStatefulSet results in request order',
    (rv) => {
      const a = sts(ALPHA);
      const b = sts(BETA, { reserveOrdinals: [2] });
      const out = convertReview(reviewOf(rv, BETA, [a, b]));
      expect(out.code).toBe(200);
      expect(out.body).toEqual({
        apiVersion: `apiextensions.k8s.io/${rv}`,
        kind: 'ConversionReview',
        response: {
          uid: 'uid-1',
          result: { status: 'Success' },
          convertedObjects: [convertStatefulSet(a as never, BETA), b],
        },
      });
    },
  );

  it('v1beta1 → v1alpha1 drops the v1beta1-only fields (docs/reference/statefulset.md §2.3)', () => {
    const out = convertReview(
      reviewOf('v1', ALPHA, [sts(BETA, { reserveOrdinals: [2], ordinals: { start: 1 } })]),
    );
    const [o] = (out.body as any).response.convertedObjects;
    expect(o.apiVersion).toBe(ALPHA);
    expect(o.spec.reserveOrdinals).toBeUndefined();
    expect(o.spec.ordinals).toBeUndefined();
    expect(o.status).toEqual({ replicas: 3, readyReplicas: 3 });
    expect(o.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 1 } });
  });

  it('an empty objects list is a Success with no objects', () => {
    expect((convertReview(reviewOf('v1', BETA, [])).body as any).response).toEqual({
      uid: 'uid-1',
      result: { status: 'Success' },
      convertedObjects: [],
    });
  });

  it.each([
    [
      'another kind',
      BETA,
      [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: {} }],
      /CloneSet/,
    ],
    ['an unknown desired version', 'apps.kruise.io/v2', [sts(ALPHA)], /apps\.kruise\.io\/v2/],
    ['no desired version', undefined, [sts(ALPHA)], /desiredAPIVersion/],
    ['a non-object', BETA, [42], /not a JSON object/],
  ])('%s: result Failure with a message, nothing converted', (_what, desired, objects, message) => {
    const out = convertReview(reviewOf('v1', desired, objects));
    expect(out.code).toBe(200);
    const resp = (out.body as any).response;
    expect(resp.uid).toBe('uid-1');
    expect(resp.result.status).toBe('Failure');
    expect(resp.result.message).toMatch(message);
    expect(resp.convertedObjects).toBeUndefined();
  });

  it.each([
    [
      'not a ConversionReview',
      { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 'x' } },
    ],
    ['no request', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' }],
    ['no uid', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { objects: [] } }],
    ['not an object', 'hello'],
  ])('%s: HTTP 400', (_what, body) => {
    expect(convertReview(body).code).toBe(400);
  });
});

const stsCrd = () => crdManifests().find((c) => c.metadata.name === 'statefulsets.apps.kruise.io')!;
const withConversion = (crd: KubeObject, conversion: unknown) =>
  ({ ...crd, spec: { ...(crd.spec as object), conversion } }) as KubeObject;
const TARGET = { namespace: 'kruise-system', serviceName: 'kruise-webhook-service', port: 9876 };
const PEM = '-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----\n';

describe('W2.14 CRD conversion patching', () => {
  it('only CRDs with strategy Webhook, versions, and (group, versions[0], kind) a Kruise kind qualify', () => {
    const crd = stsCrd();
    expect(isConversionCrd(crd)).toBe(false); // api's CRD: no conversion stanza (None)
    expect(isConversionCrd(withConversion(crd, { strategy: 'None' }))).toBe(false);
    expect(isConversionCrd(withConversion(crd, { strategy: 'Webhook' }))).toBe(true);
    const foreign = withConversion(
      { ...crd, spec: { ...(crd.spec as object), group: 'example.com' } } as KubeObject,
      { strategy: 'Webhook' },
    );
    expect(isConversionCrd(foreign)).toBe(false);
    const noVersions = withConversion(
      { ...crd, spec: { ...(crd.spec as object), versions: [] } } as KubeObject,
      { strategy: 'Webhook' },
    );
    expect(isConversionCrd(noVersions)).toBe(false);
  });

  it('desired clientConfig: service {namespace, name, port 443, path /convert} + caBundle; url with WEBHOOK_HOST', () => {
    const ca = Buffer.from(PEM).toString('base64');
    expect(conversionClientConfig(PEM, TARGET)).toEqual({
      service: { namespace: 'kruise-system', name: 'kruise-webhook-service', port: 443, path: '/convert' },
      caBundle: ca,
    });
    expect(conversionClientConfig(PEM, { ...TARGET, host: '127.0.0.1' })).toEqual({
      url: 'https://127.0.0.1:9876/convert',
      caBundle: ca,
    });
  });

  it('sets conversion.webhook {clientConfig, conversionReviewVersions [v1, v1beta1]} when absent or different; nothing when equal', () => {
    const crd = withConversion(stsCrd(), { strategy: 'Webhook' });
    const next = patchConversionCrd(crd, PEM, TARGET)!;
    expect((next.spec as any).conversion).toEqual({
      strategy: 'Webhook',
      webhook: {
        clientConfig: conversionClientConfig(PEM, TARGET),
        conversionReviewVersions: ['v1', 'v1beta1'],
      },
    });
    expect(patchConversionCrd(next, PEM, TARGET)).toBeUndefined();
    expect(patchConversionCrd(next, `${PEM}x`, TARGET)).toBeDefined(); // caBundle changed
    expect(patchConversionCrd(stsCrd(), PEM, TARGET)).toBeUndefined(); // strategy None: untouched
  });

  it('syncConversionCrds UPDATEs only the conversion CRD, once', async () => {
    const kube = new FakeKube();
    const base = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    for (const crd of crdManifests()) {
      const c =
        crd.metadata.name === 'statefulsets.apps.kruise.io'
          ? withConversion(crd, { strategy: 'Webhook' })
          : crd;
      kube.objects.set(`${base}/${crd.metadata.name}`, {
        ...c,
        metadata: { ...c.metadata, resourceVersion: '1' },
      });
    }
    expect(await syncConversionCrds(kube, PEM, TARGET)).toEqual(['statefulsets.apps.kruise.io']);
    const puts = kube.log.filter((l) => l.method === 'PUT');
    expect(puts.map((l) => l.path)).toEqual([`${base}/statefulsets.apps.kruise.io`]);
    expect(
      (kube.objects.get(`${base}/statefulsets.apps.kruise.io`) as any).spec.conversion.webhook.clientConfig,
    ).toEqual(conversionClientConfig(PEM, TARGET));
    expect(await syncConversionCrds(kube, PEM, TARGET)).toEqual([]);
  });
});

describe('W2.5 the HTTPS server serves /convert', () => {
  it('POST /convert over TLS answers the review; the request is reported to onRequest', async () => {
    const certs = generateCerts('127.0.0.1', new Date());
    const seen: Array<[string, boolean]> = [];
    const server = await startWebhookServer(
      { host: '127.0.0.1', port: 0, cert: certs.cert, key: certs.key, active: new Set() },
      {
        cache: { get: () => undefined, list: () => [], ownedBy: () => [] } as never,
        featureGates: resolveFeatureGates({}),
        kruiseNamespace: 'kruise-system',
        now: () => new Date(0),
      },
      (path, ok) => seen.push([path, ok]),
    );
    try {
      const post = (body: unknown) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const text = JSON.stringify(body);
          const req = request(
            {
              host: '127.0.0.1',
              port: server.port,
              path: '/convert?timeout=30s',
              method: 'POST',
              ca: certs.caCert,
              headers: { 'Content-Type': 'application/json' },
            },
            (res) => {
              let data = '';
              res.on('data', (c) => {
                data += c;
              });
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
            },
          );
          req.on('error', reject);
          req.end(text);
        });
      const ok = await post(reviewOf('v1', BETA, [sts(ALPHA)]));
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body).response.convertedObjects[0].apiVersion).toBe(BETA);
      const bad = await post(reviewOf('v1', BETA, [{ apiVersion: 'v1', kind: 'Pod', metadata: {} }]));
      expect(JSON.parse(bad.body).response.result.status).toBe('Failure');
      expect((await post({ hello: 1 })).status).toBe(400);
      expect(seen).toEqual([
        ['/convert', true],
        ['/convert', false],
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('deploy/crds (copy of packages/api/crds)', () => {
  const api = fileURLToPath(new URL('../../api/crds/', import.meta.url));
  const deploy = fileURLToPath(new URL('../deploy/crds/', import.meta.url));
  const files = readdirSync(api).filter((f) => f.endsWith('.yaml'));

  it.each(files)(
    "%s is api's file (statefulsets: plus the conversion stanza); rerun scripts/copy-crds.ts if this fails",
    (f) => {
      expect(readFileSync(`${deploy}${f}`, 'utf8')).toBe(
        deployCrdText(f, readFileSync(`${api}${f}`, 'utf8')),
      );
    },
  );

  it('only statefulsets.apps.kruise.io carries conversion: strategy Webhook, service kruise-system/kruise-webhook-service /convert, [v1, v1beta1]', () => {
    const withStanza = readdirSync(deploy).filter((f) =>
      readFileSync(`${deploy}${f}`, 'utf8').includes('conversion:'),
    );
    expect(withStanza).toEqual([CONVERSION_CRD_FILE]);
    const text = readFileSync(`${deploy}${CONVERSION_CRD_FILE}`, 'utf8');
    expect(text).toContain(
      [
        'spec:',
        '  conversion:',
        '    strategy: Webhook',
        '    webhook:',
        '      clientConfig:',
        '        service:',
        '          namespace: kruise-system',
        '          name: kruise-webhook-service',
        '          path: /convert',
        '      conversionReviewVersions:',
        '        - v1',
        '        - v1beta1',
        '  group: apps.kruise.io',
      ].join('\n'),
    );
  });
});
