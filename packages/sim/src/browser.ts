// @kruise-ts/sim/browser: the simulator without its Kubernetes API server, for a browser or a web
// worker: everything of the package's main entry except what the API server needs Node for (HTTP,
// TLS, files); the API server's pure table printers stay, so a page can print `kubectl get`. The
// main entry (index.ts) is this list plus the API server, so the two cannot drift apart;
// test/browser-clean.test.ts bundles this entry for the browser and fails on any Node built-in.

export {
  AdmissionChain,
  type AdmissionContext,
  type AdmissionHooks,
  type AdmissionResult,
  apiVersionOf,
  type Change,
  type ContainerRuntime,
  composeStatus,
  DEFAULT_MAX_OBJECTS,
  DEFAULT_NODE_CAPACITY,
  DEFAULT_START_TIME,
  DELETION_PROTECTED_KINDS,
  type Defaulter,
  type DeleteAdmissionContext,
  type DeleteAdmissionResult,
  type DeleteDenial,
  type DeleteValidator,
  defaultTimings,
  deletionProtectionValidator,
  displayName,
  EventLog,
  EventQueue,
  formatDuration,
  humanDuration,
  imageIDOf,
  installDeletionProtection,
  invalidMessage,
  isNodeReady,
  type KubeEventRecord,
  Kubelet,
  keyOf,
  kubeMessages,
  type LogLevel,
  type Mutator,
  type NodeConfig,
  NodeLifecycle,
  nodeObject,
  OBJECT_QUOTA_NAME,
  objectKey,
  type PodRuntime,
  parseDuration,
  podRequests,
  type QuotaDenial,
  quotaDenial,
  rfc3339,
  type Scheduled,
  Scheduler,
  type SimContext,
  type SimEvent,
  Store,
  type StoreOptions,
  type Timings,
  type Validator,
  VirtualClock,
  type WriteResult,
} from '@kruise-ts/cluster';
export { podRow } from './apiserver/printers';
export { compareVersions, Registry, type ResourceInfo } from './apiserver/registry';
export { toTable } from './apiserver/tables';
export { AvailabilityMemo } from './availabilityMemo';
export {
  type ControllerRegistration,
  ControllerRegistry,
  createDefaultRegistry,
  defaultRegistry,
  NO_WATCHED,
  ownedOfKind,
  type ReconcileEnv,
  registerController,
} from './controllers';
export {
  analyzeForecast,
  batchesOf,
  belongs,
  type ForecastBatch,
  type ForecastStall,
  type PodWrite,
} from './forecast/analysis';
export { applyChange, type ForecastChange, mergePatch } from './forecast/change';
export {
  batchesHtml,
  forecastAnswers,
  forecastJson,
  formatForecast,
  formatSweep,
  outcomeText,
  sweepRunOf,
} from './forecast/format';
export { FORECAST_KINDS, findTarget, type LiveState, readLiveState, shortName } from './forecast/liveState';
export {
  type ForecastOptions,
  type ForecastResult,
  nodeConfigOf,
  runForecast,
  updateRevisionOf,
} from './forecast/run';
export {
  mergeSweepFiles,
  parseShard,
  percentile,
  type SweepFile,
  type SweepRun,
  type SweepSummary,
  splitSeeds,
  summarizeSweep,
  sweepSeeds,
} from './forecast/sweep';
export {
  DEFAULT_FORECAST_TIMINGS,
  describeTimings,
  FAILURE_MODES,
  type FailureMode,
  type ForecastTimings,
  simTimings,
} from './forecast/timing';
export { type BudgetKind, type WorkloadBudget, workloadBudget } from './invariantBudgets';
export {
  cloneSetBudget,
  cloneSetPodAvailable,
  INVARIANT_KINDS,
  INVARIANT_NAMES,
  InvariantChecker,
  type InvariantConfig,
  type InvariantName,
  type InvariantReport,
  isInvariantName,
  type Verdict,
  type Violation,
} from './invariants';
export { admitCloneSet, cloneSetController } from './kinds/descriptors';
export {
  DEFAULT_JOB_RUN_SECONDS,
  isJobFinished,
  JOB_RUN_SECONDS_ANNOTATION,
  jobController,
  jobRunSeconds,
  reconcileJob,
} from './kinds/job';
export { type NodesFileResult, nodesFromFile, nodesInZones, ZONE_LABEL } from './nodesFile';
export { describeEvent } from './report/events';
export {
  escapeHtml,
  type HtmlReportOptions,
  type ReportAnswer,
  renderHtmlReport,
  runAnswers,
} from './report/html';
export { formatSummary, type RunSummary, summarize } from './report/summary';
export {
  CLONESET_COLUMNS,
  cloneSetRow,
  columnWidths,
  formatRow,
  formatTable,
  kindColumns,
  kindRow,
  TABLE_KINDS,
  unitedSubsetsLine,
} from './report/table';
export {
  CRR_TIMELINE,
  type LaneSegment,
  MAX_LANES,
  type RevisionCount,
  Timeline,
  type TimelineGroupBy,
  type TimelineLane,
  type TimelineLaneBy,
  type TimelineSample,
  type WorkloadTimeline,
} from './report/timeline';
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
export {
  defaultNodes,
  type ScheduledFailure,
  type SimPayload,
  type SimStats,
  Simulation,
  type SimulationOptions,
} from './simulation';
export { WorkQueue } from './workqueue';
