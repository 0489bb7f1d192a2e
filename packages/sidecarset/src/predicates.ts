// Pod predicates of the SidecarSet controller (docs/reference/sidecarset.md SS-5.5): updated,
// upgradable (and busy), state-consistent, update completed, sidecar-ready.
import {
  ANNOTATION_SIDECARSET_HASH,
  ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE,
  type SidecarSet,
} from '@kruise-ts/api';
import { isPodReady } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { SidecarSetAnnotationCache } from './annotationCache';
import {
  findWorkingHotUpgradeContainer,
  getPodSidecarSetRevision,
  readSidecarSetUpdateStates,
} from './annotations';
import { sidecarContainerNames } from './matching';

/** SS-5.5.1 *updated*: the pod's hash entry for S equals S's `kruise.io/sidecarset-hash`. */
export function isPodSidecarUpdated(
  sidecarSet: SidecarSet,
  pod: Pod,
  cache?: SidecarSetAnnotationCache,
): boolean {
  const want = sidecarSet.metadata?.annotations?.[ANNOTATION_SIDECARSET_HASH] ?? '';
  return (
    getPodSidecarSetRevision(pod.metadata?.annotations, sidecarSet.metadata?.name ?? '', false, cache) ===
    want
  );
}

/**
 * SS-5.5.4 *update completed*: no `kruise.io/sidecarset-inplace-update-state` → true;
 * unparsable → false. Otherwise, over the recorded `lastContainerStatuses` of the listed
 * SidecarSets: a listed container whose status imageID still equals the recorded one **and**
 * whose spec image differs from the status image has not been switched by the kubelet → false.
 * An imageID change counts as done, even when `status.image` still shows the old tag.
 *
 * Example (upstream `TestIsSidecarContainerUpdateCompleted`): `hot-sidecar-1` recorded imageID
 * `…86618128c92e`, status imageID the same, spec image `hotupgrade:empty` ≠ status image
 * `hot-sidecar:v1` → false.
 */
export function isSidecarContainerUpdateCompleted(
  pod: Pod,
  sidecarSetNames: Iterable<string>,
  containers: Iterable<string>,
): boolean {
  const states = readSidecarSetUpdateStates(pod.metadata?.annotations);
  if (states === undefined) return true;
  if (states === 'invalid') return false;
  const recorded = new Map<string, string>();
  for (const n of sidecarSetNames) {
    for (const [c, s] of Object.entries(states[n]?.lastContainerStatuses ?? {}))
      recorded.set(c, s.imageID ?? '');
  }
  const names = new Set(containers);
  const specImage = new Map((pod.spec?.containers ?? []).map((c) => [c.name, c.image ?? ''] as const));
  for (const cs of pod.status?.containerStatuses ?? []) {
    if (!names.has(cs.name) || !recorded.has(cs.name)) continue;
    if (recorded.get(cs.name) === (cs.imageID ?? '') && specImage.get(cs.name) !== cs.image) return false;
  }
  return true;
}

const DIGEST = /^(.+)@(sha256:[0-9a-fA-F]+)$/;

/** A digest reference `<repository>@sha256:<hex>` split in its two parts; `undefined` for any other image. */
function digestParts(image: string): RegExpExecArray | undefined {
  // every digest reference holds this text, and most images are tags: they stop here
  return image.includes('@sha256:') ? (DIGEST.exec(image) ?? undefined) : undefined;
}

/**
 * SS-5.5.3 *state-consistent(pod, names)*: container and status counts must be equal; `names`
 * empty means all of S's sidecar names. If any considered spec image is not a digest reference
 * the answer is the update-completed check (SS-5.5.4); if all are digests, each status imageID
 * (scheme prefix such as `docker-pullable://` removed) must have the same repository (literal
 * comparison) and digest.
 */
export function isPodStateConsistent(pod: Pod, sidecarSet: SidecarSet, names?: Iterable<string>): boolean {
  const specs = pod.spec?.containers ?? [];
  const statuses = pod.status?.containerStatuses ?? [];
  if (specs.length !== statuses.length) return false;
  let wanted: readonly string[] = names === undefined ? [] : Array.isArray(names) ? names : [...names];
  if (wanted.length === 0) wanted = sidecarContainerNames(sidecarSet);
  for (const c of specs) {
    if (wanted.includes(c.name) && digestParts(c.image ?? '') === undefined) {
      return isSidecarContainerUpdateCompleted(pod, [sidecarSet.metadata?.name ?? ''], wanted);
    }
  }
  for (const c of specs) {
    if (!wanted.includes(c.name)) continue;
    const st = statuses.find((s) => s.name === c.name);
    if (!st) return false;
    const id = (st.imageID ?? '').replace(/^[a-zA-Z0-9+.-]*:\/\//, '');
    const a = digestParts(c.image ?? '');
    const b = digestParts(id);
    if (!a || !b || a[1] !== b[1] || a[2] !== b[2]) return false;
  }
  return true;
}

/**
 * SS-5.5.5 *sidecar-ready*: for every HotUpgrade sidecar the non-working container (SS-5.8.1)
 * runs the empty image, and the pod is Running, Ready and not being deleted.
 */
export function isSidecarReady(pod: Pod, sidecarSet: SidecarSet): boolean {
  for (const c of sidecarSet.spec?.containers ?? []) {
    if (c.upgradeStrategy?.upgradeType !== 'HotUpgrade') continue;
    const { other } = findWorkingHotUpgradeContainer(pod.metadata?.annotations, c.name);
    const img = (pod.spec?.containers ?? []).find((x) => x.name === other)?.image;
    if (img !== (c.upgradeStrategy.hotUpgradeEmptyImage ?? '')) return false;
  }
  return pod.status?.phase === 'Running' && isPodReady(pod) && !pod.metadata?.deletionTimestamp;
}

/** SS-5.5.2 classification of a pod. */
export type Upgradability = 'upgradable' | 'busy' | 'notUpgradable';

/**
 * SS-5.5.2: only image changes can be rolled in place.
 * - the pod's without-image hash entry ≠ S's hash-without-image → `notUpgradable` (it is only
 *   written at injection, so any non-image change strands existing pods, quirk §7.6);
 * - a sidecar container (sorted names) whose status is ready while it is not state-consistent
 *   on its own → `busy` (skip this round);
 * - else `upgradable`.
 */
export function podUpgradability(
  pod: Pod,
  sidecarSet: SidecarSet,
  cache?: SidecarSetAnnotationCache,
): Upgradability {
  const want = sidecarSet.metadata?.annotations?.[ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE] ?? '';
  const have = getPodSidecarSetRevision(
    pod.metadata?.annotations,
    sidecarSet.metadata?.name ?? '',
    true,
    cache,
  );
  if (have !== want) return 'notUpgradable';
  const statuses = pod.status?.containerStatuses ?? [];
  for (const name of sidecarContainerNames(sidecarSet)) {
    const st = statuses.find((s) => s.name === name);
    if (st?.ready && !isPodStateConsistent(pod, sidecarSet, [name])) return 'busy';
  }
  return 'upgradable';
}

/**
 * The predicates above for one SidecarSet during one round, with what they need from S worked
 * out once (its sidecar container names) and the pods' hash annotations read through one
 * {@link SidecarSetAnnotationCache}, so the status (SS-5.4) and the selection (SS-5.6) parse each
 * distinct annotation text once. Each answer is computed when asked: the predicates cost a few
 * property reads per pod, less than remembering them would. Created per call; it holds no state
 * between calls.
 */
export class PodFacts {
  /** S's sidecar container names (SS-5.5.2). */
  private readonly sidecarNames: readonly string[];

  /**
   * `cache` reads the pods' hash annotations (SS-4.7.2) once per distinct text; a fresh one per
   * round when the caller keeps none (pods injected together share one text).
   */
  constructor(
    readonly sidecarSet: SidecarSet,
    private readonly cache: SidecarSetAnnotationCache = new SidecarSetAnnotationCache(),
  ) {
    this.sidecarNames = sidecarContainerNames(sidecarSet);
  }

  /** SS-5.5.1. */
  updated(pod: Pod): boolean {
    return isPodSidecarUpdated(this.sidecarSet, pod, this.cache);
  }

  /** SS-5.5.3 over all sidecar names. */
  consistent(pod: Pod): boolean {
    return isPodStateConsistent(pod, this.sidecarSet, this.sidecarNames);
  }

  /** SS-5.5.5. */
  sidecarReady(pod: Pod): boolean {
    return isSidecarReady(pod, this.sidecarSet);
  }

  /** SS-5.5.2. */
  upgradability(pod: Pod): Upgradability {
    return podUpgradability(pod, this.sidecarSet, this.cache);
  }
}
