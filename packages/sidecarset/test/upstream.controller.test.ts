// Upstream cases of the controller side (testdata/upstream/sidecarset/): pod selection,
// multi-round reconcile scenarios, revision history, and the pod event handler.
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import { describe, expect, it } from 'vitest';
import { expectKnownFields } from '../../../test/support/cases';
import {
  getNextUpgradePods,
  parseUpdateScatterTerms,
  podEventEnqueue,
  replaceRevision,
  truncateHistory,
} from '../src/index';
import { expandPods, loadCases, runCheck } from './helpers';
import { World } from './scenario';

const load = (file: string): { factories: any; cases: [string, any][] } => {
  const d = loadCases(file);
  return { factories: d.factories, cases: d.cases.map((c: any) => [c.id, c] as [string, any]) };
};

describe('upstream controller_strategy.json (SS-5.6)', () => {
  const { factories, cases } = load('controller_strategy.json');
  it.each(cases)('%s', (_id, c) => {
    if (c.function === 'parseUpdateScatterTerms') {
      expect(parseUpdateScatterTerms(c.input.scatterStrategy, c.input.podLabels)).toEqual(
        c.expected.scatterStrategy,
      );
      return;
    }
    const pods = deepFreeze(expandPods(c.input.pods, factories));
    const ss = deepFreeze(c.input.sidecarSet);
    const r = getNextUpgradePods(ss, pods);
    expectKnownFields(c.expected, ['upgradePodNames', 'upgradeCount', 'notUpgradableCount'], c.id);
    if (c.expected.upgradePodNames !== undefined)
      expect(r.upgrade.map((p) => p.metadata?.name)).toEqual(c.expected.upgradePodNames);
    if (c.expected.upgradeCount !== undefined) expect(r.upgrade.length).toBe(c.expected.upgradeCount);
    if (c.expected.notUpgradableCount !== undefined)
      expect(r.notUpgradable.length).toBe(c.expected.notUpgradableCount);
    // Go shuffles the pods: the selection (as a set) must not depend on the input order.
    const reversed = getNextUpgradePods(ss, [...pods].reverse());
    expect(reversed.upgrade.length).toBe(r.upgrade.length);
  });
});

function runScenario(c: any, factories: any): void {
  const pods = expandPods(c.input.pods, factories);
  const world = new World(c.input.sidecarSet, pods);
  for (const step of c.input.steps) {
    if (step.action === 'setPodFields') {
      world.setPodFields(step.pod, step.set);
      continue;
    }
    const r = world.reconcile();
    expect(r.errors).toEqual([]);
    const exp = step.expect ?? {};
    if (exp.status) expect(r.status, step.name).toMatchObject(exp.status);
    for (const [name, checks] of Object.entries(exp.pods ?? {})) {
      for (const check of checks as any[]) runCheck(world.pod(name), check);
    }
    for (const range of exp.podsByIndexRange ?? []) {
      const all = world.pods();
      for (let i = range.fromIndex; i < range.toIndex; i++)
        for (const check of range.checks) runCheck(all[i], check);
    }
  }
}

describe('upstream controller_processor.json (§5)', () => {
  const { factories, cases } = load('controller_processor.json');
  it.each(cases)('%s', (_id, c) => {
    switch (c.function) {
      case 'reconcileScenario':
        runScenario(c, factories);
        break;
      case 'replaceRevision': {
        const out = replaceRevision(c.input.revisionNumbers, c.input.replaceIndex, c.input.newRevisionNumber);
        expect(out.length).toBe(c.expected.length);
        expect(out).toEqual([...out].sort((a, b) => a - b));
        expect(out).toEqual(c.expected.revisionNumbers);
        break;
      }
      case 'truncateHistory': {
        const revs = deepFreeze(c.input.revisions) as ControllerRevision[];
        const r = truncateHistory(deepFreeze(c.input.sidecarSet), revs, deepFreeze(c.input.pods));
        expect(r.error ?? null).toBe(c.expected.error);
        const gone = new Set(r.delete.map((x) => x.metadata?.name));
        expect(revs.map((x) => x.metadata?.name).filter((n) => !gone.has(n))).toEqual(
          c.expected.keptRevisionNames,
        );
        break;
      }
      default:
        throw new Error(`unhandled ${c.function}`);
    }
  });
});

describe('upstream controller_reconcile.json (§5.1)', () => {
  const { factories, cases } = load('controller_reconcile.json');
  it.each(cases)('%s', (_id, c) => runScenario(c, factories));
});

describe('upstream controller_pod_event_handler.json: podEventEnqueue (SS-5.9)', () => {
  const { cases } = load('controller_pod_event_handler.json');
  it.each(cases.filter(([, c]) => c.function === 'podEventEnqueue'))('%s', (_id, c) => {
    const got = podEventEnqueue(deepFreeze(c.input.sidecarSets), deepFreeze(c.input.event));
    expect(got.map((r) => r.name)).toEqual(c.expected.enqueued);
    expect(got.length).toBe(c.expected.enqueuedCountAsserted);
  });
});
