// NodeImage types (apps.kruise.io/v1alpha1, cluster-scoped, name = node name), field names
// as OpenKruise v1.8.2 `apis/apps/v1alpha1/nodeimage_types.go` (docs/reference/daemon.md §5.1), and
// defaulting (docs/reference/daemon.md §5.1 item 2).
import type { ObjectReference } from 'kubernetes-types/core/v1.js';
import { clone, type DefaultingOptions, defaultNil, ensureObject, isObject, type Obj } from './defaulting';
import type { ImagePullPolicy, SandboxConfig } from './imagepulljob';
import type { TypedObject } from './meta';

/** A pull secret reference of a NodeImage image. */
export interface ReferenceObject {
  namespace?: string;
  name?: string;
}

/** `pullPolicy` of one tag. */
export interface ImageTagPullPolicy {
  /** Default 600. */
  timeoutSeconds?: number;
  /** Default 3. */
  backoffLimit?: number;
  ttlSecondsAfterFinished?: number;
  activeDeadlineSeconds?: number;
}

/** One tag to pull (`ImageTagSpec`). */
export interface ImageTagSpec {
  tag: string;
  /** RFC 3339; defaulted to now. */
  createdAt?: string;
  pullPolicy?: ImageTagPullPolicy;
  /** The jobs that want this tag. */
  ownerReferences?: ObjectReference[];
  version?: number;
  imagePullPolicy?: ImagePullPolicy;
}

/** One image (keyed by name in `spec.images`). */
export interface ImageSpec {
  pullSecrets?: ReferenceObject[];
  tags: ImageTagSpec[];
  sandboxConfig?: SandboxConfig;
}

/** `spec` of a NodeImage. */
export interface NodeImageSpec {
  /** Image name (familiar form, §2.2) → tags. */
  images?: Record<string, ImageSpec>;
}

/** Phase of one tag's pull. `Waiting` exists but is never set (§5.1 item 4). */
export type ImagePullPhase = 'Waiting' | 'Pulling' | 'Succeeded' | 'Failed';

/** Status of one tag. */
export interface ImageTagStatus {
  tag: string;
  phase: ImagePullPhase;
  /** 0..100. */
  progress?: number;
  startTime?: string;
  completionTime?: string;
  version?: number;
  imageID?: string;
  message?: string;
}

/** Status of one image. */
export interface ImageStatus {
  tags: ImageTagStatus[];
}

/** `status.firstSyncStatus` (declared, never written at v1.8.2). */
export interface SyncStatus {
  syncAt?: string;
  status?: 'Succeeded' | 'Failed';
  message?: string;
}

/** `status` of a NodeImage (§5.4). */
export interface NodeImageStatus {
  desired: number;
  succeeded?: number;
  failed?: number;
  pulling?: number;
  imageStatuses?: Record<string, ImageStatus>;
  firstSyncStatus?: SyncStatus;
}

/** A NodeImage (apps.kruise.io/v1alpha1, cluster-scoped). */
export type NodeImage = TypedObject<NodeImageSpec, NodeImageStatus>;

/** RFC 3339 at second precision in UTC (`2024-01-01T00:00:00Z`), or `undefined` for an invalid time. */
export function formatRFC3339(now: string | Date): string | undefined {
  const d = now instanceof Date ? now : new Date(now);
  if (Number.isNaN(d.getTime())) return undefined;
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function sortTags(tags: unknown): void {
  if (!Array.isArray(tags)) return;
  const key = (t: unknown) => (isObject(t) && typeof t.tag === 'string' ? t.tag : '');
  tags.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * Returns a new NodeImage with the mutating webhook's defaults (docs/reference/daemon.md §5.1 item 2), per
 * tag of every spec image: `createdAt` = `opts.now` if missing (left unset when `now` is not given,
 * since defaulting is pure), `pullPolicy` `{}` then `timeoutSeconds` 600 and `backoffLimit` 3; and
 * the tags of every spec image and every status image sorted ascending by `tag`.
 *
 * Example: tags `[{tag: 'v2'}, {tag: 'v1'}]` with now `2024-01-01T00:00:00Z` become
 * `[{tag: 'v1', createdAt: '2024-01-01T00:00:00Z', pullPolicy: {timeoutSeconds: 600, backoffLimit: 3}}, {tag: 'v2', …}]`.
 */
export function setDefaultsNodeImage(
  obj: NodeImage,
  opts?: DefaultingOptions & { now?: string | Date },
): NodeImage {
  const out = clone(obj) as Obj;
  const now = opts?.now === undefined ? undefined : formatRFC3339(opts.now);
  const images = isObject(out.spec) && isObject(out.spec.images) ? out.spec.images : {};
  for (const img of Object.values(images)) {
    if (!isObject(img) || !Array.isArray(img.tags)) continue;
    for (const t of img.tags) {
      if (!isObject(t)) continue;
      if (now !== undefined) defaultNil(t, 'createdAt', now);
      const pp = ensureObject(t, 'pullPolicy');
      defaultNil(pp, 'timeoutSeconds', 600);
      defaultNil(pp, 'backoffLimit', 3);
    }
    sortTags(img.tags);
  }
  const statuses = isObject(out.status) && isObject(out.status.imageStatuses) ? out.status.imageStatuses : {};
  for (const st of Object.values(statuses)) if (isObject(st)) sortTags(st.tags);
  return out as NodeImage;
}
