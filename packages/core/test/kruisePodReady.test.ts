// docs/reference/core.md R5.6 KruisePodReady messages (and Appendix D.8).
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  addNotReadyKey,
  decodeNotReadyMessages,
  encodeNotReadyMessages,
  hasNotReadyKey,
  removeNotReadyKey,
} from '../src/pods/kruisePodReady';
import { deepFreeze } from '../src/testing';

const now = '2024-01-01T00:00:00Z';
const a = { userAgent: 'Lifecycle', key: 'preDeleteHook' };
const b = { userAgent: 'Alpha', key: 'zz' };

function pod(conditions: NonNullable<NonNullable<Pod['status']>['conditions']> = [], gate = true): Pod {
  return deepFreeze({
    spec: { containers: [], readinessGates: gate ? [{ conditionType: 'KruisePodReady' }] : [] },
    status: { conditions },
  } as Pod);
}

describe('R5.6 KruisePodReady', () => {
  it('message: JSON list sorted by userAgent then key, Go field order', () => {
    expect(encodeNotReadyMessages([a, b])).toBe(
      '[{"userAgent":"Alpha","key":"zz"},{"userAgent":"Lifecycle","key":"preDeleteHook"}]',
    );
    expect(decodeNotReadyMessages('')).toEqual([]);
    expect(decodeNotReadyMessages('nope')).toBeUndefined();
  });

  it('add without the readiness gate does nothing (same pod)', () => {
    const p = pod([], false);
    expect(addNotReadyKey(p, a, now)).toBe(p);
  });

  it('D.8: the first add creates the condition with an empty status and lastTransitionTime now', () => {
    const out = addNotReadyKey(pod(), a, now);
    expect(out.status!.conditions).toEqual([
      { type: 'KruisePodReady', status: '', message: encodeNotReadyMessages([a]), lastTransitionTime: now },
    ]);
  });

  it('add to an existing condition: message added, status False, Ready recomputed (R5.4)', () => {
    const p = pod([
      { type: 'Ready', status: 'True' },
      { type: 'ContainersReady', status: 'True' },
      { type: 'KruisePodReady', status: 'True', message: '[]' },
    ]);
    const out = addNotReadyKey(p, a, now);
    const cond = out.status!.conditions!.find((c) => c.type === 'KruisePodReady');
    expect(cond).toEqual({
      type: 'KruisePodReady',
      status: 'False',
      message: encodeNotReadyMessages([a]),
      lastTransitionTime: now,
    });
    expect(out.status!.conditions!.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ReadinessGatesNotReady',
    });
    expect(hasNotReadyKey(out, a)).toBe(true);
    // already listed and not True → skipped
    expect(addNotReadyKey(out, a, now)).toBe(out);
  });

  it('remove: drops the message; an empty list turns the condition True with message []', () => {
    const p = pod([{ type: 'KruisePodReady', status: 'False', message: encodeNotReadyMessages([a, b]) }]);
    const one = removeNotReadyKey(p, b, now);
    expect(one.status!.conditions![0]).toEqual({
      type: 'KruisePodReady',
      status: 'False',
      message: encodeNotReadyMessages([a]),
    });
    const none = removeNotReadyKey(one, a, now);
    expect(none.status!.conditions![0]).toEqual({
      type: 'KruisePodReady',
      status: 'True',
      message: '[]',
      lastTransitionTime: now,
    });
    expect(removeNotReadyKey(none, a, now)).toBe(none);
    const noCondition = pod();
    expect(removeNotReadyKey(noCondition, a, now)).toBe(noCondition);
  });

  it('"has key" is false when the condition is True or has an empty message', () => {
    expect(
      hasNotReadyKey(
        pod([{ type: 'KruisePodReady', status: 'True', message: encodeNotReadyMessages([a]) }]),
        a,
      ),
    ).toBe(false);
    expect(hasNotReadyKey(pod([{ type: 'KruisePodReady', status: 'False', message: '' }]), a)).toBe(false);
    expect(hasNotReadyKey(pod(), a)).toBe(false);
  });
});
