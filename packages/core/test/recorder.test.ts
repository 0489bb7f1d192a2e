// The reconcile recorder of core/contract: actions in order, events on the reconciled object, the
// smallest requeue asked for, conditions set by R5.5, and the result built from them.
import { describe, expect, it } from 'vitest';
import { type Action, ReconcileRecorder } from '../src';

const ref = { apiVersion: 'v1', kind: 'Thing', namespace: 'ns', name: 't' };
const del: Action = { verb: 'delete', target: { ...ref, name: 'x' }, reason: 'Gone' };

describe('ReconcileRecorder', () => {
  it('keeps actions and events in the order they are recorded', () => {
    const rec = new ReconcileRecorder(ref).act(del).event('Warning', 'Failed', 'it failed');
    expect(rec.actions).toEqual([
      del,
      { verb: 'event', involvedObject: ref, type: 'Warning', reason: 'Failed', message: 'it failed' },
    ]);
  });

  it('asks for the smallest requeue delay any rule asked for; undefined asks nothing', () => {
    const rec = new ReconcileRecorder(ref);
    expect(rec.requeueAfterSeconds).toBeUndefined();
    rec.requeueAfter(30).requeueAfter(undefined).requeueAfter(5).requeueAfter(12);
    expect(rec.requeueAfterSeconds).toBe(5);
    expect(rec.requeueAfter(0).requeueAfterSeconds).toBe(0);
  });

  it('builds the result: errors default to none, state only when given, requeue only when asked', () => {
    const bare = new ReconcileRecorder(ref).result({ n: 1 });
    expect(bare).toStrictEqual({ actions: [], status: { n: 1 }, errors: [] });
    expect(Object.keys(bare)).toEqual(['actions', 'status', 'errors']);
    const full = new ReconcileRecorder(ref)
      .act(del)
      .requeueAfter(3)
      .result('s', { controllerState: { k: 1 }, errors: [] });
    expect(Object.keys(full)).toEqual([
      'actions',
      'status',
      'errors',
      'controllerState',
      'requeueAfterSeconds',
    ]);
    expect(full).toStrictEqual({
      actions: [del],
      status: 's',
      errors: [],
      controllerState: { k: 1 },
      requeueAfterSeconds: 3,
    });
    // A state given as undefined keeps the key: the shell then forgets what it stored.
    expect('controllerState' in new ReconcileRecorder(ref).result(0, { controllerState: undefined })).toBe(
      true,
    );
  });

  it('sets conditions by R5.5: a same-status condition keeps the old one; the input list is not changed', () => {
    const start = Object.freeze([{ type: 'Ready', status: 'True', message: 'old' }]);
    const rec = new ReconcileRecorder<{ type: string; status: string; message?: string }>(ref, start);
    rec.setCondition({ type: 'Ready', status: 'True', message: 'new' });
    expect(rec.conditions).toEqual([{ type: 'Ready', status: 'True', message: 'old' }]);
    rec
      .setCondition({ type: 'Ready', status: 'False', message: 'down' })
      .setCondition({ type: 'Synced', status: 'True' });
    expect(rec.conditions).toEqual([
      { type: 'Ready', status: 'False', message: 'down' },
      { type: 'Synced', status: 'True' },
    ]);
    expect(start).toEqual([{ type: 'Ready', status: 'True', message: 'old' }]);
  });
});
