// The KruisePodReady condition as a multi-writer "not ready" switch (docs/reference/core.md R5.6,
// Appendix D.8): each writer adds or removes its {userAgent, key} message; the condition is
// False while any message remains.
import { CONDITION_KRUISE_POD_READY } from '@kruise-ts/api';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1.js';
import { goJsonStringify } from '../json/goJson';
import { type Now, toRFC3339 } from '../kube/time';
import { findCondition, hasReadinessGate, recomputeReady, withConditions } from './conditionEdits';

/** One writer's reason for keeping a pod not ready. */
export interface PodReadinessMessage {
  userAgent: string;
  key: string;
}

/** The user agent lifecycle hooks write with (R3.4). */
export const LIFECYCLE_USER_AGENT = 'Lifecycle';
/** R3.4 message of the preDelete hook. */
export const PRE_DELETE_HOOK_MESSAGE: Readonly<PodReadinessMessage> = Object.freeze({
  userAgent: LIFECYCLE_USER_AGENT,
  key: 'preDeleteHook',
});
/** R3.4 message of the inPlaceUpdate hook. */
export const PRE_UPDATE_HOOK_MESSAGE: Readonly<PodReadinessMessage> = Object.freeze({
  userAgent: LIFECYCLE_USER_AGENT,
  key: 'preUpdateHook',
});

function compareMessages(a: PodReadinessMessage, b: PodReadinessMessage): number {
  if (a.userAgent !== b.userAgent) return a.userAgent < b.userAgent ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

const sameMessage = (a: PodReadinessMessage, b: PodReadinessMessage) =>
  a.userAgent === b.userAgent && a.key === b.key;

/**
 * The condition message: a JSON list sorted by userAgent then key, fields in Go order.
 * Example: `[{"userAgent":"Lifecycle","key":"preDeleteHook"}]`.
 */
export function encodeNotReadyMessages(messages: readonly PodReadinessMessage[]): string {
  const sorted = [...messages].sort(compareMessages);
  return `[${sorted.map((m) => `{"userAgent":${goJsonStringify(m.userAgent)},"key":${goJsonStringify(m.key)}}`).join(',')}]`;
}

/** Parses a condition message; `[]` for an empty message, `undefined` when it is not such a list. */
export function decodeNotReadyMessages(message: string | undefined): PodReadinessMessage[] | undefined {
  if (!message) return [];
  try {
    const raw = JSON.parse(message) as unknown;
    if (raw === null) return [];
    if (!Array.isArray(raw)) return undefined;
    return raw.map((m) => ({
      userAgent: typeof m?.userAgent === 'string' ? m.userAgent : '',
      key: typeof m?.key === 'string' ? m.key : '',
    }));
  } catch {
    return undefined;
  }
}

function replaceCondition(pod: Pod, condition: PodCondition): Pod {
  const list = pod.status?.conditions ?? [];
  const i = list.findIndex((c) => c.type === condition.type);
  return withConditions(pod, i < 0 ? [...list, condition] : list.map((c, j) => (j === i ? condition : c)));
}

/**
 * R5.6 add: marks the pod not ready for `msg`. Skipped when the pod lacks the `KruisePodReady`
 * readiness gate, or the condition is already not True and lists `msg`. A missing condition is
 * created **with an empty status** (Appendix D.8) and message `[msg]`; an existing one gets
 * `msg` added and status False. Both set `lastTransitionTime = now` and recompute Ready (R5.4).
 * A message that is not a JSON list leaves the pod unchanged. Returns the same pod when skipped.
 * @throws KruiseError if `now` is not a valid time.
 */
export function addNotReadyKey(pod: Pod, msg: PodReadinessMessage, now: Now): Pod {
  if (!hasReadinessGate(pod, CONDITION_KRUISE_POD_READY)) return pod;
  const cond = findCondition(pod, CONDITION_KRUISE_POD_READY);
  const entry = { userAgent: msg.userAgent, key: msg.key };
  let next: PodCondition;
  if (!cond) {
    next = {
      type: CONDITION_KRUISE_POD_READY,
      status: '',
      message: encodeNotReadyMessages([entry]),
      lastTransitionTime: toRFC3339(now),
    };
  } else {
    const list = decodeNotReadyMessages(cond.message);
    if (list === undefined) return pod;
    const present = list.some((m) => sameMessage(m, entry));
    if (cond.status !== 'True' && present) return pod;
    next = {
      ...cond,
      status: 'False',
      message: encodeNotReadyMessages(present ? list : [...list, entry]),
      lastTransitionTime: toRFC3339(now),
    };
  }
  return recomputeReady(replaceCondition(pod, next), now);
}

/**
 * R5.6 remove: drops `msg` from the `KruisePodReady` message; when the list becomes empty the
 * condition turns True (message `[]`, `lastTransitionTime = now`). Skipped without the gate,
 * without the condition, or when `msg` is not listed (same pod returned).
 * @throws KruiseError if `now` is not a valid time.
 */
export function removeNotReadyKey(pod: Pod, msg: PodReadinessMessage, now: Now): Pod {
  if (!hasReadinessGate(pod, CONDITION_KRUISE_POD_READY)) return pod;
  const cond = findCondition(pod, CONDITION_KRUISE_POD_READY);
  if (!cond) return pod;
  const list = decodeNotReadyMessages(cond.message);
  if (list === undefined || !list.some((m) => sameMessage(m, msg))) return pod;
  const rest = list.filter((m) => !sameMessage(m, msg));
  const next: PodCondition = { ...cond, message: encodeNotReadyMessages(rest) };
  if (rest.length === 0 && cond.status !== 'True') {
    next.status = 'True';
    next.lastTransitionTime = toRFC3339(now);
  }
  return replaceCondition(pod, next);
}

/**
 * R5.6 "has key": false when the condition is missing, True, or has an empty message;
 * otherwise whether its message lists `msg`.
 */
export function hasNotReadyKey(pod: Pod, msg: PodReadinessMessage): boolean {
  const cond = findCondition(pod, CONDITION_KRUISE_POD_READY);
  if (!cond || cond.status === 'True' || !cond.message) return false;
  return (decodeNotReadyMessages(cond.message) ?? []).some((m) => sameMessage(m, msg));
}
