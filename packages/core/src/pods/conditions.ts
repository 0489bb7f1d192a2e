// Pod readiness and availability (docs/reference/core.md §5): conditions, Ready (R5.1),
// Kubernetes' Available (R5.2), active/terminating pods, the set-condition rule (R5.5)
// and the Ready recomputation from readiness gates (R5.4). `now` is always an input (../kube/time).
import type { Pod, PodCondition } from 'kubernetes-types/core/v1.js';
import { type Now, parseTime, timeOf, toRFC3339 } from '../kube/time';

// ---- conditions -----------------------------------------------------------------

/** The pod condition of that type, if any. */
export function getPodCondition(pod: Pod | null | undefined, type: string): PodCondition | undefined {
  return pod?.status?.conditions?.find((c) => c.type === type);
}

/** R5.1: the pod has condition `Ready` with status `True`. */
export function isPodReady(pod: Pod | null | undefined): boolean {
  return getPodCondition(pod, 'Ready')?.status === 'True';
}

/**
 * R5.2, Kubernetes' `IsPodAvailable`: Ready, and either `minReadySeconds == 0` or the Ready
 * condition has a non-zero `lastTransitionTime` with `lastTransitionTime + minReadySeconds`
 * **strictly before** `now`.
 *
 * Example: Ready since 10:00:00, minReadySeconds 10 → not available at 10:00:10, available
 * at 10:00:11 (and at 10:00:10.5).
 */
export function isPodAvailable(pod: Pod | null | undefined, minReadySeconds: number, now: Now): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const since = parseTime(getPodCondition(pod, 'Ready')?.lastTransitionTime);
  if (since === null) return false;
  return since.getTime() + minReadySeconds * 1000 < timeOf(now);
}

/** When the pod became Ready (its Ready=True condition's `lastTransitionTime`), else `null`. */
export function podReadySince(pod: Pod | null | undefined): Date | null {
  const c = getPodCondition(pod, 'Ready');
  return c?.status === 'True' ? parseTime(c.lastTransitionTime) : null;
}

/** The pod has a `deletionTimestamp`. */
export function isPodTerminating(pod: Pod | null | undefined): boolean {
  return !!pod?.metadata?.deletionTimestamp;
}

/** Kubernetes' `IsPodActive`: phase is neither Succeeded nor Failed and no `deletionTimestamp`. */
export function isPodActive(pod: Pod | null | undefined): boolean {
  if (!pod) return false;
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !isPodTerminating(pod);
}

/**
 * R5.5 "set condition": returns a new list. The condition of the same type is replaced
 * entirely only when its `status` differs (same status keeps the old one, message included);
 * a new type is appended. With `ifMessageChanged`, a different `message` also replaces it.
 *
 * Example: `[{type:'A',status:'True',message:'m0'}]` + `{type:'A',status:'True',message:'m1'}`
 * → unchanged; + `{type:'A',status:'False'}` → `[{type:'A',status:'False'}]`.
 */
export function setCondition<C extends { type: string; status: string; message?: string }>(
  conditions: readonly C[] | null | undefined,
  cond: C,
  opts: { ifMessageChanged?: boolean } = {},
): C[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === cond.type);
  if (i < 0) {
    list.push(cond);
    return list;
  }
  const old = list[i];
  const changed =
    old.status !== cond.status ||
    (opts.ifMessageChanged === true && (old.message ?? '') !== (cond.message ?? ''));
  if (changed) list[i] = cond;
  return list;
}

/** R5.5 on a pod: a new pod whose `status.conditions` went through {@link setCondition}. */
export function setPodCondition(
  pod: Pod,
  cond: PodCondition,
  opts: { ifMessageChanged?: boolean } = {},
): Pod {
  return {
    ...pod,
    status: { ...(pod.status ?? {}), conditions: setCondition(pod.status?.conditions, cond, opts) },
  };
}

/**
 * R5.4, `SetPodReadyCondition`: nothing happens unless the pod has a `Ready` condition and
 * `ContainersReady` is `True`. Then, for each readiness gate in order, a message is collected
 * if its condition is missing or not True; with messages, Ready becomes
 * `{status: False, reason: ReadinessGatesNotReady, message: <messages joined by ", ">}`,
 * otherwise `{status: True, lastTransitionTime: now}` — applied with R5.5. Returns a new pod.
 *
 * Example: gate `InPlaceUpdateReady` with condition False, Ready True, ContainersReady True →
 * Ready False, message `the status of pod readiness gate "InPlaceUpdateReady" is not "True", but False`.
 */
export function recomputeReadyCondition(pod: Pod, now: Now): Pod {
  const ready = recomputedReadyCondition(pod.status?.conditions ?? [], pod.spec?.readinessGates, now);
  return ready === undefined ? pod : setPodCondition(pod, ready);
}

/**
 * The `Ready` condition R5.4 sets on a pod with these conditions and readiness gates (applied
 * with R5.5 by the caller), or `undefined` when R5.4 leaves the pod alone (no `Ready`
 * condition, or `ContainersReady` not True). Lets a caller that is already building a new
 * condition list recompute Ready on the list, without an intermediate pod. Conditions are
 * looked up by their first occurrence, as {@link getPodCondition} does.
 */
export function recomputedReadyCondition(
  conditions: readonly PodCondition[],
  readinessGates: readonly { conditionType: string }[] | null | undefined,
  now: Now,
): PodCondition | undefined {
  if (firstOfType(conditions, 'Ready') === undefined) return undefined;
  if (firstOfType(conditions, 'ContainersReady')?.status !== 'True') return undefined;
  const messages: string[] = [];
  for (const gate of readinessGates ?? []) {
    const c = firstOfType(conditions, gate.conditionType);
    if (c === undefined) {
      messages.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    } else if (c.status !== 'True') {
      messages.push(
        `the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`,
      );
    }
  }
  return messages.length > 0
    ? { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: messages.join(', ') }
    : { type: 'Ready', status: 'True', lastTransitionTime: toRFC3339(now) };
}

/** The first condition of the type in the list. */
function firstOfType(conditions: readonly PodCondition[], type: string): PodCondition | undefined {
  for (let i = 0; i < conditions.length; i++) if (conditions[i].type === type) return conditions[i];
  return undefined;
}
