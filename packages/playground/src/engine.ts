// Runs one session end to end with the simulator's scenario runner and streams what the page
// draws: a frame after every simulated instant, the timeline samples as they are taken, the
// step results, and at the end the summary and the simulator's HTML report. The whole run is
// computed ahead of the page's clock; the page plays, pauses and scrubs over the frames. It runs
// in the Web Worker (worker.ts), so a 10,000-pod rollout never blocks the page.
import {
  describeStep,
  formatSummary,
  renderHtmlReport,
  runScenario,
  type Simulation,
  summarize,
} from '@kruise-ts/sim/browser';
import type { Frame, Session, StepStatus, TimelineDelta, WorkerMessage } from './protocol';
import { changeableWorkloads, joinEditors, placeError, readSession } from './session';
import { Snapshotter } from './snapshot';

/** Frames are sent in batches at most this often (wall ms), so messages stay few on big runs. */
const BATCH_MS = 50;

/** Runs `session`, calling `post` with every message for the page. Never throws. */
export function runSession(
  session: Session,
  post: (m: WorkerMessage) => void,
  readFile?: (relativePath: string) => string,
  wallClock: () => number = () => Date.now(),
): void {
  try {
    const read = readSession(session, readFile);
    if ('errors' in read) {
      post({ type: 'invalid', errors: read.errors });
      return;
    }
    const { scenario, yours } = read;
    post({
      type: 'start',
      name: scenario.name,
      description: scenario.description,
      steps: scenario.steps.map((s, i) => ({ description: describeStep(s), yours: yours[i] ?? false })),
      workloads: changeableWorkloads(scenario.manifests),
      maxDurationMs: scenario.maxDurationMs,
    });
    const snap = new Snapshotter();
    let pending: Frame[] = [];
    let steps: StepStatus[] = [];
    let stepsDone = 0;
    const sent = new Map<string, number>();
    let lastPost = wallClock();
    const flush = (sim: Simulation) => {
      const timeline: TimelineDelta[] = [];
      for (const w of sim.timeline.workloads.values()) {
        const from = sent.get(w.object) ?? 0;
        if (from === w.samples.length) continue;
        timeline.push({ object: w.object, revisions: [...w.revisions], samples: w.samples.slice(from) });
        sent.set(w.object, w.samples.length);
      }
      post({ type: 'frames', frames: pending, timeline, revisions: [...snap.revisions], steps });
      pending = [];
      steps = [];
      lastPost = wallClock();
    };
    const frame = (sim: Simulation) => {
      const f = snap.take(sim, stepsDone);
      // One frame per instant: later writes at the same time replace it.
      if (pending.length > 0 && pending[pending.length - 1].t === f.t) pending[pending.length - 1] = f;
      else pending.push(f);
      if (wallClock() - lastPost >= BATCH_MS) flush(sim);
    };
    const result = runScenario(scenario, {
      onStart: (sim) => {
        sim.onSettle(frame);
      },
      onStepEnd: (r, sim) => {
        stepsDone = r.index + 1;
        steps.push({
          index: r.index,
          status: r.status,
          startedMs: r.startedMs,
          endedMs: r.endedMs,
          message: r.message,
        });
        frame(sim);
      },
    });
    if (result.sim) {
      frame(result.sim);
      // Steps skipped after a failure get no onStepEnd.
      steps.push(...result.steps.filter((s) => s.status === 'skipped').map(({ description: _d, ...s }) => s));
      flush(result.sim);
    }
    // A manifest the API server refused stops the run; its error has the line of its document.
    if (result.errors.length > 0) {
      const { workloadFrom } = joinEditors(session);
      post({ type: 'invalid', errors: result.errors.map((e) => placeError(e, workloadFrom)) });
    }
    post({
      type: 'done',
      status: result.status,
      summary: formatSummary(summarize(result)),
      report: renderHtmlReport(result, { title: `kruise-ts playground: ${scenario.name}` }),
    });
  } catch (e) {
    post({ type: 'crash', message: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) });
  }
}
