// The malformed inputs issue 17 reported, one by one, and the answer each gets now
// (docs/reference/core.md §10.1): an observed object of the wrong shape is skipped with one
// MalformedObserved Warning event naming it and the field, and the reconcile answers as if it
// were not listed; a workload of the wrong shape gets its field errors and no destructive action.

import { reconcileCloneSet } from '@kruise-ts/cloneset';
import { MALFORMED_OBSERVED_REASON } from '@kruise-ts/core';
import { reconcileDaemonSet } from '@kruise-ts/daemonset';
import { reconcileStatefulSet } from '@kruise-ts/statefulset';
import { describe, expect, it } from 'vitest';
import { validInputs } from './arbitraries';

type Input = Record<string, unknown> & { pods: Record<string, unknown>[] };
type Result = {
  actions: { verb: string; reason: string; type?: string; message?: string }[];
  errors: { field: string }[];
};

/** A CloneSet input from the example scenarios with at least two pods. */
function cloneSetInput(): Input {
  const input = validInputs('CloneSet').find((i) => Array.isArray(i.pods) && i.pods.length >= 2);
  if (!input) throw new Error('no CloneSet input with pods');
  return input as Input;
}

function withPod(
  input: Input,
  i: number,
  change: (pod: Record<string, unknown>) => Record<string, unknown>,
): Input {
  const pods = [...input.pods];
  pods[i] = change(pods[i]);
  return { ...input, pods };
}

const meta = (pod: Record<string, unknown>) => pod.metadata as Record<string, unknown>;
const nameOf = (pod: Record<string, unknown>) => `${meta(pod).namespace}/${meta(pod).name}`;
const events = (r: Result) => r.actions.filter((a) => a.reason === MALFORMED_OBSERVED_REASON);
const withoutEvents = (r: Result) => ({
  ...r,
  actions: r.actions.filter((a) => a.reason !== MALFORMED_OBSERVED_REASON),
});

describe('an observed object of the wrong shape is skipped, with a Warning event naming it', () => {
  const input = cloneSetInput();
  const cases: [string, (pod: Record<string, unknown>) => Record<string, unknown>, string][] = [
    ['metadata.labels: null', (p) => ({ ...p, metadata: { ...meta(p), labels: null } }), 'metadata.labels'],
    [
      'status.conditions: 5',
      (p) => ({ ...p, status: { ...(p.status as object), conditions: 5 } }),
      'status.conditions',
    ],
    [
      'spec.containers[0].image: 5',
      (p) => {
        const spec = p.spec as { containers: Record<string, unknown>[] };
        return {
          ...p,
          spec: { ...spec, containers: [{ ...spec.containers[0], image: 5 }, ...spec.containers.slice(1)] },
        };
      },
      'spec.containers[0].image',
    ],
  ];
  for (const [what, change, field] of cases) {
    it(`a pod with ${what}: the answer of the input without that pod, and one event`, () => {
      const bad = withPod(input, 1, change);
      const r = reconcileCloneSet(bad as never, { seed: 1 }) as unknown as Result;
      const without = reconcileCloneSet({ ...input, pods: input.pods.filter((_, i) => i !== 1) } as never, {
        seed: 1,
      }) as unknown as Result;
      expect(withoutEvents(r)).toEqual(without);
      const ev = events(r);
      expect(ev).toHaveLength(1);
      expect(r.actions[0]).toBe(ev[0]);
      expect(ev[0].type).toBe('Warning');
      expect(ev[0].message).toContain(`pods[1] ${nameOf(input.pods[1])} (${field}`);
    });
  }

  it('a valid input gets no such event', () => {
    for (const kind of ['CloneSet', 'StatefulSet', 'DaemonSet']) {
      for (const i of validInputs(kind)) {
        const r = (kind === 'CloneSet'
          ? reconcileCloneSet(i as never)
          : kind === 'StatefulSet'
            ? reconcileStatefulSet(i as never)
            : reconcileDaemonSet(i as never)) as unknown as Result;
        expect(events(r)).toEqual([]);
      }
    }
  });

  it('a node with taints: 1e308 is skipped by the DaemonSet', () => {
    const input = validInputs('DaemonSet')[0] as Input & { nodes: Record<string, unknown>[] };
    const node = input.nodes[0];
    const bad = {
      ...input,
      nodes: [{ ...node, spec: { ...(node.spec as object), taints: 1e308 } }, ...input.nodes.slice(1)],
    };
    const r = reconcileDaemonSet(bad as never) as unknown as Result;
    expect(events(r)[0]?.message).toContain('nodes[0]');
    expect(events(r)[0]?.message).toContain('spec.taints');
  });
});

describe('the input itself of the wrong shape gets field errors and no action', () => {
  for (const [what, input, field] of [
    ['null', null, ''],
    ['a number', 5, ''],
    ['pods: "x"', { ...cloneSetInput(), pods: 'x' }, 'pods'],
    ['no pods', { ...cloneSetInput(), pods: undefined }, 'pods'],
    ['cloneSet: []', { ...cloneSetInput(), cloneSet: [] }, 'cloneSet'],
    ['a CloneSet without metadata', { ...cloneSetInput(), cloneSet: { spec: {} } }, 'cloneSet.metadata'],
  ] as const) {
    it(what, () => {
      const r = reconcileCloneSet(input as never) as unknown as Result;
      expect(r.actions).toEqual([]);
      expect(r.errors.map((e) => e.field)).toContain(field);
    });
  }
});

describe('a workload field of the wrong type is a field error of the workload, nothing destructive', () => {
  const input = cloneSetInput();
  const cs = input.cloneSet as { spec: Record<string, unknown> };
  for (const [what, spec, field] of [
    [
      'selector.matchLabels.app: null',
      { ...cs.spec, selector: { matchLabels: { app: null } } },
      'spec.selector.matchLabels.app',
    ],
    [
      'scaleStrategy.podsToDelete: 0',
      { ...cs.spec, scaleStrategy: { podsToDelete: 0 } },
      'spec.scaleStrategy.podsToDelete',
    ],
  ] as const) {
    it(what, () => {
      const r = reconcileCloneSet({ ...input, cloneSet: { ...cs, spec } } as never) as unknown as Result;
      expect(r.errors.map((e) => e.field)).toContain(field);
      expect(r.actions.filter((a) => a.verb !== 'event')).toEqual([]);
    });
  }

  it('an Advanced StatefulSet with reserveOrdinals: ["1%"]', () => {
    const sts = validInputs('StatefulSet')[0] as { statefulSet: { spec: Record<string, unknown> } };
    const r = reconcileStatefulSet({
      ...sts,
      statefulSet: { ...sts.statefulSet, spec: { ...sts.statefulSet.spec, reserveOrdinals: ['1%'] } },
    } as never) as unknown as Result;
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.actions.filter((a) => a.verb !== 'event')).toEqual([]);
  });
});
