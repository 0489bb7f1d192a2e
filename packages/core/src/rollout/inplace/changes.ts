// Where the in-place functions change a pod: the PodChangeHints that inPlaceUpdate
// and inPlaceRefresh hand back with a new pod, so callers build the merge patch without visiting
// the pod's untouched keys. Private to the protocol (not re-exported by index.ts).
import type { InPlaceUpdateSpec } from '@kruise-ts/api';
import type { InPlaceCache } from './cache';
import { mergePodChangeHints, type PodChangeHint } from './diff';

/** Everywhere: what a metadata patch or an unknown mutator may touch. */
export const ANYWHERE: PodChangeHint = Object.freeze({ metadata: true, spec: true, status: true });
/** What R2.1.3 writes: the revision labels, the state and grace annotations. */
const LABELS_ANNOTATIONS: PodChangeHint = Object.freeze({
  metadata: Object.freeze({ labels: true, annotations: true }),
});
export const CONTAINERS: PodChangeHint = Object.freeze({ spec: Object.freeze({ containers: true }) });
export const CONDITIONS: PodChangeHint = Object.freeze({ status: Object.freeze({ conditions: true }) });

/**
 * Where {@link inPlaceUpdate} may have changed the pod: labels and annotations (R2.1.3), the
 * containers when a batch was applied (2.4), the conditions when R2.1.2 wrote one, plus what
 * the extra mutator may change; anywhere when the UpdateSpec carries a metadata patch.
 */
export function changesOfUpdate(
  spec: InPlaceUpdateSpec,
  opts: { readonly extraMutator?: unknown; readonly extraMutatorChanges?: PodChangeHint },
  batchApplied: boolean,
  conditionsWritten: boolean,
  cache: InPlaceCache | undefined,
): PodChangeHint {
  if (spec.metaDataPatch) return ANYWHERE;
  const extra = opts.extraMutator ? (opts.extraMutatorChanges ?? ANYWHERE) : LABELS_ANNOTATIONS;
  if (cache === undefined) return mergedChanges(extra, batchApplied, conditionsWritten);
  // four combinations per mutator hint: built once each, shared (hints are read-only)
  let memo = cache.updateChanges.get(extra);
  if (memo === undefined) {
    memo = [];
    cache.updateChanges.set(extra, memo);
  }
  const i = (batchApplied ? 1 : 0) + (conditionsWritten ? 2 : 0);
  memo[i] ??= mergedChanges(extra, batchApplied, conditionsWritten);
  return memo[i];
}

/** The labels and annotations, `extra`, and the containers and conditions when written. */
function mergedChanges(
  extra: PodChangeHint,
  batchApplied: boolean,
  conditionsWritten: boolean,
): PodChangeHint {
  let h = mergePodChangeHints(LABELS_ANNOTATIONS, extra);
  if (batchApplied) h = mergePodChangeHints(h, CONTAINERS);
  if (conditionsWritten) h = mergePodChangeHints(h, CONDITIONS);
  return h;
}

/** What a container batch (2.4) without a metadata patch writes: labels, annotations, containers. */
export const BATCH_CHANGES: PodChangeHint = mergePodChangeHints(LABELS_ANNOTATIONS, CONTAINERS);
/** What dropping the grace annotations (R2.5.1.3) writes. */
export const ANNOTATIONS: PodChangeHint = Object.freeze({ metadata: Object.freeze({ annotations: true }) });
