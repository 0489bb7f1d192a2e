// The programmatic API: createSimulation, runUntil, get/list, events — with the real CloneSet controller.
import type { KubeObject } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../src/scenario/parse';
import { createSimulation, runScenario } from '../src/scenario/run';

const cloneSet = (
  replicas: number,
  image: string,
  updateStrategy: Record<string, unknown> = {},
): KubeObject => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image }] } },
    updateStrategy,
  },
});
type CS = KubeObject & {
  status?: { readyReplicas?: number; updatedReadyReplicas?: number; replicas?: number };
};

describe('createSimulation', () => {
  it('from manifests: the CloneSet controller creates 3 pods named web-xxxxx that become ready', () => {
    const sim = createSimulation([cloneSet(3, 'nginx:1')], { seed: 9, freezeObjects: true });
    expect(
      sim.runUntil((s) => s.get<CS>('CloneSet', 'web')?.status?.readyReplicas === 3, { timeoutMs: 120_000 }),
    ).toBe(true);
    const pods = sim.list<Pod & KubeObject>('Pod');
    expect(pods.map((p) => p.metadata.name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/)]),
    );
    expect(
      pods.every((p) => p.spec?.readinessGates?.some((g) => g.conditionType === 'InPlaceUpdateReady')),
    ).toBe(true);
    expect(
      sim.events.filter(
        (e) => e.type === 'Event' && (e.detail as { reason: string }).reason === 'SuccessfulCreate',
      ),
    ).toHaveLength(3);
  });

  it('from a parsed scenario: its cluster and manifests, steps left to the caller', () => {
    const text = `apiVersion: sim.kruise-ts.io/v1alpha1
kind: Scenario
spec:
  seed: 3
  cluster: {nodes: [{name: solo}]}
  steps: [{wait: 10s}]
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec: {containers: [{name: c, image: "busybox:1"}]}
`;
    const sim = createSimulation(parseScenario(text).scenario!);
    expect(sim.list('Node').map((n) => n.metadata.name)).toEqual(['solo']);
    expect(sim.get<Pod & KubeObject>('Pod', 'p')?.spec?.nodeName).toBe('solo');
    expect(sim.nowMs).toBe(0);
  });

  it('ReCreate rollout with maxSurge 1: old pods are deleted gracefully and replaced, invariants hold', () => {
    const r = runScenario({
      apiVersion: 'sim.kruise-ts.io/v1alpha1',
      kind: 'Scenario',
      metadata: { name: 'recreate' },
      spec: {
        seed: 5,
        invariants: ['maxUnavailable', 'maxSurge', 'partition'],
        manifests: [cloneSet(4, 'app:1', { type: 'ReCreate', maxUnavailable: 1, maxSurge: 1 })],
        steps: [
          { waitFor: { kind: 'CloneSet', name: 'web', condition: 'Available', timeout: '5m' } },
          { setImage: { kind: 'CloneSet', name: 'web', image: 'app:2' } },
          { waitFor: { kind: 'CloneSet', name: 'web', condition: 'RolledOut', timeout: '30m' } },
          { wait: '1m' },
        ],
      },
    });
    expect(r.failure).toBeUndefined();
    const sim = r.sim!;
    expect(sim.stats.podsCreated).toBe(8);
    expect(sim.stats.podsDeleted).toBe(4);
    expect(sim.stats.podsUpdatedInPlace).toBe(0);
    expect(sim.list('Pod')).toHaveLength(4);
    expect(sim.events.some((e) => e.type === 'PodTerminating')).toBe(true);
    for (const inv of r.invariants) expect(inv.violations).toEqual([]);
  });

  it('a pod deleted by hand is replaced by the CloneSet', () => {
    const sim = createSimulation([cloneSet(2, 'nginx:1')], { seed: 2 });
    sim.runUntil((s) => s.get<CS>('CloneSet', 'web')?.status?.readyReplicas === 2, { timeoutMs: 120_000 });
    const victim = sim.list('Pod')[0].metadata.name!;
    sim.deletePod(victim);
    expect(
      sim.runUntil(
        (s) =>
          s.get<CS>('CloneSet', 'web')?.status?.readyReplicas === 2 &&
          !s.list('Pod').some((p) => p.metadata.name === victim),
        { timeoutMs: 300_000 },
      ),
    ).toBe(true);
    expect(sim.stats.podsCreated).toBe(3);
  });
});
