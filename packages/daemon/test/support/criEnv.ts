// Integration harness: a private containerd (CRI, host-network pods only), Debian's docker-registry
// on loopback (open and htpasswd), a black-hole "registry", and busybox OCI images built with no
// network. It plays kubelet for CRR tests. Everything it
// starts is stopped by PID in `stop()`, and its scratch directory is removed.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CriClient, type CriPodSandboxConfig } from '../../src/index';

/** The user/password of the htpasswd registry (a throwaway test credential). */
export const PRIVATE_USER = 'kruise';
export const PRIVATE_PASSWORD = 'kruise-test-Pa55';
// bcrypt (cost 5) of PRIVATE_PASSWORD, made once with python3's crypt(METHOD_BLOWFISH).
const PRIVATE_HTPASSWD = `${PRIVATE_USER}:$2b$05$m6f2zjs9pvQeROltS8W8YuPTQ60CdRK2Moi4nryS7lVZw5OoXa3Ra\n`;

/** The image repository imported into containerd (never pulled): tags v1, v2, v3, pause. */
export const LOCAL_REPO = 'docker.io/kruise-test/busybox';

const BINARIES = ['containerd', 'runc', 'ctr', 'docker-registry', 'skopeo', 'busybox'] as const;

function which(bin: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' }).status === 0;
}

/** Why the real-runtime suite cannot run here, or `undefined` when it can. */
export function criSkipReason(bins: readonly string[] = BINARIES): string | undefined {
  if (process.platform !== 'linux') return 'real-containerd tests need Linux';
  if (typeof process.getuid === 'function' && process.getuid() !== 0)
    return 'real-containerd tests need root';
  const missing = bins.filter((b) => !which(b));
  if (missing.length > 0) {
    return `real-containerd tests need ${missing.join(', ')} (run packages/daemon/scripts/ci-setup.sh as root)`;
  }
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let lastErr: unknown;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v as T;
    } catch (e) {
      lastErr = e;
    }
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}${lastErr ? `: ${(lastErr as Error).message}` : ''}`);
}

/** A registry on 127.0.0.1. */
export interface Registry {
  host: string;
  pid: number;
}

/** A pod the harness runs (host network), as kubelet would. */
export interface HarnessPod {
  namespace: string;
  name: string;
  uid: string;
  sandboxId: string;
  sandboxConfig: CriPodSandboxConfig;
}

/** One container of a harness pod. */
export interface HarnessContainer {
  name: string;
  image: string;
  command?: string[];
  mounts?: { containerPath: string; hostPath: string }[];
}

/** The started environment. */
export class CriEnv {
  readonly dir: string;
  readonly socket: string;
  cri!: CriClient;
  openRegistry?: Registry;
  privateRegistry?: Registry;
  /** host:port of a TCP server that accepts and never answers. */
  blackHole?: string;
  private readonly children: ChildProcess[] = [];
  private blackHoleServer?: Server;
  private readonly blackHoleSockets = new Set<Socket>();
  private readonly sandboxes: string[] = [];

  private constructor(dir: string) {
    this.dir = dir;
    this.socket = join(dir, 'ctd', 'containerd.sock');
  }

  get endpoint(): string {
    return `unix://${this.socket}`;
  }

  /** Starts containerd (and, with `registries`, the loopback registries) and imports the images. */
  static async start(opts: { registries?: boolean } = {}): Promise<CriEnv> {
    const env = new CriEnv(mkdtempSync('/tmp/kruise-cri-'));
    try {
      await env.boot(opts.registries ?? false);
    } catch (e) {
      await env.stop();
      throw e;
    }
    return env;
  }

  private spawnLogged(cmd: string, args: string[], log: string): ChildProcess {
    const fd = openSync(join(this.dir, log), 'a');
    const child = spawn(cmd, args, { stdio: ['ignore', fd, fd] });
    closeSync(fd);
    child.on('error', () => undefined);
    this.children.push(child);
    return child;
  }

  private async boot(registries: boolean): Promise<void> {
    const W = this.dir;
    const ctd = join(W, 'ctd');
    mkdirSync(join(ctd, 'certs.d'), { recursive: true });
    mkdirSync(join(ctd, 'cni', 'net.d'), { recursive: true });
    const hosts: string[] = [];
    if (registries) {
      const [p1, p2, p3] = [await freePort(), await freePort(), await freePort()];
      hosts.push(`127.0.0.1:${p1}`, `127.0.0.1:${p2}`, `127.0.0.1:${p3}`);
      this.openRegistry = { host: hosts[0], pid: 0 };
      this.privateRegistry = { host: hosts[1], pid: 0 };
      this.blackHole = hosts[2];
    }
    for (const h of hosts) {
      mkdirSync(join(ctd, 'certs.d', h), { recursive: true });
      writeFileSync(
        join(ctd, 'certs.d', h, 'hosts.toml'),
        `server = "http://${h}"\n[host."http://${h}"]\n  capabilities = ["pull", "resolve"]\n`,
      );
    }
    writeFileSync(
      join(ctd, 'config.toml'),
      `version = 2
root = "${ctd}/root"
state = "${ctd}/state"
[grpc]
  address = "${this.socket}"
[ttrpc]
  address = "${this.socket}.ttrpc"
[plugins]
  [plugins."io.containerd.internal.v1.opt"]
    path = "${ctd}/opt"
  [plugins."io.containerd.grpc.v1.cri"]
    sandbox_image = "${LOCAL_REPO}:pause"
    restrict_oom_score_adj = true
    [plugins."io.containerd.grpc.v1.cri".cni]
      bin_dir = "/usr/lib/cni"
      conf_dir = "${ctd}/cni/net.d"
    [plugins."io.containerd.grpc.v1.cri".registry]
      config_path = "${ctd}/certs.d"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
      Root = "${ctd}/runc"
`,
    );
    this.spawnLogged('containerd', ['--config', join(ctd, 'config.toml')], 'containerd.log');
    // Images, built with no network while containerd starts.
    const script = fileURLToPath(new URL('../../scripts/build-busybox-oci.sh', import.meta.url));
    execFileSync('bash', [script, join(W, 'oci'), LOCAL_REPO], { stdio: 'ignore' });
    await waitFor('the containerd socket', () => existsSync(this.socket) || undefined);
    this.cri = await CriClient.connect(this.endpoint, { dialTimeoutMs: 15_000 });
    await waitFor('the CRI plugin', async () => {
      await this.cri.imageFsInfo();
      return true;
    });
    execFileSync('ctr', ['-a', this.socket, '-n', 'k8s.io', 'images', 'import', join(W, 'oci.tar')], {
      stdio: 'ignore',
    });
    if (registries) await this.startRegistries();
  }

  private async startRegistries(): Promise<void> {
    const W = this.dir;
    writeFileSync(join(W, 'htpasswd'), PRIVATE_HTPASSWD);
    const regs: [Registry, string][] = [
      [this.openRegistry as Registry, ''],
      [
        this.privateRegistry as Registry,
        `auth:\n  htpasswd:\n    realm: kruise-test\n    path: ${join(W, 'htpasswd')}\n`,
      ],
    ];
    for (const [i, [reg, auth]] of regs.entries()) {
      const cfg = join(W, `registry-${i}.yml`);
      writeFileSync(
        cfg,
        `version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: ${join(W, `registry-${i}`)}\nhttp:\n  addr: ${reg.host}\n${auth}`,
      );
      reg.pid = this.spawnLogged('docker-registry', ['serve', cfg], `registry-${i}.log`).pid ?? 0;
      await waitFor(`registry ${reg.host}`, async () => {
        const res = await fetch(`http://${reg.host}/v2/`);
        return res.status === 200 || res.status === 401 || undefined;
      });
    }
    const copy = (tag: string, dest: string, creds?: string) =>
      execFileSync(
        'skopeo',
        [
          '--insecure-policy',
          'copy',
          '--dest-tls-verify=false',
          ...(creds ? ['--dest-creds', creds] : []),
          `oci:${join(W, 'oci')}:${tag}`,
          `docker://${dest}`,
        ],
        { stdio: 'ignore' },
      );
    copy('v1', `${this.openRegistry?.host}/kruise-test/busybox:v1`);
    copy('v3', `${this.privateRegistry?.host}/private/busybox:v3`, `${PRIVATE_USER}:${PRIVATE_PASSWORD}`);
    // A "registry" that accepts connections and never answers.
    const [bhHost, bhPort] = (this.blackHole as string).split(':');
    this.blackHoleServer = createServer((s) => {
      this.blackHoleSockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => this.blackHoleSockets.delete(s));
    });
    await new Promise<void>((res) => this.blackHoleServer?.listen(Number(bhPort), bhHost, () => res()));
  }

  /** Runs a host-network pod sandbox with kubelet's labels (as kubelet would). */
  async runPod(namespace: string, name: string, uid: string): Promise<HarnessPod> {
    const sandboxConfig: CriPodSandboxConfig = {
      metadata: { name, uid, namespace, attempt: 0 },
      hostname: '',
      logDirectory: join(this.dir, 'pods', uid),
      labels: {
        'io.kubernetes.pod.uid': uid,
        'io.kubernetes.pod.name': name,
        'io.kubernetes.pod.namespace': namespace,
      },
      annotations: {},
      linux: { securityContext: { namespaceOptions: { network: 'NODE', pid: 'CONTAINER', ipc: 'POD' } } },
    };
    mkdirSync(sandboxConfig.logDirectory as string, { recursive: true });
    const sandboxId = await this.cri.runPodSandbox(sandboxConfig);
    this.sandboxes.push(sandboxId);
    return { namespace, name, uid, sandboxId, sandboxConfig };
  }

  /** Creates and starts attempt `attempt` of a container, as kubelet does (labels + restartCount annotation). */
  async startContainer(pod: HarnessPod, c: HarnessContainer, attempt: number): Promise<string> {
    const id = await this.cri.createContainer(
      pod.sandboxId,
      {
        metadata: { name: c.name, attempt },
        image: { image: c.image },
        command: c.command,
        mounts: c.mounts,
        labels: {
          'io.kubernetes.pod.uid': pod.uid,
          'io.kubernetes.pod.name': pod.name,
          'io.kubernetes.pod.namespace': pod.namespace,
          'io.kubernetes.container.name': c.name,
        },
        annotations: { 'io.kubernetes.container.restartCount': String(attempt) },
        logPath: `${c.name}/${attempt}.log`,
      },
      pod.sandboxConfig,
    );
    await this.cri.startContainer(id);
    return id;
  }

  /** Stops every sandbox, containerd, the registries and leftover shims (all by PID), unmounts and removes the directory. */
  async stop(): Promise<void> {
    if (this.cri) {
      for (const id of this.sandboxes) {
        await this.cri.stopPodSandbox(id).catch(() => undefined);
        await this.cri.removePodSandbox(id).catch(() => undefined);
      }
      this.cri.close();
    }
    for (const s of this.blackHoleSockets) s.destroy();
    await new Promise<void>((res) =>
      this.blackHoleServer ? this.blackHoleServer.close(() => res()) : res(),
    );
    await Promise.all(this.children.map((c) => stopChild(c)));
    // Shims or container processes that outlived containerd.
    const taskDir = join(this.dir, 'ctd', 'state', 'io.containerd.runtime.v2.task', 'k8s.io');
    if (existsSync(taskDir)) {
      for (const id of readdirSync(taskDir)) {
        for (const f of ['init.pid', 'shim.pid']) {
          const p = join(taskDir, id, f);
          if (!existsSync(p)) continue;
          const pid = Number(readFileSync(p, 'utf8').trim());
          if (pid > 1) {
            try {
              process.kill(pid, 'SIGKILL');
            } catch {
              // already gone
            }
          }
        }
      }
    }
    // Anything still mounted under the scratch directory.
    const mounts = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .map((l) => l.split(' ')[4])
      .filter((m) => m?.startsWith(this.dir))
      .sort((a, b) => b.length - a.length);
    for (const m of mounts) spawnSync('umount', ['-l', m], { stdio: 'ignore' });
    rmSync(this.dir, { recursive: true, force: true });
  }
}

async function stopChild(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null || c.pid === undefined) return;
  const exited = new Promise<void>((res) => c.once('exit', () => res()));
  c.kill('SIGTERM');
  const t = setTimeout(() => c.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(t);
}
