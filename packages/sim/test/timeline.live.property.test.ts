// The timeline's live counts (kept from the store's change notifications) must equal what a walk
// over each workload's pods counts, after every settle: checked on the example scenarios and on
// random CloneSet rollouts with scaling, deletions and crashes.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { cloneSetPodAvailable } from '../src/invariants';
import { runScenario } from '../src/scenario/run';
import type { Simulation } from '../src/simulation';
import { arbCloneSetScenario } from '../src/testing';

/** Live sample vs walk for every CloneSet now; returns the differences found. */
function compare(sim: Simulation): string[] {
  const tl = sim.timeline as unknown as {
    liveSample(obj: unknown, wt: { revisions: string[] }): unknown;
    walk(store: unknown, obj: unknown, wt: { revisions: string[] }, min: number, now: number): unknown;
  };
  const out: string[] = [];
  for (const cs of sim.store.list('apps.kruise.io/v1alpha1', 'CloneSet')) {
    // Revisions as a walk would collect them (the walk adds any it meets first).
    const wt = { revisions: [] as string[] };
    const walked = tl.walk(sim.store, cs, wt, 0, 0);
    const live = tl.liveSample(cs, wt);
    if (JSON.stringify(sorted(live)) !== JSON.stringify(sorted(walked)))
      out.push(
        `${cs.metadata.name} at ${sim.nowMs} ms: live ${JSON.stringify(live)} walk ${JSON.stringify(walked)}`,
      );
    // the invariant checker's active/available counts (minReadySeconds 0); it keeps none when
    // the scenario checks no invariant
    if (sim.invariantResults().length === 0) continue;
    const inv = sim.invariants as unknown as {
      counts(
        cs: unknown,
        min: number,
        now: number,
        pods: () => unknown[],
      ): { active: number; available: number };
      activePods(cs: unknown): Pod[];
    };
    const pods = inv.activePods(cs);
    const live2 = inv.counts(cs, 0, 0, () => pods);
    const walked2 = {
      active: pods.length,
      available: pods.filter((p) => cloneSetPodAvailable(p, 0, 0)).length,
    };
    if (JSON.stringify(live2) !== JSON.stringify(walked2))
      out.push(
        `${cs.metadata.name}: invariant counts ${JSON.stringify(live2)}, walk ${JSON.stringify(walked2)}`,
      );
  }
  return out;
}

function sorted(v: unknown): unknown {
  const s = v as { byRevision: Record<string, unknown> };
  return {
    ...s,
    byRevision: Object.fromEntries(Object.entries(s.byRevision).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}

function run(doc: string | Record<string, unknown>, dir?: string): string[] {
  const problems: string[] = [];
  const r = runScenario(doc, {
    logLevel: 'summary',
    ...(dir ? { readFile: (p: string) => readFileSync(`${dir}${p}`, 'utf8') } : {}),
    onStart: (sim) => {
      sim.onSettle((s) => {
        if (problems.length < 5) problems.push(...compare(s));
      });
    },
  });
  if (r.status === 'invalid') problems.push(`invalid scenario: ${JSON.stringify(r.errors)}`);
  return problems;
}

describe('timeline and invariant live counts = a walk over the pods, after every settle', () => {
  const dir = fileURLToPath(new URL('../../../examples/scenarios/', import.meta.url));
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  it.each(files)('example scenario %s', (file) => {
    expect(run(readFileSync(`${dir}${file}`, 'utf8'), dir)).toEqual([]);
  });

  it('random CloneSet rollouts with scaling, pod deletions and crashes', () => {
    fc.assert(
      fc.property(arbCloneSetScenario({ failures: true }), (doc) => {
        expect(run(doc)).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });
});
