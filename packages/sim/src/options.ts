// Options and counters of a simulation, and the default cluster.
import type { AdmissionChain, LogLevel, NodeConfig, Timings } from '@kruise-ts/cluster';
import type { FeatureGates } from '@kruise-ts/core';
import type { ControllerRegistry } from './controllers';
import type { ScheduledFailure } from './failures';
import type { InvariantConfig, InvariantName } from './invariants';

/** Options of a simulation. */
export interface SimulationOptions {
  /** Seed of every random choice (names, uids, jitter, failures). Default 1. */
  seed?: number;
  /** RFC 3339 start of simulated time. Default 2024-01-01T00:00:00Z. */
  startTime?: string;
  /** The nodes. Default: three nodes `node-1`..`node-3` with 4 cpu, 16Gi, 110 pods. */
  nodes?: NodeConfig[];
  timings?: Partial<Timings>;
  featureGates?: Partial<FeatureGates>;
  /** Controllers (default: every controller kruise-ts ships). */
  registry?: ControllerRegistry;
  /** Extra admission hooks (controllers' own hooks are installed too). */
  admission?: AdmissionChain;
  /** Every scheduled time is rounded up to a multiple of this. Default 1000 ms. */
  resolutionMs?: number;
  logLevel?: LogLevel;
  /**
   * How many event-log records the simulation keeps, the most recent ones (default
   * `DEFAULT_EVENT_LOG_CAPACITY`, 10 000); `Infinity` keeps the full log.
   */
  eventLogCapacity?: number;
  invariants?: (InvariantConfig | InvariantName)[];
  failures?: ScheduledFailure[];
  /** Deep-freeze stored objects (tests). */
  freezeObjects?: boolean;
  /** A key reconciled more often than this in one step is deferred to the next step. Default 50. */
  maxReconcilesPerStep?: number;
}

/** Counters for the summary. */
export interface SimStats {
  reconciles: number;
  podsCreated: number;
  podsDeleted: number;
  podsUpdatedInPlace: number;
  actionsFailed: number;
  steps: number;
}

/** The default three-node cluster. */
export function defaultNodes(): NodeConfig[] {
  return [1, 2, 3].map((i) => ({ name: `node-${i}` }));
}
