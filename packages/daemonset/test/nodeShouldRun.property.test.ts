// Properties of docs/reference/daemonset.md §3 over random nodes (labels, taints) and templates.
import { deepFreeze } from '@kruise-ts/core/testing';
import fc from 'fast-check';
import type { Taint, Toleration } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { nodeShouldRunDaemonPod } from '../src';
import { makeDaemonSet, makeNode } from './helpers';

const taintArb: fc.Arbitrary<Taint> = fc.record({
  key: fc.constantFrom(
    'a',
    'b',
    'node.kubernetes.io/not-ready',
    'node.kubernetes.io/unschedulable',
    'node.kubernetes.io/network-unavailable',
  ),
  value: fc.constantFrom('', 'x'),
  effect: fc.constantFrom('NoSchedule', 'NoExecute', 'PreferNoSchedule'),
});
const tolerationArb: fc.Arbitrary<Toleration> = fc.oneof(
  fc.record({ key: fc.constantFrom('a', 'b'), operator: fc.constant('Exists') }),
  fc.record({
    key: fc.constantFrom('a', 'b'),
    operator: fc.constant('Equal'),
    value: fc.constantFrom('', 'x'),
    effect: fc.constantFrom('NoSchedule', 'NoExecute'),
  }),
  fc.constant({ operator: 'Exists' }),
);
const caseArb = fc.record({
  labels: fc.dictionary(fc.constantFrom('pool', 'zone'), fc.constantFrom('a', 'b')),
  taints: fc.array(taintArb, { maxLength: 4 }),
  tolerations: fc.array(tolerationArb, { maxLength: 3 }),
  nodeSelector: fc.option(
    fc.dictionary(fc.constantFrom('pool', 'zone'), fc.constantFrom('a', 'b'), { maxKeys: 1 }),
  ),
  hostNetwork: fc.boolean(),
});

describe('§3 properties', () => {
  it('shouldRun implies shouldContinueRunning; PreferNoSchedule never matters; with every taint tolerated only the nodeSelector decides', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const ds = makeDaemonSet({
          tolerations: c.tolerations,
          ...(c.nodeSelector ? { nodeSelector: c.nodeSelector } : {}),
        });
        ds.spec.template.spec!.hostNetwork = c.hostNetwork;
        const node = deepFreeze(makeNode('n', c.labels, c.taints));
        const r = nodeShouldRunDaemonPod(node, deepFreeze(ds));
        if (r.shouldRun) expect(r.shouldContinueRunning).toBe(true);
        const soft = makeNode(
          'n',
          c.labels,
          c.taints.filter((t) => t.effect !== 'PreferNoSchedule'),
        );
        expect(nodeShouldRunDaemonPod(soft, ds)).toEqual(r);
        const allTolerated = {
          ...ds,
          spec: {
            ...ds.spec,
            template: {
              ...ds.spec.template,
              spec: { ...ds.spec.template.spec!, tolerations: [{ operator: 'Exists' }] },
            },
          },
        };
        const open = nodeShouldRunDaemonPod(node, allTolerated);
        const selectorOk = Object.entries(c.nodeSelector ?? {}).every(([k, v]) => c.labels[k] === v);
        expect(open).toEqual({ shouldRun: selectorOk, shouldContinueRunning: selectorOk });
      }),
    );
  });

  it('adding a toleration never turns shouldRun or shouldContinueRunning from true to false', () => {
    fc.assert(
      fc.property(caseArb, tolerationArb, (c, extra) => {
        const base = makeDaemonSet({ tolerations: c.tolerations });
        const more = makeDaemonSet({ tolerations: [...c.tolerations, extra] });
        const node = makeNode('n', c.labels, c.taints);
        const a = nodeShouldRunDaemonPod(node, base);
        const b = nodeShouldRunDaemonPod(node, more);
        if (a.shouldRun) expect(b.shouldRun).toBe(true);
        if (a.shouldContinueRunning) expect(b.shouldContinueRunning).toBe(true);
      }),
    );
  });
});
