// docs/reference/statefulset.md §2.2: what the validating webhook rejects, one `it` per item, and a
// reconcile of an invalid set (errors, nothing destructive).
import { type StatefulSet, setDefaultsStatefulSet } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { reconcileStatefulSet } from '../src/reconcile';
import { validateStatefulSet } from '../src/validation';
import { makeSet } from './world';

const valid = (spec: Partial<StatefulSet['spec']> = {}) => setDefaultsStatefulSet(makeSet(spec));
const fields = (set: StatefulSet, old?: StatefulSet) =>
  validateStatefulSet(deepFreeze(set), old).map((e) => e.field);
const ru = (r: object, extra: Partial<StatefulSet['spec']> = {}) =>
  valid({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, ...r } }, ...extra });

describe('§2.2 validateStatefulSet', () => {
  it('a defaulted set is valid', () => {
    expect(validateStatefulSet(valid())).toEqual([]);
  });
  it('item 1: podManagementPolicy must be OrderedReady or Parallel', () => {
    expect(fields(valid({ podManagementPolicy: 'Sometimes' as any }))).toContain('spec.podManagementPolicy');
  });
  it.each([[[-1]], [['5-3']], [['a-b']], [['1-2-3']]])('item 2: reserveOrdinals %j is rejected', (list) => {
    expect(fields(valid({ reserveOrdinals: list as any }))).toEqual(['spec.reserveOrdinals[0]']);
  });
  it('item 2: reserveOrdinals [1, "3-5"] is accepted', () => {
    expect(fields(valid({ reserveOrdinals: [1, '3-5'] }))).toEqual([]);
  });
  it.each([0, '0%'])('item 3: maxUnavailable %j scales to 0 against 1 → rejected', (v) => {
    expect(fields(ru({ maxUnavailable: v }, { podManagementPolicy: 'Parallel' }))).toEqual([
      'spec.updateStrategy.rollingUpdate.maxUnavailable',
    ]);
  });
  it('item 3: "1%" is accepted with Parallel', () => {
    expect(fields(ru({ maxUnavailable: '1%' }, { podManagementPolicy: 'Parallel' }))).toEqual([]);
  });
  it('item 3: unless Parallel, maxUnavailable must be exactly the int 1', () => {
    expect(fields(ru({ maxUnavailable: 2 }))).toEqual(['spec.updateStrategy.rollingUpdate.maxUnavailable']);
    expect(fields(ru({ maxUnavailable: '100%' }))).toEqual([
      'spec.updateStrategy.rollingUpdate.maxUnavailable',
    ]);
  });
  it('item 3: scaleStrategy.maxUnavailable follows the same rule', () => {
    expect(fields(valid({ scaleStrategy: { maxUnavailable: 2 } }))).toEqual([
      'spec.scaleStrategy.maxUnavailable',
    ]);
    expect(
      fields(valid({ podManagementPolicy: 'Parallel', scaleStrategy: { maxUnavailable: '50%' } })),
    ).toEqual([]);
    expect(
      fields(valid({ podManagementPolicy: 'Parallel', scaleStrategy: { maxUnavailable: 'abc' } })),
    ).toEqual(['spec.scaleStrategy.maxUnavailable']);
  });
  it('item 4: unorderedUpdate only with Parallel', () => {
    expect(fields(ru({ unorderedUpdate: {} }))).toEqual([
      'spec.updateStrategy.rollingUpdate.unorderedUpdate',
    ]);
    expect(fields(ru({ unorderedUpdate: {} }, { podManagementPolicy: 'Parallel' }))).toEqual([]);
  });
  it('item 5: partition ≥ 0, minReadySeconds in [0, 300], maxUnavailable required', () => {
    expect(fields(ru({ partition: -1 }))).toEqual(['spec.updateStrategy.rollingUpdate.partition']);
    expect(fields(ru({ minReadySeconds: 301 }))).toEqual([
      'spec.updateStrategy.rollingUpdate.minReadySeconds',
    ]);
    expect(fields(ru({ minReadySeconds: 300 }))).toEqual([]);
    const noMax = makeSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } } });
    expect(fields({ ...noMax, spec: { ...noMax.spec, podManagementPolicy: 'OrderedReady' } })).toEqual([
      'spec.updateStrategy.rollingUpdate.maxUnavailable',
    ]);
  });
  it('item 6: in-place policies need the InPlaceUpdateReady readiness gate', () => {
    const set = ru({ podUpdatePolicy: 'InPlaceIfPossible' });
    expect(fields(set)).toEqual([]);
    const noGate = {
      ...set,
      spec: {
        ...set.spec,
        template: { ...set.spec.template, spec: { ...set.spec.template.spec!, readinessGates: [] } },
      },
    };
    expect(fields(noGate)).toEqual(['spec.template.spec.readinessGates']);
  });
  it('item 7: OnDelete must not carry a rollingUpdate block', () => {
    const set = valid({ updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 1 } } });
    expect(fields(set)).toEqual(['spec.updateStrategy.rollingUpdate']);
  });
  it('item 8: template restartPolicy Always and no activeDeadlineSeconds', () => {
    const set = valid();
    const tpl = (s: object) => ({
      ...set,
      spec: { ...set.spec, template: { ...set.spec.template, spec: { ...set.spec.template.spec!, ...s } } },
    });
    expect(fields(tpl({ restartPolicy: 'Never' }))).toEqual(['spec.template.spec.restartPolicy']);
    expect(fields(tpl({ activeDeadlineSeconds: 10 }))).toEqual(['spec.template.spec.activeDeadlineSeconds']);
  });
  it('item 9: on update only the listed spec fields may change', () => {
    const old = valid();
    expect(fields({ ...old, spec: { ...old.spec, replicas: 9, reserveOrdinals: [1] } }, old)).toEqual([]);
    expect(fields({ ...old, spec: { ...old.spec, serviceName: 'other' } }, old)).toEqual(['spec']);
    expect(fields({ ...old, spec: { ...old.spec, podManagementPolicy: 'Parallel' } }, old)).toEqual(['spec']);
  });
  it('the selector is required, non-empty and must match the template labels', () => {
    const set = valid();
    expect(fields({ ...set, spec: { ...set.spec, selector: {} } })).toContain('spec.selector');
    expect(fields({ ...set, spec: { ...set.spec, selector: { matchLabels: { app: 'x' } } } })).toEqual([
      'spec.template.metadata.labels',
    ]);
  });
  it('a reconcile of an invalid set returns the errors and proposes nothing destructive', () => {
    const bad = makeSet({
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 3 } },
    });
    const r = reconcileStatefulSet(deepFreeze({ statefulSet: bad, pods: [], now: '2024-01-01T00:00:00Z' }));
    expect(r.errors.map((e) => e.field)).toEqual(['spec.updateStrategy.rollingUpdate.maxUnavailable']);
    expect(r.actions.map((a) => [a.verb, (a as any).reason])).toEqual([['event', 'FailedValidation']]);
  });
  it('a reconcile with an invalid `now` returns an error and no actions', () => {
    const r = reconcileStatefulSet({ statefulSet: makeSet(), pods: [], now: 'yesterday' });
    expect(r.errors[0].field).toBe('now');
    expect(r.actions).toEqual([]);
  });
});
