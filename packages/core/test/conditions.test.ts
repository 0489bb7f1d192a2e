import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  epochMsToRFC3339,
  getPodCondition,
  isPodActive,
  isPodAvailable,
  isPodReady,
  KruiseError,
  parseTime,
  podReadySince,
  secondsBetween,
  toRFC3339,
} from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  isPodTerminating,
  recomputeReadyCondition,
  setCondition,
  setPodCondition,
} from '../src/pods/conditions';

const conditionCases = JSON.parse(
  readFileSync(
    fileURLToPath(new URL('../../../testdata/upstream/core/pod_conditions.json', import.meta.url)),
    'utf8',
  ),
);

const readyPod = (since: string | undefined, status = 'True'): Pod =>
  deepFreeze({
    metadata: { name: 'p' },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status, lastTransitionTime: since }] },
  });

describe('time helpers (§0.3)', () => {
  it('toRFC3339: UTC, whole seconds, fraction truncated', () => {
    expect(toRFC3339('2024-01-01T08:00:00.900+08:00')).toBe('2024-01-01T00:00:00Z');
    expect(toRFC3339(new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 999)))).toBe('2024-01-02T03:04:05Z');
    expect(() => toRFC3339('yesterday')).toThrow(KruiseError);
  });
  it('epochMsToRFC3339: toRFC3339 of epoch milliseconds, fraction truncated', () => {
    expect(epochMsToRFC3339(Date.parse('2024-01-01T00:00:05.900Z'))).toBe('2024-01-01T00:00:05Z');
    expect(epochMsToRFC3339(0)).toBe('1970-01-01T00:00:00Z');
    expect(epochMsToRFC3339(-1)).toBe('1969-12-31T23:59:59Z');
    expect(() => epochMsToRFC3339(Number.NaN)).toThrow(KruiseError);
    expect(() => epochMsToRFC3339(1e20)).toThrow(KruiseError);
  });
  it('parseTime: zero time (absent, "", 0001-01-01T00:00:00Z) and junk → null', () => {
    expect(parseTime('2024-01-01T00:00:00Z')?.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect(parseTime('0001-01-01T00:00:00Z')).toBeNull();
    expect(parseTime('')).toBeNull();
    expect(parseTime(undefined)).toBeNull();
    expect(parseTime(null)).toBeNull();
    expect(parseTime('2024-01-01')).toBeNull();
    expect(parseTime('1')).toBeNull();
  });
  it('secondsBetween', () => {
    expect(secondsBetween('2024-01-01T00:00:00Z', '2024-01-01T00:01:30Z')).toBe(90);
    expect(secondsBetween('2024-01-01T00:01:30Z', new Date('2024-01-01T00:00:00Z'))).toBe(-90);
  });
});

describe('R5.1 Ready', () => {
  it('condition Ready with status True', () => {
    expect(isPodReady(readyPod('2024-01-01T00:00:00Z'))).toBe(true);
    expect(isPodReady(readyPod('2024-01-01T00:00:00Z', 'False'))).toBe(false);
    expect(isPodReady({})).toBe(false);
    expect(getPodCondition(readyPod(undefined), 'Ready')?.status).toBe('True');
    expect(getPodCondition(readyPod(undefined), 'Other')).toBeUndefined();
  });
  it('podReadySince', () => {
    expect(podReadySince(readyPod('2024-01-01T00:00:00Z'))?.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect(podReadySince(readyPod('2024-01-01T00:00:00Z', 'False'))).toBeNull();
    expect(podReadySince(readyPod(undefined))).toBeNull();
  });
});

describe('R5.2 Available (Kubernetes, strict <)', () => {
  const pod = readyPod('2024-01-01T10:00:00Z');
  it('minReadySeconds 0 → Ready is enough, even without a transition time', () => {
    expect(isPodAvailable(readyPod(undefined), 0, '2024-01-01T10:00:00Z')).toBe(true);
  });
  it('ready since 10:00:00, minReadySeconds 10: not at 10:00:10, yes at 10:00:10.5 and 10:00:11', () => {
    expect(isPodAvailable(pod, 10, '2024-01-01T10:00:10Z')).toBe(false);
    expect(isPodAvailable(pod, 10, new Date('2024-01-01T10:00:10.500Z'))).toBe(true);
    expect(isPodAvailable(pod, 10, '2024-01-01T10:00:11Z')).toBe(true);
  });
  it('a zero lastTransitionTime is never available when minReadySeconds > 0', () => {
    expect(isPodAvailable(readyPod(undefined), 5, '2030-01-01T00:00:00Z')).toBe(false);
    expect(isPodAvailable(readyPod('0001-01-01T00:00:00Z'), 5, '2030-01-01T00:00:00Z')).toBe(false);
  });
  it('not Ready → not available', () => {
    expect(isPodAvailable(readyPod('2024-01-01T00:00:00Z', 'False'), 0, '2030-01-01T00:00:00Z')).toBe(false);
  });
});

describe('active / terminating', () => {
  it('IsPodActive: not Succeeded/Failed and no deletionTimestamp', () => {
    expect(isPodActive({ status: { phase: 'Running' } })).toBe(true);
    expect(isPodActive({ status: {} })).toBe(true);
    expect(isPodActive({ status: { phase: 'Succeeded' } })).toBe(false);
    expect(isPodActive({ status: { phase: 'Failed' } })).toBe(false);
    expect(isPodActive({ metadata: { deletionTimestamp: '2024-01-01T00:00:00Z' } })).toBe(false);
    expect(isPodActive(undefined)).toBe(false);
    expect(isPodTerminating({ metadata: { deletionTimestamp: '2024-01-01T00:00:00Z' } })).toBe(true);
    expect(isPodTerminating({ metadata: {} })).toBe(false);
  });
});

describe('R5.5 set condition', () => {
  const list = deepFreeze([
    { type: 'A', status: 'True', message: 'm0' },
    { type: 'B', status: 'False' },
  ]);
  it('same status keeps the old condition (message included)', () => {
    expect(setCondition(list, { type: 'A', status: 'True', message: 'm1' })).toEqual(list);
  });
  it('different status replaces it entirely', () => {
    expect(setCondition(list, { type: 'A', status: 'False' })).toEqual([
      { type: 'A', status: 'False' },
      { type: 'B', status: 'False' },
    ]);
  });
  it('a new type is appended', () => {
    expect(setCondition(list, { type: 'C', status: 'True' })).toHaveLength(3);
    expect(setCondition(undefined, { type: 'C', status: 'True' })).toEqual([{ type: 'C', status: 'True' }]);
  });
  it('"if message changed" variant replaces on a different message', () => {
    expect(
      setCondition(list, { type: 'A', status: 'True', message: 'm1' }, { ifMessageChanged: true })[0].message,
    ).toBe('m1');
    expect(
      setCondition(list, { type: 'A', status: 'True', message: 'm0' }, { ifMessageChanged: true }),
    ).toEqual(list);
  });
});

describe('R5.4 recompute Ready', () => {
  const base = (gateStatus: string | undefined, containersReady = 'True'): Pod =>
    deepFreeze({
      spec: {
        containers: [],
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }, { conditionType: 'KruisePodReady' }],
      },
      status: {
        conditions: [
          ...(gateStatus !== undefined ? [{ type: 'InPlaceUpdateReady', status: gateStatus }] : []),
          { type: 'KruisePodReady', status: 'True' },
          { type: 'ContainersReady', status: containersReady },
          { type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' },
        ],
      },
    });
  it('a gate condition not True → Ready False with reason ReadinessGatesNotReady and the message', () => {
    const p = recomputeReadyCondition(base('False'), '2024-01-02T00:00:00Z');
    expect(getPodCondition(p, 'Ready')).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'ReadinessGatesNotReady',
      message: 'the status of pod readiness gate "InPlaceUpdateReady" is not "True", but False',
    });
  });
  it('a missing gate condition → "corresponding condition ... does not exist."', () => {
    const p = recomputeReadyCondition(base(undefined), '2024-01-02T00:00:00Z');
    expect(getPodCondition(p, 'Ready')?.message).toBe(
      'corresponding condition of pod readiness gate "InPlaceUpdateReady" does not exist.',
    );
  });
  it('messages are joined by ", "', () => {
    const pod: Pod = {
      spec: { containers: [], readinessGates: [{ conditionType: 'X' }, { conditionType: 'Y' }] },
      status: {
        conditions: [
          { type: 'Y', status: 'Unknown' },
          { type: 'ContainersReady', status: 'True' },
          { type: 'Ready', status: 'True' },
        ],
      },
    };
    expect(getPodCondition(recomputeReadyCondition(pod, '2024-01-02T00:00:00Z'), 'Ready')?.message).toBe(
      'corresponding condition of pod readiness gate "X" does not exist., the status of pod readiness gate "Y" is not "True", but Unknown',
    );
  });
  it('all gates True → Ready True with lastTransitionTime now (only if it was not True)', () => {
    const falsePod = setPodCondition(base('True'), { type: 'Ready', status: 'False', reason: 'x' });
    const p = recomputeReadyCondition(falsePod, '2024-01-02T00:00:00.700Z');
    expect(getPodCondition(p, 'Ready')).toEqual({
      type: 'Ready',
      status: 'True',
      lastTransitionTime: '2024-01-02T00:00:00Z',
    });
    expect(recomputeReadyCondition(base('True'), '2024-01-02T00:00:00Z')).toEqual(base('True'));
  });
  it('nothing happens without a Ready condition or when ContainersReady is not True', () => {
    expect(recomputeReadyCondition(base('False', 'False'), '2024-01-02T00:00:00Z')).toEqual(
      base('False', 'False'),
    );
    const noReady: Pod = { status: { conditions: [{ type: 'ContainersReady', status: 'True' }] } };
    expect(recomputeReadyCondition(noReady, '2024-01-02T00:00:00Z')).toEqual(noReady);
  });
});

describe('upstream core/pod_conditions.json', () => {
  for (const c of conditionCases.cases) {
    it(c.id, () => {
      const pod = deepFreeze(c.input.pod) as Pod;
      if (c.function === 'setPodCondition') {
        expect(setPodCondition(pod, c.input.condition).status?.conditions).toEqual(c.expected.conditions);
      } else if (c.function === 'setPodConditionIfMsgChanged') {
        expect(
          setPodCondition(pod, c.input.condition, { ifMessageChanged: true }).status?.conditions,
        ).toEqual(c.expected.conditions);
      } else if (c.function === 'setPodReadyCondition') {
        const out = recomputeReadyCondition(pod, '2024-01-01T00:00:00Z');
        expect(getPodCondition(out, 'Ready')?.status).toBe(c.expected.readyStatus);
      } else {
        throw new Error(`unknown function ${c.function}`);
      }
    });
  }
});
