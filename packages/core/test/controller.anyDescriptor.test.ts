// The existential descriptor (src/controller/anyDescriptor.ts): `defineController` keeps the
// typed descriptor and adds `use`; `driverOf` runs any descriptor on stored KubeObjects, checks
// the kind before the descriptor sees an object, and carries each reconcile's state in a box that
// only the same driver opens.
import type { KubeObject } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import {
  type AnyControllerDescriptor,
  defineController,
  driverOf,
  isKind,
  isKubeObject,
  kindRef,
  objectReaderOf,
  onlyOfKind,
  POD,
  type ReconcileEnv,
} from '../src/index';

interface Counter extends KubeObject {
  spec: { step: number };
}

const COUNTER = kindRef<Counter>('test.kruise.io/v1', 'Counter');
const ENV: ReconcileEnv = {
  featureGates: {},
  seed: 1,
  kruiseNamespace: 'kruise-system',
  scalingExcludePreparingDelete: false,
};
const NOW = '2024-01-01T00:00:00Z';

/** A descriptor whose state counts reconciles by `spec.step`, with a cache counting calls. */
const counterDescriptor = defineController<Counter, number, { total: number }, { calls: number }>({
  name: 'counter-controller',
  primary: COUNTER,
  secondary: [POD],
  readSet: (c, reader) => [c, ...reader.ownedBy(POD, c.metadata?.uid ?? '')],
  createCache: () => ({ calls: 0 }),
  reconcile: (c, _reader, _now, state, _env, cache) => {
    if (cache) cache.calls += 1;
    const total = (state?.total ?? 0) + c.spec.step;
    return { actions: [], status: cache?.calls ?? -1, errors: [], controllerState: { total } };
  },
  admission: {
    default: (c) => ({ ...c, spec: { step: c.spec.step || 1 } }),
    validate: (c) =>
      c.spec.step < 0
        ? [{ type: 'FieldValueInvalid', field: 'spec.step', badValue: c.spec.step, detail: 'must be >= 0' }]
        : [],
  },
});

const counter = (step: number): Counter => ({
  apiVersion: 'test.kruise.io/v1',
  kind: 'Counter',
  metadata: { name: 'c', namespace: 'default', uid: 'c-uid' },
  spec: { step },
});

const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' } };

describe('defineController', () => {
  it('keeps the typed descriptor, frozen, and hands it with its types to a visitor', () => {
    expect(Object.isFrozen(counterDescriptor)).toBe(true);
    const any: AnyControllerDescriptor = counterDescriptor;
    expect(any.use((d) => d.name)).toBe('counter-controller');
    expect(any.use((d) => d.primary)).toBe(COUNTER);
  });
});

describe('driverOf', () => {
  const reader = objectReaderOf([]);

  it('passes back the state the previous reconcile returned, boxed for the shell', () => {
    const driver = driverOf(counterDescriptor);
    const first = driver.reconcile(counter(2), reader, NOW, undefined, ENV);
    expect(first.controllerState).not.toEqual({ total: 2 });
    const second = driver.reconcile(counter(3), reader, NOW, first.controllerState, ENV);
    const third = driver.reconcile(counter(0), reader, NOW, second.controllerState, ENV);
    expect(third.controllerState).toEqual(second.controllerState);
    // The descriptor saw 2, then 2 + 3: read back through a reconcile that adds nothing.
    const seen: unknown[] = [];
    const spy = defineController<Counter, number, { total: number }, { calls: number }>({
      ...counterDescriptor,
      reconcile: (c, r, n, state, e) => {
        seen.push(state);
        return counterDescriptor.reconcile(c, r, n, state, e);
      },
    });
    const d2 = driverOf(spy);
    const a = d2.reconcile(counter(2), reader, NOW, undefined, ENV);
    d2.reconcile(counter(3), reader, NOW, a.controllerState, ENV);
    expect(seen).toEqual([undefined, { total: 2 }]);
  });

  it('opens no box it did not make, nor a bare state: the first reconcile', () => {
    const seen: unknown[] = [];
    const spy = driverOf(
      defineController<Counter, number, { total: number }, { calls: number }>({
        ...counterDescriptor,
        reconcile: (c, r, n, state, e) => {
          seen.push(state);
          return counterDescriptor.reconcile(c, r, n, state, e);
        },
      }),
    );
    const other = driverOf(counterDescriptor).reconcile(counter(5), reader, NOW, undefined, ENV);
    spy.reconcile(counter(1), reader, NOW, other.controllerState, ENV);
    spy.reconcile(counter(1), reader, NOW, { total: 9 }, ENV);
    expect(seen).toEqual([undefined, undefined]);
  });

  it('gives each made reconcile its own cache; the plain reconcile runs without one', () => {
    const driver = driverOf(counterDescriptor);
    expect(driver.reconcile(counter(1), reader, NOW, undefined, ENV).status).toBe(-1);
    const made = driver.makeReconcile?.();
    expect(made?.(counter(1), reader, NOW, undefined, ENV).status).toBe(1);
    expect(made?.(counter(1), reader, NOW, undefined, ENV).status).toBe(2);
    expect(driver.makeReconcile?.()(counter(1), reader, NOW, undefined, ENV).status).toBe(1);
  });

  it('answers an object of another kind with no work and a field error', () => {
    const driver = driverOf(counterDescriptor);
    const r = driver.reconcile(pod, reader, NOW, undefined, ENV);
    expect(r.actions).toEqual([]);
    expect(r.errors).toEqual([
      { type: 'FieldValueInvalid', field: 'kind', badValue: 'Pod', detail: 'must be Counter' },
    ]);
    expect(driver.readSet(pod, reader)).toEqual([]);
    const env = {
      operation: 'CREATE' as const,
      featureGates: {},
      reader,
      now: NOW,
      kruiseNamespace: 'kruise-system',
    };
    expect(driver.admission?.default?.(pod, env)).toBe(pod);
    expect(driver.admission?.validate?.(pod, env)).toHaveLength(1);
    expect(driver.admission?.default?.(counter(0), env)).toEqual(counter(1));
    expect(driver.admission?.validate?.(counter(-1), env)).toHaveLength(1);
  });
});

describe('isKind, onlyOfKind and isKubeObject', () => {
  it('isKind checks the kind by API group; isKubeObject the fields every stored object has', () => {
    expect(isKind(counter(1), COUNTER)).toBe(true);
    expect(isKind({ ...counter(1), apiVersion: 'test.kruise.io/v2' }, COUNTER)).toBe(true);
    expect(isKind(pod, COUNTER)).toBe(false);
    expect(isKubeObject(pod)).toBe(true);
    expect(isKubeObject({ apiVersion: 'v1', kind: 'Pod' })).toBe(false);
    expect(isKubeObject({ kind: 'Pod', metadata: {} })).toBe(false);
    expect(isKubeObject(null)).toBe(false);
  });

  it('onlyOfKind answers the same array when every object is of the kind, else the ones that are', () => {
    const counters = [counter(1), counter(2)];
    expect(onlyOfKind(counters, COUNTER)).toBe(counters);
    expect(onlyOfKind([counter(1), pod, counter(2)], COUNTER)).toEqual(counters);
    expect(onlyOfKind([pod], COUNTER)).toEqual([]);
  });
});
