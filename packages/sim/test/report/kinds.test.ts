// Every kind tells its story (issue 20 item 1): each scenario of examples/scenarios/ runs, checks the
// invariants of its kind (judged on that kind, none violated), records its kind's timeline (lanes by
// ordinal, node or pod; groups by revision, subset, sidecar revision or pull state), and its HTML
// report draws that timeline; the summary counts in-place sidecar upgrades as in-place updates.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../src/report/html';
import { summarize } from '../../src/report/summary';
import { kindColumns, kindRow } from '../../src/report/table';
import { runScenario } from '../../src/scenario/run';

const dir = fileURLToPath(new URL('../../../../examples/scenarios/', import.meta.url));
const run = (name: string) => runScenario(readFileSync(`${dir}${name}`, 'utf8'), { fileName: name });

/** What each example is about: the kinds whose invariants and timeline it must show. */
const EXPECTED: Record<string, { invariantKinds: string[]; timelines: Record<string, string> }> = {
  'cloneset-inplace.yaml': { invariantKinds: ['CloneSet'], timelines: { CloneSet: 'revision' } },
  'cloneset-node-failure.yaml': { invariantKinds: ['CloneSet'], timelines: { CloneSet: 'revision' } },
  'daemonset-surge.yaml': { invariantKinds: ['DaemonSet'], timelines: { DaemonSet: 'revision' } },
  'statefulset-reserve.yaml': { invariantKinds: ['StatefulSet'], timelines: { StatefulSet: 'revision' } },
  'sidecarset-upgrade.yaml': {
    invariantKinds: ['SidecarSet', 'CloneSet'],
    timelines: { SidecarSet: 'sidecar revision', CloneSet: 'revision' },
  },
  'uniteddeployment-adaptive.yaml': {
    invariantKinds: ['UnitedDeployment', 'CloneSet'],
    timelines: { UnitedDeployment: 'subset', CloneSet: 'revision' },
  },
  'imagepulljob-prewarm.yaml': {
    invariantKinds: ['StatefulSet', 'ImagePullJob'],
    timelines: { ImagePullJob: 'pull state', StatefulSet: 'revision', ContainerRecreateRequest: 'phase' },
  },
};

describe("every example scenario tells its kind's story", () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));

  it('covers every scenario in examples/scenarios/', () => {
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const file of Object.keys(EXPECTED)) {
    it(`${file}: passes, checks its kind's invariants, records and draws its kind's timeline`, () => {
      const r = run(file);
      const want = EXPECTED[file];
      expect(r.status, r.failure).toBe('passed');
      const judged = new Set(r.invariants.flatMap((i) => Object.keys(i.checksByKind)));
      for (const k of want.invariantKinds) expect([...judged]).toContain(k);
      for (const i of r.invariants) expect(i.violations).toEqual([]);
      const timelines = [...r.sim!.timeline.workloads.values()];
      const html = renderHtmlReport(r);
      for (const [kind, groupBy] of Object.entries(want.timelines)) {
        const w = timelines.find((t) => t.kind === kind);
        expect(w, `${kind} timeline`).toBeDefined();
        expect(w!.groupBy).toBe(groupBy);
        expect(w!.samples.length).toBeGreaterThan(1);
        expect(html).toContain(`<section class="workload" data-kind="${kind}">`);
      }
      // Availability is measured for workloads: the summary names a lowest point.
      expect(summarize(r).lowest).toBeDefined();
    });
  }

  it('DaemonSet: lanes by node (60 lanes), legend by image, desired = nodes that should run a pod', () => {
    const r = run('daemonset-surge.yaml');
    const w = [...r.sim!.timeline.workloads.values()].find((t) => t.kind === 'DaemonSet')!;
    expect(w.laneBy).toBe('node');
    expect(w.lanes?.map((l) => l.key)).toContain('burst-9');
    expect(w.lanes).toHaveLength(60);
    expect(Object.values(w.groupLabels).sort()).toEqual(['fluentd:v1.16', 'fluentd:v1.17']);
    expect(w.samples.at(-1)).toMatchObject({ desired: 60, available: 60 });
    const html = renderHtmlReport(r);
    expect(html).toContain('class="lanes"');
    expect(html).toMatch(/<span title="revision [^"]+"><i[^>]*><\/i>fluentd:v1\.17<\/span>/);
  });

  it('StatefulSet: lanes by ordinal, the reserved ordinal 2 goes away after the scale-in', () => {
    const r = run('statefulset-reserve.yaml');
    const w = [...r.sim!.timeline.workloads.values()].find((t) => t.kind === 'StatefulSet')!;
    expect(w.laneBy).toBe('ordinal');
    expect(w.lanes!.map((l) => l.key).sort()).toEqual(['0', '1', '2', '3', '4']);
    const two = w.lanes!.find((l) => l.key === '2')!;
    expect(two.segments.at(-1)!.to).toBeDefined(); // ordinal 2 ended
    expect(r.invariants.find((i) => i.name === 'ordering')!.checksByKind.StatefulSet).toBeGreaterThan(0);
  });

  it('SidecarSet: matched pods by sidecar revision; both in-place upgrades counted as in-place updates', () => {
    const r = run('sidecarset-upgrade.yaml');
    const w = r.sim!.timeline.workloads.get('SidecarSet/log-agent')!;
    expect(w.revisions).toHaveLength(2);
    expect(w.samples.at(-1)).toMatchObject({ desired: 20, available: 20 });
    expect(w.samples.at(-1)!.byRevision[w.revisions[1]]).toEqual({ ready: 20, notReady: 0 });
    expect(summarize(r).podsUpdatedInPlace).toBe(40);
    expect(r.invariants.find((i) => i.name === 'maxUnavailable')!.checksByKind.SidecarSet).toBeGreaterThan(0);
  });

  it('UnitedDeployment: pods by subset against the total; subset sums judged', () => {
    const r = run('uniteddeployment-adaptive.yaml');
    const w = r.sim!.timeline.workloads.get('UnitedDeployment/default/web')!;
    expect(w.revisions).toEqual(['zone-a', 'zone-b', 'zone-c']);
    const last = w.samples.at(-1)!;
    expect(last.desired).toBe(8);
    expect(
      last.byRevision['zone-a'].ready + last.byRevision['zone-b'].ready + last.byRevision['zone-c'].ready,
    ).toBe(8);
    expect(w.samples.some((s) => (s.byRevision['zone-c']?.ready ?? 0) === 2)).toBe(true);
    expect(r.invariants.find((i) => i.name === 'subsetSums')!.checks).toBeGreaterThan(0);
  });

  it('ImagePullJob: nodes pulled over time up to 3 of 3; the recreate request ends Completed', () => {
    const r = run('imagepulljob-prewarm.yaml');
    const job = r.sim!.timeline.workloads.get('ImagePullJob/default/prewarm')!;
    expect(job.availability).toBe(false);
    expect(job.samples.map((s) => s.byRevision.succeeded?.ready ?? 0)).toEqual(
      expect.arrayContaining([0, 2, 3]),
    );
    expect(job.samples.at(-1)).toMatchObject({ available: 3, desired: 3 });
    const crr = [...r.sim!.timeline.workloads.values()].find((t) => t.kind === 'ContainerRecreateRequest')!;
    expect(crr.revisions).toContain('Completed');
    expect(crr.lanes![0].segments.at(-1)!.group).toBe('Completed');
  });
});

describe('kubectl get tables of every kind (the CRD printer columns)', () => {
  const now = Date.parse('2024-01-01T00:01:00Z');
  const meta = { name: 'x', creationTimestamp: '2024-01-01T00:00:00Z' };
  it.each([
    [
      'StatefulSet',
      { spec: { replicas: 4 }, status: { replicas: 4, updatedReplicas: 2, readyReplicas: 3 } },
      ['NAME', 'DESIRED', 'CURRENT', 'UPDATED', 'READY', 'AGE'],
      ['x', '4', '4', '2', '3', '60s'],
    ],
    [
      'DaemonSet',
      {
        status: {
          desiredNumberScheduled: 3,
          currentNumberScheduled: 3,
          numberReady: 2,
          updatedNumberScheduled: 1,
          numberAvailable: 2,
        },
      },
      ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
      ['x', '3', '3', '2', '1', '2', '60s'],
    ],
    [
      'SidecarSet',
      { status: { matchedPods: 20, updatedPods: 4, readyPods: 16 } },
      ['NAME', 'MATCHED', 'UPDATED', 'READY', 'AGE'],
      ['x', '20', '4', '16', '60s'],
    ],
    [
      'UnitedDeployment',
      { spec: { replicas: 8 }, status: { replicas: 8, updatedReplicas: 8, readyReplicas: 6 } },
      ['NAME', 'DESIRED', 'CURRENT', 'UPDATED', 'READY', 'AGE'],
      ['x', '8', '8', '8', '6', '60s'],
    ],
    [
      'ImagePullJob',
      { status: { desired: 3, active: 1, succeeded: 2, failed: 0, message: 'job is running' } },
      ['NAME', 'TOTAL', 'ACTIVE', 'SUCCEED', 'FAILED', 'AGE', 'MESSAGE'],
      ['x', '3', '1', '2', '0', '60s', 'job is running'],
    ],
    [
      'ImageListPullJob',
      { status: { desired: 2, succeeded: 1, completed: 1 } },
      ['NAME', 'TOTAL', 'SUCCEEDED', 'COMPLETED', 'AGE'],
      ['x', '2', '1', '1', '60s'],
    ],
    [
      'ContainerRecreateRequest',
      {
        metadata: { ...meta, labels: { 'crr.apps.kruise.io/node-name': 'node-1' } },
        spec: { podName: 'web-0' },
        status: { phase: 'Completed' },
      },
      ['NAME', 'PHASE', 'POD', 'NODE', 'AGE'],
      ['x', 'Completed', 'web-0', 'node-1', '60s'],
    ],
  ])('%s', (kind, extra, header, row) => {
    const obj = { apiVersion: 'apps.kruise.io/v1alpha1', kind, metadata: meta, ...(extra as object) };
    expect(kindColumns(kind)).toEqual(header);
    expect(kindRow(obj as never, now)).toEqual(row);
  });

  it('prints <none> for a missing status, as kubectl does', () => {
    expect(
      kindRow({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 's' } }, 0),
    ).toEqual(['s', '<none>', '<none>', '<none>', '<none>']);
  });
});
