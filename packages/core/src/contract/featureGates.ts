// OpenKruise v1.8.2's feature gates and their defaults (docs/reference/operator.md §3.6),
// plus the dependency rules applied after flag parsing (O3.6).

/** Every feature gate of OpenKruise v1.8.2, by flag key. */
export interface FeatureGates {
  PodWebhook: boolean;
  KruiseDaemon: boolean;
  DaemonWatchingPod: boolean;
  CloneSetShortHash: boolean;
  KruisePodReadinessGate: boolean;
  PreDownloadImageForInPlaceUpdate: boolean;
  CloneSetPartitionRollback: boolean;
  ResourcesDeletionProtection: boolean;
  WorkloadSpread: boolean;
  PodUnavailableBudgetDeleteGate: boolean;
  PodUnavailableBudgetUpdateGate: boolean;
  TemplateNoDefaults: boolean;
  InPlaceUpdateEnvFromMetadata: boolean;
  StatefulSetAutoDeletePVC: boolean;
  SidecarSetPatchPodMetadataDefaultsAllowed: boolean;
  SidecarTerminator: boolean;
  PodProbeMarkerGate: boolean;
  PreDownloadImageForDaemonSetUpdate: boolean;
  CloneSetEventHandlerOptimization: boolean;
  PreparingUpdateAsUpdate: boolean;
  ImagePullJobGate: boolean;
  ResourceDistributionGate: boolean;
  DeletionProtectionForCRDCascadingGate: boolean;
  EnhancedLivenessProbe: boolean;
  RecreatePodWhenChangeVCTInCloneSetGate: boolean;
  StatefulSetStartOrdinal: boolean;
  PodIndexLabel: boolean;
  EnableExternalCerts: boolean;
  StatefulSetAutoResizePVCGate: boolean;
  ForceDeleteTimeoutExpectationGate: boolean;
  InPlaceWorkloadVerticalScaling: boolean;
  EnablePodProbeMarkerOnServerless: boolean;
}

/** The v1.8.2 defaults (code, not the chart README: `PreDownloadImageForInPlaceUpdate` is false). */
export const defaultFeatureGates: Readonly<FeatureGates> = Object.freeze({
  PodWebhook: true,
  KruiseDaemon: true,
  DaemonWatchingPod: true,
  CloneSetShortHash: false,
  KruisePodReadinessGate: false,
  PreDownloadImageForInPlaceUpdate: false,
  CloneSetPartitionRollback: false,
  ResourcesDeletionProtection: false,
  WorkloadSpread: true,
  PodUnavailableBudgetDeleteGate: true,
  PodUnavailableBudgetUpdateGate: false,
  TemplateNoDefaults: false,
  InPlaceUpdateEnvFromMetadata: true,
  StatefulSetAutoDeletePVC: true,
  SidecarSetPatchPodMetadataDefaultsAllowed: false,
  SidecarTerminator: false,
  PodProbeMarkerGate: true,
  PreDownloadImageForDaemonSetUpdate: false,
  CloneSetEventHandlerOptimization: false,
  PreparingUpdateAsUpdate: false,
  ImagePullJobGate: false,
  ResourceDistributionGate: false,
  DeletionProtectionForCRDCascadingGate: false,
  EnhancedLivenessProbe: false,
  RecreatePodWhenChangeVCTInCloneSetGate: false,
  StatefulSetStartOrdinal: false,
  PodIndexLabel: true,
  EnableExternalCerts: false,
  StatefulSetAutoResizePVCGate: false,
  ForceDeleteTimeoutExpectationGate: false,
  InPlaceWorkloadVerticalScaling: false,
  EnablePodProbeMarkerOnServerless: false,
});

/** The name of a feature gate. */
export type FeatureGateName = keyof FeatureGates;

/**
 * The brand of a frozen, fully resolved gate set (see {@link freezeFeatureGates}): a
 * non-enumerable symbol key, so it never shows in spreads, `Object.keys` or JSON.
 */
const RESOLVED: unique symbol = Symbol('kruise-ts.resolvedFeatureGates');

/**
 * Freezes a complete gate set and brands it as resolved, so every later
 * {@link resolveFeatureGates} of it is a property read instead of a 32-key copy (the fast path
 * for per-pod calls inside one reconcile). The input is not modified; an already frozen
 * branded set is returned as is.
 * Example: `const g = freezeFeatureGates(resolveFeatureGates({CloneSetShortHash: true}))`;
 * then `resolveFeatureGates(g) === g`.
 */
export function freezeFeatureGates(gates: FeatureGates): Readonly<FeatureGates> {
  if (isFrozenResolved(gates)) return gates;
  const out = resolveFeatureGates(gates);
  Object.defineProperty(out, RESOLVED, { value: true, enumerable: false });
  return Object.freeze(out);
}

/** True for a gate set made by {@link freezeFeatureGates} (branded and frozen, so it cannot drift). */
function isFrozenResolved(gates: Partial<FeatureGates>): gates is FeatureGates {
  return (gates as { [RESOLVED]?: boolean })[RESOLVED] === true && Object.isFrozen(gates);
}

/**
 * Fills missing gates with the v1.8.2 defaults. Unknown keys are ignored. A set made by
 * {@link freezeFeatureGates} is returned as is (it is complete and immutable); anything else
 * gives a new object.
 */
export function resolveFeatureGates(partial?: Partial<FeatureGates>): FeatureGates {
  if (partial && isFrozenResolved(partial)) return partial;
  const out: FeatureGates = { ...defaultFeatureGates };
  if (!partial) return out;
  for (const key of Object.keys(defaultFeatureGates) as FeatureGateName[]) {
    const v = partial[key];
    if (typeof v === 'boolean') out[key] = v;
  }
  return out;
}

/**
 * The dependency rules of docs/reference/operator.md O3.6, applied once after flag parsing; they
 * override explicit settings. Example: `PodWebhook=false` forces `WorkloadSpread` off.
 */
export function applyFeatureGateDependencies(gates: FeatureGates): FeatureGates {
  const g = { ...gates };
  if (!g.PodWebhook) {
    for (const k of [
      'KruisePodReadinessGate',
      'PodUnavailableBudgetDeleteGate',
      'PodUnavailableBudgetUpdateGate',
      'WorkloadSpread',
      'SidecarSetPatchPodMetadataDefaultsAllowed',
      'EnhancedLivenessProbe',
      'EnablePodProbeMarkerOnServerless',
    ] as const)
      g[k] = false;
  }
  if (!g.KruiseDaemon) {
    for (const k of [
      'PreDownloadImageForInPlaceUpdate',
      'DaemonWatchingPod',
      'InPlaceUpdateEnvFromMetadata',
      'PreDownloadImageForDaemonSetUpdate',
      'PodProbeMarkerGate',
      'SidecarTerminator',
      'ImagePullJobGate',
      'EnhancedLivenessProbe',
    ] as const)
      g[k] = false;
  }
  if (g.PreDownloadImageForInPlaceUpdate || g.PreDownloadImageForDaemonSetUpdate) g.ImagePullJobGate = true;
  if (!g.ResourcesDeletionProtection) g.DeletionProtectionForCRDCascadingGate = false;
  return g;
}

/**
 * Parses the `--feature-gates` flag form `Name=bool,...` (also `AllAlpha=true` / `AllBeta=true`
 * are accepted and ignored for gates not listed). Returns the partial map or an error message.
 */
export function parseFeatureGatesFlag(value: string): { gates: Partial<FeatureGates> } | { error: string } {
  const gates: Partial<FeatureGates> = {};
  for (const raw of value.split(',')) {
    const item = raw.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    if (eq < 0) return { error: `missing bool value for ${item}` };
    const key = item.slice(0, eq).trim();
    const val = item
      .slice(eq + 1)
      .trim()
      .toLowerCase();
    if (val !== 'true' && val !== 'false')
      return { error: `invalid value of ${key}=${val}, err: not a bool` };
    if (key === 'AllAlpha' || key === 'AllBeta') continue;
    if (!(key in defaultFeatureGates)) return { error: `unrecognized feature gate: ${key}` };
    gates[key as FeatureGateName] = val === 'true';
  }
  return { gates };
}
