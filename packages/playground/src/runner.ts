// Where a session runs: in a Web Worker, so the page stays responsive while the simulator works
// through thousands of pods. Vite inlines the worker into the page's script (a Blob URL), since a
// worker loaded from its own file is refused on file:// pages. Should a browser refuse the Blob
// worker too, the run falls back to the page's own thread, started after the page has drawn (it
// then blocks the page for as long as the run takes) and says so.

import { runSession } from './engine';
import { readExampleFile } from './examples';
import type { Session, WorkerMessage } from './protocol';
import SimWorker from './worker?worker&inline';

/** A running session; `stop()` ends it (a worker is terminated; its messages stop). */
export interface Run {
  stop(): void;
  /** `worker`, or `main thread` once a worker could not start. */
  where: string;
}

/** Starts `session`; `onMessage` gets every message of the run, in order. */
export function startRun(session: Session, onMessage: (m: WorkerMessage) => void): Run {
  let worker: Worker | undefined;
  try {
    worker = new SimWorker();
  } catch {
    worker = undefined;
  }
  if (!worker) return onMainThread(session, onMessage);
  let heard = false;
  let stopped = false;
  const w = worker;
  w.onmessage = (e: MessageEvent<WorkerMessage>) => {
    heard = true;
    if (!stopped) onMessage(e.data);
  };
  w.onerror = (e) => {
    e.preventDefault();
    w.terminate();
    if (stopped) return;
    // A worker that never answered could not start here: run on the page's thread instead.
    if (!heard) {
      fallback = onMainThread(session, onMessage);
      run.where = fallback.where;
    } else onMessage({ type: 'crash', message: e.message || 'the simulation worker failed' });
  };
  w.postMessage({ type: 'run', session });
  let fallback: Run | undefined;
  const run: Run = {
    where: 'worker',
    stop() {
      stopped = true;
      w.terminate();
      fallback?.stop();
    },
  };
  return run;
}

function onMainThread(session: Session, onMessage: (m: WorkerMessage) => void): Run {
  let stopped = false;
  const timer = setTimeout(() => runSession(session, (m) => stopped || onMessage(m), readExampleFile), 30);
  return {
    where: 'main thread',
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
