// Properties of the SidecarSet controller (docs/reference/sidecarset.md §5), each with the spec's own
// exceptions: maxUnavailable (not-ready candidates are free, SS-5.6.4), partition (SS-5.6.3),
// only sidecar images change (SS-5.7.1), and convergence.
import type { SidecarSet } from '@kruise-ts/api';
import { applyMergePatch } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import fc from 'fast-check';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  defaultSidecarSetThenHash,
  getNextUpgradePods,
  isPodSidecarUpdated,
  isPodStateConsistent,
  isSidecarReady,
  podUpgradability,
  reconcileSidecarSet,
  sidecarContainerNames,
  sidecarSetMaxUnavailable,
  sidecarSetPartition,
} from '../src/index';
import { clonePodForUpdate, upgradePodSidecars } from '../src/update';
import { injectedPods, runPod } from './kubelet';
import { World } from './scenario';

const NOW = '2025-06-01T00:00:00Z';

function makeSet(image: string, hot: boolean, us: Record<string, unknown>): SidecarSet {
  return defaultSidecarSetThenHash({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'log', resourceVersion: '5', generation: 1 },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      containers: [
        { name: 'agent', image: `agent:${image}` },
        ...(hot
          ? [
              {
                name: 'proxy',
                image: `proxy:${image}`,
                upgradeStrategy: { upgradeType: 'HotUpgrade' as const, hotUpgradeEmptyImage: 'empty:1' },
              },
            ]
          : []),
      ],
      updateStrategy: us,
    },
  });
}

type PodState = 'old' | 'oldNotReady' | 'updatedDone' | 'updatedPending' | 'immutable';

const strategyArb = fc.record({
  maxUnavailable: fc.oneof(
    fc.integer({ min: 0, max: 6 }),
    fc.integer({ min: 0, max: 60 }).map((n) => `${n}%`),
  ),
  partition: fc.oneof(
    fc.integer({ min: 0, max: 12 }),
    fc.integer({ min: 0, max: 100 }).map((n) => `${n}%`),
  ),
});

const population = fc.record({
  hot: fc.boolean(),
  states: fc.array(
    fc.constantFrom<PodState>('old', 'oldNotReady', 'updatedDone', 'updatedPending', 'immutable'),
    {
      minLength: 1,
      maxLength: 12,
    },
  ),
  us: strategyArb,
});

/** Matched pods in the given states for an upgrade v1 → v2. */
function buildPods(hot: boolean, states: PodState[], v2: SidecarSet): Pod[] {
  const v1 = makeSet('v1', hot, {});
  const base = injectedPods(states.length, [v1]);
  return states.map((state, i) => {
    const p = base[i];
    switch (state) {
      case 'old':
        return p;
      case 'oldNotReady':
        return { ...p, status: { ...p.status, conditions: [{ type: 'Ready', status: 'False' }] } };
      case 'immutable': {
        const ann = {
          ...p.metadata!.annotations,
          'kruise.io/sidecarset-hash-without-image': '{"log":{"hash":"other"}}',
        };
        return { ...p, metadata: { ...p.metadata, annotations: ann } };
      }
      default: {
        const c = clonePodForUpdate(p);
        upgradePodSidecars(c, v2, NOW, 'log-rev');
        return state === 'updatedDone' ? runPod(c) : c;
      }
    }
  });
}

describe('controller properties', () => {
  it('SS-5.6.4: ready pods the upgrade takes down stay within maxUnavailable (not-ready candidates are free)', () => {
    fc.assert(
      fc.property(population, ({ hot, states, us }) => {
        const ss = makeSet('v2', hot, { type: 'RollingUpdate', ...us });
        const pods = deepFreeze(buildPods(hot, states, ss));
        const next = getNextUpgradePods(ss, pods);
        const m = sidecarSetMaxUnavailable(us.maxUnavailable, pods.length);
        const down = pods.filter(
          (p) => isPodSidecarUpdated(ss, p) && (!isPodStateConsistent(p, ss) || !isSidecarReady(p, ss)),
        ).length;
        const takenReady = next.upgrade.filter((p) => isSidecarReady(p, ss)).length;
        expect(takenReady).toBeLessThanOrEqual(Math.max(0, m - down));
      }),
    );
  });

  it('SS-5.6.3: the partition keeps its share of candidates un-upgraded', () => {
    fc.assert(
      fc.property(population, ({ hot, states, us }) => {
        const ss = makeSet('v2', hot, { type: 'RollingUpdate', ...us });
        const pods = deepFreeze(buildPods(hot, states, ss));
        const candidates = pods.filter(
          (p) => !isPodSidecarUpdated(ss, p) && podUpgradability(p, ss) === 'upgradable',
        );
        const next = getNextUpgradePods(ss, pods);
        const p = sidecarSetPartition(us.partition, pods.length);
        expect(next.upgrade.length).toBeLessThanOrEqual(Math.max(0, candidates.length - p));
        for (const x of next.upgrade) expect(candidates).toContain(x);
        expect(next.notUpgradable.length).toBe(states.filter((s) => s === 'immutable').length);
      }),
    );
  });

  it('SS-5.7.1: nothing but sidecar images changes in a pod spec', () => {
    fc.assert(
      fc.property(population, ({ hot, states, us }) => {
        const ss = makeSet('v2', hot, { type: 'RollingUpdate', ...us });
        const pods = deepFreeze(buildPods(hot, states, ss));
        const r = reconcileSidecarSet({ sidecarSet: ss, pods, now: NOW });
        const sidecars = new Set(sidecarContainerNames(ss));
        for (const a of r.actions) {
          if (a.verb !== 'patch') continue;
          const before = pods.find((p) => p.metadata!.name === a.target.name)!;
          const after = applyMergePatch(before, a.patch) as Pod;
          expect(after.metadata!.labels).toEqual(before.metadata!.labels);
          expect({ ...after.spec, containers: undefined }).toEqual({ ...before.spec, containers: undefined });
          after.spec!.containers.forEach((c, i) => {
            const b = before.spec!.containers[i];
            if (!sidecars.has(c.name)) expect(c).toEqual(b);
            else expect({ ...c, image: b.image }).toEqual(b);
          });
        }
      }),
    );
  });

  // Exceptions (spec): pods whose non-image sidecar fields differ never upgrade (SS-5.5.2, quirk
  // §7.6); maxUnavailable 0 never takes a ready pod down; the partition keeps P pods back.
  it('§5.1: the upgrade converges — with a kubelet that switches images, all but the partition end updated and ready', () => {
    fc.assert(
      fc.property(
        fc.record({
          hot: fc.boolean(),
          n: fc.integer({ min: 1, max: 10 }),
          maxUnavailable: fc.oneof(
            fc.integer({ min: 1, max: 4 }),
            fc.integer({ min: 1, max: 60 }).map((x) => `${x}%`),
          ),
          partition: fc.integer({ min: 0, max: 4 }),
        }),
        ({ hot, n, maxUnavailable, partition }) => {
          const pods = injectedPods(n, [makeSet('v1', hot, {})]);
          const w = new World(makeSet('v2', hot, { type: 'RollingUpdate', maxUnavailable, partition }), pods);
          const target = n - Math.min(partition, n);
          let status = w.reconcile().status;
          for (let round = 0; round < 4 * n + 6; round++) {
            for (const p of w.pods()) w.updatePod(p.metadata!.name!, (x) => runPod(x));
            status = w.reconcile().status;
          }
          expect(status.updatedPods).toBe(target);
          expect(status.updatedReadyPods).toBe(target);
          expect(status.readyPods).toBe(n);
        },
      ),
      { numRuns: 40 },
    );
  });
});
