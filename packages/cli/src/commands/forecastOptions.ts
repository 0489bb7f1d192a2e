// The shapes the forecast command's modules share: the parsed flags and a prepared forecast (the
// state, the target, the change and the options every run of a sweep reuses). In a module of
// their own so forecast.ts and forecastSweep.ts can both use them without importing each other.
import type { KubeObject } from '@kruise-ts/api';
import type { ForecastChange, ForecastOptions, LiveState } from '@kruise-ts/sim';

/** Options of the forecast command (commander's camel-cased flags). */
export interface ForecastCommandOptions {
  fromCluster?: boolean;
  kubeconfig?: string;
  target?: string;
  namespace?: string;
  setImage?: string[];
  partition?: string;
  pause?: boolean;
  resume?: boolean;
  patch?: string;
  filename?: string;
  seed?: string;
  imagePull?: string;
  imagePullFor?: string[];
  imagePullOn?: string[];
  start?: string;
  readiness?: string;
  stop?: string;
  jitter?: string;
  fail?: string;
  maxDuration?: string;
  stallAfter?: string;
  json?: boolean;
  report?: string;
  runs?: string;
  workers?: string;
  shard?: string;
  out?: string;
  maxInputBytes?: string;
  sweepWorker?: boolean;
}

/** Everything a forecast (or each run of a sweep) needs, parsed and checked. */
export interface PreparedForecast {
  state: LiveState;
  target: KubeObject;
  change: ForecastChange;
  options: ForecastOptions;
  seed: number;
}
