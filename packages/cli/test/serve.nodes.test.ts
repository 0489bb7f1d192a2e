// `kruise-ts serve --zones` and `--nodes-file`: the flags build the simulated cluster's nodes
// (zones as topology.kubernetes.io/zone labels, names, taints, capacity), and a bad file or flag
// is refused with exit code 2 before anything starts, every problem named at its path.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliIO, startServe } from '../src/index';

function capture(): { io: CliIO; out: () => string } {
  let out = '';
  const io: CliIO = {
    stdout: (t) => {
      out += t;
    },
    stderr: () => {},
    cwd: process.cwd(),
    isTTY: false,
    readFile: (p) => readFileSync(p, 'utf8'),
    writeFile: () => {},
  };
  return { io, out: () => out };
}

const zoneOf = (sim: any, name: string) =>
  sim.get('Node', name)?.metadata.labels?.['topology.kubernetes.io/zone'];

describe('kruise-ts serve nodes', () => {
  it('--zones a,b,c spreads --nodes over the zones', async () => {
    const c = capture();
    const dir = mkdtempSync(join(tmpdir(), 'kts-serve-nodes-'));
    const server = await startServe(
      { port: '0', speed: '0', kubeconfig: join(dir, 'kc'), nodes: '4', zones: 'a,b,c' },
      c.io,
    );
    try {
      expect(['node-1', 'node-2', 'node-3', 'node-4'].map((n) => zoneOf(server.simulation, n))).toEqual([
        'a',
        'b',
        'c',
        'a',
      ]);
      expect(c.out()).toContain('a simulated cluster (4 nodes)');
    } finally {
      await server.close();
    }
  });

  it('--nodes-file builds the nodes of the file', async () => {
    const c = capture();
    const dir = mkdtempSync(join(tmpdir(), 'kts-serve-nodes-'));
    const file = join(dir, 'nodes.yaml');
    writeFileSync(
      file,
      'nodes:\n  - {namePrefix: w, count: 2, zone: east}\n  - {name: gpu-1, zone: west, taints: [{key: gpu, effect: NoSchedule}], capacity: {cpu: "32"}}\n',
    );
    const server = await startServe(
      { port: '0', speed: '0', kubeconfig: join(dir, 'kc'), nodesFile: file },
      c.io,
    );
    try {
      const nodes = server.simulation.list('Node');
      expect(nodes.map((n) => n.metadata.name)).toEqual(['gpu-1', 'w-1', 'w-2']);
      expect(zoneOf(server.simulation, 'w-2')).toBe('east');
      const gpu = server.simulation.get('Node', 'gpu-1') as any;
      expect(gpu.spec.taints).toEqual([{ key: 'gpu', effect: 'NoSchedule' }]);
      expect(gpu.status.capacity.cpu).toBe('32');
    } finally {
      await server.close();
    }
  });

  it('a bad nodes file or zones flag is exit code 2 with the problems at their paths', async () => {
    const c = capture();
    const dir = mkdtempSync(join(tmpdir(), 'kts-serve-nodes-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'nodes:\n  - {name: a, taints: [{key: k, effect: Sometimes}]}\n');
    await expect(startServe({ port: '0', speed: '0', nodesFile: file }, c.io)).rejects.toMatchObject({
      exitCode: 2,
      message: `${file} is invalid: nodes[0].taints[0].effect: Unsupported value: "Sometimes": supported values: "NoExecute", "NoSchedule", "PreferNoSchedule"`,
    });
    await expect(startServe({ port: '0', speed: '0', zones: 'a,,b' }, c.io)).rejects.toMatchObject({
      exitCode: 2,
    });
    await expect(
      startServe({ port: '0', speed: '0', zones: 'a', nodesFile: file }, c.io),
    ).rejects.toMatchObject({
      exitCode: 2,
      message: '--zones and --nodes-file cannot be combined: give each node its zone in the file',
    });
  });
});
