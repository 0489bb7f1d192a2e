// Nodes files and the zones shortcut of `kruise-ts serve` (src/nodesFile.ts): groups expand to
// numbered nodes, `zone` becomes the topology.kubernetes.io/zone label, and every problem is
// reported at its path in Kubernetes' field-error wording, with nothing built.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { nodesFromFile, nodesInZones, ZONE_LABEL } from '../../src/nodesFile';
import { call, startTestServer } from './helpers';

describe('nodes file', () => {
  it('builds named nodes and groups with zones, labels, taints and capacity', () => {
    const r = nodesFromFile(
      parse(`
nodes:
  - {namePrefix: worker-a, count: 2, zone: zone-a, capacity: {cpu: "8", memory: 32Gi}}
  - name: db-1
    zone: zone-b
    labels: {disk: ssd}
    taints: [{key: dedicated, value: db, effect: NoSchedule}]
    images: [postgres:16]
`),
    );
    expect(r).toEqual({
      ok: true,
      nodes: [
        { name: 'worker-a-1', labels: { [ZONE_LABEL]: 'zone-a' }, capacity: { cpu: '8', memory: '32Gi' } },
        { name: 'worker-a-2', labels: { [ZONE_LABEL]: 'zone-a' }, capacity: { cpu: '8', memory: '32Gi' } },
        {
          name: 'db-1',
          labels: { disk: 'ssd', [ZONE_LABEL]: 'zone-b' },
          taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }],
          images: ['postgres:16'],
        },
      ],
    });
  });

  it('reports every problem at its path', () => {
    const r = nodesFromFile(
      parse(`
nodes:
  - {count: 2}
  - {name: Bad_Name}
  - {name: n1, capacity: {cpu: lots}, taints: [{key: k, effect: Never}], zone: ""}
  - {name: n1, labels: {"a b": x}, extra: 1}
`),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      'nodes[0].namePrefix: Required value: a group of nodes needs a namePrefix',
      expect.stringMatching(/^nodes\[1\]\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/),
      'nodes[2].zone: Invalid value: "": must be a non-empty string',
      'nodes[2].capacity.cpu: Invalid value: "lots": must be a quantity (e.g. 4, 500m, 16Gi)',
      'nodes[2].taints[0].effect: Unsupported value: "Never": supported values: "NoExecute", "NoSchedule", "PreferNoSchedule"',
      'nodes[3].extra: Unsupported value: unknown field',
      expect.stringMatching(/^nodes\[3\]\.labels: Invalid value: "a b": name part must consist of/),
      'nodes: Duplicate value: "n1"',
    ]);
    expect(nodesFromFile({})).toEqual({
      ok: false,
      errors: ['nodes: Required value: a list of at least one node'],
    });
  });

  it('--zones spreads nodes round-robin, and the server starts with them', async () => {
    const nodes = nodesInZones(4, ['a', 'b']);
    expect(nodes.map((n) => `${n.name}:${n.labels?.[ZONE_LABEL]}`)).toEqual([
      'node-1:a',
      'node-2:b',
      'node-3:a',
      'node-4:b',
    ]);
    const s = await startTestServer({ nodes });
    try {
      const r = await call(
        s.url,
        'GET',
        `/api/v1/nodes?labelSelector=${encodeURIComponent(`${ZONE_LABEL}=b`)}`,
      );
      expect(r.body.items.map((n: any) => n.metadata.name)).toEqual(['node-2', 'node-4']);
      expect(r.body.items[0].spec.podCIDR).toBe('10.244.1.0/24');
      expect(r.body.items[0].status.nodeInfo.kubeletVersion).toBe('v1.32.0');
    } finally {
      await s.close();
    }
  });
});
