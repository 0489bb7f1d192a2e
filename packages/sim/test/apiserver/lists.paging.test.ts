// Paged lists (src/apiserver/pagination.ts): `limit` and `continue` with every page served at the
// first page's resourceVersion while the cluster changes in between, `remainingItemCount` when
// nothing is filtered, `410 Expired` with kube-apiserver's wording and a go-on token when the
// token's resourceVersion has left the history window, 400 for a token that cannot be read; and
// the real kubectl paging through a list (`--chunk-size`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INCONSISTENT_CONTINUE } from '../../src/apiserver/pagination';
import { call, startTestServer } from './helpers';
import { kubectlFor, skipWithoutKubectl } from './kubectlRunner';

const CM = '/api/v1/namespaces/default/configmaps';
const configMap = (name: string, data: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels },
  data: { v: data },
});
const names = (items: any[]) => items.map((o) => o.metadata.name);
const decode = (token: string) => JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));

describe('paged lists', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;

  beforeAll(async () => {
    s = await startTestServer({ controllers: 'none' });
    for (let i = 0; i < 25; i++) {
      const name = `cm-${String(i).padStart(2, '0')}`;
      const r = await call(
        s.url,
        'POST',
        CM,
        configMap(name, 'v1', { parity: i % 2 === 0 ? 'even' : 'odd' }),
      );
      expect(r.status).toBe(201);
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  it('limit gives a page, a continue token and the remaining count', async () => {
    const r = await call(s.url, 'GET', `${CM}?limit=10`);
    expect(r.status).toBe(200);
    expect(names(r.body.items)).toEqual(
      Array.from({ length: 10 }, (_, i) => `cm-${String(i).padStart(2, '0')}`),
    );
    expect(r.body.metadata.remainingItemCount).toBe(15);
    expect(decode(r.body.metadata.continue)).toEqual({
      v: 'meta.k8s.io/v1',
      rv: Number(r.body.metadata.resourceVersion),
      start: 'cm-09\u0000',
    });
    const last = await call(s.url, 'GET', `${CM}?limit=30`);
    expect(last.body.items).toHaveLength(25);
    expect(last.body.metadata.continue).toBeUndefined();
  });

  it('every page is served at the first page resourceVersion while objects change in between', async () => {
    const first = await call(s.url, 'GET', `${CM}?limit=10`);
    const rv = first.body.metadata.resourceVersion;
    const before = (await call(s.url, 'GET', CM)).body.items;
    // change the world: modify one on a later page, delete one, add one
    expect(
      (
        await call(
          s.url,
          'PATCH',
          `${CM}/cm-15`,
          { data: { v: 'v2' } },
          {
            'Content-Type': 'application/merge-patch+json',
          },
        )
      ).status,
    ).toBe(200);
    expect((await call(s.url, 'DELETE', `${CM}/cm-20`)).status).toBe(200);
    expect((await call(s.url, 'POST', CM, configMap('cm-12a', 'new'))).status).toBe(201);
    const pages = [first.body];
    let token = first.body.metadata.continue;
    while (token) {
      const p = await call(s.url, 'GET', `${CM}?limit=10&continue=${encodeURIComponent(token)}`);
      expect(p.status).toBe(200);
      expect(p.body.metadata.resourceVersion).toBe(rv);
      pages.push(p.body);
      token = p.body.metadata.continue;
    }
    const all = pages.flatMap((p) => p.items);
    expect(all).toEqual(before);
    expect(all.find((o: any) => o.metadata.name === 'cm-15').data.v).toBe('v1');
    expect(names(all)).toContain('cm-20');
    expect(names(all)).not.toContain('cm-12a');
    // a new list sees the changes
    const now = (await call(s.url, 'GET', CM)).body.items;
    expect(names(now)).toContain('cm-12a');
    expect(names(now)).not.toContain('cm-20');
  });

  it('a selector pages over the matching objects only, without a remaining count', async () => {
    const r = await call(s.url, 'GET', `${CM}?limit=4&labelSelector=parity%3Deven`);
    expect(r.body.items).toHaveLength(4);
    expect(r.body.items.every((o: any) => o.metadata.labels.parity === 'even')).toBe(true);
    expect(r.body.metadata.remainingItemCount).toBeUndefined();
    const rest = await call(
      s.url,
      'GET',
      `${CM}?limit=100&labelSelector=parity%3Deven&continue=${encodeURIComponent(r.body.metadata.continue)}`,
    );
    const all = [...r.body.items, ...rest.body.items];
    expect(names(all)).toEqual(
      names((await call(s.url, 'GET', `${CM}?labelSelector=parity%3Deven`)).body.items),
    );
  });

  it('a token whose resourceVersion left the history is 410 Expired with a token to go on at the latest state', async () => {
    const first = await call(s.url, 'GET', `${CM}?limit=5`);
    await call(s.url, 'POST', CM, configMap('cm-late', 'x'));
    s.expireWatchHistory();
    const r = await call(
      s.url,
      'GET',
      `${CM}?limit=5&continue=${encodeURIComponent(first.body.metadata.continue)}`,
    );
    expect(r.status).toBe(410);
    expect(r.body.reason).toBe('Expired');
    expect(r.body.message).toBe(INCONSISTENT_CONTINUE);
    const goOn = decode(r.body.metadata.continue);
    expect(goOn.rv).toBe(-1);
    const rest = await call(
      s.url,
      'GET',
      `${CM}?limit=100&continue=${encodeURIComponent(r.body.metadata.continue)}`,
    );
    expect(rest.status).toBe(200);
    expect(names(rest.body.items)[0]).toBe('cm-05');
    expect(names(rest.body.items)).toContain('cm-late');
  });

  it('a token that cannot be read is 400; continue with resourceVersion is 400', async () => {
    const r = await call(s.url, 'GET', `${CM}?limit=5&continue=%%%`);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^continue key is not valid/);
    const token = Buffer.from('{"v":"meta.k8s.io/v1","rv":1,"start":"a"}').toString('base64url');
    const both = await call(s.url, 'GET', `${CM}?limit=5&resourceVersion=3&continue=${token}`);
    expect(both.status).toBe(400);
    expect(both.body.message).toBe('specifying resource version is not allowed when using continue');
  });
});

const SKIP = skipWithoutKubectl('kubectl pages through a list');
describe.skipIf(SKIP)('kubectl pages through a list', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    s = await startTestServer({ controllers: 'none' });
    for (let i = 0; i < 12; i++)
      await call(s.url, 'POST', CM, configMap(`page-${String(i).padStart(2, '0')}`, 'x'));
  });
  afterAll(async () => {
    await s?.close();
  });

  it('kubectl get --chunk-size=5 lists every object once, in order', async () => {
    const kubectl = kubectlFor(s.kubeconfigPath, s.dir);
    const r = await kubectl('get', 'configmaps', '--chunk-size=5', '-o', 'name', '-v=6');
    expect(r.code).toBe(0);
    const listed = r.stdout.trim().split('\n');
    expect(listed).toEqual(
      Array.from({ length: 12 }, (_, i) => `configmap/page-${String(i).padStart(2, '0')}`),
    );
    // kubectl followed the continue tokens: three requests with limit=5
    expect(r.stderr.match(/limit=5/g)?.length).toBe(3);
    expect(r.stderr).toContain('continue=');
  });
});
