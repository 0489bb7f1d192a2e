// The controller contract (docs/architecture.md "The registry layer"): kind references, the
// object reader every shell implements once, and the descriptor each workload controller
// package exports. The explicit list of what @kruise-ts/core exports from here.
export {
  type AnyControllerDescriptor,
  type ControllerDriver,
  type DescriptorVisitor,
  type DrivenAdmission,
  type DrivenReconcile,
  defineController,
  driverOf,
} from './anyDescriptor';
export {
  type AdmissionEnv,
  type AdmissionHooks,
  type ControllerDescriptor,
  NOTHING_TO_ENQUEUE,
  type ObjectChange,
  type ReconcileEnv,
} from './descriptor';
export {
  apiGroupOf,
  asKind,
  CONFIG_MAP,
  CONTROLLER_REVISION,
  isKind,
  isKubeObject,
  isOfKind,
  JOB,
  type KindRef,
  kindRef,
  NAMESPACE,
  NODE,
  onlyOfKind,
  POD,
  PVC,
  SECRET,
} from './kindRef';
export {
  controllerOf,
  controllerRefOfKind,
  type ObjectReader,
  type ObservedObject,
  objectReaderOf,
} from './objectReader';
