// Has an in-place update finished? The pod-level (R2.6.1) and container-level (R2.6.2–R2.6.4)
// completion checks, and whether an update must take the pod out of service first (2.2).
import {
  CONDITION_INPLACE_UPDATE_READY,
  type InPlaceUpdateSpec,
  type InPlaceUpdateState,
  type RuntimeContainerMetaSet,
} from '@kruise-ts/api';
import type { Container, ContainerStatus, Pod } from 'kubernetes-types/core/v1.js';
import { type FeatureGates, resolveFeatureGates } from '../../contract/featureGates';
import { quantityEquals } from '../../kube/quantity';
import { hasReadinessGate } from '../../pods/conditionEdits';
import { hasInPlaceUpdateGrace, readInPlaceUpdateState, readRuntimeContainersMeta } from './annotations';
import type { InPlaceCache } from './cache';
import { isEmptyMap } from './internal';

/** Which kruise-daemon hash a consistency check compares (R2.6.3). */
export type RuntimeHashKind = 'plain' | 'plainWithoutResources' | 'envFromMetadata';

/**
 * R2.6.3 as an injected predicate: are all spec containers hash-consistent with the
 * `apps.kruise.io/runtime-containers-meta` data for this kind of hash? (Kubelet's container
 * hash cannot be reproduced in TypeScript.)
 */
export type HashConsistencyPredicate = (
  pod: Pod,
  meta: RuntimeContainerMetaSet,
  kind: RuntimeHashKind,
) => boolean;

/** Options of the completion checks. */
export interface CompletionCheckOptions {
  featureGates?: Partial<FeatureGates>;
  /** R2.6.3; default: never consistent (so only the image check of R2.6.2 step 5 can succeed). */
  hashConsistent?: HashConsistencyPredicate;
  /**
   * Kruise requires the runtime meta annotation for env-from-metadata updates (R2.6.2 step 2).
   * By default kruise-ts treats a missing annotation as "not applicable" (no kruise-daemon);
   * set this to require it as kruise does.
   */
  strictEnvFromMetadata?: boolean;
  /** Remembers decoded state annotations between calls ({@link InPlaceCache}); optional. */
  cache?: InPlaceCache;
}

/** A completion verdict; `reason` says why not. */
export type CompletionResult = { completed: true } | { completed: false; reason: string };

const DONE: CompletionResult = { completed: true };
const notDone = (reason: string): CompletionResult => ({ completed: false, reason });

/**
 * R2.6.1 pod-level check: a grace annotation (either key) → not completed; no state
 * annotation → completed; unparsable state → not completed; any `next*` batch pending → not
 * completed; otherwise the container-level check {@link containersUpdateCompleted}.
 */
export function checkPodUpdateCompleted(pod: Pod, opts: CompletionCheckOptions = {}): CompletionResult {
  if (hasInPlaceUpdateGrace(pod)) return notDone('in-place update is still in its grace period');
  const decoded = readInPlaceUpdateState(pod, opts.cache);
  if (decoded === undefined) return DONE;
  if (!decoded.ok) return notDone(decoded.error);
  const state = decoded.value;
  if (
    !isEmptyMap(state.nextContainerImages) ||
    !isEmptyMap(state.nextContainerRefMetadata) ||
    !isEmptyMap(state.nextContainerResources)
  ) {
    return notDone('in-place update has container batches left');
  }
  return containersUpdateCompleted(pod, state, opts);
}

/** Kubernetes image reference normalisation of R2.6.2 step 5: no `:` at all → append `:latest`. */
function normalizeImage(image: string | undefined): string {
  const s = image ?? '';
  return s.includes(':') ? s : `${s}:latest`;
}

/**
 * R2.6.2 container-level check of a started update.
 *
 * 1. an unparsable runtime-meta annotation → not completed;
 * 2. env-from-metadata updates need env-hash consistency (R2.6.3) when the meta exists;
 * 3. with the vertical gate and `updateResources`, every container must report its resources (R2.6.4);
 * 4. meta present and plain-hash consistent → completed;
 * 5. image check: a container recorded in `lastContainerStatuses` is done when its status
 *    imageID changed, or when the status image equals the spec image (`nginx` → `nginx:latest`);
 *    a recorded container without status is not done.
 *
 * Example: recorded `{c0: {imageID: "img-a"}}`, status `{name: c0, imageID: "img-a", image: ""}`
 * and spec image `busybox:test0` → not completed ("imageID not changed").
 */
export function containersUpdateCompleted(
  pod: Pod,
  state: InPlaceUpdateState,
  opts: CompletionCheckOptions = {},
): CompletionResult {
  const gates = resolveFeatureGates(opts.featureGates);
  const hashConsistent = opts.hashConsistent ?? (() => false);
  const metaDecoded = readRuntimeContainersMeta(pod);
  if (metaDecoded && !metaDecoded.ok) return notDone(metaDecoded.error); // step 1
  const meta = metaDecoded?.value;
  if (state.updateEnvFromMetadata) {
    if (meta) {
      if (!hashConsistent(pod, meta, 'envFromMetadata'))
        return notDone('env from metadata not yet consistent');
    } else if (opts.strictEnvFromMetadata) {
      return notDone('runtime containers meta missing for an env-from-metadata update');
    }
  }
  const resized = gates.InPlaceWorkloadVerticalScaling && state.updateResources === true;
  if (resized && !podResourcesUpdateCompleted(pod)) return notDone('container resources not yet reported'); // step 3
  if (meta && hashConsistent(pod, meta, resized ? 'plainWithoutResources' : 'plain')) return DONE; // step 4

  // Step 5, without a per-call map of spec images or set of checked names (this runs for every
  // pod still updating, in every reconcile): containers and statuses are short lists.
  const containers = pod.spec?.containers ?? [];
  const statuses = pod.status?.containerStatuses ?? [];
  const recorded = state.lastContainerStatuses ?? {};
  for (const cs of statuses) {
    const last = recorded[cs.name];
    if (!last) continue;
    if ((last.imageID ?? '') === (cs.imageID ?? '') && specImage(containers, cs.name) !== (cs.image ?? '')) {
      return notDone(`container ${cs.name} imageID not changed`);
    }
  }
  for (const name of Object.keys(recorded)) {
    // checked above: a status of that name whose recorded entry is set
    if (!recorded[name] || !statuses.some((cs) => cs.name === name))
      return notDone(`container ${name} has no status`);
  }
  return DONE;
}

/** The normalised spec image of the container named `name` (the last one of that name), if any. */
function specImage(containers: readonly Container[], name: string): string | undefined {
  for (let k = containers.length - 1; k >= 0; k--) {
    if (containers[k].name === name) return normalizeImage(containers[k].image);
  }
  return undefined;
}

/** R2.6.4 for the pod: as many statuses as containers, each reporting its spec resources. */
export function podResourcesUpdateCompleted(pod: Pod): boolean {
  const containers = pod.spec?.containers ?? [];
  const statuses = pod.status?.containerStatuses ?? [];
  if (statuses.length !== containers.length) return false;
  return statuses.every((cs) => {
    const c = containers.find((x) => x.name === cs.name);
    return c !== undefined && isContainerResourcesUpdateCompleted(c, cs);
  });
}

function resourceMapsEqual(
  a: Record<string, unknown> | undefined | null,
  b: Record<string, unknown> | undefined | null,
): boolean {
  const absentA = a === undefined || a === null;
  const absentB = b === undefined || b === null;
  if (absentA || absentB) return absentA && absentB;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && quantityEquals(a[k], b[k]));
}

/**
 * R2.6.4 for one container: the status must report `resources` whose `limits` and `requests`
 * equal the spec's by value; a map absent on one side and present (even empty) on the other is
 * unequal. Example: spec limits cpu `100m`, status limits cpu `0.1` → equal.
 */
export function isContainerResourcesUpdateCompleted(
  container: Container,
  status: ContainerStatus | undefined,
): boolean {
  const reported = status?.resources;
  if (!reported) return false;
  const spec = container.resources ?? {};
  return (
    resourceMapsEqual(spec.limits, reported.limits) && resourceMapsEqual(spec.requests, reported.requests)
  );
}

/**
 * 2.2 needsBeUnready: must the update set `InPlaceUpdateReady` False first? Only pods with that
 * readiness gate (R2.2.1). With `InPlaceWorkloadVerticalScaling` and a "vertical only" spec
 * (resources changed, no image, no env-from-metadata), only when a changed resource of a named
 * container has `resizePolicy` `RestartContainer` (R2.2.3).
 * Example: gate on, `{c2: {requests: {memory: 2Gi}}}`, c2 has only a cpu RestartContainer
 * policy → false (a resize without restart keeps the pod Ready).
 */
export function needsBeUnready(
  pod: Pod,
  spec: Pick<InPlaceUpdateSpec, 'containerResources' | 'containerImages' | 'updateEnvFromMetadata'>,
  featureGates?: Partial<FeatureGates>,
): boolean {
  const hasGate = hasReadinessGate(pod, CONDITION_INPLACE_UPDATE_READY);
  const gates = resolveFeatureGates(featureGates);
  const verticalOnly =
    !isEmptyMap(spec.containerResources) && isEmptyMap(spec.containerImages) && !spec.updateEnvFromMetadata;
  if (!gates.InPlaceWorkloadVerticalScaling || !verticalOnly) return hasGate;
  for (const [name, r] of Object.entries(spec.containerResources ?? {})) {
    const marked = new Set<string>();
    for (const res of ['cpu', 'memory']) {
      if (Object.hasOwn(r.limits ?? {}, res) || Object.hasOwn(r.requests ?? {}, res)) marked.add(res);
    }
    const c = (pod.spec?.containers ?? []).find((x) => x.name === name);
    const restart = (c?.resizePolicy ?? []).some(
      (rp) => rp.restartPolicy === 'RestartContainer' && marked.has(rp.resourceName),
    );
    if (restart) return hasGate;
  }
  return false;
}
