// The state one Sync (docs/reference/cloneset.md §1 step 12) works on, shared by the Scale and
// Update steps: the defaulted CloneSet, its pods/PVCs/revisions, gates, time, and the reconcile's
// recorder (core's ReconcileRecorder: actions, events, the shortest requeue, conditions).
import type { CloneSet, CloneSetCondition } from '@kruise-ts/api';
import type { Burst, FeatureGates, InPlaceUpdateOptions, ReconcileRecorder } from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import type { Node, PersistentVolumeClaim, Pod, PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import type { CloneSetCache } from './cache';
import type { PodFacts } from './facts';
import type { ResolvedParams } from './params';

/** Everything Scale and Update read, plus where they write. */
export interface SyncState {
  /** The defaulted CloneSet. */
  cs: CloneSet;
  /** The active owned pods ("the pods", §1 step 4), in input order. */
  pods: Pod[];
  /** The §4 facts of each pod (same order as `pods`), computed once. */
  facts: PodFacts;
  /** Owned, non-terminating PVCs that stay usable (§1 step 5, §7.4). */
  pvcs: PersistentVolumeClaim[];
  /** Names of every pod and PVC given in the CloneSet's namespace (new names must avoid them); built on first use. */
  usedPodNames: () => ReadonlySet<string>;
  usedPvcNames: () => ReadonlySet<string>;
  revisions: ControllerRevision[];
  currentRevision: ControllerRevision;
  updateRevision: ControllerRevision;
  /** `currentCS` / `updateCS` templates (§1 step 12). */
  currentTemplate: PodTemplateSpec;
  updateTemplate: PodTemplateSpec;
  nodes: Node[];
  gates: FeatureGates;
  params: ResolvedParams;
  excludePreparingDelete: boolean;
  nowMs: number;
  /** `now` as RFC 3339 (second precision, UTC). */
  nowStr: string;
  seed: number;
  /** The pods this reconcile may still create or delete (`options.burstReplicas`, default 500). */
  burst: Burst;
  /**
   * Where Scale and Update write: the actions and events (on the CloneSet, the recorder's
   * `involvedObject`) in the order issued, the shortest requeue asked for, and the FailedScale /
   * FailedUpdate conditions.
   */
  rec: ReconcileRecorder<CloneSetCondition>;
  /** What reconciles remember (`options.cache`, or a fresh one for this reconcile alone). */
  cache: CloneSetCache;
  /** The options of every in-place update of this reconcile (update.ts `inPlaceUpdateOptionsFor`). */
  inPlaceUpdateOptions: InPlaceUpdateOptions;
}

/**
 * Records a rule's wait of `seconds` (the shortest wins, §1 step 16). A wait of 0 or less (or
 * none at all) means the rule has nothing left to wait for, so it asks for no requeue; only the
 * burst asks for an immediate one (reconcile.ts).
 */
export function requeue(state: SyncState, seconds: number): void {
  if (seconds > 0) state.rec.requeueAfter(seconds);
}
