// Builds the SyncState the Scale and Update steps work on, for tests that run one step
// alone (as the Go tests do) with revisions given by name and template.
import { type CloneSet, setDefaultsCloneSet } from '@kruise-ts/api';
import {
  Burst,
  DEFAULT_BURST_REPLICAS,
  type FeatureGates,
  ReconcileRecorder,
  resolveFeatureGates,
  toRFC3339,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod, PodTemplateSpec } from 'kubernetes-types/core/v1';
import { createCloneSetCache } from '../src/cache';
import { computePodFacts } from '../src/facts';
import { resolveParams } from '../src/params';
import { podsToDeleteOf, scalingExcludesPreparingDelete } from '../src/predicates';
import { cloneSetRef } from '../src/reconcile';
import type { SyncState } from '../src/sync';
import { inPlaceUpdateOptionsFor } from '../src/update';

/** A ControllerRevision with the given name and (optional) pod spec as its template. */
export function revision(name: string, podSpec?: unknown, revisionNumber = 1): ControllerRevision {
  const rev: ControllerRevision = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: { name, namespace: 'default' },
    revision: revisionNumber,
  };
  if (podSpec !== undefined && podSpec !== null) {
    (rev as any).data = { spec: { template: { spec: podSpec, $patch: 'replace' } } };
  }
  return rev;
}

export function makeState(opts: {
  cs: CloneSet;
  pods: Pod[];
  now: string;
  currentRevision: ControllerRevision;
  updateRevision: ControllerRevision;
  revisions?: ControllerRevision[];
  pvcs?: PersistentVolumeClaim[];
  featureGates?: Partial<FeatureGates>;
  seed?: number;
}): SyncState {
  const cs = setDefaultsCloneSet(opts.cs, { featureGates: { TemplateNoDefaults: true } });
  const gates = resolveFeatureGates(opts.featureGates);
  const tpl = (r: ControllerRevision): PodTemplateSpec =>
    ((r as any).data?.spec?.template as PodTemplateSpec | undefined) ?? cs.spec.template;
  const nowMs = Date.parse(opts.now);
  const cache = createCloneSetCache();
  const podNames = new Set(opts.pods.map((p) => p.metadata?.name ?? ''));
  const pvcNames = new Set((opts.pvcs ?? []).map((p) => p.metadata?.name ?? ''));
  return {
    cs,
    pods: opts.pods,
    facts: computePodFacts(opts.pods, {
      updateRevision: opts.updateRevision.metadata!.name!,
      podsToDelete: podsToDeleteOf(cs),
      minReadySeconds: cs.spec.minReadySeconds ?? 0,
      nowMs,
    }),
    pvcs: opts.pvcs ?? [],
    usedPodNames: () => podNames,
    usedPvcNames: () => pvcNames,
    revisions: opts.revisions ?? [opts.currentRevision, opts.updateRevision],
    currentRevision: opts.currentRevision,
    updateRevision: opts.updateRevision,
    currentTemplate: tpl(opts.currentRevision),
    updateTemplate: tpl(opts.updateRevision),
    nodes: [],
    gates,
    params: resolveParams(cs),
    excludePreparingDelete: scalingExcludesPreparingDelete(cs, false),
    nowMs,
    nowStr: toRFC3339(opts.now),
    seed: opts.seed ?? 0,
    burst: new Burst(DEFAULT_BURST_REPLICAS),
    cache,
    rec: new ReconcileRecorder(cloneSetRef(cs)),
    inPlaceUpdateOptions: inPlaceUpdateOptionsFor({
      cs,
      gates,
      now: toRFC3339(opts.now),
      cache: cache.inPlace,
    }),
  };
}
