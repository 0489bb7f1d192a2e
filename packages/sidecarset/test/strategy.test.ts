// docs/reference/sidecarset.md SS-5.6: the selection of one round — partition and maxUnavailable
// examples, priority, the update selector.
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { getNextUpgradePods, sidecarSetMaxUnavailable, sidecarSetPartition } from '../src/index';
import { expandPods, loadCases } from './helpers';

describe('SS-5.6 selection', () => {
  const strategy = loadCases('controller_strategy.json');
  const factoryPods = (count: number, upgraded: number, ready: number) =>
    deepFreeze(
      expandPods({ factory: 'strategyPods', count, upgraded, upgradedAndReady: ready }, strategy.factories),
    );
  const ssWith = (us: Record<string, unknown>) =>
    deepFreeze({
      ...strategy.cases[0].input.sidecarSet,
      spec: { ...strategy.cases[0].input.sidecarSet.spec, updateStrategy: us },
    });

  it('SS-5.6.3 partition examples: 99% of 5 → 4; 1% of 5 → 1; 18% of 1000 → 180; int clamped', () => {
    expect(sidecarSetPartition('99%', 5)).toBe(4);
    expect(sidecarSetPartition('1%', 5)).toBe(1);
    expect(sidecarSetPartition('18%', 1000)).toBe(180);
    expect(sidecarSetPartition('100%', 5)).toBe(5);
    expect(sidecarSetPartition(9, 5)).toBe(5);
    expect(sidecarSetPartition(undefined, 5)).toBe(0);
  });

  it('SS-5.6.4 maxUnavailable: nil → 1, int as is, "n%" rounds up, other strings → 0', () => {
    expect(sidecarSetMaxUnavailable(undefined, 10)).toBe(1);
    expect(sidecarSetMaxUnavailable(3, 10)).toBe(3);
    expect(sidecarSetMaxUnavailable('25%', 10)).toBe(3);
    expect(sidecarSetMaxUnavailable('2.5%', 10)).toBe(0);
    expect(sidecarSetMaxUnavailable('3', 10)).toBe(0);
  });

  it('SS-5.6.4 example 1: 100 pods, 30 updated, 26 consistent, M = 10 → 6', () => {
    expect(getNextUpgradePods(ssWith({ maxUnavailable: 10 }), factoryPods(100, 30, 26)).upgrade).toHaveLength(
      6,
    );
  });

  it('SS-5.6.4 example 2: 1000 pods, 800 updated, 760 consistent, M = 100, partition 180 → 20', () => {
    expect(
      getNextUpgradePods(ssWith({ maxUnavailable: 100, partition: 180 }), factoryPods(1000, 800, 760))
        .upgrade,
    ).toHaveLength(20);
  });

  it('SS-5.6.5 weight priority picks the heaviest pods first (ties: higher matched index first)', () => {
    const pods = factoryPods(6, 0, 0).map((p, i) =>
      i === 1 ? { ...p, metadata: { ...p.metadata, labels: { ...p.metadata!.labels, tier: 'gold' } } } : p,
    );
    const r = getNextUpgradePods(
      ssWith({
        maxUnavailable: 2,
        priorityStrategy: {
          weightPriority: [{ weight: 50, matchSelector: { matchLabels: { tier: 'gold' } } }],
        },
      }),
      pods,
    );
    expect(r.upgrade.map((p) => p.metadata!.name)).toEqual(['pod-1', 'pod-5']);
  });

  it('SS-5.6.1 updateStrategy.selector restricts the candidates', () => {
    const pods = factoryPods(4, 0, 0).map((p, i) =>
      i % 2 === 0 ? { ...p, metadata: { ...p.metadata, labels: { ...p.metadata!.labels, canary: 'y' } } } : p,
    );
    const r = getNextUpgradePods(
      ssWith({ maxUnavailable: 10, selector: { matchLabels: { canary: 'y' } } }),
      pods,
    );
    expect(r.upgrade.map((p) => p.metadata!.name).sort()).toEqual(['pod-0', 'pod-2']);
  });
});
