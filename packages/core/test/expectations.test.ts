// Expectation caches as immutable values (docs/reference/core.md §8); upstream core/expectations.json.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  deleteResourceVersionExpectations,
  deleteScaleExpectations,
  deleteUpdateExpectations,
  EXPECTATION_TIMEOUT_SECONDS,
  expectResourceVersion,
  expectScale,
  expectUpdated,
  isResourceVersionSatisfied,
  observeResourceVersion,
  observeScale,
  observeUpdated,
  type ResourceVersionExpectations,
  resourceVersionSatisfied,
  type ScaleExpectations,
  scaleExpectationsSatisfied,
  type UpdateExpectations,
  updateExpectationsSatisfied,
} from '../src/expectations';
import { deepFreeze } from '../src/testing';

function loadCases(area: string, file: string) {
  return JSON.parse(
    readFileSync(
      fileURLToPath(new URL(`../../../testdata/upstream/${area}/${file}`, import.meta.url)),
      'utf8',
    ),
  );
}

/** One `[name, case]` row per upstream case, so `it.each` shows every case by name. */
function rows(list: any[], name: (c: any) => string): Array<[string, any]> {
  return list.map((c) => [name(c), c]);
}

const T0 = '2024-01-01T00:00:00Z';

/** Runs one upstream step sequence on a fresh (frozen) value and returns the per-step results. */
function run(kind: string, steps: any[]): Array<{ satisfied: boolean } | null> {
  let scale: ScaleExpectations = deepFreeze({});
  let update: UpdateExpectations = deepFreeze({});
  let rv: ResourceVersionExpectations = deepFreeze({});
  return steps.map((s) => {
    let result: { satisfied: boolean } | null = null;
    switch (`${kind}:${s.op}`) {
      case 'scale:expectScale':
        scale = deepFreeze(expectScale(scale, s.key, s.action, s.name, T0));
        break;
      case 'scale:observeScale':
        scale = deepFreeze(observeScale(scale, s.key, s.action, s.name));
        break;
      case 'scale:satisfied':
        result = { satisfied: scaleExpectationsSatisfied(scale, s.key, T0).satisfied };
        break;
      case 'update:expectUpdated':
        update = deepFreeze(expectUpdated(update, s.key, s.revision, s.name, T0));
        break;
      case 'update:observeUpdated':
        update = deepFreeze(observeUpdated(update, s.key, s.revision, s.name, s.podRevision ?? s.revision));
        break;
      case 'update:satisfied':
        result = { satisfied: updateExpectationsSatisfied(update, s.key, s.revision, T0).satisfied };
        break;
      case 'update:deleteExpectations':
        update = deepFreeze(deleteUpdateExpectations(update, s.key));
        break;
      case 'resourceVersion:expect':
        rv = deepFreeze(expectResourceVersion(rv, s.uid, s.resourceVersion, T0));
        break;
      case 'resourceVersion:observe':
        rv = deepFreeze(observeResourceVersion(rv, s.uid, s.resourceVersion));
        break;
      case 'resourceVersion:isSatisfied':
        result = { satisfied: resourceVersionSatisfied(rv, s.uid, s.resourceVersion, T0).satisfied };
        break;
      default:
        throw new Error(`unknown step ${kind}:${s.op}`);
    }
    return result;
  });
}

describe('upstream core/expectations.json', () => {
  const file = loadCases('core', 'expectations.json');
  it.each(rows(file.cases, (c) => c.id))('%s', (_id, c: any) => {
    const results = run(c.kind, c.input.steps);
    c.expected.results.forEach((want: unknown, i: number) => {
      if (want !== null) expect(results[i], `step ${i}`).toEqual(want);
    });
  });
});

describe('§8 scale expectations', () => {
  it('§8: expect/observe are immutable; a fully observed key disappears', () => {
    const e0: ScaleExpectations = deepFreeze({});
    const e1 = deepFreeze(expectScale(e0, 'ns/cs', 'create', 'p1', T0));
    expect(e0).toEqual({});
    expect(e1).toEqual({ 'ns/cs': { create: ['p1'], delete: [], since: T0 } });
    expect(expectScale(e1, 'ns/cs', 'create', 'p1', T0)).toBe(e1);
    expect(observeScale(e1, 'ns/cs', 'delete', 'p1')).toBe(e1);
    expect(observeScale(e1, 'ns/cs', 'create', 'p1')).toEqual({});
  });
  it('§8: pending names are reported', () => {
    let e: ScaleExpectations = {};
    e = expectScale(e, 'k', 'create', 'a', T0);
    e = expectScale(e, 'k', 'delete', 'b', T0);
    expect(scaleExpectationsSatisfied(e, 'k', T0).pending).toEqual({ create: ['a'], delete: ['b'] });
    expect(scaleExpectationsSatisfied(e, 'other', T0)).toEqual({
      satisfied: true,
      expired: false,
      proceed: true,
      waitSeconds: 0,
      pending: { create: [], delete: [] },
    });
  });
  it('§8: unobserved for 5 minutes → expired (reconcile may proceed); before that → wait the rest', () => {
    const e = expectScale({}, 'k', 'create', 'a', T0);
    const at4 = scaleExpectationsSatisfied(e, 'k', '2024-01-01T00:04:00Z');
    expect(at4).toMatchObject({ satisfied: false, expired: false, proceed: false, waitSeconds: 60 });
    const at4_30 = scaleExpectationsSatisfied(e, 'k', new Date('2024-01-01T00:04:30.500Z'));
    expect(at4_30.waitSeconds).toBe(30);
    const at5 = scaleExpectationsSatisfied(e, 'k', '2024-01-01T00:05:00Z');
    expect(at5).toMatchObject({ satisfied: false, expired: true, proceed: true, waitSeconds: 0 });
    expect(EXPECTATION_TIMEOUT_SECONDS).toBe(300);
    expect(scaleExpectationsSatisfied(e, 'k', '2024-01-01T00:00:10Z', 10).expired).toBe(true);
  });
  it('§8: the timeout counts from the first expectation of the pending period', () => {
    let e = expectScale({}, 'k', 'create', 'a', T0);
    e = expectScale(e, 'k', 'create', 'b', '2024-01-01T00:04:00Z');
    expect(scaleExpectationsSatisfied(e, 'k', '2024-01-01T00:05:00Z').expired).toBe(true);
    e = observeScale(observeScale(e, 'k', 'create', 'a'), 'k', 'create', 'b');
    e = expectScale(e, 'k', 'create', 'c', '2024-01-01T00:06:00Z');
    expect(scaleExpectationsSatisfied(e, 'k', '2024-01-01T00:07:00Z').expired).toBe(false);
  });
  it('§8: deleting a key forgets it', () => {
    const e = deepFreeze(expectScale({}, 'k', 'create', 'a', T0));
    expect(deleteScaleExpectations(e, 'k')).toEqual({});
    expect(deleteScaleExpectations(e, 'x')).toBe(e);
  });
  it('keys that are Object.prototype names are plain keys', () => {
    expect(scaleExpectationsSatisfied({}, 'toString', T0).satisfied).toBe(true);
    const e = expectScale({}, 'constructor', 'create', 'a', T0);
    expect(scaleExpectationsSatisfied(e, 'constructor', T0).satisfied).toBe(false);
  });
});

describe('§8 update expectations', () => {
  it('§8: a pod updated to a revision blocks until seen at that revision', () => {
    let e: UpdateExpectations = deepFreeze({});
    e = deepFreeze(expectUpdated(e, 'ns/sts', 'rev-2', 'ns/p0', T0));
    e = deepFreeze(expectUpdated(e, 'ns/sts', 'rev-2', 'ns/p1', T0));
    expect(updateExpectationsSatisfied(e, 'ns/sts', 'rev-2', T0)).toMatchObject({
      satisfied: false,
      pending: ['ns/p0', 'ns/p1'],
    });
    e = observeUpdated(e, 'ns/sts', 'rev-2', 'ns/p0', 'rev-1'); // the cache still shows the old revision
    expect(updateExpectationsSatisfied(e, 'ns/sts', 'rev-2', T0).pending).toEqual(['ns/p0', 'ns/p1']);
    e = observeUpdated(e, 'ns/sts', 'rev-2', 'ns/p0', 'rev-2');
    e = observeUpdated(e, 'ns/sts', 'rev-2', 'ns/p1', 'rev-2');
    expect(updateExpectationsSatisfied(e, 'ns/sts', 'rev-2', T0).satisfied).toBe(true);
    expect(e).toEqual({});
  });
  it('§8: a new revision supersedes the expectations of the old one', () => {
    let e = expectUpdated({}, 'k', 'rev-1', 'p0', T0);
    expect(updateExpectationsSatisfied(e, 'k', 'rev-2', T0).satisfied).toBe(true);
    e = expectUpdated(e, 'k', 'rev-2', 'p1', T0);
    expect(updateExpectationsSatisfied(e, 'k', 'rev-2', T0).pending).toEqual(['p1']);
    expect(deleteUpdateExpectations(e, 'k')).toEqual({});
  });
  it('operator.md §E4.5: a pod seen while the update revision moved on drops the whole entry; a quick return starts afresh', () => {
    const T1 = '2024-01-01T00:04:00Z';
    let e: UpdateExpectations = deepFreeze({});
    e = deepFreeze(expectUpdated(e, 'ns/sts', 'rev-A', 'ns/p1', T0));
    e = deepFreeze(expectUpdated(e, 'ns/sts', 'rev-A', 'ns/p2', T0));
    // rollback: the update revision is rev-B now, and p1 is listed at rev-B
    e = deepFreeze(observeUpdated(e, 'ns/sts', 'rev-B', 'ns/p1', 'rev-B'));
    expect(e).toEqual({});
    // forward to rev-A again: only the pod updated now is waited for, from now on
    e = deepFreeze(expectUpdated(e, 'ns/sts', 'rev-A', 'ns/p3', T1));
    expect(e).toEqual({ 'ns/sts': { revision: 'rev-A', pods: ['ns/p3'], since: T1 } });
    expect(updateExpectationsSatisfied(e, 'ns/sts', 'rev-A', T1)).toMatchObject({
      satisfied: false,
      pending: ['ns/p3'],
    });
    e = deepFreeze(observeUpdated(e, 'ns/sts', 'rev-A', 'ns/p3', 'rev-A'));
    expect(updateExpectationsSatisfied(e, 'ns/sts', 'rev-A', T1).satisfied).toBe(true);
    expect(e).toEqual({});
  });
  it('operator.md §E4.5: any listed pod drops an entry of another revision, even one it is not part of', () => {
    const e = deepFreeze(expectUpdated({}, 'k', 'rev-A', 'p1', T0));
    expect(observeUpdated(e, 'k', 'rev-B', 'p9', 'rev-A')).toEqual({});
    expect(observeUpdated(e, 'k', 'rev-A', 'p9', 'rev-A')).toBe(e);
    expect(observeUpdated(e, 'other', 'rev-B', 'p1', 'rev-B')).toBe(e);
  });
  it('§8: update expectations expire after the timeout', () => {
    const e = expectUpdated({}, 'k', 'rev-1', 'p0', T0);
    expect(updateExpectationsSatisfied(e, 'k', 'rev-1', '2024-01-01T00:05:00Z').proceed).toBe(true);
  });
});

describe('§8 resourceVersion expectations', () => {
  it.each([
    ['2', '2', true],
    ['1', '2', false],
    ['10', '9', true],
    ['18446744073709551615', '18446744073709551614', true],
    ['5', 'abc', true],
    ['abc', '5', false],
    ['18446744073709551616', '5', false],
    ['', '5', false],
    ['5', '', true],
  ])('§8: observed %j vs expected %j → %s', (observed, expected, ok) => {
    expect(isResourceVersionSatisfied(observed, expected)).toBe(ok);
  });
  it('§8: an observation at or past the expected version clears it; older ones keep it', () => {
    let e: ResourceVersionExpectations = deepFreeze(expectResourceVersion({}, 'uid-1', '7', T0));
    expect(observeResourceVersion(e, 'uid-1', '6')).toBe(e);
    e = observeResourceVersion(e, 'uid-1', '8');
    expect(e).toEqual({});
    expect(resourceVersionSatisfied(e, 'uid-1', '1', T0).satisfied).toBe(true);
  });
  it('§8: expecting keeps the newest version', () => {
    let e = expectResourceVersion({}, 'u', '7', T0);
    e = expectResourceVersion(e, 'u', '5', T0);
    expect(e.u.resourceVersion).toBe('7');
    e = expectResourceVersion(e, 'u', '9', '2024-01-01T00:01:00Z');
    expect(e.u).toEqual({ resourceVersion: '9', since: T0 });
    expect(deleteResourceVersionExpectations(e, 'u')).toEqual({});
  });
  it('§8: an unsatisfied resourceVersion expectation expires after the timeout', () => {
    const e = expectResourceVersion({}, 'u', '7', T0);
    expect(resourceVersionSatisfied(e, 'u', '6', '2024-01-01T00:01:00Z')).toMatchObject({
      satisfied: false,
      waitSeconds: 240,
    });
    expect(resourceVersionSatisfied(e, 'u', '6', '2024-01-01T00:05:00Z').expired).toBe(true);
  });
});
