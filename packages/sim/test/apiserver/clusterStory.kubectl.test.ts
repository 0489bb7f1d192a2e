// A cluster with a story, seen through the real kubectl (/usr/bin/kubectl 1.32): pods get
// Kubernetes' events from the scheduler and kubelet models (Scheduled, Pulling, Pulled, Created,
// Started, Killing on an in-place update, FailedScheduling for a pod that fits nowhere), an IP
// from their node's pod CIDR; nodes report version, OS image, kernel and container runtime, an
// InternalIP and the zone `--zones` gave them; `kubectl logs` prints the simulated container's
// log (`--previous` the instance before an in-place restart); exec, attach and port-forward get
// a clear "runs no processes" Status; `kubectl auth can-i` and `whoami` answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodesInZones } from '../../src/nodesFile';
import { call, startTestServer } from './helpers';
import { kubectlFor, skipWithoutKubectl } from './kubectlRunner';

const SKIP = skipWithoutKubectl('kubectl: a cluster with a story');
const CS = '/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets';

const inPlace = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    updateStrategy: { type: 'InPlaceIfPossible' },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] },
    },
  },
};

describe.skipIf(SKIP)('kubectl: a cluster with a story', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;
  let kubectl: ReturnType<typeof kubectlFor>;
  let pod: string;

  beforeAll(async () => {
    s = await startTestServer({ controllers: 'all', nodes: nodesInZones(3, ['zone-a', 'zone-b', 'zone-c']) });
    kubectl = kubectlFor(s.kubeconfigPath, s.dir);
    expect((await call(s.url, 'POST', CS, inPlace)).status).toBe(201);
    s.advance(30_000);
    pod = s.simulation.list('Pod')[0].metadata.name!;
  });
  afterAll(async () => {
    await s?.close();
  });

  it('describe pod shows the scheduler and kubelet events in their words, and the pod IP', async () => {
    const r = await kubectl('describe', 'pod', pod);
    expect(r.stderr).toBe('');
    const node = (s.simulation.get('Pod', pod)!.spec as { nodeName: string }).nodeName;
    const events = r.stdout.split('Events:')[1];
    const rows = events
      .split('\n')
      .slice(3)
      .filter((l) => l.trim() !== '')
      .map((l) => l.trim().split(/\s{2,}/));
    expect(rows.map((x) => [x[0], x[1], x[3], x[4]])).toEqual([
      ['Normal', 'Scheduled', 'default-scheduler', `Successfully assigned default/${pod} to ${node}`],
      ['Normal', 'Pulling', 'kubelet', 'Pulling image "nginx:alpine"'],
      [
        'Normal',
        'Pulled',
        'kubelet',
        expect.stringMatching(
          /^Successfully pulled image "nginx:alpine" in 5s \(5s including waiting\)\. Image size: \d+ bytes\.$/,
        ),
      ],
      ['Normal', 'Created', 'kubelet', 'Created container: nginx'],
      ['Normal', 'Started', 'kubelet', 'Started container nginx'],
    ]);
    const ip = /\nIP:\s+(\S+)/.exec(r.stdout)?.[1];
    expect(ip).toMatch(/^10\.244\.\d+\.\d+$/);
    expect(r.stdout).toMatch(new RegExp(`IPs:\\n\\s+IP:\\s+${ip!.replace(/\./g, '\\.')}\\n`));
  });

  it('get nodes -o wide shows version, addresses, OS image, kernel, runtime; --zones labelled the zones', async () => {
    const r = await kubectl('get', 'nodes', '-o', 'wide', '-L', 'topology.kubernetes.io/zone');
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s{2,}/));
    expect(lines[0]).toEqual([
      'NAME',
      'STATUS',
      'ROLES',
      'AGE',
      'VERSION',
      'INTERNAL-IP',
      'EXTERNAL-IP',
      'OS-IMAGE',
      'KERNEL-VERSION',
      'CONTAINER-RUNTIME',
      'ZONE',
    ]);
    expect(lines.slice(1).map((l) => [l[0], l[4], l[5], l[7], l[8], l[9], l[10]])).toEqual(
      ['a', 'b', 'c'].map((z, i) => [
        `node-${i + 1}`,
        'v1.32.0',
        `192.168.0.${i + 2}`,
        'Debian GNU/Linux 12 (bookworm)',
        '6.1.0-28-amd64',
        'containerd://1.7.24',
        `zone-${z}`,
      ]),
    );
    // pods' IPs come from their node's pod CIDR
    const pods = await kubectl(
      'get',
      'pods',
      '-o',
      'jsonpath={range .items[*]}{.spec.nodeName} {.status.podIP}{"\\n"}{end}',
    );
    for (const line of pods.stdout.trim().split('\n')) {
      const [node, ip] = line.split(' ');
      expect(ip.split('.').slice(0, 3).join('.')).toBe(`10.244.${Number(node.slice(5)) - 1}`);
    }
  });

  it('logs prints the simulated container log; after an in-place update --previous the instance before', async () => {
    const first = await kubectl('logs', pod);
    expect(first.stdout).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ container nginx started \(image nginx:alpine; simulated by kruise-ts, no process runs\)\n$/,
    );
    const patched = await kubectl(
      'patch',
      'clone',
      'web',
      '--type=merge',
      '-p',
      '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.27-alpine"}]}}}}',
    );
    expect(patched.stderr).toBe('');
    s.advance(60_000);
    expect(s.simulation.get('Pod', pod)).toBeDefined();
    const now = await kubectl('logs', pod);
    expect(now.stdout).toMatch(/container nginx started \(image nginx:1\.27-alpine;/);
    const prev = await kubectl('logs', pod, '--previous');
    expect(prev.stdout.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/container nginx started \(image nginx:alpine;/),
      expect.stringMatching(
        /container nginx stopped \(image changed\); it restarts with image nginx:1\.27-alpine$/,
      ),
    ]);
    const stamped = await kubectl('logs', pod, '--timestamps', '--tail=1');
    expect(stamped.stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000000Z container nginx started/);
    const events = await kubectl('describe', 'pod', pod);
    expect(events.stdout).toContain('Container nginx definition changed, will be restarted');
  });

  it('a pod that fits nowhere gets a FailedScheduling warning with the scheduler message', async () => {
    const r = await kubectl(
      'run',
      'picky',
      '--image=nginx',
      '--overrides={"spec":{"nodeSelector":{"disk":"ssd"}}}',
    );
    expect(r.stdout).toBe('pod/picky created\n');
    s.advance(2_000);
    const d = await kubectl('describe', 'pod', 'picky');
    expect(d.stdout).toMatch(
      /Warning\s+FailedScheduling\s+\S+\s+default-scheduler\s+0\/3 nodes are available: 3 node\(s\) didn't match Pod's node affinity\/selector\./,
    );
  });

  it('exec, attach and port-forward say the simulated cluster runs no processes', async () => {
    for (const args of [
      ['exec', pod, '--', 'ls'],
      ['attach', pod],
      ['port-forward', pod, '18080:80'],
    ]) {
      const r = await kubectl(...args);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(`kruise-ts serve simulates pod default/${pod} and runs no processes`);
    }
  });

  it('auth can-i, can-i --list and whoami answer for the one identity', async () => {
    expect((await kubectl('auth', 'can-i', 'delete', 'clonesets.apps.kruise.io')).stdout).toBe('yes\n');
    const list = await kubectl('auth', 'can-i', '--list');
    expect(list.stdout).toMatch(
      /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n\*\.\*\s+\[\]\s+\[\]\s+\[\*\]\n/,
    );
    const who = await kubectl('auth', 'whoami');
    expect(who.stdout).toContain('kruise-ts-admin');
  });
});
