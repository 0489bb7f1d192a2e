// Building the containers one SidecarSet injects into a pod (docs/reference/sidecarset.md SS-4.4,
// SS-4.5): the env (IS_INJECTED, transferEnv, subPathExpr envs), shared volume mounts,
// the volume pool, native sidecars, and the hot-upgrade pair expansion.
import {
  ANNOTATION_PREFIX_SIDECARSET_VERSION,
  ANNOTATION_PREFIX_SIDECARSET_VERSION_ALT,
  ENV_IS_INJECTED,
  ENV_SIDECARSET_VERSION,
  ENV_SIDECARSET_VERSION_ALT,
  type PodInjectPolicyType,
  type SidecarContainer,
  type SidecarSet,
  type TransferEnvVar,
} from '@kruise-ts/api';
import { isQualifiedName } from '@kruise-ts/core';
import type {
  Container,
  EnvVar,
  LocalObjectReference,
  ObjectFieldSelector,
  Pod,
  Volume,
  VolumeMount,
} from 'kubernetes-types/core/v1.js';
import { hotUpgradeContainerNames, sortedSet } from './annotations';

/** A container to merge into the pod, with the policy that places it (SS-4.6.2). */
export interface InjectedContainer {
  container: Container;
  policy: PodInjectPolicyType | '' | string;
}

/** What one SidecarSet contributes to a pod (SS-4.4). */
export interface SidecarSetInjection {
  initContainers: InjectedContainer[];
  containers: InjectedContainer[];
  /** SidecarSet volumes mounted by the injected containers' own mounts, in order (SS-4.6.4). */
  volumes: Volume[];
  imagePullSecrets: LocalObjectReference[];
  /** Sorted names: containers and native-sidecar init containers (SS-4.5.4: base names). */
  sidecarList: string[];
  /** SS-4.4.6: the SidecarSet declares containers or init containers. */
  injecting: boolean;
  /** SS-4.5.3: annotations written for hot-upgrade pairs, as `[key, value]`. */
  hotAnnotations: [string, string][];
  /** SS-4.5.3: `[base name, working container]` (`S` → `S-1`). */
  hotWorking: [string, string][];
}

const SUBSCRIPTED_FIELD = /^(metadata\.(?:labels|annotations))\['(.*)'\]$/;

/**
 * Kruise's `ConvertDownwardAPIFieldLabel` as used for `transferEnv` (V8): the version must be
 * `v1` and the path a subscripted `metadata.labels['k']` / `metadata.annotations['k']` with a
 * qualified-name key (the annotation key is lowercased first). Anything else is an error.
 *
 * Example (upstream `TestConvertDownwardAPIFieldLabel`): `("v1", "metadata.labels['myLabelKey']", v)`
 * → ok; `("v2", "metadata.name")`, `("v1", "metadata.name")`, `("v1", "metadata.labels")` → error.
 */
export function convertDownwardAPIFieldLabel(
  version: string,
  label: string,
  value: string,
): { label: string; value: string } | { error: string } {
  if (version !== 'v1') return { error: `unsupported pod version: ${version}` };
  const m = SUBSCRIPTED_FIELD.exec(label);
  if (!m) return { error: `field label not supported: ${label}` };
  const key = m[1] === 'metadata.annotations' ? m[2].toLowerCase() : m[2];
  const errs = isQualifiedName(key);
  if (errs.length > 0) return { error: `invalid key ${m[2]}: ${errs.join('; ')}` };
  return { label, value };
}

/**
 * SS-4.4.5: the source container name a `sourceContainerNameFrom.fieldRef` points at: the value
 * of the pod label / annotation named by a subscripted `metadata.labels['k']` or
 * `metadata.annotations['k']`; a missing key gives `""`; any other path or an invalid key gives
 * an error (the transferEnv entry is skipped).
 *
 * Example (upstream `TestExtractContainerNameFromFieldPath`): `metadata.labels['test-label']` on a
 * pod without that label → `""`.
 */
export function extractContainerNameFromFieldPath(
  fieldRef: ObjectFieldSelector,
  pod: Pod,
): { containerName: string } | { error: string } {
  const m = SUBSCRIPTED_FIELD.exec(fieldRef.fieldPath ?? '');
  if (!m) return { error: `field path not supported: ${fieldRef.fieldPath}` };
  const key = m[2];
  const check = m[1] === 'metadata.annotations' ? key.toLowerCase() : key;
  if (isQualifiedName(check).length > 0) return { error: `invalid key ${key}` };
  const map = m[1] === 'metadata.labels' ? pod.metadata?.labels : pod.metadata?.annotations;
  return { containerName: map?.[key] ?? '' };
}

/**
 * SS-4.4.5 transfer envs of a sidecar: for each `transferEnv` entry, the names `envName` ∪
 * `envNames` (deduplicated, sorted) are copied (value or valueFrom, as is) from the source app
 * container's env (regular containers only); names the source lacks are skipped silently.
 *
 * Example (upstream `TestGetSidecarTransferEnvs/0`): `{envName: test-env, sourceContainerName: main}`
 * with `main` declaring `test-env=test-value` → `[{name: test-env, value: test-value}]`.
 */
export function getSidecarTransferEnvs(sidecar: { transferEnv?: TransferEnvVar[] }, pod: Pod): EnvVar[] {
  const out: EnvVar[] = [];
  for (const t of sidecar.transferEnv ?? []) {
    let source = t.sourceContainerName ?? '';
    if (t.sourceContainerNameFrom?.fieldRef) {
      const r = extractContainerNameFromFieldPath(t.sourceContainerNameFrom.fieldRef, pod);
      if ('error' in r) continue;
      source = r.containerName;
    }
    const names = sortedSet([...(t.envName ? [t.envName] : []), ...(t.envNames ?? [])]);
    const app = (pod.spec?.containers ?? []).find((c) => c.name === source);
    if (!app) continue;
    for (const n of names) {
      const env = (app.env ?? []).find((e) => e.name === n);
      if (env) out.push(env);
    }
  }
  return out;
}

/** The marker every injected container carries (SS-4.4.3); shared, never mutated. */
const IS_INJECTED_ENV: EnvVar = Object.freeze({ name: ENV_IS_INJECTED, value: 'true' }) as EnvVar;

const SUBPATH_REF = /\$\(([-._a-zA-Z][-._a-zA-Z0-9]*)\)/g;

function isInjectedContainer(c: Container): boolean {
  return (c.env ?? []).some((e) => e.name === ENV_IS_INJECTED && e.value === 'true');
}

/**
 * SS-4.4.4 `shareVolumePolicy: enabled`: the volume mounts of every app container (regular
 * containers without `IS_INJECTED=true`), in container and mount order, appended to the
 * sidecar's mounts unless the mountPath is already there; and the env vars named by `$(NAME)` in
 * their `subPathExpr`, taken from the same app container.
 */
function sharedMounts(pod: Pod, own: readonly VolumeMount[]): { mounts: VolumeMount[]; envs: EnvVar[] } {
  const mounts = [...own];
  const paths = new Set(own.map((m) => m.mountPath));
  const envs: EnvVar[] = [];
  for (const app of pod.spec?.containers ?? []) {
    if (isInjectedContainer(app)) continue;
    for (const m of app.volumeMounts ?? []) {
      if (!paths.has(m.mountPath)) {
        mounts.push(m);
        paths.add(m.mountPath);
      }
      if (m.subPathExpr) {
        for (const ref of m.subPathExpr.matchAll(SUBPATH_REF)) {
          const env = (app.env ?? []).find((e) => e.name === ref[1]);
          if (env) envs.push(env);
        }
      }
    }
  }
  return { mounts, envs };
}

/**
 * SS-4.4.3, SS-4.4.4, SS-4.4.7: the pod container for a sidecar: the SidecarSet-only fields
 * dropped, env = own env + `IS_INJECTED=true` + transfer envs + subPathExpr envs (a name already
 * present is skipped), mounts shared when `shareVolumePolicy` is enabled.
 */
export function buildSidecarContainer(sidecar: SidecarContainer, pod: Pod): Container {
  const out = {} as Container;
  for (const k in sidecar) {
    if (
      k === 'podInjectPolicy' ||
      k === 'upgradeStrategy' ||
      k === 'shareVolumePolicy' ||
      k === 'transferEnv'
    )
      continue;
    (out as unknown as Record<string, unknown>)[k] = (sidecar as unknown as Record<string, unknown>)[k];
  }
  const env: EnvVar[] = sidecar.env ? [...sidecar.env, IS_INJECTED_ENV] : [IS_INJECTED_ENV];
  let extra = sidecar.transferEnv?.length ? getSidecarTransferEnvs(sidecar, pod) : [];
  if (sidecar.shareVolumePolicy?.type === 'enabled') {
    const shared = sharedMounts(pod, sidecar.volumeMounts ?? []);
    out.volumeMounts = shared.mounts;
    if (shared.envs.length > 0) extra = [...extra, ...shared.envs];
  }
  if (extra.length > 0) {
    const names = new Set(env.map((e) => e.name));
    for (const e of extra) {
      if (names.has(e.name)) continue;
      names.add(e.name);
      env.push(e);
    }
  }
  out.env = env;
  return out;
}

function versionEnv(name: string, prefix: string, own: string): EnvVar {
  return {
    name,
    valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${prefix}${own}']` } },
  } as EnvVar;
}

/** One container of a hot-upgrade pair: `base` renamed, with its own image and version envs (SS-4.5.2). */
function pairMember(base: Container, name: string, image: string | undefined): Container {
  const c: Container = {
    ...base,
    name,
    env: [
      ...(base.env ?? []),
      versionEnv(ENV_SIDECARSET_VERSION, ANNOTATION_PREFIX_SIDECARSET_VERSION, name),
      versionEnv(ENV_SIDECARSET_VERSION_ALT, ANNOTATION_PREFIX_SIDECARSET_VERSION_ALT, name),
    ],
  };
  if (image === undefined) delete c.image;
  else c.image = image;
  return c;
}

/**
 * SS-4.5: a HotUpgrade sidecar `S` becomes `S-1` (working, image `S.image`) and `S-2` (empty,
 * image `hotUpgradeEmptyImage`), each with `SIDECARSET_VERSION` / `SIDECARSET_VERSION_ALT` env
 * vars reading `version.sidecarset.kruise.io/<own name>` / `versionalt.…/<own name>`.
 */
export function expandHotUpgrade(
  base: Container,
  emptyImage: string,
): { containers: [Container, Container]; annotations: [string, string][] } {
  const [n1, n2] = hotUpgradeContainerNames(base.name);
  return {
    containers: [pairMember(base, n1, base.image), pairMember(base, n2, emptyImage)],
    annotations: [
      [`${ANNOTATION_PREFIX_SIDECARSET_VERSION}${n1}`, '1'],
      [`${ANNOTATION_PREFIX_SIDECARSET_VERSION_ALT}${n1}`, '0'],
      [`${ANNOTATION_PREFIX_SIDECARSET_VERSION}${n2}`, '0'],
      [`${ANNOTATION_PREFIX_SIDECARSET_VERSION_ALT}${n2}`, '1'],
    ],
  };
}

/** SS-4.4.1 b–d / SS-4.4.2 b–d for one sidecar: pooled volumes, the built container, the hot pair. */
function emitSidecar(
  res: SidecarSetInjection,
  sidecar: SidecarContainer,
  pod: Pod,
  volumes: readonly Volume[],
  hot: boolean,
  into: InjectedContainer[],
): void {
  for (const m of sidecar.volumeMounts ?? []) {
    for (const v of volumes) {
      if (v.name === m.name) {
        res.volumes.push(v);
        break;
      }
    }
  }
  const built = buildSidecarContainer(sidecar, pod);
  const policy = sidecar.podInjectPolicy ?? '';
  if (!hot) {
    into.push({ container: built, policy });
    return;
  }
  const pair = expandHotUpgrade(built, sidecar.upgradeStrategy?.hotUpgradeEmptyImage ?? '');
  for (const c of pair.containers) into.push({ container: c, policy });
  for (const a of pair.annotations) res.hotAnnotations.push(a);
  res.hotWorking.push([sidecar.name, pair.containers[0].name]);
}

/**
 * SS-4.4.1 / SS-4.4.2: everything one (resolved) SidecarSet contributes to `pod` (the pod as it
 * was before injection): init containers (native sidecars into `sidecarList`; a native HotUpgrade
 * sidecar is expanded), containers (all into `sidecarList`; HotUpgrade ones expanded), the pool
 * of SidecarSet volumes named by their own mounts, and the image pull secrets.
 *
 * A mount naming a volume the SidecarSet does not declare is skipped (v1.8.2 crashes; V8
 * rejects such SidecarSets).
 */
export function buildSidecarSetInjection(sidecarSet: SidecarSet, pod: Pod): SidecarSetInjection {
  const spec = sidecarSet.spec ?? {};
  const volumes = spec.volumes ?? [];
  const res: SidecarSetInjection = {
    initContainers: [],
    containers: [],
    volumes: [],
    imagePullSecrets: [],
    sidecarList: [],
    injecting: (spec.initContainers ?? []).length + (spec.containers ?? []).length > 0,
    hotAnnotations: [],
    hotWorking: [],
  };
  const list: string[] = [];
  for (const c of spec.initContainers ?? []) {
    const native = c.restartPolicy === 'Always';
    if (native) list.push(c.name);
    emitSidecar(
      res,
      c,
      pod,
      volumes,
      native && c.upgradeStrategy?.upgradeType === 'HotUpgrade',
      res.initContainers,
    );
  }
  for (const sec of spec.imagePullSecrets ?? []) res.imagePullSecrets.push(sec);
  for (const c of spec.containers ?? []) {
    list.push(c.name);
    emitSidecar(res, c, pod, volumes, c.upgradeStrategy?.upgradeType === 'HotUpgrade', res.containers);
  }
  res.sidecarList = list.length <= 1 ? list : sortedSet(list);
  return res;
}
