// Fault tests (issue 10): 409 conflicts on a share of writes, dropped watches, a forced 410,
// an API server restart (connections reset, requests refused for 1.5 s) mid-rollout, and a leader
// change. The rollout still converges with no pod lost and none created twice.
import { describe, expect, it } from 'vitest';
import {
  api,
  CS_PATH,
  isReady,
  kubeconfigAt,
  podsOf,
  sampleCloneSet,
  useCluster,
  waitFor,
} from './helpers/cluster';
import { startFaultProxy } from './helpers/faultProxy';

const cluster = useCluster();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('faults injected by the test server', () => {
  it('scale-up and an in-place rollout converge through conflicts, dropped watches, 410, a restart and a leader change', async () => {
    const server = await cluster.start();
    const proxy = cluster.closeAfter(await startFaultProxy(server.url));
    const kc = kubeconfigAt(proxy.url);
    const a = await cluster.operator('replica-a', {}, kc);
    // the standby serves no webhooks (both would point the configurations at their own local URL)
    const b = await cluster.operator('replica-b', { webhook: { enabled: false } as never }, kc);
    await waitFor(async () => a.isLeader() || b.isLeader(), 5000, 'a leader');
    const first = a.isLeader() ? a : b;
    const second = first === a ? b : a;
    expect(second.isLeader()).toBe(false); // only one replica reconciles

    // phase 1: scale-up with every 4th write answered 409 and a forced 410 / dropped watches
    proxy.conflictEvery = 4;
    const base = server.url;
    await api(
      base,
      'POST',
      CS_PATH,
      sampleCloneSet('faulty', { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 } }),
    );
    await sleep(300);
    proxy.dropWatches();
    server.expireWatchHistory();
    await waitFor(async () => (await podsOf(base, 'faulty')).filter(isReady).length === 5, 40_000, '5 ready');
    expect(proxy.podCreates).toBe(5); // none created twice
    const before = new Map((await podsOf(base, 'faulty')).map((p) => [p.metadata.name, p.metadata.uid]));

    // phase 2: image change; faults mid-rollout; then the leader leaves
    const patch = { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } } };
    expect(
      (await api(base, 'PATCH', `${CS_PATH}/faulty`, patch, 'application/merge-patch+json')).status,
    ).toBe(200);
    await sleep(400);
    proxy.dropWatches();
    await sleep(400);
    server.expireWatchHistory(); // forced 410 on resume
    await sleep(400);
    proxy.restart(1500); // API server restart: connections reset, requests refused
    await sleep(2000);
    await cluster.stopOperator(first); // leader change (graceful: the Lease is released)
    await waitFor(async () => second.isLeader(), 10_000, 'the standby to lead');

    let maxPods = 0;
    await waitFor(
      async () => {
        const pods = await podsOf(base, 'faulty');
        maxPods = Math.max(maxPods, pods.length);
        return (
          pods.length === 5 && pods.every((p) => p.spec.containers[0].image === 'nginx:1.27' && isReady(p))
        );
      },
      60_000,
      'rollout converged',
    );
    await waitFor(
      async () => (await api(base, 'GET', `${CS_PATH}/faulty`)).body.status?.updatedReadyReplicas === 5,
      20_000,
      'status',
    );

    const after = new Map((await podsOf(base, 'faulty')).map((p) => [p.metadata.name, p.metadata.uid]));
    expect(after).toEqual(before); // no pod lost, none recreated
    expect(proxy.podCreates).toBe(5);
    expect(maxPods).toBeLessThanOrEqual(5);
    expect(proxy.injected).toBeGreaterThan(0);
    const stats = [a, b].flatMap((o) => o.cache.all().map((i) => i.stats));
    expect(stats.reduce((s, x) => s + x.gone, 0)).toBeGreaterThan(0); // 410 → relist happened
    expect(stats.reduce((s, x) => s + x.watches, 0)).toBeGreaterThan(stats.length); // watches restarted
  });
});
