// The client stack on @kubernetes/client-node: the real transport (HttpKubeClient: client-node's
// KubeConfig, HTTP library and Watch) against a scripted plain-HTTP server; the informer on
// client-node's ListWatch (restart after a failed list or watch, 410 as a Status event, the old
// object on update, no watch after stop); typed APIs sent through a KubeClient.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeObject } from '@kruise-ts/api';
import { ApiException, CoordinationV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpKubeClient, Informer, resourceFor, type WatchEvent } from '../src/index';
import { typedApiConfiguration } from '../src/kube/typedApi';
import { FakeKube } from './helpers/fakeKube';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PODS = resourceFor('v1', 'Pod');
const pod = (name: string, owner?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'default',
    ...(owner ? { ownerReferences: [{ apiVersion: 'x/v1', kind: 'X', name: owner, uid: owner }] } : {}),
  },
});

describe('HttpKubeClient: the real transport on client-node', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    server = undefined;
  });

  async function serve(handler: http.RequestListener): Promise<HttpKubeClient> {
    server = http.createServer(handler);
    await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    // client-node accepts an http:// server only with insecure-skip-tls-verify
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: 'u', token: 'secret-token' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    return new HttpKubeClient(kc, undefined, 'client-stack-test');
  }

  it('sends method, path, query, body, content type and the bearer token; decodes the answer', async () => {
    const seen: Record<string, unknown>[] = [];
    const client = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({
          method: req.method,
          url: req.url,
          auth: req.headers.authorization,
          type: req.headers['content-type'],
          agent: req.headers['user-agent'],
          body,
        });
        res.writeHead(req.method === 'PATCH' ? 409 : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', reason: 'Conflict', code: 409 }));
      });
    });
    const got = await client.request('GET', '/api/v1/pods', { query: { limit: 5, continue: undefined } });
    expect(got.status).toBe(200);
    const patched = await client.request('PATCH', '/api/v1/namespaces/default/pods/a', {
      body: { metadata: { labels: { a: '1' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(patched).toEqual({ status: 409, body: { kind: 'Status', reason: 'Conflict', code: 409 } });
    expect(seen).toEqual([
      {
        method: 'GET',
        url: '/api/v1/pods?limit=5',
        auth: 'Bearer secret-token',
        type: undefined,
        agent: 'client-stack-test',
        body: '',
      },
      {
        method: 'PATCH',
        url: '/api/v1/namespaces/default/pods/a',
        auth: 'Bearer secret-token',
        type: 'application/merge-patch+json',
        agent: 'client-stack-test',
        body: '{"metadata":{"labels":{"a":"1"}}}',
      },
    ]);
    client.close();
  });

  it('a watch delivers each line as an event and reports the end; a 410 answer carries statusCode', async () => {
    const urls: string[] = [];
    const client = await serve((req, res) => {
      urls.push(req.url ?? '');
      if (urls.length === 2) {
        res.writeHead(410, { 'content-type': 'application/json' });
        res.end('{"kind":"Status","code":410}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`${JSON.stringify({ type: 'ADDED', object: pod('a') })}\n`);
      res.end(`${JSON.stringify({ type: 'DELETED', object: pod('a') })}\n`);
    });
    const events: WatchEvent[] = [];
    const ended = await new Promise<unknown>((resolve) =>
      client.watch('/api/v1/pods', { resourceVersion: '7' }, (e) => events.push(e), resolve),
    );
    expect(ended).toBeUndefined();
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED a', 'DELETED a']);
    const gone = await new Promise<{ statusCode?: number } | undefined>((resolve) =>
      client.watch('/api/v1/pods', { resourceVersion: '1' }, () => undefined, resolve),
    );
    expect(gone?.statusCode).toBe(410);
    expect(urls).toEqual([
      '/api/v1/pods?watch=true&resourceVersion=7',
      '/api/v1/pods?watch=true&resourceVersion=1',
    ]);
    client.close();
  });
});

describe('Informer on client-node ListWatch', () => {
  it('a failed list is retried with back-off until the cache syncs', async () => {
    const kube = new FakeKube();
    kube.put('/api/v1/pods/a', pod('a'));
    kube.failNext.push({ method: 'GET', status: 500, reason: 'InternalError' });
    kube.failNext.push({ method: 'GET', status: 503, reason: 'ServiceUnavailable' });
    const errors: string[] = [];
    const inf = new Informer(kube, PODS, { backoffMs: 1, onError: (msg) => errors.push(msg) });
    inf.start();
    await inf.waitForSync();
    expect(inf.list().map((o) => o.metadata.name)).toEqual(['a']);
    expect(inf.stats.lists).toBe(3);
    expect(errors).toEqual(['list pods failed', 'list pods failed']);
    inf.stop();
  });

  it('an update hands the handlers the old object; an owner change moves the owner index', async () => {
    const kube = new FakeKube();
    kube.put('/api/v1/pods/a', pod('a', 'one'));
    const inf = new Informer(kube, PODS, { backoffMs: 1 });
    const updates: string[] = [];
    inf.on({
      update: (old, cur) =>
        updates.push(`${old.metadata.ownerReferences?.[0].uid}->${cur.metadata.ownerReferences?.[0].uid}`),
    });
    inf.start();
    await inf.waitForSync();
    kube.put('/api/v1/pods/a', pod('a', 'two'));
    expect(updates).toEqual(['one->two']);
    expect(inf.listOwnedBy('one')).toEqual([]);
    expect(inf.listOwnedBy('two').map((o) => o.metadata.name)).toEqual(['a']);
    expect(inf.get('default/a')?.kind).toBe('Pod');
    inf.stop();
  });

  it('a 410 Status event, then the end of the stream, re-lists; objects missed meanwhile are deleted', async () => {
    const kube = new FakeKube();
    kube.put('/api/v1/pods/a', pod('a'));
    kube.put('/api/v1/pods/b', pod('b'));
    const inf = new Informer(kube, PODS, { backoffMs: 1 });
    const deleted: string[] = [];
    inf.on({ delete: (o) => deleted.push(o.metadata.name ?? '') });
    inf.start();
    await inf.waitForSync();
    kube.objects.delete('/api/v1/pods/b');
    for (const w of kube.watchers) w.onEvent({ type: 'ERROR', object: { kind: 'Status', code: 410 } });
    kube.endWatches();
    await sleep(30);
    expect(inf.stats).toMatchObject({ lists: 2, gone: 1 });
    expect(deleted).toEqual(['b']);
    expect(inf.list().map((o) => o.metadata.name)).toEqual(['a']);
    inf.stop();
  });

  it('a stream the server closes is watched again from the last resourceVersion; nothing is opened after stop', async () => {
    const kube = new FakeKube();
    const inf = new Informer(kube, PODS, { backoffMs: 5 });
    inf.start();
    await inf.waitForSync();
    kube.put('/api/v1/pods/a', pod('a'));
    const rv = String(kube.rv);
    kube.endWatches();
    await sleep(30);
    expect(inf.stats.lists).toBe(1);
    expect(kube.watchers.at(-1)?.query).toMatchObject({ resourceVersion: rv, allowWatchBookmarks: true });
    // a failed watch schedules a restart; stop() cancels it
    kube.endWatches(Object.assign(new Error('reset'), { statusCode: 500 }));
    inf.stop();
    await sleep(30);
    expect(kube.watchers).toEqual([]);
  });
});

describe('typed APIs over a KubeClient', () => {
  it('CoordinationV1Api reads through the client; a 409 becomes an ApiException with code 409', async () => {
    const kube = new FakeKube();
    kube.put('/apis/coordination.k8s.io/v1/namespaces/ns/leases/l', {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l', namespace: 'ns' },
      spec: { holderIdentity: 'a' },
    });
    const api = new CoordinationV1Api(typedApiConfiguration(kube));
    const lease = await api.readNamespacedLease({ name: 'l', namespace: 'ns' });
    expect(lease.spec?.holderIdentity).toBe('a');
    kube.failNext.push({ method: 'PUT', status: 409 });
    const err = await api
      .replaceNamespacedLease({ name: 'l', namespace: 'ns', body: lease })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiException);
    expect((err as ApiException<unknown>).code).toBe(409);
    expect(kube.log.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /apis/coordination.k8s.io/v1/namespaces/ns/leases/l',
      'PUT /apis/coordination.k8s.io/v1/namespaces/ns/leases/l',
    ]);
  });
});
