// The playground page: wires the editors, the player, the change form and the panels to a run
// of the simulator in a Web Worker. A session (the YAML and the user's changes) is what runs and
// what a share link carries; the run streams frames, and the page draws the one at the cursor.
import { DEFAULT_EXAMPLE, EXAMPLES } from './examples';
import { Player } from './player';
import type { Change, Session, StepStatus, StepView, TimelineDelta, WorkerMessage } from './protocol';
import { type Run, startRun } from './runner';
import { decodeSession, encodeSession } from './share';
import { drawCharts } from './ui/chart';
import { byId, clock, el } from './ui/dom';
import { readEditors, setUpEditors, showErrors, writeEditors } from './ui/editor';
import { drawInvariants, drawLegend, drawNodes, drawSteps, drawTables } from './ui/views';

const player = new Player();
let session: Session = { scenario: '', workload: '', edits: [] };
let run: Run | undefined;
let steps: StepView[] = [];
let stepResults = new Map<number, StepStatus>();
let timeline = new Map<string, TimelineDelta>();
let revisions: string[] = [];
let followEnd = false;
let dirty = true;

function setStatus(status: string, text = status): void {
  const s = byId('status');
  s.dataset.status = status;
  s.textContent = text;
}

/** Starts a run of `next`; the cursor goes to `atMs` once the frames reach it. */
function start(next: Session, atMs = 0): void {
  run?.stop();
  session = next;
  player.reset();
  player.t = atMs;
  steps = [];
  stepResults = new Map();
  timeline = new Map();
  revisions = [];
  byId('summary').textContent = '';
  byId('report').hidden = true;
  showErrors([]);
  run = startRun(session, onMessage);
  setStatus('running', `running (in a ${run.where})…`);
  dirty = true;
}

function onMessage(m: WorkerMessage): void {
  switch (m.type) {
    case 'invalid':
      showErrors(m.errors);
      setStatus('invalid');
      break;
    case 'start':
      steps = m.steps;
      byId('description').textContent = m.description ?? '';
      byId('change-target').replaceChildren(...m.workloads.map((w) => el('option', { value: w }, w)));
      break;
    case 'frames':
      player.add(m.frames);
      for (const d of m.timeline) {
        const cur = timeline.get(d.object);
        timeline.set(d.object, { ...d, samples: [...(cur?.samples ?? []), ...d.samples] });
      }
      for (const s of m.steps) stepResults.set(s.index, s);
      revisions = m.revisions;
      if (followEnd) player.t = player.endMs;
      break;
    case 'done': {
      player.complete = true;
      setStatus(m.status);
      byId('summary').textContent = m.summary;
      const link = byId<HTMLAnchorElement>('report');
      if (link.href.startsWith('blob:')) URL.revokeObjectURL(link.href);
      link.href = URL.createObjectURL(new Blob([m.report], { type: 'text/html' }));
      link.hidden = false;
      break;
    }
    case 'crash':
      setStatus('crash', 'the simulation stopped');
      showErrors([{ editor: 'scenario', message: `the simulation stopped: ${m.message}` }]);
      break;
  }
  dirty = true;
}

function draw(): void {
  const frame = player.frame;
  if (run) byId('status').dataset.where = run.where;
  const scrub = byId<HTMLInputElement>('scrub');
  scrub.max = String(player.endMs);
  scrub.value = String(player.t);
  byId('clock').textContent = clock(player.t);
  byId('change-at').textContent = clock(frame?.t ?? 0);
  byId('play').textContent = player.playing ? 'pause' : 'play';
  drawSteps(byId('steps'), steps, stepResults, frame?.t ?? -1, (ms) => {
    player.playing = false;
    followEnd = false;
    player.seek(ms);
    dirty = true;
  });
  if (!frame) return;
  drawTables(byId('tables'), frame);
  byId('tables').dataset.t = String(frame.t);
  drawNodes(byId('nodes'), frame.nodes);
  drawLegend(byId('legend'), revisions);
  drawInvariants(byId('invariants'), frame.invariants);
  drawCharts(byId('charts'), [...timeline.values()], frame.t, Math.max(player.endMs, 1000), revisions);
}

let lastWall = performance.now();
let lastIndex = -2;
function animate(now: number): void {
  player.tick(now - lastWall);
  lastWall = now;
  if (dirty || player.playing || player.index !== lastIndex) {
    draw();
    dirty = false;
    lastIndex = player.index;
  }
  requestAnimationFrame(animate);
}

function applyChange(): void {
  const frame = player.frame;
  if (!frame) return;
  const change: Change = {
    target: byId<HTMLSelectElement>('change-target').value,
    field: byId<HTMLSelectElement>('change-field').value as Change['field'],
    value: byId<HTMLInputElement>('change-value').value,
  };
  const edits = [
    ...session.edits.filter((e) => e.atMs <= frame.t),
    { atMs: frame.t, keepSteps: frame.stepsDone, change },
  ];
  start({ ...session, edits }, frame.t);
}

async function share(): Promise<void> {
  const fragment = await encodeSession(session);
  history.replaceState(null, '', `#${fragment}`);
  let copied = false;
  try {
    await navigator.clipboard.writeText(location.href);
    copied = true;
  } catch {
    // No clipboard on file:// pages or without permission: the address bar has the link.
  }
  byId('share-note').textContent = copied ? 'link copied' : 'the link is in the address bar';
}

function exampleText(name: string): string {
  return EXAMPLES.find((e) => e.name === name)?.text ?? '';
}

async function main(): Promise<void> {
  setUpEditors();
  const select = byId<HTMLSelectElement>('example');
  select.replaceChildren(
    ...EXAMPLES.map((e) => el('option', { value: e.name }, e.name)),
    el('option', { value: '' }, '(my own YAML)'),
  );
  select.addEventListener('change', () => {
    if (!select.value) return;
    writeEditors(exampleText(select.value), '');
    start({ ...readEditors(), edits: [] });
  });
  byId('run').addEventListener('click', () => start({ ...readEditors(), edits: [] }));
  byId('share').addEventListener('click', () => void share());
  byId('play').addEventListener('click', () => {
    followEnd = false;
    if (!player.playing && player.complete && player.t >= player.endMs) player.t = 0;
    player.playing = !player.playing;
    dirty = true;
  });
  byId('step').addEventListener('click', () => {
    followEnd = false;
    player.step(1);
    dirty = true;
  });
  byId('back').addEventListener('click', () => {
    followEnd = false;
    player.step(-1);
    dirty = true;
  });
  byId('end').addEventListener('click', () => {
    player.playing = false;
    followEnd = true;
    player.t = player.endMs;
    dirty = true;
  });
  byId<HTMLSelectElement>('speed').addEventListener('change', (e) => {
    player.speed = Number((e.target as HTMLSelectElement).value);
  });
  byId<HTMLInputElement>('scrub').addEventListener('input', (e) => {
    player.playing = false;
    followEnd = false;
    player.seek(Number((e.target as HTMLInputElement).value));
    dirty = true;
  });
  byId('change-apply').addEventListener('click', applyChange);
  byId('change-reset').addEventListener('click', () => start({ ...session, edits: [] }, player.t));

  const shared = await decodeSession(location.hash);
  if (shared) {
    select.value = EXAMPLES.find((e) => e.text === shared.scenario)?.name ?? '';
    writeEditors(shared.scenario, shared.workload);
    start(shared);
  } else {
    select.value = DEFAULT_EXAMPLE;
    writeEditors(exampleText(DEFAULT_EXAMPLE), '');
    start({ ...readEditors(), edits: [] });
  }
  requestAnimationFrame(animate);
}

void main();
