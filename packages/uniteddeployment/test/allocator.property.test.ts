// fast-check properties of the allocation (docs/reference/uniteddeployment.md §4) and of the reconcile's
// independence from input order.
import { deepFreeze } from '@kruise-ts/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AllocatableSubset,
  allocateSubsetReplicas,
  type ExistingSubsets,
  parseSubsetReplicas,
  reconcileUnitedDeployment,
  validateUnitedDeployment,
} from '../src/index';
import { makePod, makeUD, makeWorkload } from './fixtures';

const subsetNames = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'zone-1', 'zone-2'), {
  minLength: 1,
  maxLength: 6,
});
const quantity = fc.oneof(
  fc.integer({ min: 0, max: 30 }),
  fc.integer({ min: 0, max: 100 }).map((p) => `${p}%`),
);

/** A "specific" topology: some subsets fixed (int or percent), the others sharing the remainder. */
const specificCase = fc
  .record({
    total: fc.integer({ min: 0, max: 60 }),
    names: subsetNames,
    seed: fc.array(fc.option(quantity, { nil: undefined }), { minLength: 6, maxLength: 6 }),
    current: fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 6, maxLength: 6 }),
    exists: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
  })
  .map(({ total, names, seed, current, exists }) => {
    const subsets: AllocatableSubset[] = names.map((name, i) =>
      seed[i] === undefined ? { name } : { name, replicas: seed[i] },
    );
    const existing: Record<string, { specReplicas: number }> = {};
    names.forEach((n, i) => {
      if (exists[i]) existing[n] = { specReplicas: current[i] };
    });
    return { total, subsets, existing };
  });

/** An "elastic" topology with at least one unbounded subset. */
const elasticCase = fc
  .record({
    total: fc.integer({ min: 0, max: 60 }),
    names: subsetNames,
    mins: fc.array(fc.option(fc.integer({ min: 0, max: 15 }), { nil: undefined }), {
      minLength: 6,
      maxLength: 6,
    }),
    extra: fc.array(fc.option(fc.integer({ min: 0, max: 15 }), { nil: undefined }), {
      minLength: 6,
      maxLength: 6,
    }),
    unbounded: fc.nat(),
  })
  .map(({ total, names, mins, extra, unbounded }) => {
    const u = unbounded % names.length;
    const subsets: AllocatableSubset[] = names.map((name, i) => {
      const min = mins[i] ?? 0;
      const s: AllocatableSubset = { name, minReplicas: min };
      if (i !== u && extra[i] !== undefined) s.maxReplicas = min + extra[i]!;
      return s;
    });
    return { total, subsets };
  });

const ud = (total: number | undefined, subsets: AllocatableSubset[], adaptive = false) =>
  deepFreeze({
    spec: {
      ...(total === undefined ? {} : { replicas: total }),
      topology: { subsets, ...(adaptive ? { scheduleStrategy: { type: 'Adaptive' } } : {}) },
    },
  });

function shuffle<T>(xs: T[], keys: number[]): T[] {
  return xs
    .map((x, i) => ({ x, k: keys[i % keys.length] ?? 0, i }))
    .sort((a, b) => a.k - b.k || a.i - b.i)
    .map((e) => e.x);
}

describe('§4 allocation properties', () => {
  it('specific: when it succeeds the allocation sums to the total, one entry per subset', () => {
    fc.assert(
      fc.property(specificCase, ({ total, subsets, existing }) => {
        const r = allocateSubsetReplicas(ud(total, subsets), existing);
        if ('error' in r) return;
        expect(Object.keys(r.replicas).sort()).toEqual(subsets.map((s) => s.name).sort());
        expect(Object.values(r.replicas).reduce((a, b) => a + b, 0)).toBe(total);
      }),
    );
  });
  it('specific: fixed subsets get exactly their (parsed) count', () => {
    fc.assert(
      fc.property(specificCase, ({ total, subsets, existing }) => {
        const r = allocateSubsetReplicas(ud(total, subsets), existing);
        if ('error' in r) return;
        for (const s of subsets) {
          if (s.replicas == null) continue;
          const p = parseSubsetReplicas(total, s.replicas);
          if ('value' in p) expect(r.replicas[s.name]).toBe(p.value);
        }
      }),
    );
  });
  it('specific: it fails exactly when the fixed counts exceed the total or all are fixed and fall short', () => {
    fc.assert(
      fc.property(specificCase, ({ total, subsets, existing }) => {
        const r = allocateSubsetReplicas(ud(total, subsets), existing);
        const fixed = subsets
          .map((s) => (s.replicas == null ? undefined : parseSubsetReplicas(total, s.replicas)))
          .filter((p) => p && 'value' in p) as { value: number }[];
        const sum = fixed.reduce((a, p) => a + p.value, 0);
        const shouldFail = sum > total || (fixed.length === subsets.length && sum < total);
        expect('error' in r).toBe(shouldFail);
      }),
    );
  });
  it('specific: independent of topology order and of the existing-subsets map order (S2 sorts)', () => {
    fc.assert(
      fc.property(
        specificCase,
        fc.array(fc.integer(), { minLength: 6, maxLength: 6 }),
        ({ total, subsets, existing }, keys) => {
          const a = allocateSubsetReplicas(ud(total, subsets), existing);
          const reversed: ExistingSubsets = Object.fromEntries(shuffle(Object.entries(existing), keys));
          const b = allocateSubsetReplicas(ud(total, shuffle(subsets, keys)), reversed);
          expect(b).toEqual(a);
        },
      ),
    );
  });
  it('elastic: with an unbounded subset the allocation sums to the total', () => {
    fc.assert(
      fc.property(elasticCase, ({ total, subsets }) => {
        const r = allocateSubsetReplicas(ud(total, subsets));
        if ('error' in r) throw new Error(r.error);
        expect(Object.values(r.replicas).reduce((a, b) => a + b, 0)).toBe(total);
      }),
    );
  });
  it('elastic: every subset stays within its max, and within its min when Σmin ≤ total', () => {
    fc.assert(
      fc.property(elasticCase, ({ total, subsets }) => {
        const r = allocateSubsetReplicas(ud(total, subsets));
        if ('error' in r) throw new Error(r.error);
        const sumMin = subsets.reduce((a, s) => a + (s.minReplicas as number), 0);
        for (const s of subsets) {
          expect(r.replicas[s.name]).toBeLessThanOrEqual(
            s.maxReplicas == null ? Number.MAX_SAFE_INTEGER : (s.maxReplicas as number),
          );
          if (sumMin <= total) expect(r.replicas[s.name]).toBeGreaterThanOrEqual(s.minReplicas as number);
        }
      }),
    );
  });
  it('elastic + Adaptive: still sums to the total while a schedulable unbounded subset exists; never throws', () => {
    const status = fc.record({
      exists: fc.boolean(),
      replicas: fc.integer({ min: 0, max: 20 }),
      pending: fc.integer({ min: 0, max: 20 }),
      unschedulable: fc.boolean(),
    });
    fc.assert(
      fc.property(elasticCase, fc.array(status, { minLength: 6, maxLength: 6 }), ({ total, subsets }, st) => {
        const existing: Record<string, any> = {};
        subsets.forEach((s, i) => {
          if (st[i].exists)
            existing[s.name] = {
              specReplicas: st[i].replicas,
              status: {
                replicas: st[i].replicas,
                unschedulableStatus: { unschedulable: st[i].unschedulable, pendingPods: st[i].pending },
              },
            };
        });
        const r = allocateSubsetReplicas(ud(total, subsets, true), deepFreeze(existing));
        if ('error' in r) return;
        const open = subsets.some((s, i) => s.maxReplicas == null && !(st[i].exists && st[i].unschedulable));
        const sum = Object.values(r.replicas).reduce((a, b) => a + b, 0);
        if (open) expect(sum).toBe(total);
        else expect(sum).toBeLessThanOrEqual(total);
        for (const v of Object.values(r.replicas)) expect(v).toBeGreaterThanOrEqual(0);
      }),
    );
  });
  it('every UD that passes validation allocates without error', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          specificCase,
          elasticCase.map((c) => ({ ...c, existing: {} })),
        ),
        ({ total, subsets, existing }) => {
          const u = makeUD({ replicas: total, subsets });
          if (validateUnitedDeployment(u).length > 0) return;
          expect(allocateSubsetReplicas(u, existing)).not.toHaveProperty('error');
        },
      ),
    );
  });
});

describe('reconcile properties', () => {
  it('the actions and status do not depend on the order of the pods given', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { minLength: 8, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        (keys, ready) => {
          const u = makeUD({ replicas: 8 });
          const a = makeWorkload('StatefulSet', 'a', 4, { revision: 'r' });
          const b = makeWorkload('StatefulSet', 'b', 4, { revision: 'r' });
          const pods = ready.map((rd, i) =>
            makePod(i < 4 ? a : b, `p-${i}`, { revision: i % 3 ? 'r' : 'old', ready: rd }),
          );
          const base = { unitedDeployment: u, subsets: [a, b], revisions: [], now: '2024-01-01T00:00:00Z' };
          const r1 = reconcileUnitedDeployment(deepFreeze({ ...base, pods }));
          const r2 = reconcileUnitedDeployment(deepFreeze({ ...base, pods: shuffle(pods, keys) }));
          expect(r2.actions).toEqual(r1.actions);
          expect(r2.status).toEqual(r1.status);
        },
      ),
      { numRuns: 50 },
    );
  });
});
