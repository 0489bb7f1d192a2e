// kruise-ts forecast's engine: the saved state (examples/forecast/sample-state.yaml, saved with
// `kubectl get clone,pods,nodes,controllerrevisions -o yaml` from `kruise-ts serve`) is read, the
// change applied, the rollout played out from the state as it is, and the answer (duration,
// floor, batches, stalls) is deterministic for a seed; failure injection stops the rollout at its
// budget instead of taking the fleet down.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readManifests } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import { applyChange, mergePatch } from '../../src/forecast/change';
import { forecastJson, formatForecast } from '../../src/forecast/format';
import { findTarget, readLiveState } from '../../src/forecast/liveState';
import { nodeConfigOf, runForecast } from '../../src/forecast/run';
import { renderHtmlReport } from '../../src/report/html';

const text = readFileSync(
  fileURLToPath(new URL('../../../../examples/forecast/sample-state.yaml', import.meta.url)),
  'utf8',
);
const docs = readManifests(text, { acceptKind: () => true }).objects;
const state = readLiveState(docs);
const target = findTarget(state).target!;
const newImage = { setImages: { nginx: 'nginx:1.27-alpine' } };

describe('the live state', () => {
  it('sorts a kubectl List into nodes, pods, revisions and the workload', () => {
    expect([state.nodes.length, state.pods.length, state.revisions.length, state.workloads.length]).toEqual([
      3, 5, 1, 1,
    ]);
    expect(target.kind).toBe('CloneSet');
    expect(findTarget(state, { kind: 'clone', name: 'nope' }).error).toMatch(
      /no clone named nope in the state \(workloads: CloneSet\/sample\)/,
    );
    expect(readLiveState([42, { kind: 'X' }]).skipped).toHaveLength(2);
  });

  it('keeps node capacity, labels, taints and cached images', () => {
    const n = nodeConfigOf({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1', labels: { zone: 'a' } },
      spec: { taints: [{ key: 'k', effect: 'NoSchedule' }], unschedulable: true },
      status: {
        allocatable: { cpu: '2', memory: '4Gi', pods: '10' },
        images: [{ names: ['docker.io/library/nginx:1.27', 'nginx@sha256:abc'] }],
      },
    });
    expect(n).toEqual({
      name: 'n1',
      capacity: { cpu: '2', memory: '4Gi', pods: '10' },
      labels: { zone: 'a' },
      taints: [{ key: 'k', effect: 'NoSchedule' }],
      unschedulable: true,
      images: ['nginx:1.27'],
    });
  });
});

describe('the change', () => {
  it('sets images, the partition, pause, a merge patch; refuses an unknown container', () => {
    const r = applyChange(target, {
      ...newImage,
      partition: 3,
      paused: false,
      patch: { spec: { replicas: 6 } },
    });
    const spec = r.object!.spec as any;
    expect(spec.template.spec.containers[0].image).toBe('nginx:1.27-alpine');
    expect(spec.updateStrategy).toMatchObject({ partition: 3, paused: false });
    expect(spec.replicas).toBe(6);
    expect(r.description).toEqual([
      'merge patch {"spec":{"replicas":6}}',
      'set image nginx=nginx:1.27-alpine',
      'partition 3',
      'resume',
    ]);
    expect(applyChange(target, { setImages: { web: 'x' } }).errors).toEqual([
      'CloneSet sample has no container web (containers: nginx)',
    ]);
    expect(applyChange(target, {}).errors[0]).toMatch(/no change given/);
    expect((target.spec as any).template.spec.containers[0].image).toBe('nginx:alpine'); // input untouched
    expect(mergePatch({ a: 1, b: { c: 2 } }, { a: null, b: { d: 3 } })).toEqual({ b: { c: 2, d: 3 } });
  });
});

describe('a forecast', () => {
  const f = runForecast(state, target, newImage, { seed: 1 });

  it('rolls the sample CloneSet out one pod at a time, with 4/5 available at worst', () => {
    expect(f.errors).toEqual([]);
    expect(f.completed).toBe(true);
    expect(f.start).toBe('5 pod(s) of CloneSet/default/sample (5 ready, 0 not ready) on 3 node(s)');
    expect(f.floor).toMatchObject({ available: 4, desired: 5 });
    // ReCreate with maxUnavailable 20% of 5 = 1: five delete/create pairs.
    expect(f.batches.filter((b) => b.action === 'deleted').flatMap((b) => b.pods)).toHaveLength(5);
    expect(f.batches.filter((b) => b.action === 'created').flatMap((b) => b.pods)).toHaveLength(5);
    // The first new pod on a node pulls the image (30 s), starts (2 s) and gets ready (5 s); the
    // image then stays on that node, so later pods there need 7 s.
    expect(f.durationMs).toBeGreaterThanOrEqual(37_000 + 4 * 7_000);
    expect(f.batches.map((b) => b.atMs)).toEqual([...f.batches.map((b) => b.atMs)].sort((a, b) => a - b));
    expect(f.invariantsViolated).toEqual([]);
    expect(formatForecast(f)).toContain('expected duration       ');
  });

  it('is deterministic for a seed; another seed with jitter gives another duration', () => {
    const again = runForecast(state, target, newImage, { seed: 1 });
    expect(forecastJson(again)).toEqual(forecastJson(f));
    const a = runForecast(state, target, newImage, { seed: 2, timings: { jitter: 0.3 } });
    const b = runForecast(state, target, newImage, { seed: 3, timings: { jitter: 0.3 } });
    expect(a.durationMs).not.toBe(b.durationMs);
  });

  it('takes pull times per node from the timing model (a slow node slows its pods only)', () => {
    const slow = runForecast(state, target, newImage, {
      seed: 1,
      timings: { imagePullByNode: { 'node-1': { '*': 120_000 } } },
    });
    expect(slow.completed).toBe(true);
    expect(slow.durationMs).toBeGreaterThan(f.durationMs + 60_000);
    expect(slow.timingModel).toContain('(any image on node-1 2m)');
  });

  it('stops at the partition and says so', () => {
    const p = runForecast(state, target, { ...newImage, partition: 3 }, { seed: 1 });
    expect(p.completed).toBe(true);
    expect(p.batches.filter((b) => b.action === 'created').flatMap((b) => b.pods)).toHaveLength(2);
    expect(p.stalls).toEqual([expect.objectContaining({ reason: 'partition' })]);
    expect(p.stalls[0].pods).toHaveLength(3);
  });

  it.each(['never-ready', 'crash-loop'] as const)(
    '%s: stops at its budget (one pod down), the fleet stays up',
    (failure) => {
      const x = runForecast(state, target, newImage, { seed: 1, failure, stallAfterMs: 120_000 });
      expect(x.completed).toBe(false);
      expect(x.stalls.map((s) => s.reason)).toEqual(['budget']);
      expect(x.stalls[0].message).toMatch(
        /maxUnavailable 1 is used up by 1 pod\(s\) that are not ready \(1 on the new revision/,
      );
      expect(x.floor).toMatchObject({ available: 4, desired: 5 });
      expect(x.batches.filter((b) => b.action === 'deleted')).toHaveLength(1);
    },
  );

  it('a pod that was not ready stays not ready, and is replaced first, free of the budget (cloneset.md §6)', () => {
    const pods = state.pods.map((p, i) =>
      i === 0
        ? { ...p, status: { ...(p.status as object), conditions: [{ type: 'Ready', status: 'False' }] } }
        : p,
    );
    const x = runForecast({ ...state, pods }, target, newImage, { seed: 1, stallAfterMs: 120_000 });
    expect(x.start).toContain('(4 ready, 1 not ready)');
    expect(x.completed).toBe(true);
    expect(x.batches[0]).toEqual({
      atMs: 0,
      action: 'deleted',
      pods: expect.arrayContaining([state.pods[0].metadata.name]),
    });
    expect(x.floor).toMatchObject({ available: 4, desired: 5 });
  });

  it("pods no node can take: the scheduler's message", () => {
    const nodes = state.nodes.map((n) => ({
      ...n,
      status: { ...(n.status as object), allocatable: { cpu: '4', memory: '16Gi', pods: '2' } },
    }));
    const x = runForecast(
      { ...state, nodes },
      target,
      { patch: { spec: { replicas: 8 } } },
      { seed: 1, stallAfterMs: 120_000 },
    );
    expect(x.completed).toBe(false);
    const u = x.stalls.find((s) => s.reason === 'unschedulable')!;
    expect(u.message).toMatch(/^2 pod\(s\) cannot be scheduled: 0\/3 nodes are available: 3 Too many pods/);
  });

  it("renders the HTML report with the forecast's answers", () => {
    const html = renderHtmlReport(f.run!, { answers: [{ label: 'Expected duration', value: 'x' }] });
    expect(html).toContain('<dt>Expected duration</dt><dd>x</dd>');
    expect(html).toContain('data-kind="CloneSet"');
  });
});
