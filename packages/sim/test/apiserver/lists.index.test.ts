// Selectors served from an index (src/apiserver/selectorIndex.ts): a list with an equality label
// or field selector looks only at the objects carrying the value (counted by `lastVisited`, not
// timed), follows every write (label changes, rebinding, deletion), and answers exactly what
// filtering every object answers, for equality, set-based, inequality and mixed selectors.
import type { KubeObject } from '@kruise-ts/api';
import { Store } from '@kruise-ts/cluster';
import { describe, expect, it } from 'vitest';
import { compileFilter, matchesFilter } from '../../src/apiserver/filters';
import { SelectorIndex } from '../../src/apiserver/selectorIndex';
import { call, startTestServer } from './helpers';

const newStore = () =>
  new Store({
    seed: 1,
    now: () => '2024-01-01T00:00:00Z',
    nowMs: () => 0,
    at: () => '2024-01-01T00:00:00Z',
  });

const pod = (name: string, labels: Record<string, string>, nodeName?: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...(nodeName ? { nodeName } : {}) },
  }) as KubeObject;

describe('selector index', () => {
  it('an equality selector matching 3 of 10,000 pods looks at 3 of them', () => {
    const store = newStore();
    for (let i = 0; i < 10_000; i++)
      store.create(pod(`bulk-${i}`, { app: 'bulk', shard: String(i % 10) }, `node-${i % 100}`), 'test');
    for (let i = 0; i < 3; i++) store.create(pod(`rare-${i}`, { app: 'rare' }), 'test');
    const index = new SelectorIndex(store);
    const rare = index.select('v1', 'Pod', undefined, compileFilter('app=rare', null));
    expect(rare?.map((p) => p.metadata.name)).toEqual(['rare-0', 'rare-1', 'rare-2']);
    expect(index.lastVisited).toBe(3);
    // nothing matches: nothing is looked at
    expect(index.select('v1', 'Pod', undefined, compileFilter('app=none', null))).toEqual([]);
    expect(index.lastVisited).toBe(0);
    // the smallest posting list among the requirements is the one walked
    const mixed = index.select(
      'v1',
      'Pod',
      'default',
      compileFilter('app=bulk,shard=3', 'spec.nodeName=node-3'),
    );
    expect(mixed).toHaveLength(100);
    expect(index.lastVisited).toBe(100);
    // no equality requirement: the caller filters the kind
    expect(index.select('v1', 'Pod', undefined, compileFilter('app!=bulk', null))).toBeUndefined();
  });

  it('follows writes: created after the index, relabelled, bound to a node, deleted', () => {
    const store = newStore();
    const index = new SelectorIndex(store);
    store.create(pod('a', { app: 'x' }), 'test');
    store.create(pod('b', { app: 'x' }), 'test');
    const names = (sel: string | null, fields: string | null = null) =>
      index.select('v1', 'Pod', undefined, compileFilter(sel, fields))?.map((p) => p.metadata.name);
    expect(names('app=x')).toEqual(['a', 'b']);
    store.patch(
      { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'a' },
      'merge',
      { metadata: { labels: { app: 'y' } } },
      'test',
    );
    expect(names('app=x')).toEqual(['b']);
    expect(names('app in (x,y)')).toEqual(['a', 'b']);
    expect(names(null, 'spec.nodeName=')).toEqual(['a', 'b']);
    store.bind('/Pod/default/b', 'node-1', 'scheduler');
    expect(names(null, 'spec.nodeName=node-1')).toEqual(['b']);
    expect(names(null, 'spec.nodeName=')).toEqual(['a']);
    store.delete({ apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'a' }, 'test');
    expect(names('app=y')).toEqual([]);
    index.close();
  });

  it('answers what filtering every object answers', () => {
    const store = newStore();
    const index = new SelectorIndex(store);
    for (let i = 0; i < 300; i++)
      store.create(
        pod(
          `p-${i}`,
          {
            app: 'abcdefghij'[i % 10],
            tier: ['web', 'db'][i % 2],
            ...(i % 5 === 0 ? { canary: 'true' } : {}),
          },
          i % 4 === 0 ? undefined : `node-${i % 7}`,
        ),
        'test',
      );
    const selectors: [string | null, string | null][] = [
      ['app=a', null],
      ['app==b,tier=db', null],
      ['app in (a,c),canary', null],
      ['app=a,tier!=web', null],
      ['app=c,!canary', 'spec.nodeName=node-3'],
      [null, 'metadata.name=p-42'],
      ['tier=web', 'spec.nodeName!=node-1'],
      ['app notin (a),tier=db', null],
    ];
    const all = store.list('v1', 'Pod');
    let answered = 0;
    for (const [l, f] of selectors) {
      const filter = compileFilter(l, f);
      const expected = all.filter((o) => matchesFilter(o, filter)).map((o) => o.metadata.name);
      // undefined: no usable requirement, or one naming over a quarter of the kind (callers filter)
      const got = index.select('v1', 'Pod', undefined, filter)?.map((o) => o.metadata.name);
      if (got === undefined) continue;
      answered++;
      expect({ l, f, got }).toEqual({ l, f, got: expected });
    }
    expect(answered).toBe(6);
  });

  it('the server answers label and field selectors through the index', async () => {
    const s = await startTestServer({ controllers: 'none' });
    try {
      for (let i = 0; i < 5; i++)
        await call(s.url, 'POST', '/api/v1/namespaces/default/configmaps', {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `c${i}`, labels: { group: i < 2 ? 'small' : 'big' } },
        });
      const r = await call(s.url, 'GET', '/api/v1/configmaps?labelSelector=group%3Dsmall');
      expect(r.body.items.map((o: any) => o.metadata.name)).toEqual(['c0', 'c1']);
      const byName = await call(
        s.url,
        'GET',
        '/api/v1/namespaces/default/configmaps?fieldSelector=metadata.name%3Dc3',
      );
      expect(byName.body.items.map((o: any) => o.metadata.name)).toEqual(['c3']);
    } finally {
      await s.close();
    }
  });
});
