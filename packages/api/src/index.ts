// @kruise-ts/api: Kruise CRD types, defaulting, well-known keys, the manifest reader and
// the CRD manifests. Depends on nothing but kubernetes-types (types) and yaml.
export * from './advancedcronjob';
export * from './annotationsSize';
export * from './broadcastjob';
export * from './cloneset';
export * from './constants';
export * from './containerrecreaterequest';
export { crdSchema, type JSONSchema, kindSchema } from './crdSchemas';
export * from './crds';
export * from './daemonset';
export {
  DEFAULT_REVISION_HISTORY_LIMIT,
  type DefaultingFeatureGates,
  type DefaultingOptions,
  defaultingGateDefaults,
} from './defaulting';
export * from './imagelistpulljob';
export {
  IMAGE_PULL_DEFAULT_BACKOFF_LIMIT,
  IMAGE_PULL_DEFAULT_TIMEOUT_SECONDS,
  type ImagePullJob,
  type ImagePullJobNodeSelector,
  type ImagePullJobPodSelector,
  type ImagePullJobSpec,
  type ImagePullJobStatus,
  type ImagePullJobTemplate,
  type ImagePullPolicy,
  type PullPolicy,
  type SandboxConfig,
  setDefaultsImagePullJob,
} from './imagepulljob';
export * from './imageRef';
export * from './kinds';
export * from './manifest';
export * from './meta';
export * from './nameValidation';
export * from './nodeimage';
export {
  DEFAULT_SCHEDULER_NAME,
  DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS,
  DEFAULT_TERMINATION_MESSAGE_PATH,
  DEFAULT_VOLUME_MODE,
  defaultImagePullPolicy,
  setDefaultsContainer,
  setDefaultsPersistentVolumeClaim,
  setDefaultsPodSpec,
  setDefaultsPodTemplateSpec,
  VOLUME_SOURCE_KEYS,
} from './podTemplateDefaults';
export * from './pub';
export * from './sidecarset';
export * from './statefulset';
export * from './structure';
export * from './uniteddeployment';
export * from './yamlDocuments';
