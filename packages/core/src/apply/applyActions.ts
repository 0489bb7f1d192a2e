// An in-memory API server for the action vocabulary (docs/architecture.md "The action
// vocabulary"): applies create / delete / patch / update / updateStatus / event to a
// list of plain objects with uids, resourceVersions, generations, creation and deletion
// timestamps, finalizers and background garbage collection. Deterministic: uids and
// generated names come from a seed and counters, time from `now`. Inputs are never mutated.
// The verbs themselves are in ./applyVerbs.
import type { KubeObject } from '@kruise-ts/api';
import type { Action } from '../contract/actions';
import { toRFC3339 } from '../kube/time';
import {
  type ApplierState,
  type ApplyOptions,
  type ApplyResult,
  type Draft,
  doCreate,
  doDelete,
  doEvent,
  doPatch,
  doUpdate,
  doUpdateStatus,
  fail,
  keyOf,
} from './applyVerbs';

/**
 * Builds the store from existing objects. The resourceVersion counter starts after the highest
 * numeric `metadata.resourceVersion` (or `startResourceVersion` if higher). Later duplicates
 * of the same key replace earlier ones.
 */
export function createApplier(objects: readonly KubeObject[], opts: ApplyOptions = {}): ApplierState {
  const map = new Map<string, KubeObject>();
  const uids = new Set<string>();
  let maxRv = opts.startResourceVersion ?? 0;
  for (const o of objects) {
    map.set(keyOf(o), o);
    if (o.metadata?.uid) uids.add(o.metadata.uid);
    const rv = o.metadata?.resourceVersion;
    if (rv !== undefined && /^\d+$/.test(rv)) maxRv = Math.max(maxRv, Number(rv));
  }
  return {
    objects: map,
    resourceVersion: maxRv,
    uidCounter: opts.uidCounterStart ?? 0,
    nameCounter: 0,
    eventCounter: 0,
    seed: opts.seed ?? 0,
    uids,
  };
}

/**
 * Applies one action to the store and returns the new store plus the API server's answer:
 * `{ok: true, object}` or `{ok: false, code: 404 | 409 | 422, message}` — failures are
 * returned, never thrown. See {@link applyActions} for the semantics of each verb.
 * @throws KruiseError only when `now` is not a valid time.
 */
export function applyAction(
  state: ApplierState,
  action: Action,
  now: string | Date,
): { state: ApplierState; result: ApplyResult } {
  const ts = toRFC3339(now);
  const d: Draft = { ...state, objects: new Map(state.objects), uids: new Set(state.uids) };
  let result: ApplyResult;
  switch (action.verb) {
    case 'create':
      result = doCreate(d, action.object, ts);
      break;
    case 'delete':
      result = doDelete(d, action, ts);
      break;
    case 'patch':
      result = doPatch(d, action.target, action.patchType, action.patch, ts);
      break;
    case 'update':
      result = doUpdate(d, action.object, ts);
      break;
    case 'updateStatus':
      result = doUpdateStatus(d, action.target, action.status, ts);
      break;
    case 'event':
      result = doEvent(d, action, ts);
      break;
    default:
      result = fail(422, `unknown verb ${JSON.stringify((action as { verb?: unknown }).verb)}`);
  }
  return { state: d, result };
}

/** Applies actions in order; returns the objects and one result per action. */
export function applyActionsWithResults(
  objects: readonly KubeObject[],
  actions: readonly Action[],
  now: string | Date,
  opts: ApplyOptions = {},
): { objects: KubeObject[]; results: ApplyResult[]; state: ApplierState } {
  let state = createApplier(objects, opts);
  const results: ApplyResult[] = [];
  for (const a of actions) {
    const r = applyAction(state, a, now);
    state = r.state;
    results.push(r.result);
  }
  return { objects: [...state.objects.values()], results, state };
}

/**
 * Applies actions to an in-memory list of objects the way an API server would, and returns
 * the resulting objects (existing ones in input order, new ones appended). Failures (404,
 * 409 name conflict or failed precondition, 422 bad patch) leave the store unchanged; use
 * {@link applyActionsWithResults} to see them.
 *
 * - **create**: uid from the seed and a counter, resourceVersion, generation 1,
 *   creationTimestamp = now; `generateName` gets a 5-character random suffix; status is kept.
 * - **delete**: preconditions checked; with finalizers the object gets `deletionTimestamp`
 *   (and `deletionGracePeriodSeconds: 0`) instead; otherwise it is removed and its dependents
 *   are garbage-collected (background cascade).
 * - **patch**: merge (RFC 7386), json (RFC 6902, `test` included), strategic (pod subset).
 * - **update**: full replace; resourceVersion checked when given; uid, creationTimestamp and
 *   status (a subresource) are kept.
 * - **updateStatus**: replaces `status` only.
 * - **event**: stored as a `v1` Event named `<object>.<hex>`.
 *
 * Every write that changes the object takes the next resourceVersion (a counter starting after
 * the highest input value); no-op writes change nothing. `generation` increases only when
 * `spec` changes. Removing the last finalizer of a deleted object removes it.
 *
 * Example: `applyActions([], [{verb:'create', object:{apiVersion:'v1',kind:'Pod',
 * metadata:{generateName:'web-',namespace:'default'}}, reason:'ScaleUp'}], '2024-01-01T00:00:00Z',
 * {seed: 1})` → one pod named `web-xxxxx` with resourceVersion `"1"` and generation 1.
 */
export function applyActions(
  objects: readonly KubeObject[],
  actions: readonly Action[],
  now: string | Date,
  opts: ApplyOptions = {},
): KubeObject[] {
  return applyActionsWithResults(objects, actions, now, opts).objects;
}
