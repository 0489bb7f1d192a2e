// kruise-ts forecast: in-process through main(argv, io) (text, --json, --report, bad flags,
// shards and merge), and the real executable for a sweep over worker_threads, whose percentiles
// must be the same for 1 and 2 workers. Also: every scenario of examples/scenarios/ prints the
// table of its kind.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ApiServer, startApiServer } from '@kruise-ts/sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { type CliIO, main } from '../src/index';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const STATE = 'examples/forecast/sample-state.yaml';

function capture(files = new Map<string, string>()) {
  let out = '';
  let err = '';
  const io: CliIO = {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    cwd: repo,
    isTTY: false,
    readFile: (p) => files.get(p) ?? readFileSync(p, 'utf8'),
    writeFile: (p, t) => {
      files.set(p, t);
    },
  };
  return { io, out: () => out, err: () => err, files };
}

describe('kruise-ts forecast', () => {
  it('forecasts a new image on the saved sample CloneSet: duration, floor, batches, no stall', async () => {
    const c = capture();
    expect(await main(['forecast', STATE, '--set-image', 'nginx=nginx:1.27-alpine'], c.io)).toBe(0);
    const out = c.out();
    expect(out).toContain('Forecast for CloneSet/default/sample: set image nginx=nginx:1.27-alpine (seed 1)');
    expect(out).toContain(
      'timing model: image pull 30s per node that lacks the image, container start 2s, readiness 5s',
    );
    expect(out).toMatch(/outcome\s+rolled out in \d+m\d+s/);
    expect(out).toMatch(/availability floor\s+4\/5 \(80%\) at \+0s/);
    expect(out).toMatch(/\+0s\s+deleted\s+1 pod\(s\): sample-/);
    expect(out).toContain('Stalls:\n  none');
  });

  it('--json, --report and a failure injection: the rollout stops at its budget', async () => {
    const c = capture();
    const args = ['forecast', STATE, '--set-image', 'nginx=nginx:1.27-alpine', '--fail', 'crash-loop'];
    expect(await main([...args, '--stall-after', '2m', '--json', '--report', 'out.html'], c.io)).toBe(0);
    const j = JSON.parse(c.out());
    expect(j).toMatchObject({ completed: false, failure: 'crash-loop', floor: { available: 4, desired: 5 } });
    expect(j.stalls.map((s: { reason: string }) => s.reason)).toEqual(['budget']);
    const html = c.files.get(`${repo}out.html`) ?? '';
    expect(html).toContain('<dt>Outcome</dt><dd class="bad">stalls at +');
    expect(html).toContain('<h2>Batches</h2>');
  });

  it('answers bad input with exit 2 and one error line', async () => {
    for (const [args, msg] of [
      [
        ['forecast', STATE, '--set-image', 'web=x'],
        'CloneSet sample has no container web (containers: nginx)',
      ],
      [['forecast', STATE, '--partition', 'x'], '--partition must be an integer or a percentage, not "x"'],
      [['forecast', STATE, '--target', 'asts/web', '--partition', '1'], 'no asts named web in the state'],
      [['forecast', '--set-image', 'nginx=x'], 'give the saved state file'],
      [
        ['forecast', STATE, '--fail', 'sometimes', '--partition', '1'],
        '--fail must be one of none, never-ready, crash-loop',
      ],
    ] as const) {
      const c = capture();
      expect(await main([...args], c.io), args.join(' ')).toBe(2);
      expect(c.err()).toContain(msg);
    }
  });

  it('shards: 0/2 and 1/2 merged give the whole sweep (in-process, one worker)', async () => {
    const files = new Map<string, string>();
    const sweep = [
      'forecast',
      STATE,
      '--set-image',
      'nginx=nginx:1.27-alpine',
      '--runs',
      '6',
      '--workers',
      '1',
    ];
    const whole = capture(files);
    expect(await main([...sweep, '--out', 'all.json'], whole.io)).toBe(0);
    for (const i of [0, 1])
      expect(await main([...sweep, '--shard', `${i}/2`, '--out', `s${i}.json`], capture(files).io)).toBe(0);
    const merged = capture(files);
    expect(await main(['forecast', 'merge', 's0.json', 's1.json'], merged.io)).toBe(0);
    expect(merged.out()).toBe(whole.out());
    expect(merged.out()).toMatch(/completed\s+6\/6\n\s+duration p50 \/ p95 \/ max\s+\d+m\d+s \/ /);
    const all = JSON.parse(files.get(`${repo}all.json`) ?? '{}');
    expect(all.runs.map((r: { seed: number }) => r.seed)).toEqual([1, 2, 3, 4, 5, 6]);
    const bad = capture(files);
    expect(await main(['forecast', 'merge', 's0.json', 's0.json'], bad.io)).toBe(2);
    expect(bad.err()).toContain('seed 1 is in more than one shard');
  });
});

describe('examples/forecast-sweep-job.yaml (an Indexed Job of sweep shards)', () => {
  it("its pods' arguments run as shards whose merge is the whole sweep", async () => {
    const job = parseYaml(readFileSync(`${repo}examples/forecast-sweep-job.yaml`, 'utf8'));
    expect(job).toMatchObject({ kind: 'Job', spec: { completionMode: 'Indexed', completions: 4 } });
    const args: string[] = job.spec.template.spec.containers[0].args;
    expect(args).toContain('$(JOB_COMPLETION_INDEX)/4');
    const files = new Map<string, string>();
    const whole = capture(files);
    const sweepArgs = (index: string) =>
      args.map((a) =>
        a === '/state/state.yaml'
          ? STATE
          : a === '4000'
            ? '8'
            : a === '2'
              ? '1'
              : a.replace('$(JOB_COMPLETION_INDEX)', index),
      );
    for (const i of ['0', '1', '2', '3']) {
      const c = capture(files);
      expect(await main(sweepArgs(i), c.io)).toBe(0);
      files.set(`${repo}shard-${i}.json`, c.out()); // what `kubectl logs` of pod i prints
    }
    expect(
      await main(
        [...sweepArgs('0').filter((a) => a !== '--shard' && a !== '0/4' && a !== '--out' && a !== '-')],
        whole.io,
      ),
    ).toBe(0);
    const merged = capture(files);
    expect(
      await main(
        ['forecast', 'merge', 'shard-0.json', 'shard-1.json', 'shard-2.json', 'shard-3.json'],
        merged.io,
      ),
    ).toBe(0);
    expect(merged.out()).toBe(whole.out());
  });
});

describe('kruise-ts sim prints the table of each kind', () => {
  it.each([
    ['daemonset-surge.yaml', 'NAME        DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   AGE'],
    ['statefulset-reserve.yaml', 'NAME   DESIRED   CURRENT   UPDATED   READY   AGE'],
    ['sidecarset-upgrade.yaml', 'NAME        MATCHED   UPDATED   READY   AGE'],
    ['uniteddeployment-adaptive.yaml', '  subsets: zone-a 4, zone-b 4, zone-c 0 = 8 of 8 desired'],
    ['imagepulljob-prewarm.yaml', 'NAME      TOTAL   ACTIVE   SUCCEED   FAILED   AGE   MESSAGE'],
    ['imagepulljob-prewarm.yaml', 'restart-nginx   Completed    web-0   node-1'],
  ])('%s: %s', async (file, line) => {
    const c = capture();
    expect(await main(['sim', `examples/scenarios/${file}`], c.io)).toBe(0);
    expect(c.out()).toContain(line);
  });
});

describe('the real executable: a sweep over worker threads', () => {
  const sweep = (workers: string) =>
    execFileSync(
      'npx',
      [
        'tsx',
        '--conditions=@kruise-ts/source',
        'packages/cli/src/bin.ts',
        'forecast',
        STATE,
        '--set-image',
        'nginx=nginx:1.27-alpine',
        '--runs',
        '8',
        '--workers',
        workers,
        '--json',
      ],
      { cwd: repo, encoding: 'utf8', timeout: 120_000 },
    );

  it('gives the same percentiles with 1 and 2 workers', () => {
    const one = JSON.parse(sweep('1'));
    const two = JSON.parse(sweep('2'));
    expect(two.summary).toEqual(one.summary);
    expect(one.summary).toMatchObject({ runs: 8, completed: 8 });
    expect(one.summary.durationMs.p50).toBeGreaterThan(60_000);
  }, 240_000);
});

describe('kruise-ts forecast --from-cluster (read-only, against kruise-ts serve in-process)', () => {
  let server: ApiServer;
  let kubeconfig: string;
  beforeAll(async () => {
    kubeconfig = join(mkdtempSync(join(tmpdir(), 'kts-forecast-')), 'kubeconfig');
    server = await startApiServer({ port: 0, speed: 0, kubeconfigPath: kubeconfig });
    const manifest = parseYaml(readFileSync(`${repo}examples/cloneset.yaml`, 'utf8'));
    const r = server.simulation.apply(manifest);
    expect(r.ok).toBe(true);
    server.advance(60_000);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists the state from the cluster and forecasts from it, writing nothing', async () => {
    const before = server.simulation.store.list('apps.kruise.io/v1alpha1', 'CloneSet')[0].metadata
      .resourceVersion;
    const c = capture();
    const code = await main(
      ['forecast', '--from-cluster', '--kubeconfig', kubeconfig, '--set-image', 'nginx=nginx:1.27-alpine'],
      c.io,
    );
    expect(c.err()).toBe('');
    expect(code).toBe(0);
    expect(c.out()).toContain(
      'starting state: 5 pod(s) of CloneSet/default/sample (5 ready, 0 not ready) on 3 node(s)',
    );
    expect(c.out()).toMatch(/outcome\s+rolled out in/);
    expect(
      server.simulation.store.list('apps.kruise.io/v1alpha1', 'CloneSet')[0].metadata.resourceVersion,
    ).toBe(before);
  });
});
