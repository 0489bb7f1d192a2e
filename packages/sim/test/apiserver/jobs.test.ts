// batch/v1 Jobs on the API server: discovery, CRUD, the status subresource, watch and the
// kube-apiserver Table (NAME STATUS COMPLETIONS DURATION AGE); with `controllers: 'all'` the Job
// approximation runs them (src/kinds/job.ts) and an AdvancedCronJob's Jobs complete; with
// `controllers: 'none'` Jobs are stored and served only. Plus Ingress (networking.k8s.io/v1), served
// for deletion protection (docs/reference/operator.md §1.3).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingFile, skipWithoutRealTool } from '../../../../test/support/realTools';
import { jobCompletionsText, jobDurationText, jobStatusText } from '../../src/apiserver/printersMore';
import { cronJobOfJobs } from '../jobFixtures';
import { call, startTestServer, WatchReader } from './helpers';

const JOBS = '/apis/batch/v1/namespaces/default/jobs';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const KUBECTL = '/usr/bin/kubectl';

const jobManifest = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: {
    template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5.34' }] } },
    ...spec,
  },
});

function kubectl(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(KUBECTL, args, { env, timeout: 30_000 }, (_err, stdout, stderr) => resolve({ stdout, stderr }));
  });
}

describe('batch/v1 Job printer cells (kube-apiserver printJob)', () => {
  const j = (spec: object, status: object = {}, meta: object = {}) =>
    ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'x', ...meta }, spec, status }) as never;
  it('STATUS: Complete > Failed > Terminating > Suspended > FailureTarget > SuccessCriteriaMet > Running', () => {
    const c = (...types: string[]) => ({ conditions: types.map((type) => ({ type, status: 'True' })) });
    expect(jobStatusText(j({}, c('SuccessCriteriaMet', 'Complete')))).toBe('Complete');
    expect(jobStatusText(j({}, c('FailureTarget', 'Failed')))).toBe('Failed');
    expect(jobStatusText(j({}, c('Suspended'), { deletionTimestamp: '2024-01-01T00:00:00Z' }))).toBe(
      'Terminating',
    );
    expect(jobStatusText(j({}, c('Suspended')))).toBe('Suspended');
    expect(jobStatusText(j({}, c('SuccessCriteriaMet')))).toBe('SuccessCriteriaMet');
    expect(jobStatusText(j({}, { conditions: [{ type: 'Complete', status: 'False' }] }))).toBe('Running');
  });
  it('COMPLETIONS: 2/3; without completions 0/1, or 0/1 of 4 with parallelism 4', () => {
    expect(jobCompletionsText(j({ completions: 3 }, { succeeded: 2 }))).toBe('2/3');
    expect(jobCompletionsText(j({}))).toBe('0/1');
    expect(jobCompletionsText(j({ parallelism: 4 }))).toBe('0/1 of 4');
  });
  it('DURATION: empty before start, now − start while running, completion − start after', () => {
    const start = '2024-01-01T10:00:00Z';
    const now = Date.parse('2024-01-01T10:05:00Z');
    expect(jobDurationText(j({}), now)).toBe('');
    expect(jobDurationText(j({}, { startTime: start }), now)).toBe('5m');
    expect(jobDurationText(j({}, { startTime: start, completionTime: '2024-01-01T10:00:42Z' }), now)).toBe(
      '42s',
    );
  });
});

describe('batch/v1 Jobs with the simulator playing kruise (controllers: all)', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('discovery: /apis/batch/v1 lists jobs (namespaced, kind Job) and jobs/status; /apis has the batch group', async () => {
    const list = (await call(s.url, 'GET', '/apis/batch/v1')).body;
    expect(list.groupVersion).toBe('batch/v1');
    expect(list.resources.find((r: any) => r.name === 'jobs')).toMatchObject({
      namespaced: true,
      kind: 'Job',
      singularName: 'job',
      categories: ['all'],
    });
    expect(list.resources.map((r: any) => r.name)).toContain('jobs/status');
    const apis = (await call(s.url, 'GET', '/apis')).body;
    expect(apis.groups.find((g: any) => g.name === 'batch')?.preferredVersion.version).toBe('v1');
  });

  it('a created Job runs its pod and is Complete 1/1 once the pod was Ready for 10 s', async () => {
    const r = await call(s.url, 'POST', JOBS, jobManifest('pi'));
    expect(r.status).toBe(201);
    s.advance(5_000);
    const pods = (await call(s.url, 'GET', '/api/v1/namespaces/default/pods?labelSelector=job-name%3Dpi'))
      .body;
    expect(pods.items).toHaveLength(1);
    expect(pods.items[0].metadata.ownerReferences[0]).toMatchObject({
      kind: 'Job',
      name: 'pi',
      controller: true,
    });
    s.advance(30_000);
    const job = (await call(s.url, 'GET', `${JOBS}/pi`)).body;
    expect(job.status.succeeded).toBe(1);
    expect(job.status.conditions.find((c: any) => c.type === 'Complete')).toMatchObject({ status: 'True' });
  });

  it('Table: NAME STATUS COMPLETIONS DURATION AGE (+ CONTAINERS IMAGES SELECTOR at priority 1)', async () => {
    const t = (await call(s.url, 'GET', JOBS, undefined, { Accept: TABLE })).body;
    expect(t.kind).toBe('Table');
    expect(t.columnDefinitions.map((c: any) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Status', 0],
      ['Completions', 0],
      ['Duration', 0],
      ['Age', 0],
      ['Containers', 1],
      ['Images', 1],
      ['Selector', 1],
    ]);
    const row = t.rows.find((r: any) => r.cells[0] === 'pi');
    expect(row.cells.slice(1, 3)).toEqual(['Complete', '1/1']);
    expect(row.cells[3]).toMatch(/^\d+s$/);
    expect(row.cells.slice(5, 7)).toEqual(['pi', 'perl:5.34']);
  });

  it('AC4: an AdvancedCronJob with a jobTemplate creates Jobs through the API server, which complete', async () => {
    const acj = cronJobOfJobs('hello');
    expect(
      (await call(s.url, 'POST', '/apis/apps.kruise.io/v1beta1/namespaces/default/advancedcronjobs', acj))
        .status,
    ).toBe(201);
    s.advance(150_000);
    const jobs = (await call(s.url, 'GET', JOBS)).body.items.filter((j: any) =>
      j.metadata.name.startsWith('hello-'),
    );
    expect(jobs.length).toBeGreaterThanOrEqual(1);
    expect(jobs[0].metadata.ownerReferences[0]).toMatchObject({ kind: 'AdvancedCronJob', name: 'hello' });
    expect(jobs[0].status.conditions.some((c: any) => c.type === 'Complete' && c.status === 'True')).toBe(
      true,
    );
  });

  it.skipIf(skipWithoutRealTool('kubectl get jobs', missingFile(KUBECTL, existsSync)))(
    'kubectl get jobs prints STATUS and COMPLETIONS as on a cluster',
    async () => {
      const home = join(s.dir, 'home');
      mkdirSync(home, { recursive: true });
      const env = { PATH: process.env.PATH, HOME: home, KUBECONFIG: s.kubeconfigPath };
      const r = await kubectl(env, 'get', 'jobs', 'pi');
      expect(r.stderr).toBe('');
      const [head, row] = r.stdout.trim().split('\n');
      expect(head.split(/\s+/)).toEqual(['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE']);
      expect(row.split(/\s+/).slice(0, 3)).toEqual(['pi', 'Complete', '1/1']);
    },
  );
});

describe('batch/v1 Jobs stored and served only (controllers: none)', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    s = await startTestServer({ controllers: 'none' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('CRUD: create, get, list, replace, delete; no pods are created', async () => {
    expect((await call(s.url, 'POST', JOBS, jobManifest('stored', { completions: 2 }))).status).toBe(201);
    s.advance(30_000);
    const got = (await call(s.url, 'GET', `${JOBS}/stored`)).body;
    expect(got).toMatchObject({ apiVersion: 'batch/v1', kind: 'Job', spec: { completions: 2 } });
    expect(got.status).toBeUndefined();
    expect((await call(s.url, 'GET', '/api/v1/namespaces/default/pods')).body.items).toEqual([]);
    const put = await call(s.url, 'PUT', `${JOBS}/stored`, {
      ...got,
      metadata: { ...got.metadata, labels: { a: 'b' } },
    });
    expect(put.status).toBe(200);
    expect((await call(s.url, 'GET', JOBS)).body.items.map((j: any) => j.metadata.name)).toEqual(['stored']);
    expect((await call(s.url, 'DELETE', `${JOBS}/stored`)).status).toBe(200);
    expect((await call(s.url, 'GET', `${JOBS}/stored`)).status).toBe(404);
  });

  it('status subresource: PUT /status writes status (what an external Job controller does), watch sees it', async () => {
    await call(s.url, 'POST', JOBS, jobManifest('ext'));
    const w = new WatchReader(`${s.url}${JOBS}?watch=true&fieldSelector=metadata.name%3Dext`);
    await w.ready;
    const cur = (await call(s.url, 'GET', `${JOBS}/ext`)).body;
    const status = {
      startTime: '2024-01-01T00:00:00Z',
      completionTime: '2024-01-01T00:00:07Z',
      succeeded: 1,
      conditions: [{ type: 'Complete', status: 'True' }],
    };
    const r = await call(s.url, 'PUT', `${JOBS}/ext/status`, { ...cur, status });
    expect(r.status).toBe(200);
    expect(r.body.status).toMatchObject({ succeeded: 1 });
    expect(
      await w.until((evs) => evs.some((e) => e.type === 'MODIFIED' && e.object.status?.succeeded === 1)),
    ).toBe(true);
    w.close();
    const t = (await call(s.url, 'GET', `${JOBS}/ext`, undefined, { Accept: TABLE })).body;
    expect(t.rows[0].cells.slice(0, 4)).toEqual(['ext', 'Complete', '1/1', '7s']);
  });

  it('Ingress (networking.k8s.io/v1) is served with NAME CLASS HOSTS ADDRESS PORTS AGE', async () => {
    const ing = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'web' },
      spec: {
        ingressClassName: 'nginx',
        rules: [{ host: 'a.example.com' }, { host: 'b.example.com' }],
        tls: [{}],
      },
    };
    const path = '/apis/networking.k8s.io/v1/namespaces/default/ingresses';
    expect((await call(s.url, 'POST', path, ing)).status).toBe(201);
    const t = (await call(s.url, 'GET', path, undefined, { Accept: TABLE })).body;
    expect(t.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'Class',
      'Hosts',
      'Address',
      'Ports',
      'Age',
    ]);
    expect(t.rows[0].cells.slice(0, 5)).toEqual([
      'web',
      'nginx',
      'a.example.com,b.example.com',
      '',
      '80, 443',
    ]);
  });
});
