// The change a forecast plays out: container images (`--set-image main=nginx:1.27`), a partition
// (`--partition 3`), pausing or resuming, a JSON merge patch, or a whole manifest whose spec
// replaces the live one. Applied to a copy of the live workload; the result is what `kubectl
// apply` would store. Each kind keeps its pod template and its update strategy in its own place.
import type { KubeObject } from '@kruise-ts/api';

/** What to change. */
export interface ForecastChange {
  /** Container name → new image (`*` for every container). */
  setImages?: Record<string, string>;
  partition?: number | string;
  paused?: boolean;
  /** A JSON merge patch (RFC 7386) of the workload. */
  patch?: unknown;
  /** A manifest of the same workload: its spec, labels and annotations replace the live ones. */
  manifest?: KubeObject;
}

type J = Record<string, any>;

/** RFC 7386 JSON merge patch: objects merge key by key, `null` removes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: J =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as J) } : {};
  for (const [k, v] of Object.entries(patch as J)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** The containers a kind's pods get: the pod template's, or a SidecarSet's sidecars. */
function containerLists(obj: J): J[][] {
  const spec = obj.spec ?? {};
  if (obj.kind === 'SidecarSet') return [spec.containers ?? [], spec.initContainers ?? []];
  if (obj.kind === 'UnitedDeployment') {
    const t = spec.template ?? {};
    const inner =
      t.cloneSetTemplate ?? t.advancedStatefulSetTemplate ?? t.statefulSetTemplate ?? t.deploymentTemplate;
    return [inner?.spec?.template?.spec?.containers ?? []];
  }
  return [spec.template?.spec?.containers ?? [], spec.template?.spec?.initContainers ?? []];
}

/** Where a kind keeps its partition and pause: CloneSet/SidecarSet on updateStrategy, the others on rollingUpdate. */
function strategyOf(obj: J): J {
  obj.spec ??= {};
  if (obj.kind === 'CloneSet' || obj.kind === 'SidecarSet') {
    obj.spec.updateStrategy ??= {};
    return obj.spec.updateStrategy;
  }
  if (obj.kind === 'UnitedDeployment') {
    obj.spec.updateStrategy ??= {};
    obj.spec.updateStrategy.manualUpdate ??= {};
    return obj.spec.updateStrategy.manualUpdate;
  }
  obj.spec.updateStrategy ??= {};
  obj.spec.updateStrategy.rollingUpdate ??= {};
  return obj.spec.updateStrategy.rollingUpdate;
}

/** The changed workload, a sentence per change, and errors (nothing is applied when there are any). */
export function applyChange(
  live: KubeObject,
  change: ForecastChange,
): { object?: KubeObject; description: string[]; errors: string[] } {
  const errors: string[] = [];
  const description: string[] = [];
  let obj = structuredClone(live) as J;
  if (change.manifest) {
    const m = change.manifest as J;
    if (m.kind !== live.kind || m.metadata?.name !== live.metadata.name)
      errors.push(`the manifest is ${m.kind}/${m.metadata?.name}, not ${live.kind}/${live.metadata.name}`);
    else {
      obj.spec = structuredClone(m.spec ?? {});
      if (m.metadata?.labels) obj.metadata.labels = { ...m.metadata.labels };
      if (m.metadata?.annotations)
        obj.metadata.annotations = { ...obj.metadata.annotations, ...m.metadata.annotations };
      description.push('apply the manifest');
    }
  }
  if (change.patch !== undefined) {
    if (typeof change.patch !== 'object' || change.patch === null || Array.isArray(change.patch))
      errors.push('the patch must be a JSON merge patch object');
    else {
      obj = mergePatch(obj, change.patch) as J;
      description.push(`merge patch ${JSON.stringify(change.patch)}`);
    }
  }
  for (const [name, image] of Object.entries(change.setImages ?? {})) {
    const found = containerLists(obj)
      .flat()
      .filter((c) => name === '*' || c.name === name);
    if (found.length === 0) {
      const names =
        containerLists(obj)
          .flat()
          .map((c) => c.name)
          .join(', ') || 'none';
      errors.push(`${live.kind} ${live.metadata.name} has no container ${name} (containers: ${names})`);
      continue;
    }
    for (const c of found) c.image = image;
    description.push(`set image ${name}=${image}`);
  }
  if (change.partition !== undefined) {
    if (obj.kind === 'UnitedDeployment')
      errors.push('a UnitedDeployment takes partitions per subset: use --patch');
    else {
      strategyOf(obj).partition = change.partition;
      description.push(`partition ${change.partition}`);
    }
  }
  if (change.paused !== undefined) {
    strategyOf(obj).paused = change.paused;
    description.push(change.paused ? 'pause' : 'resume');
  }
  if (description.length === 0 && errors.length === 0)
    errors.push('no change given (--set-image, --partition, --patch or -f <manifest>)');
  return errors.length ? { description, errors } : { object: obj as KubeObject, description, errors };
}
