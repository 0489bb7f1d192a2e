// The event-log records of the controllers' and users' actions: `Create`/`Patch`/... with the
// action's reason, `ActionFailed` with the store's answer, and `Event` for the event verb.
import type { Action } from '@kruise-ts/core';
import type { SimEvent } from './events';
import { displayName, displayRef } from './keys';
import type { WriteResult } from './store';

/** A log record before the simulation stamps its time. */
export type RecordInput = Omit<SimEvent, 't' | 'time'>;

/** The record of an `event` action (a Kubernetes Event the controller emitted). */
export function eventRecord(a: Extract<Action, { verb: 'event' }>, source: string): RecordInput {
  return {
    type: 'Event',
    object: displayRef(a.involvedObject),
    source,
    detail: { type: a.type, reason: a.reason, message: a.message },
  };
}

/**
 * The `{reason}` details an event log shares between its records, one frozen object per reason:
 * a 10k-pod rollout logs ~60k actions with a handful of reasons, and the log keeps every record.
 * The cluster owns one; it stops adding reasons at 1024 (a caller's reasons are free text).
 */
export type ReasonDetails = Map<string, Readonly<Record<string, unknown>>>;

/**
 * The record of a store action and its result: `Create`, `Patch`, ... or `ActionFailed`. With
 * `details`, records of one reason share a frozen `{reason}` object; without, each has its own
 * (the same text in the log).
 */
export function actionRecord(
  a: Exclude<Action, { verb: 'event' }>,
  res: WriteResult,
  source: string,
  details?: ReasonDetails,
): RecordInput {
  const object =
    a.verb === 'create' || a.verb === 'update'
      ? res.ok && res.object
        ? displayName(res.object)
        : displayName(a.object)
      : displayRef(a.target);
  if (res.ok)
    return {
      type: VERB_RECORD_TYPES[a.verb] ?? a.verb,
      object,
      source,
      detail: reasonDetail(a.reason, details),
    };
  return {
    type: 'ActionFailed',
    object,
    source,
    detail: { verb: a.verb, reason: a.reason, code: res.code, message: res.message },
  };
}

/** The `{reason}` detail of an action's log record, from `details` when given. */
function reasonDetail(
  reason: string | undefined,
  details: ReasonDetails | undefined,
): Record<string, unknown> {
  if (details === undefined) return { reason };
  const k = reason ?? '';
  let d = details.get(k);
  if (d === undefined) {
    d = Object.freeze({ reason });
    if (details.size < 1024) details.set(k, d);
  }
  return d;
}

/** The log record type of each action verb (`patch` → `Patch`). */
const VERB_RECORD_TYPES: Record<string, string> = {
  create: 'Create',
  update: 'Update',
  patch: 'Patch',
  updateStatus: 'UpdateStatus',
  delete: 'Delete',
};
