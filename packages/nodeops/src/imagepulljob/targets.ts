// Which NodeImages an ImagePullJob targets (docs/reference/daemon.md §4.1) and which jobs an event on
// a NodeImage or a pod should requeue (§4.7). Shells use the latter for their watches.
import { APPS_KRUISE_GROUP, type ImagePullJob, type NodeImage } from '@kruise-ts/api';
import { isPodActive, matchesLabelSelector } from '@kruise-ts/core';
import type { Pod, Secret } from 'kubernetes-types/core/v1.js';
import { imageNameTag } from '../imageRef';
import { byString, controllerRef, groupOf, sameJSON, sortByName } from '../util';

/** Workload kinds whose update order orders a podSelector job's nodes (§4.1 item 1). */
export const ORDERED_OWNER_KINDS: readonly string[] = ['CloneSet', 'StatefulSet', 'SidecarSet'];

const hasLabelSelector = (sel: ImagePullJob['spec']['selector']) =>
  !!sel && (Object.keys(sel.matchLabels ?? {}).length > 0 || (sel.matchExpressions ?? []).length > 0);

/** A job is *active* when it is neither being deleted nor completed (§4.7). */
export function isImagePullJobActive(job: ImagePullJob): boolean {
  return !job.metadata.deletionTimestamp && !job.status?.completionTime;
}

/** The job's active pods with a node, matching its `podSelector`, sorted by name. */
function selectedPods(job: ImagePullJob, pods: readonly Pod[]): Pod[] {
  const ns = job.metadata.namespace;
  return pods
    .filter(
      (p) =>
        (p.metadata?.namespace ?? ns) === ns &&
        isPodActive(p) &&
        !!p.spec?.nodeName &&
        matchesLabelSelector(job.spec.podSelector, p.metadata?.labels),
    )
    .sort((a, b) => byString(a.metadata?.name ?? '', b.metadata?.name ?? ''));
}

/**
 * §4.1 `GetNodeImagesForJob`: the NodeImages the job targets, in target order.
 *
 * 1. `podSelector`: the nodes of the job's active, scheduled pods matching it, each once, in
 *    pod order (by name; with a CloneSet / StatefulSet / SidecarSet controller owner in
 *    `apps.kruise.io`, the pods named in `podUpdateOrder` come first, in that order).
 * 2. no `selector`: every NodeImage. 3. `selector.names`: those names, in order.
 * 4. a label selector: the NodeImages whose labels match (an empty selector matches all).
 * Missing NodeImages are skipped; list orders are by name.
 *
 * Example: names `['n2', 'n9', 'n1']` with NodeImages n1, n2 → [n2, n1].
 */
export function getNodeImagesForJob(
  job: ImagePullJob,
  nodeImages: readonly NodeImage[],
  pods: readonly Pod[] = [],
  podUpdateOrder?: readonly string[],
): NodeImage[] {
  const byName = new Map(nodeImages.map((n) => [n.metadata.name ?? '', n]));
  const spec = job.spec;
  if (spec.podSelector) {
    let list = selectedPods(job, pods);
    const owner = controllerRef(job);
    if (
      podUpdateOrder &&
      owner &&
      groupOf(owner.apiVersion) === APPS_KRUISE_GROUP &&
      ORDERED_OWNER_KINDS.includes(owner.kind)
    ) {
      const rank = new Map(podUpdateOrder.map((n, i) => [n, i]));
      list = [...list].sort(
        (a, b) =>
          (rank.get(a.metadata?.name ?? '') ?? Number.MAX_SAFE_INTEGER) -
            (rank.get(b.metadata?.name ?? '') ?? Number.MAX_SAFE_INTEGER) ||
          byString(a.metadata?.name ?? '', b.metadata?.name ?? ''),
      );
    }
    const seen = new Set<string>();
    const out: NodeImage[] = [];
    for (const p of list) {
      const node = p.spec?.nodeName ?? '';
      if (seen.has(node)) continue;
      seen.add(node);
      const ni = byName.get(node);
      if (ni) out.push(ni);
    }
    return out;
  }
  const sel = spec.selector;
  if (!sel) return sortByName(nodeImages);
  if (sel.names && sel.names.length > 0) {
    return sel.names.map((n) => byName.get(n)).filter((n): n is NodeImage => n !== undefined);
  }
  return sortByName(nodeImages.filter((n) => matchesLabelSelector(sel, n.metadata.labels ?? {})));
}

/**
 * §4.7 matching of an active job against one NodeImage: podSelector jobs match if one of their
 * pods runs on that node; nil-selector jobs match everything; `names` jobs match by name;
 * label-selector jobs match by labels, **only when the selector is non-empty**.
 */
export function imagePullJobMatchesNodeImage(
  job: ImagePullJob,
  nodeImage: NodeImage,
  pods: readonly Pod[] = [],
): boolean {
  const name = nodeImage.metadata.name ?? '';
  if (job.spec.podSelector) return selectedPods(job, pods).some((p) => p.spec?.nodeName === name);
  const sel = job.spec.selector;
  if (!sel) return true;
  if (sel.names && sel.names.length > 0) return sel.names.includes(name);
  return hasLabelSelector(sel) && matchesLabelSelector(sel, nodeImage.metadata.labels ?? {});
}

/**
 * §4.7 NodeImage events → the active jobs to requeue. Create / delete: every job matching it.
 * Update: jobs whose match changed between the old and new object, plus matching jobs whose
 * image entry changed in `spec.images` or `status.imageStatuses`.
 */
export function imagePullJobsForNodeImageEvent(
  change: { old?: NodeImage; new?: NodeImage },
  jobs: readonly ImagePullJob[],
  pods: readonly Pod[] = [],
): ImagePullJob[] {
  const active = jobs.filter(isImagePullJobActive);
  const { old, new: cur } = change;
  if (!old || !cur) {
    const ni = cur ?? old;
    return ni ? active.filter((j) => imagePullJobMatchesNodeImage(j, ni, pods)) : [];
  }
  return active.filter((j) => {
    const before = imagePullJobMatchesNodeImage(j, old, pods);
    const after = imagePullJobMatchesNodeImage(j, cur, pods);
    if (before !== after) return true;
    if (!after) return false;
    const name = imageNameTag(j.spec.image)?.name;
    if (name === undefined) return false;
    return (
      !sameJSON(old.spec?.images?.[name], cur.spec?.images?.[name]) ||
      !sameJSON(old.status?.imageStatuses?.[name], cur.status?.imageStatuses?.[name])
    );
  });
}

/**
 * §4.7 pod events → the active podSelector jobs of the pod's namespace that match the pod's old
 * or new labels, on create, delete, a label change or a node change.
 */
export function imagePullJobsForPodEvent(
  change: { old?: Pod; new?: Pod },
  jobs: readonly ImagePullJob[],
): ImagePullJob[] {
  const { old, new: cur } = change;
  const pod = cur ?? old;
  if (!pod) return [];
  if (old && cur) {
    const same =
      sameJSON(old.metadata?.labels, cur.metadata?.labels) && old.spec?.nodeName === cur.spec?.nodeName;
    if (same) return [];
  }
  const ns = pod.metadata?.namespace;
  return jobs.filter(
    (j) =>
      isImagePullJobActive(j) &&
      !!j.spec.podSelector &&
      j.metadata.namespace === ns &&
      [old, cur].some((p) => p && matchesLabelSelector(j.spec.podSelector, p.metadata?.labels)),
  );
}

/**
 * §4.5 item 4: a source Secret whose data changed requeues every job of its namespace whose
 * `pullSecrets` names it (copies' own events only feed expectations, which are not modelled).
 */
export function imagePullJobsForSecretEvent(
  change: { old?: Secret; new?: Secret },
  jobs: readonly ImagePullJob[],
): ImagePullJob[] {
  const { old, new: cur } = change;
  if (!old || !cur || sameJSON(old.data ?? {}, cur.data ?? {})) return [];
  const ns = cur.metadata?.namespace;
  const name = cur.metadata?.name ?? '';
  return jobs.filter((j) => j.metadata.namespace === ns && (j.spec.pullSecrets ?? []).includes(name));
}
