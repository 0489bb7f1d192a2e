// ClientNodeKube against a tiny fake API server over HTTP: the paths, verbs, selectors, content types
// and error mapping the daemon relies on. (Its end-to-end test against `kruise-ts serve` comes with
// that server.)
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { NodeImage } from '@kruise-ts/api';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientNodeKube, KubeConflictError, type WatchEvent } from '../src/index';
import { eventually } from './support/helpers';

interface Req {
  method: string;
  url: string;
  contentType?: string;
  body?: unknown;
}

const NI: NodeImage = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'NodeImage',
  metadata: { name: 'n1', resourceVersion: '5' },
  spec: { images: {} },
};

describe('ClientNodeKube over HTTP (fake API server)', () => {
  let server: Server;
  const reqs: Req[] = [];
  const watchers: ServerResponse[] = [];
  let kube: ClientNodeKube;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let data = '';
      req.on('data', (c) => {
        data += c;
      });
      req.on('end', () => {
        const url = req.url ?? '';
        reqs.push({
          method: req.method ?? '',
          url,
          contentType: req.headers['content-type'],
          body: data ? JSON.parse(data) : undefined,
        });
        const json = (code: number, body: unknown) => {
          res.writeHead(code, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (url.includes('watch=true')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.flushHeaders();
          watchers.push(res);
          if (url.includes('/nodeimages')) {
            res.write(
              `${JSON.stringify({ type: 'MODIFIED', object: { ...NI, metadata: { name: 'n1', resourceVersion: '6' }, spec: { images: { a: { tags: [] } } } } })}\n`,
            );
          }
          return;
        }
        if (req.method === 'GET' && url.startsWith('/apis/apps.kruise.io/v1alpha1/nodeimages?'))
          return json(200, { items: [NI], metadata: { resourceVersion: '5' } });
        if (
          req.method === 'GET' &&
          url.startsWith('/apis/apps.kruise.io/v1alpha1/containerrecreaterequests?')
        )
          return json(200, { items: [], metadata: { resourceVersion: '9' } });
        if (req.method === 'PUT' && url === '/apis/apps.kruise.io/v1alpha1/nodeimages/n1/status') {
          const body = JSON.parse(data) as NodeImage;
          if (body.metadata.resourceVersion !== '5')
            return json(409, { kind: 'Status', code: 409, message: 'the object has been modified' });
          return json(200, { ...body, metadata: { ...body.metadata, resourceVersion: '7' } });
        }
        if (req.method === 'GET' && url === '/api/v1/namespaces/ns/secrets/s1')
          return json(200, {
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: 's1', namespace: 'ns' },
            data: { a: 'Yg==' },
          });
        if (req.method === 'GET' && url.startsWith('/api/v1/namespaces/ns/secrets/'))
          return json(404, { kind: 'Status', code: 404, message: 'not found' });
        if (
          req.method === 'PATCH' &&
          url === '/apis/apps.kruise.io/v1alpha1/namespaces/ns/containerrecreaterequests/r1/status'
        )
          return json(200, { metadata: { name: 'r1' }, status: JSON.parse(data).status });
        if (req.method === 'POST' && url === '/api/v1/namespaces/ns/events')
          return json(201, JSON.parse(data));
        json(404, { kind: 'Status', code: 404, message: `no route ${req.method} ${url}` });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    kube = new ClientNodeKube({ kubeConfig: kc, rewatchDelayMs: 60_000 });
  });

  afterAll(async () => {
    for (const w of watchers) w.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('§7.2 item 1: lists then watches the NodeImage by field selector metadata.name', async () => {
    const events: WatchEvent<NodeImage>[] = [];
    const stop = await kube.watchNodeImage('n1', (e) => events.push(e));
    await eventually('the watch event', () => events.length >= 2 || undefined, 10_000);
    stop();
    expect(events.map((e) => [e.type, e.object.metadata.resourceVersion])).toEqual([
      ['ADDED', '5'],
      ['MODIFIED', '6'],
    ]);
    const watch = reqs.find((r) => r.url.includes('/nodeimages') && r.url.includes('watch=true'));
    expect(decodeURIComponent(watch?.url ?? '')).toContain('fieldSelector=metadata.name=n1');
    expect(watch?.url).toContain('resourceVersion=5');
  });

  it('§9.2 item 1: watches CRRs in all namespaces with the node-name and active labels', async () => {
    const stop = await kube.watchContainerRecreateRequests('n1', () => undefined);
    await eventually(
      'the CRR watch',
      () =>
        reqs.some((r) => r.url.includes('containerrecreaterequests') && r.url.includes('watch=true')) ||
        undefined,
      10_000,
    );
    stop();
    const list = reqs.find(
      (r) =>
        r.url.startsWith('/apis/apps.kruise.io/v1alpha1/containerrecreaterequests?') &&
        !r.url.includes('watch=true'),
    );
    expect(decodeURIComponent(list?.url ?? '')).toContain(
      'labelSelector=crr.apps.kruise.io/node-name=n1,crr.apps.kruise.io/active=true',
    );
  });

  it('§7.3 item 3.3: replaces the NodeImage status; a 409 becomes KubeConflictError', async () => {
    const out = await kube.updateNodeImageStatus(NI, { desired: 1, succeeded: 1 });
    expect(out.metadata.resourceVersion).toBe('7');
    expect(reqs.at(-1)).toMatchObject({ method: 'PUT', body: { status: { desired: 1, succeeded: 1 } } });
    await expect(
      kube.updateNodeImageStatus({ ...NI, metadata: { name: 'n1', resourceVersion: '4' } }, { desired: 0 }),
    ).rejects.toBeInstanceOf(KubeConflictError);
  });

  it('§7.4 item 1.1: reads secrets; a missing secret is undefined', async () => {
    expect((await kube.getSecret('ns', 's1'))?.data).toEqual({ a: 'Yg==' });
    expect(await kube.getSecret('ns', 'nope')).toBeUndefined();
  });

  it('§9.3 item 5: merge-patches the CRR status', async () => {
    await kube.patchContainerRecreateRequestStatus('ns', 'r1', {
      containerRecreateStates: [{ name: 'a', phase: 'Pending' }],
    });
    const r = reqs.at(-1);
    expect(r?.method).toBe('PATCH');
    expect(r?.contentType).toBe('application/merge-patch+json');
    expect(r?.body).toEqual({ status: { containerRecreateStates: [{ name: 'a', phase: 'Pending' }] } });
  });

  it('records core/v1 events in the object namespace', async () => {
    await kube.recordEvent({
      involvedObject: { kind: 'Pod', namespace: 'ns', name: 'p' },
      type: 'Normal',
      reason: 'Killing',
      message: 'm',
    });
    expect(reqs.at(-1)).toMatchObject({
      method: 'POST',
      url: '/api/v1/namespaces/ns/events',
      body: { reason: 'Killing', type: 'Normal', message: 'm' },
    });
  });
});
