// Adaptive scheduling (docs/reference/uniteddeployment.md §5): the pending-timeout rule for one pod (§5.3)
// and the per-subset unschedulable-status step run before allocation (§5.2, rules A0–A2), which
// keeps the subset's `Schedulable` condition in `status.subsetStatuses[]`.

import { parseTime, toRFC3339 } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { UnschedulableStatus } from './allocator';

/** Epoch milliseconds of a timestamp; NaN for a zero, missing or malformed time. */
function toMillis(t: string | Date | null | undefined): number {
  return parseTime(t)?.getTime() ?? Number.NaN;
}

/** Default `adaptive.rescheduleCriticalSeconds` (§1.1). */
export const DEFAULT_RESCHEDULE_CRITICAL_SECONDS = 30;
/** Default `adaptive.unschedulableLastSeconds` (§1.1). */
export const DEFAULT_UNSCHEDULABLE_LAST_SECONDS = 300;
/** The subset condition type kept by §5.2. */
export const CONDITION_SCHEDULABLE = 'Schedulable';
/** Reason of the `Schedulable=False` condition written by A2. */
export const REASON_RESCHEDULE = 'reschedule';
/** Reason of the `Schedulable=True` condition written by A1 when the window is over. */
export const REASON_RECOVER = 'recover';
/**
 * Delay asked for a pod exactly at its timeout instant. §5.3 needs `creation + RC` strictly before
 * `now`, so at equality the pod is still waiting with a delay of 0, which is not a positive delay
 * and would ask for no requeue. Go's wall clock never lands on the instant; a virtual clock does,
 * so kruise-ts asks for one more second there (README "Differences").
 */
export const BOUNDARY_REQUEUE_SECONDS = 1;

/** A subset condition as stored in `status.subsetStatuses[].conditions`. */
export interface SubsetCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown' | string;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

/** One entry of `status.subsetStatuses` (§10: name + conditions; replicas/partition unused). */
export interface SubsetStatusEntry {
  name: string;
  replicas?: number;
  partition?: number;
  conditions?: SubsetCondition[];
}

/** The two adaptive durations in seconds, defaults applied. */
export interface AdaptiveSettings {
  rescheduleCriticalSeconds: number;
  unschedulableLastSeconds: number;
}

/** `topology.scheduleStrategy.adaptive` with the defaults of §1.1 (RC 30 s, UL 300 s). */
export function adaptiveSettings(
  adaptive?: {
    rescheduleCriticalSeconds?: number | null;
    unschedulableLastSeconds?: number | null;
  } | null,
): AdaptiveSettings {
  return {
    rescheduleCriticalSeconds: adaptive?.rescheduleCriticalSeconds ?? DEFAULT_RESCHEDULE_CRITICAL_SECONDS,
    unschedulableLastSeconds: adaptive?.unschedulableLastSeconds ?? DEFAULT_UNSCHEDULABLE_LAST_SECONDS,
  };
}

/** The verdict of §5.3 on one pod. */
export type PendingTimeout =
  | { kind: 'notApplicable' }
  | { kind: 'timedOut' }
  | { kind: 'waiting'; delaySeconds: number };

/**
 * The pending-timeout rule for one pod (§5.3).
 *
 * Not applicable: deleting, not `Pending`, bound to a node, or without `PodScheduled=False` reason
 * `Unschedulable`. Timed out: `creationTimestamp + RC` strictly before `now`. Otherwise waiting
 * `creationTimestamp + RC − now` seconds. Example (RC 30): created 15 s ago → waiting 15 s;
 * created 31 s ago → timed out.
 */
export function pendingTimeout(
  pod: Pod,
  rescheduleCriticalSeconds: number,
  now: string | Date,
): PendingTimeout {
  if (pod.metadata?.deletionTimestamp) return { kind: 'notApplicable' };
  if (pod.status?.phase !== 'Pending') return { kind: 'notApplicable' };
  if (pod.spec?.nodeName) return { kind: 'notApplicable' };
  const unschedulable = (pod.status?.conditions ?? []).some(
    (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
  );
  if (!unschedulable) return { kind: 'notApplicable' };
  const timeoutAt = toMillis(pod.metadata?.creationTimestamp ?? null) + rescheduleCriticalSeconds * 1000;
  const nowMs = toMillis(now);
  // A missing creationTimestamp is Go's zero time: long past, so timed out.
  if (Number.isNaN(timeoutAt) || timeoutAt < nowMs) return { kind: 'timedOut' };
  return { kind: 'waiting', delaySeconds: (timeoutAt - nowMs) / 1000 };
}

/** Input of {@link manageUnschedulableStatus} for one existing subset. */
export interface UnschedulableStepInput {
  /** `status.subsetStatuses[name]` before the step; undefined skips the subset (A0). */
  subsetStatus: SubsetStatusEntry | undefined;
  /** The subset workload's status (`replicas`, `readyReplicas`). */
  workloadStatus: { replicas?: number; readyReplicas?: number } | undefined;
  /** The subset's pods. */
  pods: readonly Pod[];
  now: string | Date;
  settings: AdaptiveSettings;
}

/** Output of {@link manageUnschedulableStatus}. */
export interface UnschedulableStepResult {
  unschedulableStatus: UnschedulableStatus;
  /** The entry after the step (a new object when its condition changed, else the input). */
  subsetStatus: SubsetStatusEntry | undefined;
  /** Positive delays (seconds) this step asks to requeue after (§11 takes the smallest). */
  requeueAfterSeconds: number[];
}

/**
 * The unschedulable-status step for one existing subset (§5.2).
 *
 * A0 skips a subset without a status entry. A1: while the `Schedulable=False` condition is younger
 * than UL the subset stays unschedulable (requeue at the window's end); once older it turns `True`
 * (reason `recover`). A2 (only when `readyReplicas < replicas`): pods pending-unschedulable for more
 * than RC are counted in `pendingPods`; any → unschedulable, condition `False` reason `reschedule`,
 * requeue after UL; the nearest waiting pod also asks for a requeue.
 *
 * Example (defaults RC 30 / UL 300): condition False since 60 s, workload 1/1 ready →
 * unschedulable, pendingPods 0, requeue after 300 − 60 = 240 s.
 */
export function manageUnschedulableStatus(input: UnschedulableStepInput): UnschedulableStepResult {
  const result: UnschedulableStepResult = {
    unschedulableStatus: { unschedulable: false, pendingPods: 0 },
    subsetStatus: input.subsetStatus,
    requeueAfterSeconds: [],
  };
  if (!input.subsetStatus) return result; // A0
  const { rescheduleCriticalSeconds: rc, unschedulableLastSeconds: ul } = input.settings;
  const nowMs = toMillis(input.now);
  const cond = input.subsetStatus.conditions?.find((c) => c.type === CONDITION_SCHEDULABLE);
  // A1: the sticky window.
  if (cond && cond.status === 'False') {
    const recoverAt = toMillis(cond.lastTransitionTime ?? null) + ul * 1000;
    if (nowMs < recoverAt) {
      result.unschedulableStatus.unschedulable = true;
      result.requeueAfterSeconds.push((recoverAt - nowMs) / 1000);
    } else {
      result.subsetStatus = setSubsetCondition(
        result.subsetStatus!,
        {
          type: CONDITION_SCHEDULABLE,
          status: 'True',
          reason: REASON_RECOVER,
          message: `unschedulable status lasted ${ul} seconds; subset is schedulable again`,
        },
        input.now,
      );
    }
  }
  // A2: pending pods, only while the workload is not fully ready.
  const replicas = input.workloadStatus?.replicas ?? 0;
  const ready = input.workloadStatus?.readyReplicas ?? 0;
  if (ready < replicas) {
    let pending = 0;
    let nearest = Number.POSITIVE_INFINITY;
    for (const pod of input.pods) {
      const verdict = pendingTimeout(pod, rc, input.now);
      if (verdict.kind === 'timedOut') pending++;
      else if (verdict.kind === 'waiting') {
        nearest = Math.min(
          nearest,
          verdict.delaySeconds > 0 ? verdict.delaySeconds : BOUNDARY_REQUEUE_SECONDS,
        );
      }
    }
    if (nearest !== Number.POSITIVE_INFINITY) result.requeueAfterSeconds.push(nearest);
    result.unschedulableStatus.pendingPods = pending;
    if (pending > 0) {
      result.unschedulableStatus.unschedulable = true;
      result.subsetStatus = setSubsetCondition(
        result.subsetStatus!,
        {
          type: CONDITION_SCHEDULABLE,
          status: 'False',
          reason: REASON_RESCHEDULE,
          message: 'timeout pending pods found',
        },
        input.now,
      );
      result.requeueAfterSeconds.push(ul);
    }
  }
  return result;
}

/**
 * Sets a subset condition (§10): same status and reason → unchanged; otherwise status, reason and
 * message are replaced and `lastTransitionTime = now`. Returns a new entry when something changed.
 */
export function setSubsetCondition(
  entry: SubsetStatusEntry,
  cond: Omit<SubsetCondition, 'lastTransitionTime'>,
  now: string | Date,
): SubsetStatusEntry {
  const conditions = entry.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === cond.type);
  if (i >= 0 && conditions[i].status === cond.status && conditions[i].reason === cond.reason) return entry;
  const next: SubsetCondition = { ...cond, lastTransitionTime: toRFC3339(now) };
  const list = i >= 0 ? conditions.map((c, j) => (j === i ? next : c)) : [...conditions, next];
  return { ...entry, conditions: list };
}
