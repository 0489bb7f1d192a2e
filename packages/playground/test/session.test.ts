// The playground's run logic without a browser: reading the two editors with errors at their
// lines, a mid-rollout change taking over the run, and the engine's stream of frames.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSession } from '../src/engine';
import type { WorkerMessage } from '../src/protocol';
import { FREE_RUN_MS, joinEditors, placeError, readSession, strategyPatch } from '../src/session';

const sample = readFileSync(
  fileURLToPath(new URL('../../../examples/scenarios/cloneset-inplace.yaml', import.meta.url)),
  'utf8',
);

function run(
  scenario: string,
  edits: WorkerMessage[] = [],
  extra: Partial<Parameters<typeof runSession>[0]> = {},
) {
  const messages: WorkerMessage[] = [...edits];
  let wall = 0;
  runSession(
    { scenario, workload: '', edits: [], ...extra },
    (m) => messages.push(m),
    undefined,
    () => (wall += 10),
  );
  return messages;
}

const cloneSetRow = (messages: WorkerMessage[]) => {
  const frames = messages.flatMap((m) => (m.type === 'frames' ? m.frames : []));
  const last = frames[frames.length - 1];
  const table = last.tables.find((t) => t.title === 'kubectl get clonesets')?.text ?? '';
  return table.split('\n')[1].split(/\s+/).slice(0, 7).join(' ');
};

describe('reading the editors', () => {
  it('places errors in the editor and line they came from', () => {
    const { workloadFrom } = joinEditors({ scenario: 'a: 1\nb: 2', workload: 'kind: X' });
    expect(workloadFrom).toBe(4);
    expect(placeError({ file: 'f', line: 5, message: 'bad' }, workloadFrom)).toEqual({
      editor: 'workload',
      line: 2,
      message: 'bad',
    });
    expect(placeError({ file: 'f', line: 2, field: 'spec.x', message: 'bad' }, workloadFrom)).toEqual({
      editor: 'scenario',
      line: 2,
      message: 'spec.x: bad',
    });
  });

  it('reports a reader error at its line in the workload editor', () => {
    const r = readSession({
      scenario: sample,
      workload: 'kind: Service\nmetadata: {name: x}\n  bad: [',
      edits: [],
    });
    const placed = 'errors' in r ? r.errors.map((e) => `${e.editor}:${e.line}`) : [];
    expect(placed.length).toBeGreaterThan(0);
    expect(new Set(placed)).toEqual(new Set(['workload:3']));
  });

  it('reports a manifest the API server refuses at its line', () => {
    const scenarioOnly = sample.slice(0, sample.indexOf('\n---\n'));
    const workload = sample.slice(sample.indexOf('\n---\n') + 5).replace('replicas: 5', 'replicas: -1');
    const messages = run(scenarioOnly, [], { workload });
    const invalid = messages.find((m) => m.type === 'invalid');
    expect(invalid && invalid.type === 'invalid' && invalid.errors.map((e) => [e.editor, e.line])).toEqual([
      ['workload', 1],
    ]);
    expect(invalid && invalid.type === 'invalid' && invalid.errors[0].message).toContain('spec.replicas');
  });

  it('builds the merge patch of each knob for each kind', () => {
    expect(strategyPatch('CloneSet', 'partition', '3')).toEqual({
      spec: { updateStrategy: { partition: 3 } },
    });
    expect(strategyPatch('DaemonSet', 'maxSurge', '20%')).toEqual({
      spec: { updateStrategy: { rollingUpdate: { maxSurge: '20%' } } },
    });
    expect(strategyPatch('StatefulSet', 'maxSurge', 1)).toBeUndefined();
  });
});

describe('a run', () => {
  it('plays the sample CloneSet rollout to the end with every invariant held', () => {
    const messages = run(sample);
    const done = messages.find((m) => m.type === 'done');
    expect(done && done.type === 'done' && done.status).toBe('passed');
    expect(cloneSetRow(messages)).toBe('sample 5 5 5 5 5 5');
    const frames = messages.flatMap((m) => (m.type === 'frames' ? m.frames : []));
    expect(frames.length).toBeGreaterThan(10);
    // Frames are in time order (a batch may end on an instant the next batch updates).
    expect(frames.every((f, i) => i === 0 || f.t >= frames[i - 1].t)).toBe(true);
    const invariants = frames[frames.length - 1].invariants;
    expect(invariants.map((i) => i.name).sort()).toEqual(['maxSurge', 'maxUnavailable', 'partition']);
    expect(invariants.every((i) => i.violations === 0 && i.checks > 0)).toBe(true);
    expect(done && done.type === 'done' && done.report).toContain('<svg');
  });

  it("holds at a partition set mid-rollout (the scenario's later steps dropped)", () => {
    const first = run(sample);
    const steps = first.flatMap((m) => (m.type === 'frames' ? m.steps : []));
    const imageChange = steps.find((s) => s.index === 1)!;
    const edit = {
      atMs: imageChange.endedMs,
      keepSteps: 2,
      change: { field: 'partition' as const, target: 'CloneSet/sample', value: '3' },
    };
    const messages = run(sample, [], { edits: [edit] });
    const start = messages.find((m) => m.type === 'start');
    expect(start && start.type === 'start' && start.steps.map((s) => s.yours)).toEqual([
      false,
      false,
      true,
      true,
    ]);
    expect(cloneSetRow(messages)).toBe('sample 5 2 2 2 5 5');
    const frames = messages.flatMap((m) => (m.type === 'frames' ? m.frames : []));
    expect(frames[frames.length - 1].t).toBeGreaterThanOrEqual(edit.atMs + FREE_RUN_MS);
    expect(frames[frames.length - 1].invariants.every((i) => i.violations === 0)).toBe(true);
  });

  it('answers errors for a bad scenario and never throws', () => {
    const messages = run('kind: Scenario\nspec: [');
    expect(messages.map((m) => m.type)).toEqual(['invalid']);
  });
});
