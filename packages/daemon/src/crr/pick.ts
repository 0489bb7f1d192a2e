// Pure CRR daemon decisions around manage (docs/reference/daemon.md §9.2 items 3–4, §9.3 items 1–2, §9.4):
// which CRR of a pod is worked, what the picked one does next, the runtime it names, and the kill's
// grace-period math.
import { ANNOTATION_CRR_UNREADY_ACQUIRED, type ContainerRecreateRequest } from '@kruise-ts/api';
import { parseTime } from '../clock';

/** §9.2 item 3.1: phase weights. */
export function phaseWeight(phase: string | undefined): number {
  switch (phase) {
    case 'Completed':
      return 1;
    case 'Recreating':
      return 2;
    case 'Pending':
      return 3;
    default:
      return 4;
  }
}

/** §9.2 item 3.1: sort by phase weight, then creationTimestamp (a new array). */
export function sortForPick(crrs: readonly ContainerRecreateRequest[]): ContainerRecreateRequest[] {
  const t = (c: ContainerRecreateRequest) => parseTime(c.metadata.creationTimestamp) ?? 0;
  return [...crrs].sort((a, b) => phaseWeight(a.status?.phase) - phaseWeight(b.status?.phase) || t(a) - t(b));
}

/** True when a CRR is being deleted or completed (the daemon skips it). */
export function isDoneOrDeleting(c: ContainerRecreateRequest): boolean {
  return Boolean(c.metadata.deletionTimestamp) || c.status?.phase === 'Completed';
}

/** The result of {@link pickCRR}. */
export interface PickResult {
  picked?: ContainerRecreateRequest;
  /** Other eligible CRRs still in phase "" that must be set to Pending. */
  toPending: ContainerRecreateRequest[];
  /** True when an unsatisfied write expectation stopped picking this round. */
  waiting: boolean;
}

/**
 * §9.2 items 3.1–3.5: exactly one CRR per pod is worked. Sorted, skipping deleting/completed; an
 * unsatisfied expectation (younger than 10 s, decided by the caller) stops picking; the first
 * eligible is picked; other eligible ones in phase "" go to Pending.
 *
 * Example: `[Pending b (t=2), "" c (t=3), Recreating a (t=5)]` → picked `a`, toPending `[c]`.
 */
export function pickCRR(
  crrs: readonly ContainerRecreateRequest[],
  expectationPending: (c: ContainerRecreateRequest) => boolean = () => false,
): PickResult {
  const out: PickResult = { toPending: [], waiting: false };
  for (const c of sortForPick(crrs)) {
    if (isDoneOrDeleting(c)) continue;
    if (expectationPending(c)) return { toPending: [], waiting: true };
    if (!out.picked) out.picked = c;
    else if (!c.status?.phase) out.toPending.push(c);
  }
  return out;
}

/** What the picked CRR does next (§9.2 item 4). */
export type PickedStep =
  | { kind: 'setRecreating' }
  | { kind: 'waitUnreadyAcquired' }
  | { kind: 'complete'; message: string }
  | { kind: 'requeue'; afterMs: number }
  | { kind: 'manage' };

/**
 * §9.2 item 4: not Recreating → set Recreating; with `unreadyGracePeriodSeconds`: wait for the
 * `unready-acquired` annotation, complete when it does not parse, requeue until `grace` has passed
 * since it (remainder + 100 ms); then manage.
 *
 * Example: grace 10 s, acquired at 00:00:00Z, now 00:00:04Z → `{kind: 'requeue', afterMs: 6100}`.
 */
export function pickedStep(crr: ContainerRecreateRequest, nowMs: number): PickedStep {
  if (crr.status?.phase !== 'Recreating') return { kind: 'setRecreating' };
  const grace = crr.spec.strategy?.unreadyGracePeriodSeconds;
  if (typeof grace === 'number') {
    const v = crr.metadata.annotations?.[ANNOTATION_CRR_UNREADY_ACQUIRED];
    if (!v) return { kind: 'waitUnreadyAcquired' };
    const at = parseTime(v);
    if (at === undefined)
      return { kind: 'complete', message: `failed to parse unready time ${v}: not an RFC 3339 time` };
    const left = at + grace * 1000 - nowMs;
    if (left > 0) return { kind: 'requeue', afterMs: left + 100 };
  }
  return { kind: 'manage' };
}

/**
 * §9.3 item 1: the runtime type named by every container's `statusContext.containerID`
 * (`<type>://<id>`); all must be equal. Errors are the `<err>` of
 * "failed to find runtime service: <err>".
 *
 * Example: `['containerd://a', 'containerd://b']` → `{runtime: 'containerd'}`.
 */
export function runtimeTypeOf(crr: ContainerRecreateRequest): { runtime: string } | { error: string } {
  let runtime: string | undefined;
  for (const c of crr.spec.containers ?? []) {
    const id = c.statusContext?.containerID ?? '';
    const i = id.indexOf('://');
    if (i <= 0 || i + 3 >= id.length)
      return { error: `invalid containerID ${JSON.stringify(id)} of container ${c.name}` };
    const t = id.slice(0, i);
    if (runtime !== undefined && runtime !== t)
      return { error: `containers have different runtime types ${runtime} and ${t}` };
    runtime = t;
  }
  if (runtime === undefined) return { error: 'no containers' };
  return { runtime };
}

/** §9.3 item 2: the synthetic pod's grace period: the strategy's, or 30 s. */
export function terminationGraceSeconds(crr: ContainerRecreateRequest): number {
  const g = crr.spec.strategy?.terminationGracePeriodSeconds;
  return typeof g === 'number' ? g : 30;
}

/**
 * §9.4 items 3–4: the StopContainer timeout after a preStop hook that took `hookElapsedMs`
 * (`undefined` when no hook ran): `grace − whole seconds elapsed`, then at least 2.
 *
 * Examples: grace 30, hook 3.7 s → 27; grace 0 (hook skipped) → 2 (Quirk); grace 5, hook 5.2 s → 2.
 */
export function stopTimeoutSeconds(grace: number, hookElapsedMs?: number): number {
  let g = grace;
  if (hookElapsedMs !== undefined) g -= Math.floor(hookElapsedMs / 1000);
  return Math.max(g, 2);
}

/** §9.4 item 5: the StopContainer RPC deadline, 5 s + the stop timeout. */
export function stopRpcDeadlineMs(stopTimeout: number): number {
  return (5 + stopTimeout) * 1000;
}
