// The messages between the page and the simulation worker, and the data they carry. Everything
// here is plain JSON (structured-clone safe): the worker owns the Simulation, the page only ever
// sees these snapshots.

/** A change the user makes mid-rollout. `value` is an int-or-percent (`2`, `"20%"`) or an image. */
export interface Change {
  field: 'image' | 'partition' | 'maxUnavailable' | 'maxSurge';
  /** The workload: `CloneSet/sample` (namespace `default`) or `CloneSet/ns/sample`. */
  target: string;
  value: string | number;
}

/** A change applied at a frame: the run keeps the first `keepSteps` steps, then the change at `atMs`. */
export interface Edit {
  atMs: number;
  keepSteps: number;
  change: Change;
}

/** What a run is made of: the scenario text, an optional extra workload text, and the user's edits. */
export interface Session {
  scenario: string;
  workload: string;
  edits: Edit[];
}

/** A reader error placed in one of the two editors. */
export interface LineError {
  editor: 'scenario' | 'workload';
  /** 1-based line in that editor, when the reader knows it. */
  line?: number;
  message: string;
}

/** A pod on the node view (sent only for small runs). */
export interface PodView {
  name: string;
  /** Index into the run's revision legend; -1 for a pod without a revision label. */
  rev: number;
  ready: boolean;
  terminating: boolean;
}

/** One node and the pods it runs. */
export interface NodeView {
  name: string;
  ready: boolean;
  /** Active pods per revision index (ready and not ready). */
  counts: { rev: number; ready: number; notReady: number }[];
  terminating: number;
  total: number;
  /** The pods themselves, when the run is small enough to draw one square each. */
  pods?: PodView[];
}

/** An invariant's state at a frame. */
export interface InvariantView {
  name: string;
  objectName?: string;
  checks: number;
  violations: number;
  first?: string;
}

/** The cluster at one simulated instant, as the page draws it. */
export interface Frame {
  /** Simulated ms since the start. */
  t: number;
  /** The clock as RFC 3339. */
  time: string;
  /** Steps finished at this instant (an edit made here keeps them). */
  stepsDone: number;
  /** `kubectl get <kind>` tables. */
  tables: { title: string; text: string }[];
  nodes: NodeView[];
  invariants: InvariantView[];
}

/** A workload's timeline samples (the simulator's `TimelineSample`s), sent as they are taken. */
export interface TimelineDelta {
  object: string;
  revisions: string[];
  samples: {
    t: number;
    byRevision: Record<string, { ready: number; notReady: number }>;
    terminating: number;
    available: number;
    desired: number;
  }[];
}

/** One step of the run, for the step list. */
export interface StepView {
  description: string;
  /** Set by the user's change (not by the scenario). */
  yours: boolean;
}

/** What the worker sends. */
export type WorkerMessage =
  | { type: 'invalid'; errors: LineError[] }
  | {
      type: 'start';
      name: string;
      description?: string;
      steps: StepView[];
      workloads: string[];
      maxDurationMs: number;
    }
  | { type: 'frames'; frames: Frame[]; timeline: TimelineDelta[]; revisions: string[]; steps: StepStatus[] }
  | { type: 'done'; status: 'passed' | 'failed' | 'invalid'; summary: string; report: string }
  | { type: 'crash'; message: string };

/** A step's state as the run goes. */
export interface StepStatus {
  index: number;
  status: 'done' | 'failed' | 'skipped';
  startedMs: number;
  endedMs: number;
  message?: string;
}

/** What the page sends. */
export type PageMessage = { type: 'run'; session: Session };
