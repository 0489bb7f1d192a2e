// docs/reference/daemonset.md §4 (claiming, target node, oldest first) and §6 (the created pod).
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  claimDaemonPods,
  compareOldestFirst,
  daemonPodName,
  getNodesToDaemonPods,
  getTargetNodeName,
  newDaemonPod,
  reconcileDaemonSet,
} from '../src';
import { iso, makeDaemonSet, makeNode, makePod } from './helpers';

const ds = makeDaemonSet();

describe('§4.1 claiming', () => {
  it('owned and matching → kept; orphan matching → adopted (patch); other owner → ignored; owned not matching → released', () => {
    const owned = makePod(ds, 'owned', 'n1', 'h');
    const orphan = {
      ...makePod(ds, 'orphan', 'n2', 'h'),
      metadata: { ...makePod(ds, 'orphan', 'n2', 'h').metadata, ownerReferences: [] },
    };
    const foreign = makePod(makeDaemonSet({ name: 'bar' }), 'foreign', 'n3', 'h');
    foreign.metadata!.labels = { app: 'foo' };
    const stray = makePod(ds, 'stray', 'n4', 'h');
    stray.metadata!.labels = { app: 'other' };
    const r = claimDaemonPods(deepFreeze(ds), deepFreeze([owned, orphan, foreign, stray]));
    expect(r.pods.map((p) => p.metadata?.name)).toEqual(['owned', 'orphan']);
    expect(r.actions.map((a) => [a.reason, (a as any).target.name])).toEqual([
      ['AdoptPod', 'orphan'],
      ['ReleasePod', 'stray'],
    ]);
    expect(r.pods[1].metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'DaemonSet',
      name: 'foo',
      controller: true,
    });
  });

  it('a deleting orphan is not adopted; pods of other namespaces are ignored', () => {
    const orphan = makePod(ds, 'o', 'n1', 'h', { deleting: true });
    const other = makePod(ds, 'x', 'n1', 'h');
    const r = claimDaemonPods(ds, [
      { ...orphan, metadata: { ...orphan.metadata, ownerReferences: [] } },
      { ...other, metadata: { ...other.metadata, namespace: 'elsewhere' } },
    ]);
    expect(r).toEqual({ pods: [], actions: [] });
  });
});

describe('§4.2 target node and §4.3/4.4 ordering', () => {
  it('spec.nodeName wins; otherwise the single matchFields metadata.name In value; else none', () => {
    expect(getTargetNodeName(makePod(ds, 'a', 'n1', 'h', { nodeName: true }))).toBe('n1');
    expect(getTargetNodeName(makePod(ds, 'a', 'n2', 'h'))).toBe('n2');
    expect(getTargetNodeName({ spec: { containers: [] } })).toBeUndefined();
  });

  it('oldest first: nodeName set first, then creationTimestamp (unset = oldest), then name', () => {
    const p = (name: string, o: { created?: number; nodeName?: boolean }) => makePod(ds, name, 'n1', 'h', o);
    const pods: Pod[] = [
      p('d', { created: 5 }),
      p('c', {}),
      p('b', { created: 5 }),
      p('a', { created: 9, nodeName: true }),
    ];
    expect([...pods].sort(compareOldestFirst).map((x) => x.metadata?.name)).toEqual(['a', 'c', 'b', 'd']);
    expect(
      getNodesToDaemonPods(pods)
        .get('n1')
        ?.map((x) => x.metadata?.name),
    ).toEqual(['a', 'c', 'b', 'd']);
  });
});

describe('§6 the created pod', () => {
  it('legacy template generation → label pod-template-generation', () => {
    const legacy = makeDaemonSet({ annotations: { 'deprecated.daemonset.template.generation': '3' } });
    const pod = newDaemonPod(legacy, 'n1', { hash: 'h', seed: 0, takenNames: new Set() });
    expect(pod.metadata?.labels).toEqual({
      app: 'foo',
      'controller-revision-hash': 'h',
      'pod-template-generation': '3',
    });
  });

  it('Q7: required node-affinity terms are replaced, preferred terms kept', () => {
    const d = makeDaemonSet();
    d.spec.template.spec!.affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 1, preference: { matchExpressions: [{ key: 'ssd', operator: 'Exists' }] } },
        ],
      },
    };
    const pod = newDaemonPod(deepFreeze(d), 'n7', { hash: 'h', seed: 0, takenNames: new Set() });
    expect(pod.spec?.affinity?.nodeAffinity).toEqual({
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n7'] }] }],
      },
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 1, preference: { matchExpressions: [{ key: 'ssd', operator: 'Exists' }] } },
      ],
    });
  });

  it('assign-pods-by-scheduler=false: spec.nodeName and the daemonset scheduler name instead', () => {
    const r = reconcileDaemonSet(
      { daemonSet: ds, nodes: [makeNode('n1')], pods: [], now: iso(1) },
      { assignPodsByScheduler: false },
    );
    const pod = (r.actions.find((a) => a.verb === 'create' && a.object.kind === 'Pod') as any).object as Pod;
    expect([pod.spec?.nodeName, pod.spec?.schedulerName, pod.spec?.affinity]).toEqual([
      'n1',
      'kubernetes.io/daemonset-controller',
      undefined,
    ]);
  });

  it('names are deterministic for a seed and never reuse a taken name', () => {
    const taken = new Set<string>();
    const a = daemonPodName('foo', 'n1', 'h', 42, taken);
    expect(daemonPodName('foo', 'n1', 'h', 42, new Set())).toBe(a);
    const b = daemonPodName('foo', 'n1', 'h', 42, taken);
    expect(b).not.toBe(a);
    expect(taken).toEqual(new Set([a, b]));
  });

  it('a reconcile with many nodes creates pods with distinct names', () => {
    const nodes = Array.from({ length: 300 }, (_, i) => makeNode(`n${i}`));
    const r = reconcileDaemonSet({ daemonSet: ds, nodes, pods: [], now: iso(1) }, { seed: 7 });
    const names = r.actions
      .filter((a) => a.verb === 'create' && a.object.kind === 'Pod')
      .map((a: any) => a.object.metadata.name);
    expect(names).toHaveLength(250); // burstReplicas default 250 (§5.6)
    expect(new Set(names).size).toBe(250);
  });
});
