// The remaining upstream case files of testdata/upstream/cloneset/: partition,
// revision matching, status (derived), the update count (diffs + limiter), and the
// orderings CloneSet uses (scale-in comparator, spread ranker, priority, scatter).
import {
  compareForScaleIn,
  comparePriority,
  getScatterTerms,
  kruiseScaledValueFromIntOrPercent,
  sortUpdateIndexesByScatter,
  spreadConstraintRanks,
} from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { calculateDiffs } from '../src/diffs';
import { computePodFacts } from '../src/facts';
import { limitUpdateIndexes } from '../src/limiter';
import { resolvePartition } from '../src/params';
import { hashEquals, scaleIsPodUpdate } from '../src/predicates';
import { calculateStatus } from '../src/status';
import { type CompactPod, cloneSetFrom, compactPod, loadCases } from './fixtures';

describe('upstream partition.json (§5.2)', () => {
  const { cases } = loadCases('partition.json');
  it.each(cases.map((c: any) => [`${c.id} ${c.goCase}`, c]))('%s', (_n, c: any) => {
    if (c.kind === 'partitionReplicas') {
      const r = resolvePartition(c.partition ?? undefined, c.replicas ?? undefined);
      expect(r.value).toBe(c.expected.value);
      expect(r.error !== undefined).toBe(c.expected.error);
    } else {
      // the percent helper behind the partition (core's kruiseScaledValueFromIntOrPercent)
      const run = () => kruiseScaledValueFromIntOrPercent(c.input, c.total, c.roundUp);
      if (c.expected.error) expect(run).toThrow();
      else expect(run()).toBe(c.expected.value);
    }
  });
});

describe('upstream revision_match.json (§4.3, PreparingUpdateAsUpdate on)', () => {
  const { cases } = loadCases('revision_match.json');
  it.each(cases.map((c: any) => [`${c.id} ${c.goCase}`, c]))('%s', (_n, c: any) => {
    const pod = compactPod({ name: 'p', revision: c.pod.revision, lifecycleState: c.pod.lifecycleState });
    expect(scaleIsPodUpdate({ PreparingUpdateAsUpdate: true })(pod, c.updateRevision)).toBe(
      c.expected.isUpdated,
    );
  });
});

describe('upstream derived_status.json (§13)', () => {
  const { cases } = loadCases('derived_status.json');
  it.each(cases.map((c: any) => [`${c.id} ${c.description}`, c]))('%s', (_n, c: any) => {
    const cs = deepFreeze(cloneSetFrom({ spec: c.cloneSet.spec }));
    const pods = deepFreeze(c.pods.map((p: CompactPod) => compactPod(p)));
    const s = calculateStatus(cs, pods, {
      updateRevision: c.updateRevision,
      currentRevision: c.statusCurrentRevisionBefore,
      nowMs: Date.parse(c.now),
    });
    expect(s).toMatchObject(c.expected);
  });
});

describe('upstream update_count.json (§6 + §9.4 limiter)', () => {
  const file = loadCases('update_count.json');
  it.each(file.cases.map((c: any) => [`${c.id} ${c.goCase}`, c]))('%s', (_n, c: any) => {
    const cs = deepFreeze(cloneSetFrom({ spec: c.cloneSet.spec }));
    const pods = deepFreeze(c.pods.map((p: CompactPod) => compactPod(p)));
    const diffs = calculateDiffs(cs, pods, {
      currentRevision: c.currentRevision,
      updateRevision: c.updateRevision,
      featureGates: c.featureGates,
      isPodUpdate: hashEquals,
    });
    let candidates: number[] = [];
    let target = c.updateRevision;
    if (diffs.updateNum > 0) candidates = c.oldRevisionIndexes;
    else if (diffs.updateNum < 0) {
      candidates = pods
        .map((_p: Pod, i: number) => i)
        .filter((i: number) => !c.oldRevisionIndexes.includes(i));
      target = c.currentRevision;
    }
    const facts = computePodFacts(pods, {
      updateRevision: target,
      podsToDelete: new Set(),
      minReadySeconds: 0,
      nowMs: 0,
    });
    const result = limitUpdateIndexes({ diffs, candidates, facts, targetRevision: target });
    expect(result.length).toBe(c.expected.updatableCount);
    if (c.derivedNotAsserted) {
      expect({ updateNum: diffs.updateNum, updateMaxUnavailable: diffs.updateMaxUnavailable }).toEqual(
        c.derivedNotAsserted,
      );
    }
  });
});

describe('upstream pod_sort.json (§8.3 deletion order and ranker)', () => {
  const { cases } = loadCases('pod_sort.json');
  for (const c of cases as any[]) {
    if (c.kind === 'deletionOrderComparator') {
      const byName = new Map<string, Pod>(c.pods.map((p: CompactPod) => [p.name, compactPod(p)]));
      describe(`${c.id} ${c.goTest}`, () => {
        (c.checks as any[]).forEach((k, i) => {
          it(`#${i} ${k.kind} ${k.goCase ?? k.pod}`, () => {
            if (k.kind === 'notLessThanItself') {
              const p = byName.get(k.pod)!;
              expect(compareForScaleIn(p, p) < 0).toBe(false);
            } else {
              const a = byName.get(k.lesser)!;
              const b = byName.get(k.greater)!;
              expect(compareForScaleIn(a, b) < 0).toBe(true);
              expect(compareForScaleIn(b, a) < 0).toBe(false);
            }
          });
        });
      });
    } else {
      it(`${c.id} ${c.goCase}`, () => {
        const nodes: Node[] = c.nodes.map((n: any) => ({ metadata: { name: n.name, labels: n.labels } }));
        const pods: Pod[] = c.pods.map((p: any) => ({
          metadata: { name: p.uid, uid: p.uid },
          spec: { nodeName: p.nodeName, containers: [] },
        }));
        const ranks = spreadConstraintRanks(pods, c.constraints, nodes);
        const positive = pods
          .map((p, i) => ({ uid: p.metadata!.uid!, rank: ranks.get(p) ?? 0, i }))
          .filter((x) => x.rank > 0)
          .sort((a, b) => b.rank - a.rank || a.i - b.i)
          .map((x) => x.uid);
        expect(positive).toEqual(c.expected.podsWithPositiveRankSortedByRankDesc);
      });
    }
  }
});

describe('upstream update_priority.json (§9.3.2)', () => {
  const { cases } = loadCases('update_priority.json');
  it.each(cases.map((c: any) => [`${c.id} ${c.goCase}`, c]))('%s', (_n, c: any) => {
    expect(comparePriority(c.priorityStrategy, c.podILabels, c.podJLabels) <= 0).toBe(
      c.expected.iBeforeJOrTie,
    );
  });
});

describe('upstream update_scatter.json (§9.3.3)', () => {
  const { cases } = loadCases('update_scatter.json');
  const podsOf = (labels: (Record<string, string> | null)[]) =>
    labels.map((l) => (l === null ? null : ({ metadata: { labels: l } } as Pod)));
  it.each(cases.map((c: any) => [`${c.id} ${c.goCase}`, c]))('%s', (_n, c: any) => {
    const pods = podsOf(c.podLabels);
    if (c.kind === 'scatterTermOrder') {
      expect(getScatterTerms(c.scatterStrategy, pods, c.waitIndexes)).toEqual(c.expected.terms);
    } else {
      expect(sortUpdateIndexesByScatter(pods, c.waitIndexes, c.scatterStrategy)).toEqual(
        c.expected.sortedIndexes,
      );
    }
  });
});
