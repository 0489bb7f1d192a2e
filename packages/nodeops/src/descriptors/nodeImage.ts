// The NodeImage controller as every shell drives it (docs/reference/daemon.md §5), keyed by node
// name, as two runners. The first reconciles each NodeImage: spec upkeep (labels from the Node,
// owner pruning, TTL), status supervision, deletion when the node is gone; a Node change enqueues
// the NodeImage of its name, a deleted ImagePullJob the NodeImages naming it (§5.2 item 3). The
// second, by Node, creates the NodeImage of a node that has none once the node has been Ready for
// `--nodeimage-creation-delay` (§5.2 item 2): a missing NodeImage cannot be reconciled by the
// first. It does nothing while the NodeImage exists, and a deleted NodeImage of a live node
// enqueues its node so that it is created again.
import { type KubeObject, type NodeImage, type NodeImageStatus, setDefaultsNodeImage } from '@kruise-ts/api';
import {
  asKind,
  defineController,
  type FeatureGates,
  type KindRef,
  kindRef,
  NODE,
  NOTHING_TO_ENQUEUE,
  type ObjectReader,
  type ReconcileEnv,
  type ReconcileResult,
  resolveFeatureGates,
} from '@kruise-ts/core';
import type { Node } from 'kubernetes-types/core/v1.js';
import { type NodeImageControllerState, reconcileNodeImage } from '../nodeimage/reconcile';
import { validateNodeImage } from '../nodeimage/validation';
import { IMAGE_PULL_JOB_KIND, NODE_IMAGE_KIND } from './kinds';
import { objectNamed } from './objectNamed';

/** True when the object of `ref`'s kind called `name` is not in `reader`: its change was a delete. */
function isGone(reader: ObjectReader, ref: KindRef, ns: string | undefined, name: string): boolean {
  return reader.get(ref, ns, name) === undefined;
}

/** The NodeImage reconcile of one node name (§5.2–§5.4). */
function reconcileByName(
  name: string,
  reader: ObjectReader,
  now: string,
  state: NodeImageControllerState,
  env: ReconcileEnv,
): ReconcileResult<NodeImageStatus, NodeImageControllerState> {
  return reconcileNodeImage(
    {
      nodeName: name,
      node: reader.get(NODE, undefined, name),
      nodeImage: reader.get(NODE_IMAGE_KIND, undefined, name),
      imagePullJobs: reader.list(IMAGE_PULL_JOB_KIND),
      now,
      controllerState: state,
    },
    {
      seed: env.seed,
      structureCache: env.structureCache,
      ...(env.nodeImageCreationDelaySeconds !== undefined
        ? { creationDelaySeconds: env.nodeImageCreationDelaySeconds }
        : {}),
    },
  );
}

/** The NodeImages whose spec names `uid` as a tag owner. */
function nodeImagesNaming(reader: ObjectReader, uid: string | undefined): readonly NodeImage[] {
  if (!uid) return NOTHING_TO_ENQUEUE;
  return reader
    .list(NODE_IMAGE_KIND)
    .filter((ni) =>
      Object.values(ni.spec?.images ?? {}).some((img) =>
        (img.tags ?? []).some((t) => (t.ownerReferences ?? []).some((r) => r.uid === uid)),
      ),
    );
}

/** §3.5: the NodeImage runners need `KruiseDaemon` (a missing gate takes its default, on). */
/** A Node as the second runner's primary object: a Node with the metadata every object has. */
export type NodeObject = Node & KubeObject;

/** The Node kind as the second runner's primary. */
const NODE_OBJECT: KindRef<NodeObject> = kindRef('v1', 'Node');

const daemonGate = (g: Partial<FeatureGates>) => resolveFeatureGates(g).KruiseDaemon;

/** `nodeimage-controller` (operator.md §3.5; needs `KruiseDaemon`), the runner by NodeImage. */
export const nodeImageDescriptor = defineController<NodeImage, NodeImageStatus, NodeImageControllerState>({
  name: 'nodeimage-controller',
  primary: NODE_IMAGE_KIND,
  secondary: [NODE, IMAGE_PULL_JOB_KIND],
  enabled: daemonGate,
  enqueueFor: (changed, reader, change) => {
    const node = asKind(changed, NODE);
    if (node) {
      // A node without a NodeImage is the second runner's; the first reconciles existing ones.
      const name = node.metadata?.name ?? '';
      const ni = reader.get(NODE_IMAGE_KIND, undefined, name);
      return ni
        ? [ni]
        : change
          ? NOTHING_TO_ENQUEUE
          : [objectNamed(reader, NODE_IMAGE_KIND, undefined, name)];
    }
    const job = asKind(changed, IMAGE_PULL_JOB_KIND);
    if (!job) return NOTHING_TO_ENQUEUE;
    const deleted = change
      ? change.type === 'deleted'
      : isGone(reader, IMAGE_PULL_JOB_KIND, job.metadata?.namespace, job.metadata?.name ?? '');
    return deleted ? nodeImagesNaming(reader, job.metadata?.uid) : NOTHING_TO_ENQUEUE;
  },
  readSet: (ni, reader) => {
    const node = reader.get(NODE, undefined, ni.metadata?.name ?? '');
    return node ? [ni, node] : [ni];
  },
  reconcile: (ni, reader, now, state, env) =>
    reconcileByName(ni.metadata?.name ?? '', reader, now, state, env),
  admission: {
    default: (ni, env) => setDefaultsNodeImage(ni, { old: env.old, now: env.now }),
    validate: (ni, env) => validateNodeImage(ni, env.old),
  },
});

/**
 * The second runner of `nodeimage-controller`, by Node (`--controllers nodeimage` selects both).
 * Its status is the NodeImage's when it reconciles one, `undefined` while the NodeImage exists
 * (the first runner's); it keeps the same (empty) state as the first runner.
 */
export const nodeImageFromNodeDescriptor = defineController<
  NodeObject,
  NodeImageStatus | undefined,
  NodeImageControllerState
>({
  name: 'nodeimage-controller(node)',
  selectAs: 'nodeimage',
  logName: 'NodeImage(node)',
  primary: NODE_OBJECT,
  secondary: [NODE_IMAGE_KIND],
  enabled: daemonGate,
  enqueueFor: (changed, reader, change) => {
    const ni = asKind(changed, NODE_IMAGE_KIND);
    if (!ni) return NOTHING_TO_ENQUEUE;
    const name = ni.metadata?.name ?? '';
    const deleted = change ? change.type === 'deleted' : isGone(reader, NODE_IMAGE_KIND, undefined, name);
    const node = deleted ? reader.get(NODE_OBJECT, undefined, name) : undefined;
    return node ? [node] : NOTHING_TO_ENQUEUE;
  },
  readSet: (node) => [node],
  reconcile: (node, reader, now, state, env) => {
    const name = node.metadata?.name ?? '';
    if (reader.get(NODE_IMAGE_KIND, undefined, name))
      return { actions: [], status: undefined, errors: [], controllerState: state };
    return reconcileByName(name, reader, now, state, env);
  },
});
