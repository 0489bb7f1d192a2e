// The simulated node side (packages/cluster/src/nodeSide.ts): NodeImage tag pulls through the kubelet's image
// cache, and ContainerRecreateRequest restarts — run through examples/scenarios/imagepulljob-prewarm.yaml.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/scenario/run';

const text = readFileSync(
  fileURLToPath(new URL('../../../examples/scenarios/imagepulljob-prewarm.yaml', import.meta.url)),
  'utf8',
);
const result = runScenario(text, { fileName: 'imagepulljob-prewarm.yaml' });
const sim = result.sim!;
const log = sim.log
  .toJSONLines()
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { t: number; type: string; object: string; detail?: Record<string, unknown> });

describe('node side: NodeImage pulls', () => {
  it('daemon.md §7.5: every node reports the tag Succeeded with completionTime and imageID', () => {
    const nodeImages = sim.list('NodeImage');
    expect(nodeImages.map((n) => n.metadata.name).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    for (const ni of nodeImages) {
      const status = ni.status as {
        succeeded: number;
        desired: number;
        imageStatuses: Record<string, { tags: Record<string, unknown>[] }>;
      };
      expect(status).toMatchObject({ desired: 1, succeeded: 1 });
      const tag = status.imageStatuses.nginx?.tags[0];
      expect(tag).toMatchObject({ tag: '1.27-alpine', phase: 'Succeeded' });
      expect(tag?.completionTime).toBeTypeOf('string');
      expect(String(tag?.imageID)).toMatch(/^nginx@sha256:[0-9a-f]{64}$/);
    }
  });

  it('daemon.md §4.4: parallelism 2 — two nodes pull first (20 s), the third after one finishes: 40 s in all', () => {
    const pulls = log.filter((e) => e.type === 'ImagePulling' && e.detail?.image === 'nginx:1.27-alpine');
    expect(pulls).toHaveLength(3);
    const starts = pulls.map((e) => e.t).sort((a, b) => a - b);
    expect(starts[1]! - starts[0]!).toBeLessThan(20);
    expect(starts[2]! - starts[0]!).toBeGreaterThanOrEqual(20);
    const step = result.steps[2]!;
    expect(step.endedMs - step.startedMs).toBeGreaterThanOrEqual(40_000);
  });

  it('pre-warmed image: the StatefulSet pods start without any pull (Available within 10 s)', () => {
    const applied = result.steps[3]!.startedMs / 1000;
    expect(log.filter((e) => e.type === 'ImagePulling' && e.t >= applied)).toEqual([]);
    expect(result.steps[4]!.status).toBe('done');
  });
});

describe('node side: ContainerRecreateRequest', () => {
  it('daemon.md §9.3–9.5: the named container is restarted (new containerID, restartCount 1) and the request completes', () => {
    const crr = sim.list('ContainerRecreateRequest').find((c) => c.metadata.name === 'restart-nginx');
    expect(crr?.status).toMatchObject({
      phase: 'Completed',
      message: '',
      containerRecreateStates: [{ name: 'nginx', phase: 'Succeeded', isKilled: true }],
    });
    const spec = crr?.spec as { containers?: { statusContext?: { containerID?: string } }[] } | undefined;
    const ctxId = spec?.containers?.[0]?.statusContext?.containerID;
    const pod = sim.list('Pod').find((p) => p.metadata.name === 'web-0') as unknown as Pod;
    const cs = pod.status?.containerStatuses?.find((c) => c.name === 'nginx');
    expect(cs?.restartCount).toBe(1);
    expect(cs?.containerID).toBeTypeOf('string');
    expect(cs?.containerID).not.toBe(ctxId);
    expect(cs?.ready).toBe(true);
    expect(
      log.filter((e) => e.type === 'ContainerRestarting' && e.object === 'Pod/default/web-0'),
    ).toHaveLength(1);
    // Only web-0 restarted.
    for (const p of sim.list('Pod') as unknown as Pod[])
      if (p.metadata?.name !== 'web-0') expect(p.status?.containerStatuses?.[0]?.restartCount).toBe(0);
  });
});
