// The pod a DaemonSet creates on a node (docs/reference/daemonset.md §6) and its deterministic name.
import {
  CONDITION_INPLACE_UPDATE_READY,
  type KubeObject,
  LABEL_CONTROLLER_REVISION_HASH,
} from '@kruise-ts/api';
import { createRng, fnv32a, randomSuffix } from '@kruise-ts/core';
import type { Affinity, Pod, PodSpec } from 'kubernetes-types/core/v1.js';
import { DAEMONSET_CONTROLLER_SCHEDULER, LABEL_POD_TEMPLATE_GENERATION } from './constants';
import { daemonSetControllerRef } from './nodePods';
import { effectiveDaemonTolerations } from './nodeShouldRun';
import { templateGeneration } from './predicates';
import type { DaemonSet } from './types';

/** Options of pod creation. */
export interface NewPodOptions {
  /** Current revision hash `H`. */
  hash: string;
  /** Numeric seed mixed into the name (options.seed of the reconcile). */
  seed: number;
  /** Names already taken in the namespace (the new name is added to it). */
  takenNames: Set<string>;
  /** `--assign-pods-by-scheduler` (default true): bind by node affinity; false → `spec.nodeName`. */
  assignPodsByScheduler?: boolean;
}

/**
 * §6 step 4: the pod's required node-affinity terms are replaced by the single term
 * `matchFields: metadata.name In [<node>]`; preferred terms and other affinity are kept.
 */
export function replaceDaemonSetPodNodeNameNodeAffinity(
  affinity: Affinity | undefined,
  nodeName: string,
): Affinity {
  return {
    ...affinity,
    nodeAffinity: {
      ...affinity?.nodeAffinity,
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
      },
    },
  };
}

/**
 * Deterministic pod name `<ds>-<5 chars>`: the suffix comes from a PRNG seeded with the
 * reconcile seed mixed with the DaemonSet, node and hash; a name already taken is drawn again.
 */
export function daemonPodName(
  dsName: string,
  nodeName: string,
  hash: string,
  seed: number,
  taken: Set<string>,
): string {
  const rng = createRng(fnv32a(`${seed}/${dsName}/${nodeName}/${hash}`));
  for (;;) {
    const name = `${dsName}-${randomSuffix(rng, 5)}`;
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
}

/**
 * The pod the DaemonSet creates on `nodeName` (§6): a copy of the template with the default
 * tolerations, labels + `controller-revision-hash: H` (+ `pod-template-generation` on the legacy
 * path), the `InPlaceUpdateReady` readiness gate for `InPlaceIfPossible`, bound to the node by
 * node affinity, with a controller owner reference and `generateName: <ds>-`.
 */
export function newDaemonPod(ds: DaemonSet, nodeName: string, opts: NewPodOptions): Pod & KubeObject {
  const template = ds.spec.template ?? {};
  const tplSpec: PodSpec = template.spec ?? { containers: [] };
  const labels: Record<string, string> = { ...(template.metadata?.labels ?? {}) };
  labels[LABEL_CONTROLLER_REVISION_HASH] = opts.hash;
  const generation = templateGeneration(ds);
  if (generation !== undefined) labels[LABEL_POD_TEMPLATE_GENERATION] = String(generation);

  const spec: PodSpec = { ...tplSpec, tolerations: effectiveDaemonTolerations(tplSpec) };
  if (ds.spec.updateStrategy?.rollingUpdate?.rollingUpdateType === 'InPlaceIfPossible') {
    const gates = spec.readinessGates ?? [];
    if (!gates.some((g) => g.conditionType === CONDITION_INPLACE_UPDATE_READY)) {
      spec.readinessGates = [...gates, { conditionType: CONDITION_INPLACE_UPDATE_READY }];
    }
  }
  if (opts.assignPodsByScheduler === false) {
    spec.nodeName = nodeName;
    spec.schedulerName = DAEMONSET_CONTROLLER_SCHEDULER;
  } else {
    spec.affinity = replaceDaemonSetPodNodeNameNodeAffinity(tplSpec.affinity, nodeName);
  }

  const dsName = ds.metadata.name ?? '';
  const { creationTimestamp: _c, uid: _u, resourceVersion: _r, ...tplMeta } = template.metadata ?? {};
  const metadata: Pod['metadata'] = {
    ...tplMeta,
    name: daemonPodName(dsName, nodeName, opts.hash, opts.seed, opts.takenNames),
    generateName: `${dsName}-`,
    labels,
    ownerReferences: [daemonSetControllerRef(ds)],
  };
  if (ds.metadata.namespace !== undefined) metadata.namespace = ds.metadata.namespace;
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}
