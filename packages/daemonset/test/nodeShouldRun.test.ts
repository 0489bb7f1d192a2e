// docs/reference/daemonset.md §3: which nodes should run a daemon pod.
import { deepFreeze } from '@kruise-ts/core/testing';
import type { NodeSelectorTerm, Taint } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { effectiveDaemonTolerations, nodeShouldRunDaemonPod } from '../src';
import { makeDaemonSet, makeNode } from './helpers';

const both = { shouldRun: true, shouldContinueRunning: true };
const none = { shouldRun: false, shouldContinueRunning: false };
const stay = { shouldRun: false, shouldContinueRunning: true };

function withAffinity(terms: NodeSelectorTerm[]) {
  const ds = makeDaemonSet();
  ds.spec.template.spec!.affinity = {
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
  };
  return deepFreeze(ds);
}

describe('§3.2 decision table', () => {
  it('example: taint aaa=bbb:NoSchedule without tolerations → shouldRun false, shouldContinueRunning true', () => {
    const node = deepFreeze(makeNode('n1', {}, [{ key: 'aaa', value: 'bbb', effect: 'NoSchedule' }]));
    expect(nodeShouldRunDaemonPod(node, deepFreeze(makeDaemonSet()))).toEqual(stay);
  });

  it('example: the same node without taints → both true (R4)', () => {
    expect(nodeShouldRunDaemonPod(makeNode('n1'), makeDaemonSet())).toEqual(both);
  });

  it('R1: template nodeName set to another node → both false; to this node → both true', () => {
    const ds = makeDaemonSet();
    ds.spec.template.spec!.nodeName = 'n2';
    expect(nodeShouldRunDaemonPod(makeNode('n1'), ds)).toEqual(none);
    expect(nodeShouldRunDaemonPod(makeNode('n2'), ds)).toEqual(both);
  });

  it('R2: nodeSelector not matching → both false (even on a tainted node)', () => {
    const ds = makeDaemonSet({ nodeSelector: { pool: 'gpu' } });
    expect(nodeShouldRunDaemonPod(makeNode('n1', { pool: 'cpu' }), ds)).toEqual(none);
    expect(nodeShouldRunDaemonPod(makeNode('n1', { pool: 'gpu' }), ds)).toEqual(both);
  });

  it('R3: an untolerated NoExecute taint → shouldContinueRunning false too', () => {
    const node = makeNode('n1', {}, [{ key: 'dedicated', value: 'x', effect: 'NoExecute' }]);
    expect(nodeShouldRunDaemonPod(node, makeDaemonSet())).toEqual(none);
  });

  it('R3: a tolerated taint does not matter; PreferNoSchedule taints are ignored', () => {
    const taints: Taint[] = [
      { key: 'dedicated', value: 'x', effect: 'NoSchedule' },
      { key: 'soft', value: 'y', effect: 'PreferNoSchedule' },
    ];
    const ds = makeDaemonSet({
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'x', effect: 'NoSchedule' }],
    });
    expect(nodeShouldRunDaemonPod(makeNode('n1', {}, taints), ds)).toEqual(both);
  });

  it('§3.2 toleration matching: effect-specific, key-specific, empty key + Exists matches all, Equal compares values', () => {
    const node = makeNode('n1', {}, [{ key: 'k', value: 'v', effect: 'NoSchedule' }]);
    const run = (tolerations: any[]) =>
      nodeShouldRunDaemonPod(node, makeDaemonSet({ tolerations })).shouldRun;
    expect(run([{ key: 'k', operator: 'Exists', effect: 'NoExecute' }])).toBe(false);
    expect(run([{ key: 'other', operator: 'Exists' }])).toBe(false);
    expect(run([{ operator: 'Exists' }])).toBe(true);
    expect(run([{ key: 'k', operator: 'Equal', value: 'w' }])).toBe(false);
    expect(run([{ key: 'k', value: 'v' }])).toBe(true);
  });
});

describe('§3.1 effective tolerations', () => {
  it('adds the six default daemon tolerations', () => {
    const list = effectiveDaemonTolerations({ containers: [] });
    expect(list.map((t) => `${t.key}:${t.effect}`)).toEqual([
      'node.kubernetes.io/not-ready:NoExecute',
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/disk-pressure:NoSchedule',
      'node.kubernetes.io/memory-pressure:NoSchedule',
      'node.kubernetes.io/pid-pressure:NoSchedule',
      'node.kubernetes.io/unschedulable:NoSchedule',
    ]);
  });

  it('an identical user toleration is replaced, dropping its tolerationSeconds', () => {
    const spec = deepFreeze({
      containers: [],
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
    });
    const list = effectiveDaemonTolerations(spec);
    expect(list).toHaveLength(6);
    expect(list[0]).toEqual({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' });
  });

  it('network-unavailable is added only with hostNetwork: true', () => {
    const key = 'node.kubernetes.io/network-unavailable';
    expect(effectiveDaemonTolerations({ containers: [] }).some((t) => t.key === key)).toBe(false);
    expect(effectiveDaemonTolerations({ containers: [], hostNetwork: true }).some((t) => t.key === key)).toBe(
      true,
    );
  });
});

describe('§3.3 required constraints', () => {
  const n = makeNode('node-a', { zone: 'z1', cpu: '8' });
  it('In / NotIn (true when the key is absent) / Exists / DoesNotExist', () => {
    const ok = (terms: NodeSelectorTerm[]) => nodeShouldRunDaemonPod(n, withAffinity(terms)).shouldRun;
    expect(ok([{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['z1', 'z2'] }] }])).toBe(true);
    expect(ok([{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['z2'] }] }])).toBe(false);
    expect(ok([{ matchExpressions: [{ key: 'missing', operator: 'NotIn', values: ['x'] }] }])).toBe(true);
    expect(ok([{ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }])).toBe(true);
    expect(ok([{ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }])).toBe(false);
  });

  it('Gt / Lt on integer-valued labels', () => {
    const ok = (terms: NodeSelectorTerm[]) => nodeShouldRunDaemonPod(n, withAffinity(terms)).shouldRun;
    expect(ok([{ matchExpressions: [{ key: 'cpu', operator: 'Gt', values: ['4'] }] }])).toBe(true);
    expect(ok([{ matchExpressions: [{ key: 'cpu', operator: 'Lt', values: ['4'] }] }])).toBe(false);
  });

  it('matchFields metadata.name In/NotIn', () => {
    const ok = (terms: NodeSelectorTerm[]) => nodeShouldRunDaemonPod(n, withAffinity(terms)).shouldRun;
    expect(ok([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-a'] }] }])).toBe(true);
    expect(ok([{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node-a'] }] }])).toBe(
      false,
    );
  });

  it('terms are ORed; a term without requirements, zero terms and an unparsable requirement match nothing', () => {
    const ok = (terms: NodeSelectorTerm[]) => nodeShouldRunDaemonPod(n, withAffinity(terms)).shouldRun;
    expect(
      ok([
        { matchExpressions: [{ key: 'zone', operator: 'In', values: ['z9'] }] },
        { matchExpressions: [{ key: 'zone', operator: 'Exists' }] },
      ]),
    ).toBe(true);
    expect(ok([{}])).toBe(false);
    expect(ok([])).toBe(false);
    expect(ok([{ matchExpressions: [{ key: 'zone', operator: 'In', values: [] }] }])).toBe(false);
    expect(ok([{ matchExpressions: [{ key: 'cpu', operator: 'Gt', values: ['x'] }] }])).toBe(false);
  });
});

describe('§3.4 what is not checked', () => {
  it('a cordoned node (unschedulable:NoSchedule) still runs daemon pods', () => {
    const node = makeNode('n1', {}, [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]);
    expect(nodeShouldRunDaemonPod(node, makeDaemonSet())).toEqual(both);
  });

  it('NotReady with not-ready:NoSchedule gets no new pod but existing pods stay', () => {
    const node = makeNode('n1', {}, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
    expect(nodeShouldRunDaemonPod(node, makeDaemonSet())).toEqual(stay);
  });

  it('not-ready:NoExecute and pressure taints are tolerated by default; node conditions are not read', () => {
    const node = makeNode('n1', {}, [
      { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' },
    ]);
    const notReady = { ...node, status: { conditions: [{ type: 'Ready', status: 'False' }] } };
    expect(nodeShouldRunDaemonPod(notReady, makeDaemonSet())).toEqual(both);
  });
});
