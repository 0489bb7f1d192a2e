// What a reconcile works out once instead of once per node or pod (README "Performance") gives
// the answers the per-object form gives: the §3 decider made once for many nodes, the selector
// converted to requirements once (core's labelSelectorMatcher, against core's matchesLabelSelector),
// and the namespace's pod names gathered only when a pod is created, still avoided by the new
// pod's name (§6).
import { labelSelectorMatcher, matchesLabelSelector } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import fc from 'fast-check';
import type { Pod, Taint } from 'kubernetes-types/core/v1';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { describe, expect, it } from 'vitest';
import { daemonNodeDecider, nodeShouldRunDaemonPod, reconcileDaemonSet } from '../src';
import { makeDaemonSet, makeNode } from './helpers';

const SEED = 2201;
const NOW = '2024-01-01T00:00:00Z';

const taintArb: fc.Arbitrary<Taint> = fc.record({
  key: fc.constantFrom('a', 'b', 'node.kubernetes.io/not-ready'),
  value: fc.constantFrom('', 'x'),
  effect: fc.constantFrom('NoSchedule', 'NoExecute', 'PreferNoSchedule'),
});
const nodeArb = fc.record({
  labels: fc.dictionary(fc.constantFrom('pool', 'zone'), fc.constantFrom('a', 'b')),
  taints: fc.array(taintArb, { maxLength: 3 }),
});

describe('§3 one decider per reconcile', () => {
  it('a decider made once answers every node of a list as a fresh call per node does', () => {
    fc.assert(
      fc.property(
        fc.array(nodeArb, { minLength: 1, maxLength: 8 }),
        fc.option(fc.dictionary(fc.constantFrom('pool', 'zone'), fc.constantFrom('a', 'b'), { maxKeys: 1 })),
        fc.array(fc.record({ key: fc.constantFrom('a', 'b'), operator: fc.constant('Exists') }), {
          maxLength: 2,
        }),
        (specs, nodeSelector, tolerations) => {
          const ds = deepFreeze(makeDaemonSet({ tolerations, ...(nodeSelector ? { nodeSelector } : {}) }));
          const nodes = specs.map((s, i) => deepFreeze(makeNode(`n${i}`, s.labels, s.taints)));
          const decide = daemonNodeDecider(ds);
          // the same decider twice over the list: it keeps nothing from one node to the next
          const first = nodes.map(decide);
          const again = [...nodes].reverse().map(decide).reverse();
          const fresh = nodes.map((n) => ({ ...nodeShouldRunDaemonPod(n, ds) }));
          expect(first).toEqual(fresh);
          expect(again).toEqual(fresh);
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('a tainted node is kept but gets no new pod, a NoExecute taint removes it (R3)', () => {
    const decide = daemonNodeDecider(makeDaemonSet());
    expect(decide(makeNode('a', {}, [{ key: 'k', effect: 'NoSchedule' }]))).toEqual({
      shouldRun: false,
      shouldContinueRunning: true,
    });
    expect(decide(makeNode('b', {}, [{ key: 'k', effect: 'NoExecute' }]))).toEqual({
      shouldRun: false,
      shouldContinueRunning: false,
    });
    expect(decide(makeNode('c'))).toEqual({ shouldRun: true, shouldContinueRunning: true });
  });
});

const keyArb = fc.constantFrom('app', 'tier', 'bad key!', 'example.com/role');
const valueArb = fc.constantFrom('web', 'db', '', 'not valid!');
const selectorArb: fc.Arbitrary<LabelSelector | undefined> = fc.option(
  fc.record(
    {
      matchLabels: fc.dictionary(keyArb, valueArb, { maxKeys: 2 }),
      matchExpressions: fc.array(
        fc.record({
          key: keyArb,
          operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist', 'Foo'),
          values: fc.array(valueArb, { maxLength: 2 }),
        }),
        { maxLength: 2 },
      ),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);

describe('selector converted once', () => {
  it('matches exactly the label sets core matchesLabelSelector matches (invalid selectors match nothing)', () => {
    fc.assert(
      fc.property(
        selectorArb,
        fc.array(fc.dictionary(keyArb, valueArb, { maxKeys: 3 }), { maxLength: 5 }),
        (selector, labelSets) => {
          const selects = labelSelectorMatcher(selector);
          for (const labels of labelSets)
            expect(selects(labels)).toBe(matchesLabelSelector(selector, labels));
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });
});

describe('§6 pod names', () => {
  it('a new pod avoids the name of any pod of the namespace, gathered only when a pod is created', () => {
    const ds = makeDaemonSet({ name: 'agent' });
    const nodes = [makeNode('n1')];
    const created = (pods: Pod[]) =>
      reconcileDaemonSet({ daemonSet: ds, nodes, pods, now: NOW }, { seed: 5 }).actions.flatMap((a) =>
        a.verb === 'create' && a.object.kind === 'Pod' ? [a.object.metadata?.name ?? ''] : [],
      );
    const [name] = created([]);
    expect(name).toMatch(/^agent-[a-z0-9]{5}$/);
    // an unrelated pod (another app, no owner) holding that name: the create draws another name
    const squatter: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default', uid: 'other', labels: { app: 'other' } },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    };
    const [second] = created([squatter]);
    expect(second).toMatch(/^agent-[a-z0-9]{5}$/);
    expect(second).not.toBe(name);
  });
});
