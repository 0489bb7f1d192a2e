// OpenKruise v1.8.2's own DaemonSet unit-test cases (testdata/upstream/daemonset),
// one `it` per vector.
import type { DaemonSet } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  daemonSetsForNodeCreate,
  daemonSetsForNodeUpdate,
  filterDaemonPodsNodeToUpdate,
  getNodesNeedingPods,
  isCreationProgressive,
  nodeInSameCondition,
  nodeShouldUpdateBySelector,
  podRevision,
  shouldIgnoreNodeUpdate,
  templateGeneration,
  updatedDesiredNodeCounts,
} from '../src';
import { HarnessWorld, iso, loadUpstream, makeDaemonSet, makeNode } from './helpers';

/** A compact upstream node `{name, labels, taints, conditions, resourceVersion}` as a Node. */
function node(c: any): Node {
  const n = makeNode(c.name, c.labels ?? {}, c.taints ?? []);
  return {
    ...n,
    metadata: { ...n.metadata, ...(c.resourceVersion ? { resourceVersion: c.resourceVersion } : {}) },
    ...(c.conditions ? { status: { conditions: c.conditions } } : {}),
  };
}

/** A compact upstream pod `{labels, deleting, ready, nodeName, name}`. */
function pod(c: any, i: number): Pod {
  return {
    metadata: {
      name: c.name ?? `p${i}`,
      labels: c.labels ?? {},
      ...(c.deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}),
    },
    spec: { containers: [], ...(c.nodeName ? { nodeName: c.nodeName } : {}) },
    status: { conditions: c.ready ? [{ type: 'Ready', status: 'True' }] : [] },
  };
}

function nodeToPods(m: Record<string, any[]>): Map<string, Pod[]> {
  return new Map(Object.entries(m).map(([k, v]) => [k, v.map(pod)]));
}

/** A DaemonSet from a compact upstream `{template, updateStrategy, selector}`. */
function daemonSet(c: any): DaemonSet {
  const ds = makeDaemonSet({ name: c.name ?? 'foo', updateStrategy: c.updateStrategy });
  const tpl = c.template ?? {};
  ds.spec.template = {
    metadata: { labels: tpl.labels ?? ds.spec.template.metadata?.labels },
    spec: {
      containers: [{ name: 'main', image: 'foo/bar' }],
      ...(tpl.tolerations ? { tolerations: tpl.tolerations } : {}),
      ...(tpl.nodeSelector ? { nodeSelector: tpl.nodeSelector } : {}),
      ...(tpl.affinity ? { affinity: tpl.affinity } : {}),
    },
  };
  if (c.selector) ds.spec.selector = c.selector;
  return ds;
}

describe('filter-nodes-to-update.json (§7.2)', () => {
  const file = loadUpstream('filter-nodes-to-update.json');
  it.each<any>(file.vectors)('$id', (v) => {
    const ds = deepFreeze(makeDaemonSet({ updateStrategy: v.input.updateStrategy }));
    const map = nodeToPods(v.input.nodeToDaemonPods);
    // The Go fixture registers no node objects when no selector is set ("nodes are only
    // consulted for their labels"), so every map entry's node is taken to exist.
    const nodes: Node[] =
      v.input.nodes.length > 0 ? v.input.nodes.map(node) : [...map.keys()].map((name) => makeNode(name));
    const byName = new Map(nodes.map((n) => [n.metadata?.name ?? '', n]));
    expect(filterDaemonPodsNodeToUpdate(ds, v.input.hash, undefined, map, byName)).toEqual(v.expected.nodes);
  });
});

describe('unavailable-numbers.json (§7.1)', () => {
  const file = loadUpstream('unavailable-numbers.json');
  it.each<any>(file.vectors)('$id', (v) => {
    const ds = deepFreeze(daemonSet(v.input.daemonSet));
    const desired = v.input.nodes.map((n: any) => n.name);
    const r = updatedDesiredNodeCounts(ds, desired, nodeToPods(v.input.nodeToDaemonPods));
    if ('error' in r) throw new Error(r.error);
    const emptyNodes = [...r.nodeToPods.values()].filter((l) => l.length === 0).length;
    expect({ maxSurge: r.maxSurge, maxUnavailable: r.maxUnavailable, emptyNodes }).toEqual(v.expected);
  });
});

describe('nodes-needing-pods.json (§5.4)', () => {
  const file = loadUpstream('nodes-needing-pods.json');
  it.each<any>(file.vectors)('$id', (v) => {
    const i = v.input;
    expect(
      getNodesNeedingPods(i.newPodsNum, i.desire, i.partition, i.progressive, i.nodesNeedingPods),
    ).toEqual(v.expected.nodes);
  });
});

describe('node-selector-update.json (§7.2 selector)', () => {
  const file = loadUpstream('node-selector-update.json');
  it.each<any>(file.vectors)('$id', (v) => {
    const ds = makeDaemonSet({ updateStrategy: v.input.updateStrategy });
    expect(nodeShouldUpdateBySelector(node(v.input.node), ds)).toBe(v.expected.shouldUpdate);
  });
});

describe('node-events.json (§3 via the node event handler)', () => {
  const file = loadUpstream('node-events.json');
  it.each<any>(file.vectors)('$id', (v) => {
    const dss = v.input.daemonSets.map(daemonSet);
    const e = v.input.event;
    const enqueued =
      e.type === 'create'
        ? daemonSetsForNodeCreate(node(e.node), dss).length
        : daemonSetsForNodeUpdate(node(e.oldNode), node(e.newNode), dss).length;
    expect(enqueued).toBe(v.expected.enqueued);
  });
});

describe('misc-util.json', () => {
  const file = loadUpstream('misc-util.json');
  it.each<any>(file.vectors)('$id', (v) => {
    const i = v.input;
    switch (v.function) {
      case 'nodeInSameCondition':
        expect(nodeInSameCondition(i.old, i.cur)).toBe(v.expected.result);
        break;
      case 'shouldIgnoreNodeUpdate':
        expect(shouldIgnoreNodeUpdate(node(i.oldNode), node(i.curNode))).toBe(v.expected.result);
        break;
      case 'podRevision':
        expect(podRevision({ metadata: { labels: i.podLabels } })).toBe(v.expected.result);
        break;
      case 'isCreationProgressive':
        expect(isCreationProgressive(i.annotations)).toBe(v.expected.result);
        break;
      case 'templateGeneration': {
        const g = templateGeneration(makeDaemonSet({ annotations: i.annotations }));
        expect({ result: g, error: g === undefined }).toEqual(v.expected);
        break;
      }
      default:
        throw new Error(`unknown function ${v.function}`);
    }
  });
});

describe('rolling-update-scenarios.json (§5 + §7, whole syncs)', () => {
  const file = loadUpstream('rolling-update-scenarios.json');
  it.each<any>(file.scenarios)('$id', (s) => {
    const init = s.initial;
    const ds = makeDaemonSet({
      name: init.daemonSet.name,
      updateStrategy: init.daemonSet.updateStrategy,
      minReadySeconds: init.daemonSet.minReadySeconds,
      revisionHistoryLimit: init.daemonSet.revisionHistoryLimit,
      generation: 1,
    });
    // The fixture's selector/template labels; the container gets a name because kruise-ts
    // validates inside the reconcile (the Go harness skips the webhook).
    ds.spec.selector = init.daemonSet.selector;
    ds.spec.template = {
      metadata: { labels: init.daemonSet.template.labels },
      spec: { containers: [{ name: 'foo', image: init.daemonSet.template.containers[0].image }] },
    };
    const world = new HarnessWorld(ds, init.nodes.map(node), init.clock.unix);
    let syncNo = 0;
    for (const step of s.steps) {
      switch (step.op) {
        case 'sync': {
          syncNo++;
          const r = world.sync();
          expect({ sync: syncNo, creates: r.creates, deletes: r.deletes, events: world.events }).toEqual({
            sync: syncNo,
            ...step.expect,
          });
          break;
        }
        case 'clearExpectations':
          world.clearExpectations();
          break;
        case 'markAllPodsReady':
          world.markAllPodsReady();
          break;
        case 'setClock':
          world.clock = step.unix;
          break;
        case 'setPodReadiness': {
          const hash = world.ds.status?.daemonSetHash;
          const nodeOf = (p: Pod) =>
            p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
              ?.nodeSelectorTerms[0]?.matchFields?.[0]?.values?.[0];
          const hasCurrent = (n: string | undefined) =>
            world.pods.some(
              (p) => nodeOf(p) === n && p.metadata?.labels?.['controller-revision-hash'] === hash,
            );
          let left = step.count;
          world.pods = world.pods.map((p) => {
            if (left === 0 || p.metadata?.deletionTimestamp || world.isReady(p) === step.ready) return p;
            const h = p.metadata?.labels?.['controller-revision-hash'];
            const match =
              step.select === 'any' ||
              (step.select === 'currentHash' && h === hash) ||
              (step.select === 'oldHashOnNodeWithoutCurrentHashPod' && h !== hash && !hasCurrent(nodeOf(p)));
            if (!match) return p;
            left--;
            return world.setReady(p, step.ready);
          });
          expect(left).toBe(0);
          break;
        }
        case 'updateDaemonSet': {
          const spec = structuredClone(world.ds.spec);
          for (const [k, val] of Object.entries(step.set)) {
            if (k === 'template.containers[0].image') spec.template.spec!.containers[0].image = val as string;
            else if (k === 'updateStrategy') spec.updateStrategy = val as any;
            else if (k === 'minReadySeconds') spec.minReadySeconds = val as number;
            else throw new Error(`unknown field ${k}`);
          }
          world.ds = {
            ...world.ds,
            metadata: { ...world.ds.metadata, generation: (world.ds.metadata.generation ?? 0) + 1 },
            spec,
          };
          break;
        }
        default:
          throw new Error(`unknown op ${step.op}`);
      }
    }
    expect(iso(world.clock)).toMatch(/Z$/);
  });
});
