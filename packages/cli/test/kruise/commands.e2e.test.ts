// The kubectl-kruise commands end to end against `kruise-ts serve` started in-process (HTTPS,
// bearer token, the kubeconfig it writes; speed 0, so the simulated clock moves only when a test
// advances it): rollout status/history/undo/pause/resume, set image and scale --pods on a CloneSet,
// an Advanced StatefulSet and an Advanced DaemonSet, with kubectl's wording and exit codes.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpKubeClient, loadKubeConfig } from '@kruise-ts/operator';
import { type ApiServer, startApiServer } from '@kruise-ts/sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliIO, main } from '../../src/index';

let server: ApiServer;
let client: HttpKubeClient;
let kubeconfig: string;

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    cwd: process.cwd(),
    isTTY: false,
    readFile: (p) => readFileSync(p, 'utf8'),
    writeFile: () => {},
  };
  const code = await main([...argv, '--kubeconfig', kubeconfig], io);
  return { code, out, err };
}

/** Runs a command while the simulated clock advances 2 s every 20 ms of wall time. */
async function runAdvancing(...argv: string[]) {
  const timer = setInterval(() => server.advance(2000), 20);
  try {
    return await run(...argv);
  } finally {
    clearInterval(timer);
  }
}

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const r = await client.request(method, path, body === undefined ? {} : { body });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const CLONESETS = '/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets';
const STATEFULSETS = '/apis/apps.kruise.io/v1beta1/namespaces/default/statefulsets';
const DAEMONSETS = '/apis/apps.kruise.io/v1alpha1/namespaces/default/daemonsets';

function workload(apiVersion: string, kind: string, name: string, spec: object) {
  return {
    apiVersion,
    kind,
    metadata: { name, labels: { app: name } },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
      },
      ...spec,
    },
  };
}

async function podsOf(app: string): Promise<string[]> {
  const list = await api('GET', `/api/v1/namespaces/default/pods?labelSelector=app%3D${app}`);
  return list.items
    .filter((p: any) => !p.metadata.deletionTimestamp)
    .map((p: any) => p.metadata.name)
    .sort();
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kts-kruise-cmd-'));
  kubeconfig = join(dir, 'kubeconfig');
  server = await startApiServer({ port: 0, speed: 0, kubeconfigPath: kubeconfig });
  client = new HttpKubeClient(loadKubeConfig(kubeconfig));
  await api(
    'POST',
    CLONESETS,
    workload('apps.kruise.io/v1alpha1', 'CloneSet', 'sample', {
      replicas: 5,
      updateStrategy: { type: 'InPlaceIfPossible' },
    }),
  );
});

afterAll(async () => {
  client?.close();
  await server?.close();
});

describe('rollout status', () => {
  it('--watch=false prints where the rollout stands once and exits 0', async () => {
    server.advance(1);
    const r = await run('rollout', 'status', 'cloneset/sample', '--watch=false');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Waiting for .*\.\.\.\n$/);
  });

  it("--timeout gives up with kubectl's message and exit 1 while the clock stands still", async () => {
    const r = await run('rollout', 'status', 'clone/sample', '--timeout', '300ms');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^Waiting for /);
    expect(r.err).toBe('error: timed out waiting for the condition\n');
  });

  it('waits, printing each new progress line, until the rollout is done (exit 0)', async () => {
    const r = await runAdvancing('rollout', 'status', 'clone/sample', '--timeout', '30s');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('cloneset.apps.kruise.io/sample successfully rolled out');
    expect(lines.length).toBeGreaterThan(1);
    expect(new Set(lines).size).toBe(lines.length);
  });

  it('a missing object is NotFound, an unknown type is a usage error, a bad --timeout too', async () => {
    const nf = await run('rollout', 'status', 'cloneset/nope');
    expect(nf).toMatchObject({ code: 1, out: '' });
    expect(nf.err).toBe('Error from server (NotFound): clonesets.apps.kruise.io "nope" not found\n');
    const bad = await run('rollout', 'status', 'deployment/sample');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('error: the server doesn\'t have a resource type "deployment"');
    const t = await run('rollout', 'status', 'clone/sample', '--timeout', '5');
    expect(t.code).toBe(2);
    expect(t.err).toContain('time: missing unit in duration "5"');
  });
});

describe('set image, history and undo', () => {
  it('set image updates the container in place and the rollout finishes', async () => {
    const r = await run('set', 'image', 'clone/sample', 'main=nginx:1.25');
    expect(r).toMatchObject({ code: 0, out: 'cloneset.apps.kruise.io/sample image updated\n', err: '' });
    const cs = await api('GET', `${CLONESETS}/sample`);
    expect(cs.spec.template.spec.containers[0].image).toBe('nginx:1.25');
    const s = await runAdvancing('rollout', 'status', 'clone/sample', '--timeout', '30s');
    expect(s.code).toBe(0);
    const missing = await run('set', 'image', 'clone/sample', 'nope=x');
    expect(missing).toMatchObject({ code: 1, err: 'error: unable to find container named "nope"\n' });
  });

  it('history lists the ControllerRevisions; --revision prints one template', async () => {
    const r = await run('rollout', 'history', 'clone/sample');
    expect(r.out).toBe(
      'cloneset.apps.kruise.io/sample\nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n',
    );
    const one = await run('rollout', 'history', 'clone/sample', '--revision', '1');
    expect(one.out).toContain('cloneset.apps.kruise.io/sample with revision #1\nPod Template:\n');
    expect(one.out).toMatch(/Image:\s+nginx:alpine/);
    const none = await run('rollout', 'history', 'clone/sample', '--revision', '9');
    expect(none).toMatchObject({ code: 1, err: 'error: unable to find the specified revision\n' });
  });

  it('undo puts the previous template back; the controller renumbers that revision', async () => {
    const r = await run('rollout', 'undo', 'clone/sample');
    expect(r).toMatchObject({ code: 0, out: 'cloneset.apps.kruise.io/sample rolled back\n' });
    const cs = await api('GET', `${CLONESETS}/sample`);
    expect(cs.spec.template.spec.containers[0].image).toBe('nginx:alpine');
    expect((await runAdvancing('rollout', 'status', 'clone/sample', '--timeout', '30s')).code).toBe(0);
    const h = await run('rollout', 'history', 'clone/sample');
    expect(h.out).toBe(
      'cloneset.apps.kruise.io/sample\nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n',
    );
    const skip = await run('rollout', 'undo', 'clone/sample', '--to-revision', '3');
    expect(skip.out).toBe(
      'cloneset.apps.kruise.io/sample skipped rollback (current template already matches revision 3)\n',
    );
    const gone = await run('rollout', 'undo', 'clone/sample', '--to-revision', '1');
    expect(gone).toMatchObject({ code: 1, err: 'error: unable to find specified revision 1 in history\n' });
  });
});

describe('pause and resume', () => {
  it('set spec.updateStrategy.paused, saying "already" when nothing changes', async () => {
    expect((await run('rollout', 'pause', 'clone/sample')).out).toBe(
      'cloneset.apps.kruise.io/sample paused\n',
    );
    expect((await api('GET', `${CLONESETS}/sample`)).spec.updateStrategy.paused).toBe(true);
    expect((await run('rollout', 'pause', 'clone/sample')).out).toBe(
      'cloneset.apps.kruise.io/sample already paused\n',
    );
    // While paused, a new image waits: status says so and a short wait times out.
    await run('set', 'image', 'clone/sample', 'main=nginx:1.26');
    server.advance(30_000);
    const waiting = await run('rollout', 'status', 'clone/sample', '--watch=false');
    expect(waiting.out).toContain(
      'the rollout is paused; resume it with kruise-ts rollout resume cloneset.apps.kruise.io/sample',
    );
    expect((await run('rollout', 'resume', 'clone/sample')).out).toBe(
      'cloneset.apps.kruise.io/sample resumed\n',
    );
    expect((await api('GET', `${CLONESETS}/sample`)).spec.updateStrategy.paused).toBe(false);
    expect((await run('rollout', 'resume', 'clone/sample')).out).toBe(
      'cloneset.apps.kruise.io/sample already resumed\n',
    );
    expect((await runAdvancing('rollout', 'status', 'clone/sample', '--timeout', '30s')).code).toBe(0);
  });

  it('SidecarSet pausing is not supported by these commands', async () => {
    const r = await run('rollout', 'pause', 'sidecarset/x');
    expect(r).toMatchObject({
      code: 1,
      err: 'error: sidecarsets.apps.kruise.io "x" pausing is not supported\n',
    });
  });
});

describe('scale --pods', () => {
  it('CloneSet: deletes exactly the chosen pods through podsToDelete and scales down by as many', async () => {
    const before = await podsOf('sample');
    expect(before).toHaveLength(5);
    const chosen = [before[1], before[3]];
    const r = await run('scale', 'clone/sample', '--pods', chosen.join(','));
    expect(r).toMatchObject({ code: 0, out: 'cloneset.apps.kruise.io/sample scaled\n', err: '' });
    const cs = await api('GET', `${CLONESETS}/sample`);
    expect(cs.spec.replicas).toBe(3);
    // The controller drops a name from podsToDelete once its pod is gone (cloneset.md §1 step 14), which
    // may already have happened; what must hold is that exactly the chosen pods went away.
    expect(chosen).toEqual(expect.arrayContaining(cs.spec.scaleStrategy?.podsToDelete ?? []));
    server.advance(60_000);
    server.advance(60_000);
    expect(await podsOf('sample')).toEqual(before.filter((p) => !chosen.includes(p)));
  });

  it('refuses a pod the workload does not control', async () => {
    const r = await run('scale', 'clone/sample', '--pods', 'nope');
    expect(r).toMatchObject({ code: 1, err: 'Error from server (NotFound): pods "nope" not found\n' });
  });

  it('Advanced StatefulSet: reserves the ordinal of each chosen pod', async () => {
    await api(
      'POST',
      STATEFULSETS,
      workload('apps.kruise.io/v1beta1', 'StatefulSet', 'web', {
        replicas: 3,
        podManagementPolicy: 'Parallel',
      }),
    );
    const s = await runAdvancing('rollout', 'status', 'asts/web', '--timeout', '30s');
    expect(s).toMatchObject({ code: 0, err: '' });
    expect(s.out.trimEnd().split('\n').at(-1)).toBe('statefulset.apps.kruise.io/web successfully rolled out');
    const r = await run('scale', 'asts/web', '--pods', 'web-1');
    expect(r.out).toBe('statefulset.apps.kruise.io/web scaled\n');
    const sts = await api('GET', `${STATEFULSETS}/web`);
    expect(sts.spec).toMatchObject({ replicas: 2, reserveOrdinals: [1] });
    server.advance(60_000);
    server.advance(60_000);
    expect(await podsOf('web')).toEqual(['web-0', 'web-2']);
    expect((await run('set', 'image', 'asts/web', 'main=nginx:1.25')).code).toBe(0);
    const done = await runAdvancing(
      'rollout',
      'status',
      'statefulset.apps.kruise.io/web',
      '--timeout',
      '60s',
    );
    expect(done.code).toBe(0);
    expect((await run('rollout', 'history', 'asts/web')).out).toContain(
      '1         <none>\n2         <none>\n',
    );
  });

  it('Advanced DaemonSet: rollout status, pause (rollingUpdate.paused) and no scale', async () => {
    await api('POST', DAEMONSETS, workload('apps.kruise.io/v1alpha1', 'DaemonSet', 'agent', {}));
    const s = await runAdvancing('rollout', 'status', 'ads/agent', '--timeout', '30s');
    expect(s.out.trimEnd().split('\n').at(-1)).toBe('daemonset.apps.kruise.io/agent successfully rolled out');
    expect((await run('rollout', 'pause', 'ads/agent')).out).toBe('daemonset.apps.kruise.io/agent paused\n');
    expect((await api('GET', `${DAEMONSETS}/agent`)).spec.updateStrategy.rollingUpdate.paused).toBe(true);
    const sc = await run('scale', 'ads/agent', '--replicas', '2');
    expect(sc).toMatchObject({
      code: 1,
      err: 'error: daemonsets.apps.kruise.io "agent" scaling is not supported\n',
    });
  });
});

describe('kubeconfig, context and namespace', () => {
  it('-n looks in another namespace; --context must exist', async () => {
    const r = await run('rollout', 'status', 'clone/sample', '-n', 'other', '--watch=false');
    expect(r.err).toBe('Error from server (NotFound): clonesets.apps.kruise.io "sample" not found\n');
    const c = await run('rollout', 'status', 'clone/sample', '--context', 'nope');
    expect(c).toMatchObject({ code: 1, err: 'error: context "nope" does not exist\n' });
    const ok = await run('rollout', 'status', 'clone/sample', '--context', 'kruise-ts', '--watch=false');
    expect(ok.code).toBe(0);
  });

  it("a server that is not there: kubectl's connection refused line, exit 1", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kts-kruise-refused-'));
    const text = readFileSync(kubeconfig, 'utf8').replace(/server: .*/, 'server: https://127.0.0.1:1');
    const other = join(dir, 'kubeconfig');
    writeFileSync(other, text);
    let err = '';
    const code = await main(['rollout', 'history', 'clone/sample', '--kubeconfig', other], {
      stdout: () => {},
      stderr: (t) => {
        err += t;
      },
      cwd: process.cwd(),
      isTTY: false,
      readFile: (p) => readFileSync(p, 'utf8'),
      writeFile: () => {},
    });
    expect(code).toBe(1);
    expect(err).toBe(
      'The connection to the server 127.0.0.1:1 was refused - did you specify the right host or port?\n',
    );
  });
});
