// The Kubernetes pod-spec and PVC defaults Kruise's webhooks inject into workload
// templates (kruise `SetDefaultPodSpec`, built from Kubernetes v1.30's
// `SetDefaults_PodSpec`, `SetDefaults_Container`, volume and probe defaults;
// docs/reference/cloneset.md §2.1 "pod defaults", sidecarset.md SS-1.2.3/SS-1.2.4,
// advancedcronjob.md AC1.3). The `apply*` functions mutate a private copy the
// caller owns; the exported `setDefaults*` wrappers return new objects.
import type { Container, PersistentVolumeClaim, PodSpec, PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import { clone, defaultEmpty, defaultNil, isObject, type Obj } from './defaulting';
import { imageTag } from './imageRef';

/** Default `terminationGracePeriodSeconds` (Kubernetes `DefaultTerminationGracePeriodSeconds`). */
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
/** Default scheduler name. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
/** Default container `terminationMessagePath`. */
export const DEFAULT_TERMINATION_MESSAGE_PATH = '/dev/termination-log';
/** Default file mode of secret, configMap, downwardAPI and projected volumes (0644). */
export const DEFAULT_VOLUME_MODE = 420;

/**
 * The default `imagePullPolicy` for an image: `Always` when the tag Kubernetes' parser reports is
 * `latest` (written `:latest`, or no tag and no digest), else `IfNotPresent` (also for a
 * digest-only or unparsable reference).
 *
 * Example: `nginx` → `Always`; `nginx:latest` → `Always`; `nginx:1.25` → `IfNotPresent`;
 * `reg:5000/app` → `Always` (`5000` is a port, not a tag).
 */
export function defaultImagePullPolicy(image: string | undefined): 'Always' | 'IfNotPresent' {
  return imageTag(image ?? '') === 'latest' ? 'Always' : 'IfNotPresent';
}

function applyFieldRef(ref: unknown): void {
  if (isObject(ref)) defaultEmpty(ref, 'apiVersion', 'v1');
}

function applyHttpGet(h: unknown): void {
  if (!isObject(h)) return;
  defaultEmpty(h, 'path', '/');
  defaultEmpty(h, 'scheme', 'HTTP');
}

function applyProbe(p: unknown): void {
  if (!isObject(p)) return;
  // SetDefaults_Probe: a zero value counts as unset.
  if (!p.timeoutSeconds) p.timeoutSeconds = 1;
  if (!p.periodSeconds) p.periodSeconds = 10;
  if (!p.successThreshold) p.successThreshold = 1;
  if (!p.failureThreshold) p.failureThreshold = 3;
  applyHttpGet(p.httpGet);
}

/**
 * Container defaults (mutates `c`): imagePullPolicy, terminationMessagePath `/dev/termination-log`,
 * terminationMessagePolicy `File`, port protocol `TCP`, env fieldRef apiVersion `v1`, liveness and
 * readiness probe defaults (timeout 1, period 10, success 1, failure 3, httpGet path `/` and scheme
 * `HTTP`), and httpGet defaults in lifecycle handlers.
 */
export function applyContainerDefaults(c: Obj): void {
  if (!isObject(c)) return;
  if (c.imagePullPolicy === undefined || c.imagePullPolicy === null || c.imagePullPolicy === '') {
    c.imagePullPolicy = defaultImagePullPolicy(typeof c.image === 'string' ? c.image : '');
  }
  defaultEmpty(c, 'terminationMessagePath', DEFAULT_TERMINATION_MESSAGE_PATH);
  defaultEmpty(c, 'terminationMessagePolicy', 'File');
  if (Array.isArray(c.ports)) for (const p of c.ports) if (isObject(p)) defaultEmpty(p, 'protocol', 'TCP');
  if (Array.isArray(c.env)) for (const e of c.env) if (isObject(e)) applyFieldRef(e.valueFrom?.fieldRef);
  applyProbe(c.livenessProbe);
  applyProbe(c.readinessProbe);
  if (isObject(c.lifecycle)) {
    applyHttpGet(c.lifecycle.postStart?.httpGet);
    applyHttpGet(c.lifecycle.preStop?.httpGet);
  }
}

/** The volume source fields of a core/v1 Volume (exactly one must be set). */
export const VOLUME_SOURCE_KEYS: readonly string[] = [
  'hostPath',
  'emptyDir',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'persistentVolumeClaim',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'downwardAPI',
  'fc',
  'azureFile',
  'configMap',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'projected',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
  'image',
];

/** True when a volume names any source (Kubernetes `SetDefaults_Volume` gives `emptyDir` otherwise). */
export function volumeHasSource(v: Obj): boolean {
  return VOLUME_SOURCE_KEYS.some((k) => v[k] !== undefined && v[k] !== null);
}

/**
 * Volume defaults (mutates `v`): a volume with no source becomes `emptyDir: {}`; hostPath `type`
 * `""`; secret/configMap/downwardAPI/projected `defaultMode` 420; downward-API fieldRef apiVersion
 * `v1`; service-account token `expirationSeconds` 3600; iSCSI, RBD, AzureDisk and ScaleIO defaults.
 */
export function applyVolumeDefaults(v: Obj): void {
  if (!isObject(v)) return;
  if (!volumeHasSource(v)) v.emptyDir = {};
  if (isObject(v.hostPath)) defaultNil(v.hostPath, 'type', '');
  for (const k of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    if (isObject(v[k])) defaultNil(v[k], 'defaultMode', DEFAULT_VOLUME_MODE);
  }
  if (isObject(v.downwardAPI) && Array.isArray(v.downwardAPI.items)) {
    for (const it of v.downwardAPI.items) applyFieldRef(it?.fieldRef);
  }
  if (isObject(v.projected) && Array.isArray(v.projected.sources)) {
    for (const s of v.projected.sources) {
      if (!isObject(s)) continue;
      if (isObject(s.downwardAPI) && Array.isArray(s.downwardAPI.items)) {
        for (const it of s.downwardAPI.items) applyFieldRef(it?.fieldRef);
      }
      if (isObject(s.serviceAccountToken)) defaultNil(s.serviceAccountToken, 'expirationSeconds', 3600);
    }
  }
  if (isObject(v.iscsi)) defaultEmpty(v.iscsi, 'iscsiInterface', 'default');
  if (isObject(v.rbd)) {
    defaultEmpty(v.rbd, 'pool', 'rbd');
    defaultEmpty(v.rbd, 'user', 'admin');
    defaultEmpty(v.rbd, 'keyring', '/etc/ceph/keyring');
  }
  if (isObject(v.azureDisk)) {
    defaultNil(v.azureDisk, 'cachingMode', 'ReadWrite');
    defaultNil(v.azureDisk, 'fsType', 'ext4');
    defaultNil(v.azureDisk, 'readOnly', false);
    defaultNil(v.azureDisk, 'kind', 'Shared');
  }
  if (isObject(v.scaleIO)) {
    defaultEmpty(v.scaleIO, 'storageMode', 'ThinProvisioned');
    defaultEmpty(v.scaleIO, 'fsType', 'xfs');
  }
}

/**
 * Pod-spec defaults (mutates `spec`): dnsPolicy `ClusterFirst`, restartPolicy `Always`,
 * securityContext `{}`, terminationGracePeriodSeconds 30, schedulerName `default-scheduler`, then
 * volume and (init) container defaults.
 */
export function applyPodSpecDefaults(spec: Obj): void {
  if (!isObject(spec)) return;
  defaultEmpty(spec, 'dnsPolicy', 'ClusterFirst');
  defaultEmpty(spec, 'restartPolicy', 'Always');
  defaultNil(spec, 'securityContext', {});
  defaultNil(spec, 'terminationGracePeriodSeconds', DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS);
  defaultEmpty(spec, 'schedulerName', DEFAULT_SCHEDULER_NAME);
  if (Array.isArray(spec.volumes)) for (const v of spec.volumes) applyVolumeDefaults(v);
  if (Array.isArray(spec.initContainers)) for (const c of spec.initContainers) applyContainerDefaults(c);
  if (Array.isArray(spec.containers)) for (const c of spec.containers) applyContainerDefaults(c);
}

/** Template defaults (mutates `t`): the pod-spec defaults on `t.spec`, creating it if absent. */
export function applyPodTemplateDefaults(t: Obj): void {
  if (!isObject(t)) return;
  if (!isObject(t.spec)) t.spec = {};
  applyPodSpecDefaults(t.spec);
}

/**
 * PVC template defaults (mutates `pvc`): `spec.volumeMode` `Filesystem` and `status.phase` `Pending`
 * (Kubernetes `SetDefaults_PersistentVolumeClaim` / `...ClaimSpec`).
 */
export function applyPersistentVolumeClaimDefaults(pvc: Obj): void {
  if (!isObject(pvc)) return;
  if (!isObject(pvc.spec)) pvc.spec = {};
  defaultNil(pvc.spec, 'volumeMode', 'Filesystem');
  if (!isObject(pvc.status)) pvc.status = {};
  defaultEmpty(pvc.status, 'phase', 'Pending');
}

/** Returns a new PodSpec with the Kubernetes pod-spec defaults applied (see `applyPodSpecDefaults`). */
export function setDefaultsPodSpec(spec: PodSpec): PodSpec {
  const out = clone(spec) as Obj;
  applyPodSpecDefaults(out);
  return out as PodSpec;
}

/**
 * Returns a new PodTemplateSpec with the pod-spec defaults applied.
 *
 * Example: `{spec: {containers: [{name: 'main', image: 'nginx:1.25'}]}}` becomes
 * `{spec: {containers: [{name: 'main', image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent',
 * terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File'}],
 * restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst',
 * securityContext: {}, schedulerName: 'default-scheduler'}}`.
 */
export function setDefaultsPodTemplateSpec(template: PodTemplateSpec): PodTemplateSpec {
  const out = clone(template) as Obj;
  applyPodTemplateDefaults(out);
  return out as PodTemplateSpec;
}

/** Returns a new Container with the container defaults applied (see `applyContainerDefaults`). */
export function setDefaultsContainer(container: Container): Container {
  const out = clone(container) as Obj;
  applyContainerDefaults(out);
  return out as Container;
}

/** Returns a new PVC with the PVC defaults applied (see `applyPersistentVolumeClaimDefaults`). */
export function setDefaultsPersistentVolumeClaim(pvc: PersistentVolumeClaim): PersistentVolumeClaim {
  const out = clone(pvc) as Obj;
  applyPersistentVolumeClaimDefaults(out);
  return out as PersistentVolumeClaim;
}
