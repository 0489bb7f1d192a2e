// Spreading an ImagePullJob to more NodeImages within its parallelism (docs/reference/daemon.md §4.4
// `syncNodeImages`): the only place the ImagePullJob controller writes NodeImages.
import {
  APPS_V1ALPHA1,
  type ImagePullJob,
  type ImageSpec,
  type ImageTagSpec,
  type NodeImage,
  type ReferenceObject,
} from '@kruise-ts/api';
import type { Action, Rng } from '@kruise-ts/core';
import type { ObjectReference } from 'kubernetes-types/core/v1.js';
import { imageNameTag } from '../imageRef';
import { byString, cloneJSON, intOrStringValue } from '../util';
import { tagPullPolicyForJob } from './status';

/** §3.5: `parallelism` read with IntOrString's integer conversion; unset is 1, `"50%"` is 0. */
export function jobParallelism(job: ImagePullJob): number {
  return intOrStringValue(job.spec.parallelism, 1);
}

/** The owner reference a job puts on the NodeImage tags it wants. */
export function jobOwnerReference(job: ImagePullJob): ObjectReference {
  return {
    apiVersion: APPS_V1ALPHA1,
    kind: 'ImagePullJob',
    name: job.metadata.name,
    namespace: job.metadata.namespace,
    uid: job.metadata.uid,
  };
}

/**
 * §4.4 one NodeImage: the new object, or `undefined` when the tag already lists the job as an
 * owner (**quirk:** the secret and sandbox edits are then not written either).
 *
 * The image entry gets the job's `sandboxConfig` (last writer wins) and any missing secret
 * reference. An existing tag gets `version + 1`, the job appended to its owners, `createdAt =
 * now` and the job's `imagePullPolicy` (its `pullPolicy` is kept). A new tag gets `version` =
 * (the status tag's version, or −1) + 1, the §4.6 pull policy, the job as only owner,
 * `createdAt = now` and the job's `imagePullPolicy`. Tags end up sorted by tag.
 */
export function addJobToNodeImage(
  job: ImagePullJob,
  nodeImage: NodeImage,
  references: readonly ReferenceObject[],
  now: string,
  rng: Rng,
): NodeImage | undefined {
  const nt = imageNameTag(job.spec.image);
  if (!nt) return undefined;
  const next = cloneJSON(nodeImage);
  next.spec = next.spec ?? {};
  next.spec.images = next.spec.images ?? {};
  const img: ImageSpec = next.spec.images[nt.name] ?? { tags: [] };
  img.tags = img.tags ?? [];
  if (job.spec.sandboxConfig) img.sandboxConfig = cloneJSON(job.spec.sandboxConfig);
  else delete img.sandboxConfig;
  for (const r of references) {
    const list = img.pullSecrets ?? [];
    if (!list.some((p) => p.namespace === r.namespace && p.name === r.name))
      img.pullSecrets = [...list, { ...r }];
  }
  const owner = jobOwnerReference(job);
  const tag = img.tags.find((t) => t.tag === nt.tag);
  if (tag) {
    if ((tag.ownerReferences ?? []).some((o) => o.uid === job.metadata.uid)) return undefined;
    tag.version = (tag.version ?? 0) + 1;
    tag.ownerReferences = [...(tag.ownerReferences ?? []), owner];
    tag.createdAt = now;
    if (job.spec.imagePullPolicy) tag.imagePullPolicy = job.spec.imagePullPolicy;
    else delete tag.imagePullPolicy;
  } else {
    const statusTag = nodeImage.status?.imageStatuses?.[nt.name]?.tags?.find((t) => t.tag === nt.tag);
    const fresh: ImageTagSpec = {
      tag: nt.tag,
      version: (statusTag?.version ?? -1) + 1,
      pullPolicy: tagPullPolicyForJob(job, rng),
      ownerReferences: [owner],
      createdAt: now,
    };
    if (job.spec.imagePullPolicy) fresh.imagePullPolicy = job.spec.imagePullPolicy;
    img.tags.push(fresh);
  }
  img.tags.sort((a, b) => byString(a.tag, b.tag));
  next.spec.images[nt.name] = img;
  return next;
}

/**
 * §4.4 `syncNodeImages`: `budget = parallelism − active` (the new status's `active`); with a
 * positive budget, the first `min(budget, notSynced)` not-synced targets, in target order, get
 * the job (see {@link addJobToNodeImage}). So at most `parallelism` NodeImages are in flight.
 *
 * Example: parallelism 2, 1 node pulling, 3 not synced → only the first not-synced node is
 * updated this round.
 */
export function spreadJobToNodeImages(
  job: ImagePullJob,
  notSynced: readonly NodeImage[],
  active: number,
  references: readonly ReferenceObject[],
  now: string,
  rng: Rng,
): Action[] {
  const budget = jobParallelism(job) - active;
  if (budget <= 0 || notSynced.length === 0) return [];
  const actions: Action[] = [];
  for (const ni of notSynced.slice(0, Math.min(budget, notSynced.length))) {
    const next = addJobToNodeImage(job, ni, references, now, rng);
    if (next) actions.push({ verb: 'update', object: next, reason: 'SyncNodeImage' });
  }
  return actions;
}
