// validateCloneSet (docs/reference/cloneset.md §2.2): one test per webhook rule, plus the reconcile's
// behaviour on an invalid CloneSet.
import { setDefaultsCloneSet } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { reconcileCloneSet } from '../src/reconcile';
import { validateCloneSet } from '../src/validation';
import { cloneSetFrom, compactPod } from './fixtures';

const cs = (spec: Record<string, any> = {}) =>
  deepFreeze(setDefaultsCloneSet(cloneSetFrom({ spec: { replicas: 3, ...spec } })));
const fields = (errs: { field: string }[]) => errs.map((e) => e.field);

describe('§2.2 webhook validation', () => {
  it('a valid CloneSet has no errors', () => expect(validateCloneSet(cs())).toEqual([]));
  it('replicas >= 0', () => {
    const errs = validateCloneSet(cs({ replicas: -1 }));
    expect(errs).toEqual([
      {
        type: 'FieldValueInvalid',
        field: 'spec.replicas',
        badValue: -1,
        detail: 'must be greater than or equal to 0',
      },
    ]);
  });
  it('the selector must be present', () => {
    const c = cs();
    const noSel = { ...c, spec: { ...c.spec, selector: undefined as any } };
    expect(fields(validateCloneSet(noSel))).toContain('spec.selector');
  });
  it('the selector must be non-empty', () => {
    const errs = validateCloneSet(cs({ selector: {} }));
    expect(errs.find((e) => e.field === 'spec.selector')?.detail).toBe(
      'empty selector is invalid for cloneset',
    );
  });
  it('the selector must match template.metadata.labels', () => {
    const errs = validateCloneSet(cs({ selector: { matchLabels: { app: 'other' } } }));
    expect(errs.map((e) => [e.field, e.detail])).toEqual([
      ['spec.template.metadata.labels', '`selector` does not match template `labels`'],
    ]);
  });
  it('restartPolicy must be empty or Always', () => {
    const template = {
      metadata: { labels: { app: 'sample' } },
      spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] },
    };
    const errs = validateCloneSet(cs({ template }));
    expect(errs.map((e) => [e.type, e.field])).toEqual([
      ['FieldValueNotSupported', 'spec.template.spec.restartPolicy'],
    ]);
  });
  it('activeDeadlineSeconds is forbidden', () => {
    const template = {
      metadata: { labels: { app: 'sample' } },
      spec: { activeDeadlineSeconds: 5, containers: [{ name: 'c', image: 'i' }] },
    };
    const errs = validateCloneSet(cs({ template }));
    expect(errs.map((e) => [e.type, e.field])).toEqual([
      ['FieldValueForbidden', 'spec.template.spec.activeDeadlineSeconds'],
    ]);
  });
  it('podsToDelete may not hold duplicates', () => {
    const errs = validateCloneSet(cs({ scaleStrategy: { podsToDelete: ['a', 'b', 'a'] } }));
    expect(errs.map((e) => [e.type, e.field])).toEqual([
      ['FieldValueDuplicate', 'spec.scaleStrategy.podsToDelete[2]'],
    ]);
  });
  it('newly added podsToDelete names must be existing, non-terminating pods this CloneSet controls', () => {
    const own = compactPod({ name: 'own' }, { ownerUid: 'cs-uid' });
    const foreign = compactPod({ name: 'foreign' }, { ownerUid: 'other' });
    const dying: Pod = { ...compactPod({ name: 'dying' }, { ownerUid: 'cs-uid' }) };
    dying.metadata = { ...dying.metadata, deletionTimestamp: '2024-01-01T00:00:00Z' };
    const pods = [own, foreign, dying];
    const next = cs({ scaleStrategy: { podsToDelete: ['own', 'foreign', 'dying', 'missing', 'old'] } });
    const old = cs({ scaleStrategy: { podsToDelete: ['old'] } });
    const errs = validateCloneSet(next, old, { pods });
    expect(errs.map((e) => e.badValue)).toEqual(['foreign', 'dying', 'missing']);
    expect(validateCloneSet(next, old)).toEqual([]); // without pods the check is skipped
  });
  it('type must be one of the three values', () => {
    const errs = validateCloneSet(cs({ updateStrategy: { type: 'RollingUpdate' } }));
    expect(errs.map((e) => [e.type, e.field])).toEqual([
      ['FieldValueNotSupported', 'spec.updateStrategy.type'],
    ]);
  });
  it('partition must parse (§5.2) and be >= 0', () => {
    expect(fields(validateCloneSet(cs({ updateStrategy: { partition: '50' } })))).toEqual([
      'spec.updateStrategy.partition',
    ]);
    expect(fields(validateCloneSet(cs({ updateStrategy: { partition: -1 } })))).toEqual([
      'spec.updateStrategy.partition',
    ]);
    expect(validateCloneSet(cs({ updateStrategy: { partition: '99.5%' } }))).toEqual([]);
  });
  it('maxSurge must resolve to 0 with InPlaceOnly', () => {
    const errs = validateCloneSet(cs({ updateStrategy: { type: 'InPlaceOnly', maxSurge: 1 } }));
    expect(errs.map((e) => [e.field, e.detail])).toEqual([
      ['spec.updateStrategy.maxSurge', 'can not use maxSurge with strategy type InPlaceOnly'],
    ]);
    expect(validateCloneSet(cs({ updateStrategy: { type: 'InPlaceOnly', maxSurge: '0%' } }))).toEqual([]);
  });
  it('with replicas > 0, maxUnavailable and maxSurge (round-up) must not both be < 1', () => {
    const errs = validateCloneSet(cs({ updateStrategy: { maxUnavailable: 0, maxSurge: 0 } }));
    expect(errs.map((e) => [e.field, e.detail])).toEqual([
      ['spec.updateStrategy.maxUnavailable', 'maxUnavailable and maxSurge should not both be less than 1'],
    ]);
    // "1%" of 3 rounds up to 1: valid; replicas 0: not checked
    expect(validateCloneSet(cs({ updateStrategy: { maxUnavailable: '1%', maxSurge: 0 } }))).toEqual([]);
    expect(validateCloneSet(cs({ replicas: 0, updateStrategy: { maxUnavailable: 0, maxSurge: 0 } }))).toEqual(
      [],
    );
  });
  it('an unparsable maxUnavailable / maxSurge is invalid', () => {
    expect(fields(validateCloneSet(cs({ updateStrategy: { maxUnavailable: 'x%' } })))).toEqual([
      'spec.updateStrategy.maxUnavailable',
    ]);
  });
  it('priorityStrategy: weight and order terms cannot both be set', () => {
    const ps = {
      weightPriority: [{ weight: 10, matchSelector: { matchLabels: { a: 'b' } } }],
      orderPriority: [{ orderedKey: 'k' }],
    };
    expect(fields(validateCloneSet(cs({ updateStrategy: { priorityStrategy: ps } })))).toEqual([
      'spec.updateStrategy.priorityStrategy',
    ]);
  });
  it('priorityStrategy: weights in [0,100] (0 accepted), non-empty selector, non-empty key', () => {
    const ok = { weightPriority: [{ weight: 0, matchSelector: { matchLabels: { a: 'b' } } }] };
    expect(validateCloneSet(cs({ updateStrategy: { priorityStrategy: ok } }))).toEqual([]);
    const bad = {
      weightPriority: [
        { weight: 101, matchSelector: { matchLabels: { a: 'b' } } },
        { weight: 5, matchSelector: {} },
      ],
    };
    expect(validateCloneSet(cs({ updateStrategy: { priorityStrategy: bad } }))).toHaveLength(2);
    expect(
      validateCloneSet(cs({ updateStrategy: { priorityStrategy: { orderPriority: [{ orderedKey: '' }] } } })),
    ).toHaveLength(1);
  });
  it('scatterStrategy: keys non-empty, key:value pairs unique, empty value allowed', () => {
    expect(validateCloneSet(cs({ updateStrategy: { scatterStrategy: [{ key: 'a', value: '' }] } }))).toEqual(
      [],
    );
    expect(
      validateCloneSet(cs({ updateStrategy: { scatterStrategy: [{ key: '', value: 'x' }] } })),
    ).toHaveLength(1);
    const dup = [
      { key: 'a', value: 'x' },
      { key: 'a', value: 'x' },
    ];
    expect(validateCloneSet(cs({ updateStrategy: { scatterStrategy: dup } }))).toHaveLength(1);
  });
  it('on update only replicas, template, scaleStrategy, updateStrategy, minReadySeconds, lifecycle, revisionHistoryLimit, volumeClaimTemplates may change', () => {
    const old = cs();
    expect(validateCloneSet(cs({ replicas: 7, minReadySeconds: 3, revisionHistoryLimit: 2 }), old)).toEqual(
      [],
    );
    const moved = cs({
      selector: { matchLabels: { app: 'sample', tier: 'x' } },
      template: {
        metadata: { labels: { app: 'sample', tier: 'x' } },
        spec: { containers: [{ name: 'main', image: 'nginx' }] },
      },
    });
    expect(validateCloneSet(moved, old).map((e) => [e.type, e.field])).toEqual([
      ['FieldValueForbidden', 'spec'],
    ]);
  });
  it('with InPlaceOnly the template spec may only change by replacing container images', () => {
    const tpl = (
      image: string,
      extra: Record<string, unknown> = {},
      labels: Record<string, string> = {},
    ) => ({
      metadata: { labels: { app: 'sample', ...labels } },
      spec: { containers: [{ name: 'main', image, ...extra }] },
    });
    const base = { updateStrategy: { type: 'InPlaceOnly', maxUnavailable: 1 } };
    const old = cs({ ...base, template: tpl('nginx:1') });
    const image = cs({ ...base, template: tpl('nginx:2') });
    expect(validateCloneSet(image, old)).toEqual([]);
    const env = cs({ ...base, template: tpl('nginx:1', { env: [{ name: 'A', value: '1' }] }) });
    expect(fields(validateCloneSet(env, old))).toEqual(['spec.template.spec']);
    const label = cs({ ...base, template: tpl('nginx:1', {}, { x: 'y' }) });
    expect(validateCloneSet(label, old)).toEqual([]);
  });
  it('an invalid CloneSet is reconciled to its errors, a Warning event and no other action', () => {
    const bad = deepFreeze(cloneSetFrom({ spec: { replicas: -2 } }));
    const r = reconcileCloneSet({ cloneSet: bad, pods: [], now: '2024-01-01T00:00:00Z' });
    expect(fields(r.errors)).toEqual(['spec.replicas']);
    expect(r.actions).toHaveLength(1);
    expect(r.actions[0]).toMatchObject({ verb: 'event', type: 'Warning', reason: 'FailedValidation' });
  });
  it('an invalid `now` is reported, not thrown', () => {
    const r = reconcileCloneSet({ cloneSet: cloneSetFrom({ spec: {} }), pods: [], now: 'yesterday' });
    expect(fields(r.errors)).toEqual(['now']);
    expect(r.actions).toEqual([]);
  });
});
