// docs/reference/daemonset.md §1.1/§1.3 validation, and "a reconcile of an invalid object returns the
// errors with nothing destructive proposed".
import type { DaemonSet, IntOrString } from '@kruise-ts/api';
import { formatFieldError } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { reconcileDaemonSet, validateDaemonSet } from '../src';
import { iso, makeDaemonSet, makeNode, makePod } from './helpers';

const ru = (r: Record<string, unknown>) =>
  makeDaemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: r as any } });
const fields = (ds: DaemonSet) => validateDaemonSet(deepFreeze(ds)).map((e) => `${e.type} ${e.field}`);

describe('§1.3 validation', () => {
  it('a valid DaemonSet has no errors', () => expect(validateDaemonSet(makeDaemonSet())).toEqual([]));

  it('RollingUpdate requires a rollingUpdate block', () =>
    expect(fields(makeDaemonSet({ updateStrategy: { type: 'RollingUpdate' } }))).toEqual([
      'FieldValueRequired spec.updateStrategy.rollingUpdate',
    ]));

  it('maxUnavailable and maxSurge may not both be non-zero', () => {
    const errs = validateDaemonSet(ru({ maxUnavailable: 1, maxSurge: '10%' }));
    expect(errs.map(formatFieldError)).toEqual([
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "10%": may not be set when maxUnavailable is non-zero',
    ]);
  });

  it('… and may not both be zero ("0%" counts as zero)', () =>
    expect(fields(ru({ maxUnavailable: '0%', maxSurge: 0 }))).toEqual([
      'FieldValueRequired spec.updateStrategy.rollingUpdate.maxUnavailable',
    ]));

  it.each<[IntOrString, string]>([
    [-1, 'must be greater than or equal to 0'],
    ['101%', 'must not be greater than 100%'],
    ['5', "must be an integer or percentage (e.g '5%')"],
    ['-5%', "must be an integer or percentage (e.g '5%')"],
  ])('non-zero values must be positive and at most 100 %%: %s', (v, detail) => {
    const errs = validateDaemonSet(ru({ maxUnavailable: v, maxSurge: 0 }));
    expect(errs[0]).toMatchObject({ field: 'spec.updateStrategy.rollingUpdate.maxUnavailable', detail });
  });

  it('InPlaceIfPossible requires maxSurge zero', () =>
    expect(fields(ru({ rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 0, maxSurge: 1 }))).toEqual([
      'FieldValueInvalid spec.updateStrategy.rollingUpdate.maxSurge',
    ]));

  it('Surging requires maxUnavailable zero', () =>
    expect(fields(ru({ rollingUpdateType: 'Surging', maxUnavailable: 1, maxSurge: 0 }))).toEqual([
      'FieldValueInvalid spec.updateStrategy.rollingUpdate.maxUnavailable',
    ]));

  it('partition, minReadySeconds and revisionHistoryLimit must be ≥ 0', () => {
    const ds = ru({ maxUnavailable: 1, partition: -1 });
    ds.spec.minReadySeconds = -1;
    ds.spec.revisionHistoryLimit = -2;
    expect(fields(ds)).toEqual([
      'FieldValueInvalid spec.updateStrategy.rollingUpdate.partition',
      'FieldValueInvalid spec.minReadySeconds',
      'FieldValueInvalid spec.revisionHistoryLimit',
    ]);
  });

  it('§1.1: the selector must be non-empty and match the template labels', () => {
    const empty = makeDaemonSet();
    empty.spec.selector = {};
    expect(fields(empty)).toEqual(['FieldValueInvalid spec.selector']);
    const mismatch = makeDaemonSet();
    mismatch.spec.selector = { matchLabels: { app: 'other' } };
    expect(fields(mismatch)).toEqual(['FieldValueInvalid spec.template.metadata.labels']);
  });

  it('§1.1: template restartPolicy must be Always and activeDeadlineSeconds unset', () => {
    const ds = makeDaemonSet();
    ds.spec.template.spec!.restartPolicy = 'OnFailure';
    ds.spec.template.spec!.activeDeadlineSeconds = 10;
    expect(fields(ds)).toEqual([
      'FieldValueNotSupported spec.template.spec.restartPolicy',
      'FieldValueForbidden spec.template.spec.activeDeadlineSeconds',
    ]);
  });

  it('§1.1: lifecycle.inPlaceUpdate is rejected, preDelete is allowed', () => {
    expect(fields(makeDaemonSet({ lifecycle: { inPlaceUpdate: { labelsHandler: { a: 'b' } } } }))).toEqual([
      'FieldValueForbidden spec.lifecycle.inPlaceUpdate',
    ]);
    expect(fields(makeDaemonSet({ lifecycle: { preDelete: { labelsHandler: { a: 'b' } } } }))).toEqual([]);
  });

  it('unknown update types are not supported', () => {
    expect(fields(makeDaemonSet({ updateStrategy: { type: 'Recreate' as any } }))).toEqual([
      'FieldValueNotSupported spec.updateStrategy.type',
    ]);
    expect(fields(ru({ rollingUpdateType: 'Fast', maxUnavailable: 1 }))).toEqual([
      'FieldValueNotSupported spec.updateStrategy.rollingUpdate.rollingUpdateType',
    ]);
  });

  it('garbage input gives errors, never a throw', () => {
    expect(validateDaemonSet({} as any).length).toBeGreaterThan(0);
    expect(validateDaemonSet({ metadata: { name: 'x' }, spec: 'nope' } as any).length).toBeGreaterThan(0);
  });
});

describe('reconcile of an invalid DaemonSet', () => {
  it('returns the errors and proposes nothing, even with pods to delete', () => {
    const bad = ru({ maxUnavailable: 1, maxSurge: 1 });
    const stray = makePod(bad, 'p', 'gone', 'v0', { ready: true });
    const r = reconcileDaemonSet(
      deepFreeze({ daemonSet: bad, nodes: [makeNode('a')], pods: [stray], now: iso(1) }),
    );
    expect(r.errors.map((e) => e.field)).toEqual(['spec.updateStrategy.rollingUpdate.maxSurge']);
    expect(r.actions).toEqual([]);
  });

  it('§2.1: an empty selector emits a SelectingAll warning and nothing else', () => {
    const ds = makeDaemonSet();
    ds.spec.selector = {};
    const r = reconcileDaemonSet({ daemonSet: ds, nodes: [makeNode('a')], pods: [], now: iso(1) });
    expect(r.actions).toEqual([
      expect.objectContaining({ verb: 'event', type: 'Warning', reason: 'SelectingAll' }),
    ]);
    expect(r.errors.length).toBe(1);
  });

  it('an invalid `now` is reported as an error, not thrown', () => {
    const r = reconcileDaemonSet({ daemonSet: makeDaemonSet(), nodes: [], pods: [], now: 'yesterday' });
    expect(r.errors.map((e) => e.field)).toEqual(['now']);
  });

  it('§2.1: a DaemonSet being deleted → nothing', () => {
    const base = makeDaemonSet();
    const ds = { ...base, metadata: { ...base.metadata, deletionTimestamp: iso(1) } };
    expect(
      reconcileDaemonSet({ daemonSet: ds, nodes: [makeNode('a')], pods: [], now: iso(2) }).actions,
    ).toEqual([]);
  });
});
