// The test cluster's size (issue 10 benchmark): the simulator's default 3 nodes × 110 pods hold at
// most 330 pods, so larger benchmarks pass `nodes` to startApiServer (through startCluster).
import { describe, expect, it } from 'vitest';
import { api, useCluster } from './helpers/cluster';

const cluster = useCluster();

const podSlots = (nodes: any[]) => nodes.reduce((n, x) => n + Number(x.status.allocatable.pods), 0);

describe('startApiServer nodes option', () => {
  it('defaults to the simulation’s 3 nodes: 3 × 110 = 330 pod slots (a 1,000-pod set cannot schedule)', async () => {
    const server = await cluster.start(0);
    const r = await api(server.url, 'GET', '/api/v1/nodes');
    expect(r.body.items).toHaveLength(3);
    expect(podSlots(r.body.items)).toBe(330);
  });

  it('serves the configured nodes: 10 × 110 = 1,100 pod slots for the 1,000-pod benchmark', async () => {
    const server = await cluster.start(0, 10);
    const r = await api(server.url, 'GET', '/api/v1/nodes');
    expect(r.body.items.map((n: any) => n.metadata.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `node-${i + 1}`).sort(),
    );
    expect(podSlots(r.body.items)).toBe(1100);
    expect(
      r.body.items.every((n: any) =>
        n.status.conditions.some((c: any) => c.type === 'Ready' && c.status === 'True'),
      ),
    ).toBe(true);
  });
});
