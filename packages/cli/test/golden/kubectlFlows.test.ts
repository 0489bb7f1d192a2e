// The golden suite: OpenKruise's documented kubectl flows, run with the real kubectl
// (/usr/bin/kubectl) and with `kruise-ts rollout|set image|scale` against `kruise-ts serve`
// started in-process (HTTPS, token, its kubeconfig; speed 0, so the simulated clock moves only when
// a step advances it), each flow's transcript compared with the one recorded under transcripts/
// (ages, uids, resourceVersions, timestamps, generated names masked: ./transcript.ts).
// `UPDATE_GOLDEN=1 npx vitest run packages/cli/test/golden` records them again.
//
// Each kubectl run gets the suite's own HOME and discovery cache (--cache-dir), so nothing outside
// the temp directory is read or written.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ApiServer, startApiServer } from '@kruise-ts/sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingFile, skipWithoutRealTool } from '../../../../test/support/realTools';
import { main } from '../../src/index';
import { recorded, render, type Step } from './transcript';

const KUBECTL = '/usr/bin/kubectl';
const SKIP = skipWithoutRealTool('kubectl golden flows', missingFile(KUBECTL, existsSync));
const EXAMPLE = fileURLToPath(new URL('../../../../examples/cloneset.yaml', import.meta.url));
const TRANSCRIPTS = fileURLToPath(new URL('./transcripts/', import.meta.url));

let server: ApiServer;
let dir: string;
let env: NodeJS.ProcessEnv;

/** A flow's recorder: runs commands and keeps their steps. */
class Flow {
  readonly steps: Step[] = [];

  /** Runs kubectl; `shown` replaces file paths in the recorded command line. */
  kubectl(args: string[], shown = args): Promise<Step> {
    return new Promise((resolve) => {
      execFile(
        KUBECTL,
        [...args, '--cache-dir', join(dir, 'cache')],
        { env, timeout: 30_000 },
        (err, stdout, stderr) => {
          const code = err
            ? typeof (err as { code?: unknown }).code === 'number'
              ? (err as { code: number }).code
              : 1
            : 0;
          const step = { command: `kubectl ${shown.map(quote).join(' ')}`, stdout, stderr, code };
          this.steps.push(step);
          resolve(step);
        },
      );
    });
  }

  /** Runs `kruise-ts` in-process with the server's kubeconfig. */
  async kts(...args: string[]): Promise<Step> {
    let stdout = '';
    let stderr = '';
    const code = await main([...args, '--kubeconfig', server.kubeconfigPath], {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      cwd: dir,
      isTTY: false,
      readFile: (p) => readFileSync(p, 'utf8'),
      writeFile: () => {},
    });
    const step = { command: `kruise-ts ${args.map(quote).join(' ')}`, stdout, stderr, code };
    this.steps.push(step);
    return step;
  }

  /**
   * `kubectl get -w` bounded: follows the watch while `during` runs and until `until` shows in its
   * output (or 15 s pass), then stops it. Consecutive repeated lines are recorded once, since how
   * many status updates arrive in between is timing.
   */
  async watch(args: string[], during: () => Promise<unknown>, until: string, note: string): Promise<void> {
    const child = spawn(KUBECTL, [...args, '--cache-dir', join(dir, 'cache')], { env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const wait = async (text: string) => {
      const end = Date.now() + 15_000;
      while (!out.includes(text) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    };
    await wait('\n');
    await during();
    await wait(until);
    child.kill();
    const lines = out.split('\n').filter((l, i, all) => l !== '' && l !== all[i - 1]);
    this.steps.push({
      command: `kubectl ${args.map(quote).join(' ')}   # ${note}`,
      stdout: `${lines.join('\n')}\n`,
      stderr: '',
      code: 0,
    });
  }
}

function quote(a: string): string {
  return /^[\w./=:,@%+-]+$/.test(a) ? a : `'${a}'`;
}

/** Lets `ms` of simulated time pass. */
function advance(ms = 60_000): void {
  server.advance(ms);
}

function compare(name: string, flow: Flow): void {
  const actual = render(flow.steps);
  expect(actual).toBe(recorded(join(TRANSCRIPTS, name), actual));
}

const ASTS = `apiVersion: apps.kruise.io/v1beta1
kind: StatefulSet
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 3
  serviceName: web
  podManagementPolicy: Parallel
  selector:
    matchLabels:
      app: web
  updateStrategy:
    type: RollingUpdate
    rollingUpdate:
      podUpdatePolicy: InPlaceIfPossible
  template:
    metadata:
      labels:
        app: web
    spec:
      readinessGates:
      - conditionType: InPlaceUpdateReady
      containers:
      - name: nginx
        image: nginx:alpine
`;

const SAMPLE_V2 = readFileSync(EXAMPLE, 'utf8')
  .replace('replicas: 5', 'replicas: 2')
  .replace(
    'metadata:\n  labels:\n    app: sample\n',
    'metadata:\n  annotations:\n    team: web\n  labels:\n    app: sample\n',
  );

const STORY = readFileSync(EXAMPLE, 'utf8').replaceAll('sample', 'story');

describe.skipIf(SKIP)('kubectl golden flows', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kts-golden-'));
    mkdirSync(join(dir, 'home'));
    server = await startApiServer({ port: 0, speed: 0, seed: 1, kubeconfigPath: join(dir, 'kubeconfig') });
    env = { PATH: process.env.PATH, HOME: join(dir, 'home'), KUBECONFIG: server.kubeconfigPath };
    writeFileSync(join(dir, 'asts.yaml'), ASTS);
    writeFileSync(join(dir, 'sample-v2.yaml'), SAMPLE_V2);
    writeFileSync(join(dir, 'story.yaml'), STORY);
    writeFileSync(join(dir, 'story-7.yaml'), STORY.replace('replicas: 5', 'replicas: 7'));
    writeFileSync(
      join(dir, 'bad.yaml'),
      STORY.replace('name: story', 'name: bad').replace('replicas: 5', 'replicas: -1'),
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  it('CloneSet: create, get, describe, scale, in-place image, partition, pause, podsToDelete, apply, -w, rollout', async () => {
    const f = new Flow();
    await f.kubectl(['create', '-f', EXAMPLE], ['create', '-f', 'examples/cloneset.yaml']);
    advance();
    await f.kubectl(['get', 'clone']);
    await f.kubectl(['get', 'clone', '-o', 'wide']);
    await f.kubectl(['get', 'pods']);
    await f.kubectl(['describe', 'clone', 'sample']);
    await f.kts('rollout', 'status', 'cloneset/sample');

    await f.kubectl(['scale', 'clone', 'sample', '--replicas=3']);
    advance();
    await f.kubectl(['get', 'clone', 'sample']);

    // In-place update: switch the strategy, then change only the image.
    await f.kubectl([
      'patch',
      'clone',
      'sample',
      '--type=merge',
      '-p',
      '{"spec":{"updateStrategy":{"type":"InPlaceIfPossible"}}}',
    ]);
    await f.kubectl([
      'patch',
      'clone',
      'sample',
      '--type=json',
      '-p',
      '[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.25"}]',
    ]);
    advance();
    await f.kubectl(['get', 'pods']);
    await f.kts('rollout', 'status', 'cloneset/sample');

    // Partition: keep 2 pods on the old revision.
    await f.kubectl([
      'patch',
      'clone',
      'sample',
      '--type=merge',
      '-p',
      '{"spec":{"updateStrategy":{"partition":2}}}',
    ]);
    await f.kts('set', 'image', 'cloneset/sample', 'nginx=nginx:1.26');
    advance();
    await f.kubectl(['get', 'clone', 'sample']);
    await f.kts('rollout', 'status', 'cloneset/sample');

    // Pause, then lift the partition: nothing moves until resume.
    await f.kts('rollout', 'pause', 'cloneset/sample');
    await f.kubectl([
      'patch',
      'clone',
      'sample',
      '--type=merge',
      '-p',
      '{"spec":{"updateStrategy":{"partition":0}}}',
    ]);
    advance();
    await f.kubectl(['get', 'clone', 'sample']);
    await f.kts('rollout', 'status', 'cloneset/sample', '--watch=false');
    await f.kts('rollout', 'resume', 'cloneset/sample');
    advance();
    await f.kubectl(['get', 'clone', 'sample']);
    await f.kts('rollout', 'status', 'cloneset/sample');

    // History and undo.
    await f.kts('rollout', 'history', 'cloneset/sample');
    await f.kts('rollout', 'undo', 'cloneset/sample', '--to-revision=1');
    advance();
    await f.kubectl([
      'get',
      'clone',
      'sample',
      '-o',
      'jsonpath={.spec.template.spec.containers[0].image}{"\\n"}',
    ]);
    await f.kts('rollout', 'history', 'cloneset/sample');
    await f.kts('rollout', 'undo', 'cloneset/sample', '--to-revision=4');

    // podsToDelete by hand, then through kruise-ts scale --pods.
    const first = (
      await f.kubectl(['get', 'pods', '-o', 'jsonpath={.items[0].metadata.name}{"\\n"}'])
    ).stdout.trim();
    await f.kubectl(
      [
        'patch',
        'clone',
        'sample',
        '--type=merge',
        '-p',
        `{"spec":{"replicas":2,"scaleStrategy":{"podsToDelete":["${first}"]}}}`,
      ],
      [
        'patch',
        'clone',
        'sample',
        '--type=merge',
        '-p',
        '{"spec":{"replicas":2,"scaleStrategy":{"podsToDelete":["<first pod>"]}}}',
      ],
    );
    advance();
    const names = (
      await f.kubectl(['get', 'pods', '-o', 'jsonpath={range .items[*]}{.metadata.name}{"\\n"}{end}'])
    ).stdout;
    expect(names.split('\n')).not.toContain(first);
    const second = names.trim().split('\n')[0];
    await f.kts('scale', 'cloneset/sample', '--pods', second);
    advance();
    await f.kubectl(['get', 'clone', 'sample']);
    expect((await f.kubectl(['get', 'pods', '-o', 'name'])).stdout).not.toContain(second);

    // Client-side apply over the created object (kubectl warns once about the missing annotation).
    await f.kubectl(['apply', '-f', join(dir, 'sample-v2.yaml')], ['apply', '-f', 'sample-v2.yaml']);
    advance();
    await f.kubectl([
      'get',
      'clone',
      'sample',
      '-o',
      'jsonpath={.spec.replicas} {.metadata.annotations.team}{"\\n"}',
    ]);

    // get -w follows a scale-up.
    await f.watch(
      ['get', 'clone', 'sample', '-w', '-o', 'jsonpath={.spec.replicas}{"\\n"}'],
      async () => {
        await f.kubectl(['scale', 'clone', 'sample', '--replicas=4']);
        advance();
      },
      '4\n',
      'while kubectl scale clone sample --replicas=4 runs',
    );
    await f.kts('rollout', 'status', 'cloneset/sample');
    compare('cloneset.txt', f);
  });

  it('Advanced StatefulSet: create, get, partition, set image, rollout status/history/undo, scale --pods', async () => {
    const f = new Flow();
    await f.kubectl(['create', '-f', join(dir, 'asts.yaml')], ['create', '-f', 'asts.yaml']);
    advance();
    advance();
    await f.kubectl(['get', 'asts']);
    await f.kubectl(['get', 'pods', '-l', 'app=web']);
    await f.kts('rollout', 'status', 'asts/web');
    await f.kubectl([
      'patch',
      'asts',
      'web',
      '--type=merge',
      '-p',
      '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":1}}}}',
    ]);
    await f.kts('set', 'image', 'asts/web', 'nginx=nginx:1.25');
    advance();
    advance();
    await f.kubectl(['get', 'asts', 'web']);
    await f.kts('rollout', 'status', 'asts/web');
    await f.kts('rollout', 'history', 'asts/web');
    await f.kts('scale', 'asts/web', '--pods', 'web-0');
    advance();
    await f.kubectl(['get', 'pods', '-l', 'app=web']);
    await f.kubectl(['get', 'asts', 'web', '-o', 'jsonpath={.spec.replicas} {.spec.reserveOrdinals}{"\\n"}']);
    await f.kts('rollout', 'undo', 'asts/web');
    advance();
    advance();
    await f.kubectl([
      'get',
      'asts',
      'web',
      '-o',
      'jsonpath={.spec.template.spec.containers[0].image}{"\\n"}',
    ]);
    await f.kts('rollout', 'status', 'asts/web');
    compare('advanced-statefulset.txt', f);
  });
  it('server-side apply and its conflicts, server dry run, explain, the events and logs of a pod', async () => {
    const f = new Flow();
    await f.kubectl(
      ['apply', '--server-side', '-f', join(dir, 'story.yaml')],
      ['apply', '--server-side', '-f', 'story.yaml'],
    );
    advance();
    await f.kubectl(['get', 'clone', 'story']);
    // another manager's different replicas conflict; --force-conflicts takes the field over
    await f.kubectl(
      ['apply', '--server-side', '--field-manager=other', '-f', join(dir, 'story-7.yaml')],
      ['apply', '--server-side', '--field-manager=other', '-f', 'story-7.yaml'],
    );
    await f.kubectl(
      [
        'apply',
        '--server-side',
        '--field-manager=other',
        '--force-conflicts',
        '-f',
        join(dir, 'story-7.yaml'),
      ],
      ['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', 'story-7.yaml'],
    );
    // server dry runs: a delete leaves the object, an invalid create is refused and stores nothing
    await f.kubectl(['delete', 'clone', 'story', '--dry-run=server']);
    await f.kubectl(['get', 'clone', 'story', '-o', 'name']);
    await f.kubectl(
      ['create', '--dry-run=server', '-f', join(dir, 'bad.yaml')],
      ['create', '--dry-run=server', '-f', 'bad.yaml'],
    );
    await f.kubectl(['get', 'clone', 'bad']);
    await f.kubectl(['explain', 'clone.spec.updateStrategy.partition']);
    advance();
    const pod = (
      await f.kubectl(['get', 'pods', '-l', 'app=story', '-o', 'jsonpath={.items[0].metadata.name}{"\\n"}'])
    ).stdout.trim();
    await f.kubectl(
      [
        'get',
        'events',
        '--field-selector',
        `involvedObject.name=${pod}`,
        '--sort-by=.metadata.creationTimestamp',
      ],
      [
        'get',
        'events',
        '--field-selector',
        'involvedObject.name=<pod>',
        '--sort-by=.metadata.creationTimestamp',
      ],
    );
    await f.kubectl(['logs', pod], ['logs', '<pod>']);
    compare('cluster-story.txt', f);
  });
});
