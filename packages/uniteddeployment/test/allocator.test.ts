// Spec examples of docs/reference/uniteddeployment.md §3 (parsing) and §4 (allocation).
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import {
  type AllocatableSubset,
  allocateSubsetReplicas,
  type ExistingSubsets,
  MAXINT32,
  parseSubsetReplicas,
} from '../src/index';

function ud(replicas: number | undefined, subsets: AllocatableSubset[], adaptive = false) {
  return deepFreeze({
    spec: {
      ...(replicas === undefined ? {} : { replicas }),
      topology: { subsets, ...(adaptive ? { scheduleStrategy: { type: 'Adaptive' } } : {}) },
    },
  });
}

function cur(map: Record<string, number>): ExistingSubsets {
  return deepFreeze(Object.fromEntries(Object.entries(map).map(([k, v]) => [k, { specReplicas: v }])));
}

const names = (...n: string[]) => n.map((name) => ({ name }));

describe('§3 parse(total, q)', () => {
  it('integer n ≥ 0 is n whatever the total; negative is an error', () => {
    expect(parseSubsetReplicas(-1, 7)).toEqual({ value: 7 });
    expect(parseSubsetReplicas(3, 7)).toEqual({ value: 7 });
    expect(parseSubsetReplicas(10, -1)).toHaveProperty('error');
  });
  it('a string needs a total, a % suffix and an integer 0..100', () => {
    expect(parseSubsetReplicas(-1, '50%')).toHaveProperty('error');
    expect(parseSubsetReplicas(10, '5')).toHaveProperty('error');
    expect(parseSubsetReplicas(10, '10.5%')).toHaveProperty('error');
    expect(parseSubsetReplicas(10, 'abc%')).toHaveProperty('error');
    expect(parseSubsetReplicas(10, '-1%')).toHaveProperty('error');
    expect(parseSubsetReplicas(10, '101%')).toHaveProperty('error');
    expect(parseSubsetReplicas(10, '50%%')).toHaveProperty('error');
  });
  it.each([
    [5, '50%', 3],
    [5, '30%', 2],
    [5, '10%', 1],
    [5, '9%', 0],
    [5, '100%', 5],
    [10, '40%', 4],
    [10, '30%', 3],
    [10, '20%', 2],
    [10, '10%', 1],
  ])('total %i, %s → %i (halves round up)', (total, q, want) => {
    expect(parseSubsetReplicas(total, q)).toEqual({ value: want });
  });
});

describe('§4.2 specific allocator (worked examples)', () => {
  const t1to4 = { t1: 1, t2: 4, t3: 2, t4: 2 };
  it('T 5, cur t1:1 t2:4 t3:2 t4:2 → avg 1 rem 1 → t2:2, others 1', () => {
    expect(allocateSubsetReplicas(ud(5, names('t1', 't2', 't3', 't4')), cur(t1to4))).toEqual({
      replicas: { t1: 1, t2: 2, t3: 1, t4: 1 },
    });
  });
  it('T 17, same → avg 4 rem 1 → t2:5, others 4', () => {
    expect(allocateSubsetReplicas(ud(17, names('t1', 't2', 't3', 't4')), cur(t1to4))).toEqual({
      replicas: { t1: 4, t2: 5, t3: 4, t4: 4 },
    });
  });
  it('T 19, cur t1:0 t2:10 → t2:10, t1:9', () => {
    expect(allocateSubsetReplicas(ud(19, names('t1', 't2')), cur({ t1: 0, t2: 10 }))).toEqual({
      replicas: { t1: 9, t2: 10 },
    });
  });
  it('T 27, t1:4 t3:4 specified → R 19 over {t4,t2}: t2:10, t4:9', () => {
    const subsets = [
      { name: 't1', replicas: 4 },
      { name: 't2' },
      { name: 't3', replicas: 4 },
      { name: 't4' },
    ];
    expect(allocateSubsetReplicas(ud(27, subsets), cur(t1to4))).toEqual({
      replicas: { t1: 4, t2: 10, t3: 4, t4: 9 },
    });
  });
  it('T 8, t1:4 t3:4 specified → R 0 → t2:0, t4:0', () => {
    const subsets = [
      { name: 't1', replicas: 4 },
      { name: 't2' },
      { name: 't3', replicas: 4 },
      { name: 't4' },
    ];
    expect(allocateSubsetReplicas(ud(8, subsets), cur({ t1: 2, t2: 4, t3: 2, t4: 2 }))).toEqual({
      replicas: { t1: 4, t2: 0, t3: 4, t4: 0 },
    });
  });
  it('T 10, a:"30%"→3, b and new c share 7 → b:4, c:3 (remainder to the larger current)', () => {
    const subsets = [{ name: 'a', replicas: '30%' }, { name: 'b' }, { name: 'c' }];
    expect(allocateSubsetReplicas(ud(10, subsets), cur({ a: 4, b: 6 }))).toEqual({
      replicas: { a: 3, b: 4, c: 3 },
    });
  });
  it('S3: T 14, all specified summing 12 → error (less than)', () => {
    const r = allocateSubsetReplicas(
      ud(14, [
        { name: 't1', replicas: 6 },
        { name: 't2', replicas: 6 },
      ]),
      cur({ t1: 10, t2: 4 }),
    );
    expect(r).toEqual({
      error: "specified subsets' replica (12) is less than UnitedDeployment replica (14)",
    });
  });
  it('S3: T 14, specified sum 21 → error (greater than)', () => {
    const r = allocateSubsetReplicas(
      ud(14, [
        { name: 't1', replicas: 10 },
        { name: 't2', replicas: 11 },
      ]),
      cur({ t1: 10, t2: 4 }),
    );
    expect(r).toEqual({
      error: "specified subsets' replica (21) is greater than UnitedDeployment replica (14)",
    });
  });
  it('T unset, all specified 1,2,3,4 → 1,2,3,4', () => {
    const subsets = ['t1', 't2', 't3', 't4'].map((name, i) => ({ name, replicas: i + 1 }));
    expect(allocateSubsetReplicas(ud(undefined, subsets), cur(t1to4))).toEqual({
      replicas: { t1: 1, t2: 2, t3: 3, t4: 4 },
    });
  });
  it('S3: T unset and a subset unspecified → error', () => {
    expect(allocateSubsetReplicas(ud(undefined, [{ name: 't1', replicas: 1 }, { name: 't2' }]), {})).toEqual({
      error: 'all subsets must be specified when UnitedDeployment replica is unspecified',
    });
  });
  it('T 5, a:"50%"→3, b:"30%"→2, c nil → c:0', () => {
    const subsets = [{ name: 'a', replicas: '50%' }, { name: 'b', replicas: '30%' }, { name: 'c' }];
    expect(allocateSubsetReplicas(ud(5, subsets), {})).toEqual({ replicas: { a: 3, b: 2, c: 0 } });
  });
  it('Q10: T 7, x:"abc" is unparsable → unspecified → y:4, x:3', () => {
    const subsets = [{ name: 'x', replicas: 'abc' }, { name: 'y' }];
    expect(allocateSubsetReplicas(ud(7, subsets), {})).toEqual({ replicas: { x: 3, y: 4 } });
  });
  it('two "50%" subsets of 5 ask for 6 > 5 → error', () => {
    const subsets = [
      { name: 'a', replicas: '50%' },
      { name: 'b', replicas: '50%' },
    ];
    expect(allocateSubsetReplicas(ud(5, subsets), {})).toHaveProperty('error');
  });
});

describe('§4.3 elastic allocator (examples)', () => {
  const five = (last: AllocatableSubset) => [
    ...[0, 1, 2, 3].map((i) => ({ name: `s${i}`, minReplicas: 2, maxReplicas: 5 })),
    last,
  ];
  it('T 5, a[2,4] b[2] → a:3, b:2', () => {
    const subsets = [
      { name: 'a', minReplicas: 2, maxReplicas: 4 },
      { name: 'b', minReplicas: 2 },
    ];
    expect(allocateSubsetReplicas(ud(5, subsets))).toEqual({ replicas: { a: 3, b: 2 } });
  });
  it('T 10, 5 × [2,5] (last unbounded) → 2,2,2,2,2', () => {
    expect(allocateSubsetReplicas(ud(10, five({ name: 's4', minReplicas: 2 })))).toEqual({
      replicas: { s0: 2, s1: 2, s2: 2, s3: 2, s4: 2 },
    });
  });
  it('T 14, same → 5,3,2,2,2', () => {
    expect(allocateSubsetReplicas(ud(14, five({ name: 's4', minReplicas: 2 })))).toEqual({
      replicas: { s0: 5, s1: 3, s2: 2, s3: 2, s4: 2 },
    });
  });
  it('T 5, same → pass 1 stops early → 2,2,1,0,0', () => {
    expect(allocateSubsetReplicas(ud(5, five({ name: 's4', minReplicas: 2 })))).toEqual({
      replicas: { s0: 2, s1: 2, s2: 1, s3: 0, s4: 0 },
    });
  });
  it('E1: T unset counts as 1', () => {
    expect(allocateSubsetReplicas(ud(undefined, [{ name: 'a', minReplicas: 0 }, { name: 'b' }]))).toEqual({
      replicas: { a: 1, b: 0 },
    });
  });
  it('E1/Q10: an unparsable maxReplicas becomes 0, not unlimited', () => {
    const subsets = [{ name: 'a', minReplicas: 0, maxReplicas: 'x%' }, { name: 'b' }];
    expect(allocateSubsetReplicas(ud(4, subsets))).toEqual({ replicas: { a: 0, b: 4 } });
  });
  it('E1: nil maxReplicas means MAXINT32', () => {
    expect(allocateSubsetReplicas(ud(MAXINT32, [{ name: 'a', minReplicas: 0 }]))).toEqual({
      replicas: { a: MAXINT32 },
    });
  });
  it('E3: min > max → error naming the subset index', () => {
    const subsets = [{ name: 'a' }, { name: 'b', minReplicas: 3, maxReplicas: 2 }];
    expect(allocateSubsetReplicas(ud(5, subsets))).toEqual({
      error: 'subset[1].maxReplicas must be more than or equal to minReplicas',
    });
  });
  it('§4.1: scheduleStrategy does not choose the allocator (Adaptive without min/max is specific, Q1)', () => {
    const existing = deepFreeze({
      a: {
        specReplicas: 4,
        status: { replicas: 4, unschedulableStatus: { unschedulable: true, pendingPods: 4 } },
      },
    });
    expect(allocateSubsetReplicas(ud(6, names('a', 'b'), true), existing)).toEqual({
      replicas: { a: 3, b: 3 },
    });
  });
});

describe('§4.4 pending pods move replicas (T 10, a[2,4], b unbounded, Adaptive)', () => {
  const subsets = [{ name: 'a', minReplicas: 2, maxReplicas: 4 }, { name: 'b' }];
  const st = (replicas: number, pendingPods: number, unschedulable: boolean) => ({
    replicas,
    unschedulableStatus: { unschedulable, pendingPods },
  });
  it('step 1: fresh → a:4, b:6', () => {
    expect(allocateSubsetReplicas(ud(10, subsets, true), {})).toEqual({ replicas: { a: 4, b: 6 } });
  });
  it('step 2: a has 4 pods, 3 pending past RC → running 1 → a:1, b:9', () => {
    const existing = deepFreeze({
      a: { specReplicas: 4, status: st(4, 3, true) },
      b: { specReplicas: 6, status: st(6, 0, false) },
    });
    expect(allocateSubsetReplicas(ud(10, subsets, true), existing)).toEqual({ replicas: { a: 1, b: 9 } });
  });
  it('step 3: after the window a is schedulable, running 1; b running 9 → a:2, b:8', () => {
    const existing = deepFreeze({
      a: { specReplicas: 1, status: st(1, 0, false) },
      b: { specReplicas: 9, status: st(9, 0, false) },
    });
    expect(allocateSubsetReplicas(ud(10, subsets, true), existing)).toEqual({ replicas: { a: 2, b: 8 } });
  });
  it.each([
    [5, 0, 10],
    [4, 0, 10],
    [3, 1, 9],
    [2, 2, 8],
    [1, 3, 7],
    [0, 4, 6],
  ])('TestAdaptiveElasticAllocator summary: p=%i → %i/%i', (p, a, b) => {
    const existing = deepFreeze({ 'subset-1': { specReplicas: 2, status: st(4, p, true) } });
    const u = ud(10, [{ name: 'subset-1', minReplicas: 2, maxReplicas: 4 }, { name: 'subset-2' }], true);
    expect(allocateSubsetReplicas(u, existing)).toEqual({ replicas: { 'subset-1': a, 'subset-2': b } });
  });
});
