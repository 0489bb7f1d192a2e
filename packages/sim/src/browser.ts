// @kruise-ts/sim/browser: the simulator without its Kubernetes API server, for a browser or a web
// worker. The same names as the package's main entry, except what the API server needs Node for
// (HTTP, TLS, files); the API server's pure table printers stay, so a page can print `kubectl get`.
// test/browser-clean.test.ts bundles this entry for the browser and checks it keeps in step with
// the main entry.

export {
  AdmissionChain,
  type AdmissionContext,
  type AdmissionHooks,
  type AdmissionResult,
  DELETION_PROTECTED_KINDS,
  type Defaulter,
  type DeleteAdmissionContext,
  type DeleteAdmissionResult,
  type DeleteDenial,
  type DeleteValidator,
  deletionProtectionValidator,
  installDeletionProtection,
  invalidMessage,
  type Mutator,
  type Validator,
} from './admission';
export { podRow } from './apiserver/printers';
export { compareVersions, Registry, type ResourceInfo } from './apiserver/registry';
export { toTable } from './apiserver/tables';
export { defaultTimings, type SimContext, type SimPayload, type Timings } from './context';
export {
  type ControllerRegistration,
  ControllerRegistry,
  defaultRegistry,
  NO_WATCHED,
  ownedOfKind,
  type ReconcileEnv,
  registerController,
} from './controllers';
export { EventQueue, type Scheduled } from './eventQueue';
export { EventLog, type LogLevel, type SimEvent } from './events';
export {
  cloneSetBudget,
  cloneSetPodAvailable,
  INVARIANT_NAMES,
  InvariantChecker,
  type InvariantConfig,
  type InvariantName,
  type InvariantReport,
  isInvariantName,
  type Violation,
} from './invariants';
export { apiVersionOf, displayName, keyOf, objectKey } from './keys';
export { admitCloneSet, cloneSetController } from './kinds/cloneset';
export {
  DEFAULT_JOB_RUN_SECONDS,
  isJobFinished,
  JOB_RUN_SECONDS_ANNOTATION,
  jobController,
  jobRunSeconds,
  reconcileJob,
} from './kinds/job';
export { Kubelet } from './kubelet';
export { DEFAULT_NODE_CAPACITY, type NodeConfig, NodeLifecycle, nodeObject } from './nodes';
export { type ContainerRuntime, composeStatus, imageIDOf, type PodRuntime } from './podStatus';
export { escapeHtml, renderHtmlReport } from './report/html';
export { formatSummary, type RunSummary, summarize } from './report/summary';
export { CLONESET_COLUMNS, cloneSetRow, columnWidths, formatRow, formatTable } from './report/table';
export { type RevisionCount, Timeline, type TimelineSample, type WorkloadTimeline } from './report/timeline';
export { getPath, meetsCondition, meetsFields } from './scenario/conditions';
export {
  formatScenarioError,
  type ParseOptions,
  parseScenario,
  parseScenarioObject,
  type ScenarioError,
} from './scenario/parse';
export {
  createSimulation,
  describeStep,
  type RunOptions,
  type RunResult,
  runScenario,
  type StepResult,
  simulationOptionsFor,
} from './scenario/run';
export { formatPath, type Schema, type SchemaError, validateSchema } from './scenario/schema';
export {
  SCENARIO_API_VERSION,
  type Scenario,
  type Step,
  type StepTarget,
  scenarioSchema,
  stepSchema,
  type WaitCondition,
} from './scenario/types';
export { isNodeReady, podRequests, Scheduler } from './scheduler';
export {
  defaultNodes,
  type ScheduledFailure,
  type SimStats,
  Simulation,
  type SimulationOptions,
} from './simulation';
export { type Change, Store, type StoreOptions, type WriteResult } from './store';
export {
  DEFAULT_START_TIME,
  formatDuration,
  humanDuration,
  parseDuration,
  rfc3339,
  VirtualClock,
} from './time';
export { WorkQueue } from './workqueue';
