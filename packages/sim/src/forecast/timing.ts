// The timing model a forecast states with its answer: how long an image pull takes (per image, and
// per node and image),
// how long a container takes to start and to pass its readiness probe once started, how long
// containers take to stop, and the spread of each of these: every duration is drawn uniformly in
// [d × (1 − jitter), d × (1 + jitter)] from the run's seed, so a seed names one possible future and
// a sweep over seeds (sweep.ts) gives their spread. Failure injection makes the new revision never
// become ready, or crash-loop, to show where the rollout stops.
import { formatDuration, type Timings } from '@kruise-ts/cluster';

/** The stated timing model of a forecast. */
export interface ForecastTimings {
  /** Pull time of an image not yet on the node. */
  imagePullMs: number;
  /** Pull time per image (exact image string), overriding imagePullMs. */
  imagePullByImage: Record<string, number>;
  /** Pull time per node: node → image (or `*`) → ms, overriding both above (a slow node or a local mirror). */
  imagePullByNode: Record<string, Record<string, number>>;
  /** Image present → container running. */
  containerStartMs: number;
  /** Container running → ready (readiness probe passes). */
  readinessDelayMs: number;
  /** SIGTERM → containers stopped (capped by the grace period). */
  terminationMs: number;
  /** Spread of every duration: uniform within ±jitter (0.2 = ±20 %), seeded. */
  jitter: number;
}

/** What goes wrong with the new revision's pods. */
export type FailureMode = 'none' | 'never-ready' | 'crash-loop';

/** Failure modes by their command-line name. */
export const FAILURE_MODES: readonly FailureMode[] = ['none', 'never-ready', 'crash-loop'];

/** The defaults: a registry pull of 30 s, start 2 s, readiness 5 s, stop 5 s, no spread. */
export const DEFAULT_FORECAST_TIMINGS: ForecastTimings = {
  imagePullMs: 30_000,
  imagePullByImage: {},
  imagePullByNode: {},
  containerStartMs: 2000,
  readinessDelayMs: 5000,
  terminationMs: 5000,
  jitter: 0,
};

/** The simulator's timings for a forecast timing model. */
export function simTimings(t: ForecastTimings): Partial<Timings> {
  return {
    imagePull: {
      defaultMs: t.imagePullMs,
      images: { ...t.imagePullByImage },
      nodes: Object.fromEntries(Object.entries(t.imagePullByNode).map(([n, m]) => [n, { ...m }])),
    },
    containerStartMs: t.containerStartMs,
    readinessDelayMs: t.readinessDelayMs,
    terminationMs: t.terminationMs,
    jitter: t.jitter,
    crashBackoffMs: 10_000,
  };
}

/** The timing model in one sentence, as the forecast states it. */
export function describeTimings(t: ForecastTimings, failure: FailureMode): string {
  const per = [
    ...Object.entries(t.imagePullByImage).map(([img, ms]) => `${img} ${formatDuration(ms)}`),
    ...Object.entries(t.imagePullByNode).flatMap(([node, m]) =>
      Object.entries(m).map(
        ([img, ms]) => `${img === '*' ? 'any image' : img} on ${node} ${formatDuration(ms)}`,
      ),
    ),
  ].join(', ');
  const spread = t.jitter > 0 ? `each uniform within ±${Math.round(t.jitter * 100)}% (seeded)` : 'no spread';
  const fail =
    failure === 'never-ready'
      ? '; failure injected: the new revision never becomes ready'
      : failure === 'crash-loop'
        ? '; failure injected: the new revision crash-loops'
        : '';
  return `image pull ${formatDuration(t.imagePullMs)}${per ? ` (${per})` : ''} per node that lacks the image, container start ${formatDuration(t.containerStartMs)}, readiness ${formatDuration(t.readinessDelayMs)}, stop ${formatDuration(t.terminationMs)}, ${spread}${fail}`;
}
