// The Web Worker: receives a session from the page and runs it with the engine, posting frames
// back as they are computed. A new run is a new worker (the page terminates the old one), so
// nothing here outlives one session.
import { runSession } from './engine';
import { readExampleFile } from './examples';
import type { PageMessage, WorkerMessage } from './protocol';

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<PageMessage>) => void) | null;
  postMessage(m: WorkerMessage): void;
};

scope.onmessage = (e) => {
  if (e.data.type === 'run') runSession(e.data.session, (m) => scope.postMessage(m), readExampleFile);
};
