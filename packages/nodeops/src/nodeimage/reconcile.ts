// The NodeImage controller's reconcile, keyed by node name (docs/reference/daemon.md §5.2–§5.4): one
// NodeImage per ready node, tag bookkeeping (owner pruning, TTL) and supervision of the
// daemon's pulls (response timeout, active deadline). Pulling itself is the daemon's job.
import {
  APPS_KRUISE_GROUP,
  APPS_V1ALPHA1,
  type ImagePullJob,
  type ImageStatus,
  type ImageTagStatus,
  type KubeObject,
  LABEL_FAKE_NODEIMAGE,
  type NodeImage,
  type NodeImageStatus,
} from '@kruise-ts/api';
import {
  type Action,
  epochMsToRFC3339,
  type InputShape,
  invalid,
  type ReconcileOptions,
  ReconcileRecorder,
  type ReconcileResult,
  refOf,
  withWellFormedInput,
} from '@kruise-ts/core';
import type { Node, ObjectReference } from 'kubernetes-types/core/v1.js';
import {
  byString,
  cloneJSON,
  groupOf,
  minDefined,
  nowMillis,
  rngFor,
  sameJSON,
  seconds,
  timeMillis,
} from '../util';

/**
 * What the NodeImage controller keeps per node between reconciles (`controllerState`): nothing.
 * It hands back whatever it was given, so a shell may store the result's field unread.
 */
export type NodeImageControllerState = undefined;

/** Input of {@link reconcileNodeImage}. */
export interface ReconcileNodeImageInput {
  /** The key: the node (= NodeImage) name; defaults to the node's or the NodeImage's name. */
  nodeName?: string;
  node?: Node;
  nodeImage?: NodeImage;
  /**
   * Every ImagePullJob of the cluster, to prune owner references of deleted jobs (§5.3). When
   * omitted, owner references are left alone.
   */
  imagePullJobs?: readonly ImagePullJob[];
  now: string | Date;
  controllerState?: NodeImageControllerState;
}

/** Options of {@link reconcileNodeImage}; the timing constants are injectable (§11 item 1). */
export interface ReconcileNodeImageOptions extends ReconcileOptions {
  /** Flag `nodeimage-creation-delay`: how long a node must have been Ready (default 30 s). */
  creationDelaySeconds?: number;
  /** How long the daemon may take to report a tag (default 10 min). */
  responseTimeoutSeconds?: number;
}

/** Message of a tag the daemon never reported on. */
export const MESSAGE_NODE_NOT_RESPONDING = 'node has not responded for a long time';
/** Message of a tag whose pull outlived its active deadline. */
export const MESSAGE_PULL_DEADLINE = 'pulling exceeds the activeDeadlineSeconds';

const isImagePullJobRef = (o: ObjectReference) =>
  o.kind === 'ImagePullJob' && groupOf(o.apiVersion) === APPS_KRUISE_GROUP;

/** §5.2 item 2: is the node Ready, and since when (epoch ms; 0 when unknown)? */
function nodeReadySince(node: Node): number | undefined {
  const c = node.status?.conditions?.find((x) => x.type === 'Ready');
  if (c?.status !== 'True') return undefined;
  return timeMillis(c.lastTransitionTime) ?? 0;
}

/**
 * §5.3 `doUpdateNodeImage`: labels copied from the node; per tag, drop it without `createdAt`,
 * prune ImagePullJob owners whose job is gone or has another UID (dropping the tag when that
 * empties its owners), drop it once its TTL since the status tag's `completionTime` (same tag
 * and version) has passed; drop images without tags. Returns the new NodeImage when changed,
 * and the TTL waits (ms).
 */
export function maintainNodeImageSpec(
  nodeImage: NodeImage,
  node: Node,
  jobs: readonly ImagePullJob[] | undefined,
  nowMs: number,
): { nodeImage?: NodeImage; waits: number[] } {
  const next = cloneJSON(nodeImage);
  let changed = false;
  const waits: number[] = [];
  if (!sameJSON(node.metadata?.labels ?? {}, nodeImage.metadata.labels ?? {})) {
    next.metadata.labels = { ...(node.metadata?.labels ?? {}) };
    changed = true;
  }
  const jobsByKey = new Map((jobs ?? []).map((j) => [`${j.metadata.namespace}/${j.metadata.name}`, j]));
  const images = next.spec?.images ?? {};
  for (const name of Object.keys(images).sort()) {
    const img = images[name];
    const kept = [];
    for (const tag of img?.tags ?? []) {
      if (!tag.createdAt) {
        changed = true;
        continue;
      }
      const owners = tag.ownerReferences ?? [];
      if (jobs !== undefined && owners.length > 0) {
        const alive = owners.filter((o) => {
          if (!isImagePullJobRef(o)) return true;
          const job = jobsByKey.get(`${o.namespace}/${o.name}`);
          return job !== undefined && job.metadata.uid === o.uid;
        });
        if (alive.length !== owners.length) {
          changed = true;
          if (alive.length === 0) continue;
          tag.ownerReferences = alive;
        }
      }
      const ttl = tag.pullPolicy?.ttlSecondsAfterFinished;
      if (ttl !== undefined && ttl !== null) {
        const st = nodeImage.status?.imageStatuses?.[name]?.tags?.find(
          (t) => t.tag === tag.tag && (t.version ?? 0) === (tag.version ?? 0),
        );
        const done = timeMillis(st?.completionTime);
        if (done !== undefined) {
          const left = done + ttl * 1000 - nowMs;
          if (left <= 0) {
            changed = true;
            continue;
          }
          waits.push(left);
        }
      }
      kept.push(tag);
    }
    if (kept.length === 0) {
      delete images[name];
      changed = true;
    } else img.tags = kept;
  }
  return changed ? { nodeImage: next, waits } : { waits };
}

function failEvents(
  ni: NodeImage,
  name: string,
  tag: string,
  message: string,
  owners: ObjectReference[],
): Action[] {
  const msg = `Failed to pull image ${name}:${tag} on node ${ni.metadata.name} for ${message}`;
  const refs = [
    ...owners.map((o) => ({
      apiVersion: o.apiVersion ?? APPS_V1ALPHA1,
      kind: o.kind ?? 'ImagePullJob',
      namespace: o.namespace,
      name: o.name ?? '',
      uid: o.uid,
    })),
    refOf(ni),
  ];
  return refs.map((r) => ({
    verb: 'event',
    involvedObject: r,
    type: 'Warning',
    reason: 'PullImageFailed',
    message: msg,
  }));
}

/**
 * §5.4 `updateNodeImageStatus`: per spec tag with `createdAt`, a status tag of the same version
 * must appear within the response timeout (else it is set Failed, `node has not responded for a
 * long time`); a tag with `activeDeadlineSeconds` and no `completionTime` fails at `createdAt +
 * deadline + response timeout` (`pulling exceeds the activeDeadlineSeconds`). Each such failure
 * emits `PullImageFailed` to the owners and the NodeImage. When `imageStatuses` changed, the
 * status is rewritten: entries not in the spec dropped, `desired` = distinct spec tags,
 * `pulling` / `succeeded` / `failed` counted by phase.
 */
export function superviseNodeImageStatus(
  ni: NodeImage,
  nowMs: number,
  responseTimeoutMs: number,
): { status?: NodeImageStatus; events: Action[]; waits: number[] } {
  const now = epochMsToRFC3339(nowMs);
  const statuses: Record<string, ImageStatus> = cloneJSON(ni.status?.imageStatuses ?? {});
  const events: Action[] = [];
  const waits: number[] = [];
  const specImages = ni.spec?.images ?? {};
  for (const name of Object.keys(specImages).sort()) {
    for (const tag of specImages[name]?.tags ?? []) {
      const created = timeMillis(tag.createdAt);
      if (created === undefined) continue;
      const version = tag.version ?? 0;
      const list = statuses[name]?.tags ?? [];
      const i = list.findIndex((t) => t.tag === tag.tag);
      const cur = i >= 0 ? list[i] : undefined;
      const put = (entry: ImageTagStatus) => {
        if (!statuses[name]) statuses[name] = { tags: [] };
        const tags = statuses[name].tags ?? [];
        statuses[name].tags = i >= 0 ? tags.map((t, j) => (j === i ? entry : t)) : [...tags, entry];
        events.push(...failEvents(ni, name, tag.tag, entry.message ?? '', tag.ownerReferences ?? []));
      };
      if (!cur || (cur.version ?? 0) !== version) {
        const left = created + responseTimeoutMs - nowMs;
        if (left > 0) waits.push(left);
        else
          put({
            tag: tag.tag,
            phase: 'Failed',
            completionTime: now,
            version,
            message: MESSAGE_NODE_NOT_RESPONDING,
          });
        continue;
      }
      const ads = tag.pullPolicy?.activeDeadlineSeconds;
      if (!cur.completionTime && ads !== undefined && ads !== null) {
        const left = created + ads * 1000 + responseTimeoutMs - nowMs;
        if (left > 0) waits.push(left);
        else put({ ...cur, phase: 'Failed', completionTime: now, version, message: MESSAGE_PULL_DEADLINE });
      }
    }
  }
  if (sameJSON(statuses, ni.status?.imageStatuses ?? {})) return { events, waits };
  const pruned: Record<string, ImageStatus> = {};
  let desired = 0;
  const counts = { pulling: 0, succeeded: 0, failed: 0 };
  for (const name of Object.keys(specImages).sort()) {
    const wanted = new Set((specImages[name]?.tags ?? []).map((t) => t.tag));
    desired += wanted.size;
    const tags = (statuses[name]?.tags ?? [])
      .filter((t) => wanted.has(t.tag))
      .sort((a, b) => byString(a.tag, b.tag));
    if (tags.length === 0) continue;
    pruned[name] = { tags };
    for (const t of tags) {
      if (t.phase === 'Pulling') counts.pulling++;
      else if (t.phase === 'Succeeded') counts.succeeded++;
      else if (t.phase === 'Failed') counts.failed++;
    }
  }
  const status: NodeImageStatus = { ...(ni.status ?? {}), desired, ...counts };
  if (Object.keys(pruned).length > 0) status.imageStatuses = pruned;
  else delete status.imageStatuses;
  return { status, events, waits };
}

/**
 * Reconciles the NodeImage of one node (docs/reference/daemon.md §5.2–§5.4).
 *
 * 1. Node missing or deleting → delete its NodeImage (unless labelled
 *    `apps.kruise.io/fake-nodeimage`).
 * 2. NodeImage missing → create it once the node has been Ready for 30 s (requeue until then;
 *    `type=virtual-kubelet` nodes get none).
 * 3. Spec maintenance (§5.3); if it changed, update and stop.
 * 4. Status supervision (§5.4); requeue after the smallest pending wait, or 3 s + uniform[0,2) s
 *    when that is below 3 s.
 *
 * Example: node Ready since 10:00:00, no NodeImage, now 10:00:20 → no action, requeue after 10 s.
 */
export function reconcileNodeImage(
  input: ReconcileNodeImageInput,
  options: ReconcileNodeImageOptions = {},
): ReconcileResult<NodeImageStatus, NodeImageControllerState> {
  return withWellFormedInput(
    input,
    INPUT_SHAPE,
    options?.structureCache,
    (i) => (i.nodeImage ? refOf(i.nodeImage as unknown as KubeObject) : undefined),
    (errors) => ({ actions: [], status: { desired: 0 }, errors }),
    (screened) => reconcileNodeImageChecked(screened, options),
  );
}

/** The input's shape: observed objects that do not fit their kind are skipped (core.md §10.1). */
const INPUT_SHAPE: InputShape = {
  lists: { imagePullJobs: 'ImagePullJob' },
  singles: { node: 'Node', nodeImage: 'NodeImage' },
};

/** {@link reconcileNodeImage} on an input held to its shape. */
function reconcileNodeImageChecked(
  input: ReconcileNodeImageInput,
  options: ReconcileNodeImageOptions,
): ReconcileResult<NodeImageStatus, NodeImageControllerState> {
  const ni = input.nodeImage;
  const prev: NodeImageStatus = ni?.status ?? { desired: 0 };
  // The state is handed back as given (the controller keeps none) on every path.
  const kept = { controllerState: input.controllerState };
  const name = input.nodeName ?? input.node?.metadata?.name ?? ni?.metadata.name ?? '';
  const rec = new ReconcileRecorder({ apiVersion: APPS_V1ALPHA1, kind: 'NodeImage', name });
  /** The result after the recorded actions and requeue. */
  const done = (status = prev) => rec.result(status, kept);
  const nowMs = nowMillis(input.now);
  if (nowMs === undefined)
    return rec.result(prev, { errors: [invalid('now', input.now, 'not a valid time')], ...kept });
  const node = input.node;

  if (!node || node.metadata?.deletionTimestamp) {
    if (ni && !ni.metadata.deletionTimestamp && !(LABEL_FAKE_NODEIMAGE in (ni.metadata.labels ?? {})))
      rec.act({ verb: 'delete', target: refOf(ni), reason: 'NodeGone' });
    return done();
  }
  if (!ni) {
    if (node.metadata?.labels?.type === 'virtual-kubelet') return done();
    const since = nodeReadySince(node);
    if (since === undefined) return done();
    const left = since + (options.creationDelaySeconds ?? 30) * 1000 - nowMs;
    if (left > 0) return rec.requeueAfter(seconds(left)).result(prev, kept);
    const object: NodeImage = { apiVersion: APPS_V1ALPHA1, kind: 'NodeImage', metadata: { name }, spec: {} };
    return rec.act({ verb: 'create', object, reason: 'CreateNodeImage' }).result({ desired: 0 }, kept);
  }
  if (ni.metadata.deletionTimestamp) return done();

  const rng = rngFor(options.seed);
  const requeue = (waits: number[]) => {
    const min = minDefined(...waits);
    if (min === undefined) return undefined;
    return min < 3000 ? 3 + rng.int(2000) / 1000 : seconds(min);
  };
  const maintained = maintainNodeImageSpec(ni, node, input.imagePullJobs, nowMs);
  if (maintained.nodeImage) {
    rec.act({ verb: 'update', object: maintained.nodeImage, reason: 'UpdateNodeImageSpec' });
    return rec.requeueAfter(requeue(maintained.waits)).result(prev, kept);
  }
  const sup = superviseNodeImageStatus(ni, nowMs, (options.responseTimeoutSeconds ?? 600) * 1000);
  if (sup.status)
    rec.act({ verb: 'updateStatus', target: refOf(ni), status: sup.status, reason: 'UpdateStatus' });
  rec.act(...sup.events);
  return rec.requeueAfter(requeue([...maintained.waits, ...sup.waits])).result(sup.status ?? prev, kept);
}
