// reconcileDaemonSet: the pure reconcile of an Advanced DaemonSet (docs/reference/daemonset.md §2):
// defaults + validation, claiming, revisions (§12), manage (§5), in-place refresh (§8.3),
// rolling update (§7), history cleanup (§12.5), status (§10) and the requeue delay (§11).
import { type DaemonSetStatus, LABEL_CONTROLLER_REVISION_HASH, setDefaultsDaemonSet } from '@kruise-ts/api';
import {
  createInPlaceCache,
  type FieldError,
  freezeFeatureGates,
  type InputShape,
  invalid,
  REQUEUE_NOW,
  type ReconcileOptions,
  ReconcileRecorder,
  type ReconcileResult,
  refOf,
  resolveFeatureGates,
  timeOf,
  withDistinctObserved,
  withWellFormedInput,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import { type DaemonSetControllerState, FailedPodsBackoff } from './backoff';
import { burstReplicas } from './budget';
import { EVENT_SELECTING_ALL, Reasons } from './constants';
import { refreshInPlaceStates } from './inplace';
import { manage } from './manage';
import { claimDaemonPods, getNodesToDaemonPods } from './nodePods';
import { daemonNodeDecider, type NodeShouldRun } from './nodeShouldRun';
import { templateGeneration } from './predicates';
import { cleanupHistory, constructHistory } from './revisions';
import { rollingUpdate } from './rollingUpdate';
import { calculateStatus, statusNeedsWrite } from './status';
import type { SyncContext } from './syncContext';
import type { DaemonSet } from './types';
import { isEmptySelector, validateDaemonSet } from './validation';

/** What one reconcile observes (docs/architecture.md). */
export interface ReconcileDaemonSetInput {
  daemonSet: DaemonSet;
  /** All nodes of the cluster. */
  nodes: readonly Node[];
  /** All pods of the DaemonSet's namespace (claimed by controller-ref rules, §4.1). */
  pods: readonly Pod[];
  /** The namespace's ControllerRevisions. */
  revisions?: readonly ControllerRevision[];
  now: string | Date;
  /** The previous result's `controllerState` (the failed-pod back-off, §5.5). */
  controllerState?: DaemonSetControllerState;
}

/** Options of {@link reconcileDaemonSet}. */
export interface ReconcileDaemonSetOptions extends ReconcileOptions {
  /** `--assign-pods-by-scheduler` (default true): bind new pods by node affinity, else by `nodeName`. */
  assignPodsByScheduler?: boolean;
}

/** A status with every counter 0. */
export function emptyDaemonSetStatus(): DaemonSetStatus {
  return {
    currentNumberScheduled: 0,
    numberMisscheduled: 0,
    desiredNumberScheduled: 0,
    numberReady: 0,
    daemonSetHash: '',
  };
}

function validNow(now: string | Date): FieldError | undefined {
  try {
    timeOf(now);
    return undefined;
  } catch {
    return invalid('now', String(now), 'must be an RFC 3339 time');
  }
}

/**
 * Reconciles an Advanced DaemonSet (docs/reference/daemonset.md §2) and returns the actions a
 * controller would take, in order: adoption/release patches, revision writes, the manage
 * phase's creates/deletes (§5), in-place refresh patches (§8.3), the rolling update's
 * creates/deletes/in-place patches (§7, skipped for `OnDelete` or `paused`), history cleanup
 * and the status write. Creates and deletes are treated as observed synchronously: the
 * rolling update sees the pods after the manage phase of the same call (§2 step 6).
 *
 * An invalid DaemonSet returns its field errors and no action (except a `SelectingAll`
 * warning event for an empty selector, §2 step 1). Never throws on user data.
 *
 * A node, pod or revision listed twice counts once (the copy with the highest resourceVersion),
 * and the actions start with one `DuplicateObserved` Warning event.
 *
 * Example: 5 ready nodes, no pods → 5 `create` actions (one per node, bound by node
 * affinity `metadata.name In [<node>]`), a `CreateRevision` and a status with
 * `desiredNumberScheduled: 5, currentNumberScheduled: 5, numberReady: 0`.
 */
export function reconcileDaemonSet(
  input: ReconcileDaemonSetInput,
  options: ReconcileDaemonSetOptions = {},
): ReconcileResult<DaemonSetStatus, DaemonSetControllerState> {
  return withWellFormedInput(
    input,
    INPUT_SHAPE,
    options?.structureCache,
    (i) => refOf(i.daemonSet),
    (errors) => ({ actions: [], status: emptyDaemonSetStatus(), errors }),
    (screened) =>
      withDistinctObserved(
        screened,
        OBSERVED_LISTS,
        (i) => (i.daemonSet?.metadata ? refOf(i.daemonSet) : undefined),
        (i) => reconcileDistinct(i, options),
        options?.structureCache,
      ),
  );
}

/** The input's shape: observed objects that do not fit their kind are skipped (core.md §10.1). */
const INPUT_SHAPE: InputShape = {
  workload: 'daemonSet',
  lists: { nodes: 'Node', pods: 'Pod', revisions: 'ControllerRevision' },
  required: ['nodes', 'pods'],
};

/** The observed lists of the input, each reduced to one copy per object first (core `dedupeObserved`). */
const OBSERVED_LISTS = ['nodes', 'pods', 'revisions'] as const;

/** {@link reconcileDaemonSet} on an input whose observed lists name each object once. */
function reconcileDistinct(
  input: ReconcileDaemonSetInput,
  options: ReconcileDaemonSetOptions,
): ReconcileResult<DaemonSetStatus, DaemonSetControllerState> {
  const raw = input.daemonSet;
  const prevStatus = (raw?.status as DaemonSetStatus | undefined) ?? emptyDaemonSetStatus();
  if (!raw?.metadata || raw.metadata.deletionTimestamp) {
    return { actions: [], status: prevStatus, errors: [], controllerState: input.controllerState };
  }
  // Events are about the DaemonSet as observed (its defaults change no field of the reference).
  const rec = new ReconcileRecorder(refOf(raw));
  const controllerState = input.controllerState;
  const nowError = validNow(input.now);
  if (nowError) return rec.result(prevStatus, { errors: [nowError], controllerState });
  const ds = setDefaultsDaemonSet(raw);
  const errors = validateDaemonSet(ds);
  if (ds.spec?.selector && isEmptySelector(ds.spec.selector)) {
    rec.event(
      'Warning',
      EVENT_SELECTING_ALL,
      'This daemon set is selecting all pods. A non-empty selector is required.',
    );
    return rec.result(prevStatus, { errors, controllerState });
  }
  if (errors.length > 0) return rec.result(prevStatus, { errors, controllerState });

  const now = input.now;
  const nodes = input.nodes ?? [];
  const nodesByName = new Map<string, Node>();
  const shouldRun = new Map<string, NodeShouldRun>();
  const decide = daemonNodeDecider(ds); // §3
  for (const node of nodes) {
    const name = node.metadata?.name ?? '';
    nodesByName.set(name, node);
    shouldRun.set(name, decide(node));
  }
  const claimed = claimDaemonPods(ds, input.pods ?? []);
  rec.act(...claimed.actions);
  const plan = constructHistory(ds, input.revisions ?? [], claimed.pods);
  rec.act(...plan.actions);
  const pods: Pod[] = plan.relabelled.size
    ? claimed.pods.map((p) => {
        const h = plan.relabelled.get(p.metadata?.name ?? '');
        return h === undefined
          ? p
          : {
              ...p,
              metadata: {
                ...p.metadata,
                labels: { ...p.metadata?.labels, [LABEL_CONTROLLER_REVISION_HASH]: h },
              },
            };
      })
    : claimed.pods;

  // The namespace's pod names, which a new pod's name must avoid (§6): gathered on first use,
  // as most reconciles create no pod.
  let takenNames: Set<string> | undefined;
  const ctx: SyncContext = {
    inPlaceCache: createInPlaceCache(),
    ds,
    now,
    seed: options.seed ?? 0,
    hash: plan.hash,
    generation: templateGeneration(ds),
    nodes,
    nodesByName,
    shouldRun,
    view: getNodesToDaemonPods(pods),
    get takenNames() {
      if (takenNames === undefined) {
        takenNames = new Set();
        for (const p of input.pods ?? []) if (p.metadata?.name) takenNames.add(p.metadata.name);
      }
      return takenNames;
    },
    createdNames: new Set(),
    rec,
    backoff: new FailedPodsBackoff(input.controllerState, now),
    burst: burstReplicas(ds),
    burstLimited: false,
    assignPodsByScheduler: options.assignPodsByScheduler !== false,
    // resolved and frozen once per reconcile: core's per-pod calls read it instead of resolving a copy
    featureGates: freezeFeatureGates(resolveFeatureGates(options.featureGates)),
  };

  manage(ctx); // §5
  refreshInPlaceStates(ctx); // §8.3
  const strategy = ds.spec.updateStrategy;
  if (strategy?.type === 'RollingUpdate' && strategy.rollingUpdate?.paused !== true) {
    rollingUpdate(ctx, { current: plan.current, old: plan.old }); // §7
  }
  // the pods left after this reconcile's writes, walked only when there is history to clean up
  const view = ctx.view;
  const remainingPods: Iterable<Pod> = {
    *[Symbol.iterator]() {
      for (const list of view.values()) yield* list;
    },
  };
  rec.act(...cleanupHistory(ds, plan.old, remainingPods)); // §12.5

  const status = calculateStatus({
    ds,
    nodes,
    shouldRun,
    nodeToPods: ctx.view,
    hash: plan.hash,
    generation: ctx.generation,
    now,
    collisionCount: plan.collisionCount,
    observe: true,
  });
  if (statusNeedsWrite(ds, status)) {
    rec.act({ verb: 'updateStatus', target: refOf(raw), status, reason: Reasons.UpdateStatus });
  }
  // §10: a ready pod becomes available minReadySeconds later, so the status is computed again then.
  const minReadySeconds = ds.spec.minReadySeconds ?? 0;
  if (status.numberReady !== status.numberAvailable && minReadySeconds > 0) rec.requeueAfter(minReadySeconds);
  // The burst left pods for a later sync: run again at once (kruise-ts; README "Differences"). No
  // rule asks for less than 0, so this request wins.
  if (ctx.burstLimited) rec.requeueAfter(REQUEUE_NOW);
  // §11: the smallest delay asked for; none when no rule asked.
  return rec.result(status, { controllerState: ctx.backoff.toState() });
}
