// Properties of random CloneSet rollouts driven through the simulator (the
// `test:long` script runs them 100,000 times): every invariant holds at every
// step, the rollout completes, and a run is reproducible from its seed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/scenario/run';
import { arbCloneSetScenario } from '../src/testing';

// Each run simulates a whole rollout, so CI runs few; FC_NUM_RUNS (test:long) overrides.
const numRuns = process.env.FC_NUM_RUNS ? Number(process.env.FC_NUM_RUNS) : 25;

describe('random CloneSet rollouts in the simulator', () => {
  it('keep maxUnavailable, maxSurge and partition at every step, and complete', () => {
    fc.assert(
      fc.property(arbCloneSetScenario(), (doc) => {
        const r = runScenario(doc);
        expect(r.errors).toEqual([]);
        for (const inv of r.invariants)
          expect(inv.violations, `${inv.name}: ${JSON.stringify(inv.violations[0])}`).toEqual([]);
        expect(r.failure).toBeUndefined();
        expect(r.status).toBe('passed');
      }),
      { numRuns },
    );
  });

  it('keep the invariants with crashes and failing readiness (the world misbehaving)', () => {
    fc.assert(
      fc.property(arbCloneSetScenario({ failures: true }), (doc) => {
        const r = runScenario(doc);
        expect(r.errors).toEqual([]);
        for (const inv of r.invariants)
          expect(inv.violations, `${inv.name}: ${JSON.stringify(inv.violations[0])}`).toEqual([]);
      }),
      { numRuns },
    );
  });
});
