// The AdvancedCronJob controller's reconcile (docs/reference/advancedcronjob.md §4), pure: status from
// the children, history cleanup, paused, the due slot, the concurrency policy and at most one
// child per reconcile. Scheduled image pre-warm is the ImageListPullJob template kind.
import {
  type AdvancedCronJob,
  type AdvancedCronJobStatus,
  type KubeObject,
  setDefaultsAdvancedCronJob,
} from '@kruise-ts/api';
import {
  type InputShape,
  invalid,
  type ReconcileOptions,
  ReconcileRecorder,
  type ReconcileResult,
  refOf,
  withWellFormedInput,
} from '@kruise-ts/core';
import { resolveDefaultZone } from '../cron/zone';
import { nowMillis, sameJSON, seconds, timeMillis } from '../util';
import {
  advancedCronJobChildren,
  advancedCronJobStatus,
  type ClassifiedChild,
  classifyChild,
  historyDeletes,
  newChildForSlot,
  templateKind,
} from './children';
import { controllerSchedule, findDueSlot } from './schedule';
import { validateAdvancedCronJob } from './validation';

/** Input of {@link reconcileAdvancedCronJob}. */
export interface ReconcileAdvancedCronJobInput {
  advancedCronJob: AdvancedCronJob;
  /**
   * Candidate children: the namespace's objects of the template kind (Jobs, BroadcastJobs or
   * ImageListPullJobs; other objects are ignored). AC4.2 picks the children among them.
   */
  children: readonly KubeObject[];
  now: string | Date;
  controllerState?: AdvancedCronJobControllerState;
}

/** Options of {@link reconcileAdvancedCronJob}. */
export interface ReconcileAdvancedCronJobOptions extends ReconcileOptions {
  /** Zone D, the manager's local zone (default UTC). */
  defaultTimeZone?: string;
  /**
   * Skip `validateAdvancedCronJob` (for objects admitted elsewhere), so that the controller's
   * own handling of bad schedules and zones (AC3.5, AC4.8) applies.
   */
  skipValidation?: boolean;
}

/** How a reconcile ended (AC4.13), reported in `controllerState.outcome` for observers. */
export type AdvancedCronJobOutcome =
  | 'Paused'
  | 'UnparsableSchedule'
  | 'TooManyMissed'
  | 'NothingDue'
  | 'ForbidBlocked'
  | 'Created'
  | 'NoTemplate';

/** `controllerState` of the AdvancedCronJob controller: no memory, only the last outcome. */
export interface AdvancedCronJobControllerState {
  outcome: AdvancedCronJobOutcome;
}

/**
 * Reconciles one AdvancedCronJob (docs/reference/advancedcronjob.md AC4.0–AC4.13). Actions, in order:
 * the status write (when it changed), history deletes (failed, then successful), Replace
 * deletes of the active children, and at most one create, for the latest missed slot.
 * `requeueAfterSeconds` is `next − now` whenever upstream requeues; a paused ACJ, an
 * unparsable schedule and more than 100 missed slots get none.
 *
 * Example (E1): every 5 minutes, created 09:00:00; at 09:05:00 the Job `nightly-1760087100` is
 * created with `apps.kruise.io/scheduled-at: 2025-10-10T09:05:00Z`, requeue after 300 s.
 */
export function reconcileAdvancedCronJob(
  input: ReconcileAdvancedCronJobInput,
  options: ReconcileAdvancedCronJobOptions = {},
): ReconcileResult<AdvancedCronJobStatus, AdvancedCronJobControllerState> {
  return withWellFormedInput(
    input,
    INPUT_SHAPE,
    options?.structureCache,
    (i) => refOf(i.advancedCronJob as KubeObject),
    (errors) => ({ actions: [], status: {}, errors }),
    (screened) => reconcileAdvancedCronJobChecked(screened, options),
  );
}

/** The input's shape: observed objects that do not fit their kind are skipped (core.md §10.1). */
const INPUT_SHAPE: InputShape = {
  workload: 'advancedCronJob',
  lists: { children: kruiseKindOrMetadata },
  required: ['children'],
};

/**
 * The schema a child is checked against: a Kruise kind's own (BroadcastJob, ImageListPullJob); a
 * batch/v1 Job, which checkStructure has no schema for, by its metadata.
 */
function kruiseKindOrMetadata(obj: Record<string, unknown>): string | undefined {
  const group = typeof obj.apiVersion === 'string' ? obj.apiVersion.split('/')[0] : '';
  return group === 'apps.kruise.io' && typeof obj.kind === 'string' ? obj.kind : undefined;
}

/** {@link reconcileAdvancedCronJob} on an input held to its shape. */
function reconcileAdvancedCronJobChecked(
  input: ReconcileAdvancedCronJobInput,
  options: ReconcileAdvancedCronJobOptions,
): ReconcileResult<AdvancedCronJobStatus, AdvancedCronJobControllerState> {
  const raw = input.advancedCronJob;
  const prev: AdvancedCronJobStatus = raw?.status ?? {};
  // Until the reconcile has an outcome, the state is handed back as given.
  const kept = { controllerState: input.controllerState };
  if (!raw?.metadata || !raw.spec) return { actions: [], status: prev, errors: [], ...kept };
  const rec = new ReconcileRecorder(refOf(raw));
  const nowMs = nowMillis(input.now);
  if (nowMs === undefined)
    return rec.result(prev, { errors: [invalid('now', input.now, 'not a valid time')], ...kept });
  const zone = resolveDefaultZone(options.defaultTimeZone);
  const acj = setDefaultsAdvancedCronJob(raw, { old: raw, featureGates: options.featureGates });
  if (!options.skipValidation) {
    const errors = validateAdvancedCronJob(acj, undefined, { defaultTimeZone: zone });
    if (errors.length > 0) return rec.result(prev, { errors, ...kept });
  }

  // AC4.1–AC4.5: kind, children, classes, status.
  const kind = templateKind(acj);
  const children: ClassifiedChild[] = advancedCronJobChildren(acj, input.children ?? []).map((object) => ({
    object,
    class: classifyChild(kind, object),
  }));
  const status = advancedCronJobStatus(kind, children);
  /** The result after the recorded actions, with its outcome, asking to run again `requeueMs` from now. */
  const end = (outcome: AdvancedCronJobOutcome, requeueMs?: number) =>
    rec
      .requeueAfter(requeueMs === undefined ? undefined : seconds(requeueMs))
      .result(status, { controllerState: { outcome } satisfies AdvancedCronJobControllerState });
  if (!sameJSON(status, prev))
    rec.act({ verb: 'updateStatus', target: refOf(acj), status, reason: 'UpdateStatus' });

  // AC4.6: history cleanup (also when paused).
  const of = (c: ClassifiedChild['class']) => children.filter((x) => x.class === c).map((x) => x.object);
  rec.act(...historyDeletes(of('failed'), acj.spec.failedJobsHistoryLimit));
  rec.act(...historyDeletes(of('successful'), acj.spec.successfulJobsHistoryLimit));

  // AC4.7
  if (acj.spec.paused) return end('Paused');

  // AC4.8–AC4.9
  const parsed = controllerSchedule(acj.spec, zone);
  if ('error' in parsed) return end('UnparsableSchedule');
  const earliest = timeMillis(status.lastScheduleTime) ?? timeMillis(acj.metadata.creationTimestamp) ?? nowMs;
  const due = findDueSlot(parsed.schedule, earliest, nowMs, acj.spec.startingDeadlineSeconds);
  if (due.tooManyMissed) return end('TooManyMissed');
  const requeue = due.next === undefined ? undefined : due.next - nowMs;
  if (due.missed === undefined) return end('NothingDue', requeue);

  // AC4.10
  const active = of('active');
  const policy = acj.spec.concurrencyPolicy ?? 'Allow';
  if (policy === 'Forbid' && active.length > 0) return end('ForbidBlocked', requeue);
  if (policy === 'Replace') {
    for (const c of active) rec.act({ verb: 'delete', target: refOf(c), reason: 'ReplaceActive' });
  }

  // AC4.11–AC4.12
  const child = newChildForSlot(acj, due.missed);
  if (!child) return end('NoTemplate', requeue);
  rec.act({ verb: 'create', object: child, reason: `Create${kind}` });
  return end('Created', requeue);
}
