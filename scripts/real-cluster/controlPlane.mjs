// A real Kubernetes control plane on loopback for the end-to-end suite: kube-apiserver and etcd
// built from Go modules (./controlplane, cached by Go's build and module caches), started on
// 127.0.0.1 with a CA and serving certificate made by openssl, an admin bearer token (group
// system:masters), RBAC on, and a kubeconfig written for it. There is no kubelet, scheduler or
// controller-manager: the suite's pod driver (packages/operator/test-cluster/helpers/podDriver.ts)
// plays the node side. See ./README.md for what this cluster has and lacks.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository's root folder. */
export const repoRoot = resolve(here, '../..');
const moduleDir = join(here, 'controlplane');

/**
 * Where the built binaries go: $KRUISE_TS_CONTROL_PLANE_BIN, else `kruise-ts/real-cluster/bin` in the
 * user's cache folder, beside Go's own caches, so that the binaries outlive a clone and its
 * node_modules (`go build` still relinks them whenever an input changed).
 */
export function defaultBinDir() {
  const cache = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  return process.env.KRUISE_TS_CONTROL_PLANE_BIN ?? join(cache, 'kruise-ts/real-cluster/bin');
}

/** The Kubernetes release the control plane module pins (its `require k8s.io/kubernetes` line). */
export function kubernetesVersion() {
  const m = /\sk8s\.io\/kubernetes (v[0-9.]+)/.exec(readFileSync(join(moduleDir, 'go.mod'), 'utf8'));
  return m ? m[1] : 'unknown';
}

/**
 * Builds kube-apiserver and etcd into `binDir`. `go build` compares the output's build id with its
 * inputs, so with warm Go caches a second call relinks nothing and returns in seconds.
 * @returns {{ apiserver: string, etcd: string }}
 */
export function buildControlPlane({ binDir = defaultBinDir(), log = () => {} } = {}) {
  mkdirSync(binDir, { recursive: true });
  const out = { apiserver: join(binDir, 'kube-apiserver'), etcd: join(binDir, 'etcd') };
  // A plain `go build` leaves the version unset (v0.0.0-master), and clients pick behaviour by the
  // server's version (kubectl's dispatcher picks its binary by the minor): stamp the release.
  const version = kubernetesVersion();
  const [major, minor] = version.slice(1).split('.');
  const base = 'k8s.io/component-base/version';
  const stamp = [
    `-X ${base}.gitVersion=${version}`,
    `-X ${base}.gitMajor=${major}`,
    `-X ${base}.gitMinor=${minor}`,
    `-X ${base}.gitTreeState=clean`,
  ].join(' ');
  const builds = [
    [out.apiserver, 'k8s.io/kubernetes/cmd/kube-apiserver', ['-ldflags', stamp]],
    [out.etcd, './cmd/etcd', []],
  ];
  for (const [target, pkg, flags] of builds) {
    log(`go build ${pkg}`);
    const r = spawnSync('go', ['build', ...flags, '-o', target, pkg], { cwd: moduleDir, stdio: 'inherit' });
    if (r.error) throw new Error(`go build ${pkg}: ${r.error.message} (is Go 1.24 or later on the PATH?)`);
    if (r.status !== 0) throw new Error(`go build ${pkg} failed with exit code ${r.status}`);
  }
  return out;
}

/** Why the control plane cannot be built or run here, or undefined when it can. */
export function missingControlPlaneTools() {
  for (const [tool, args] of [
    ['go', ['version']],
    ['openssl', ['version']],
  ]) {
    const r = spawnSync(tool, args, { stdio: 'ignore' });
    if (r.error || r.status !== 0) return `${tool} is not on the PATH`;
  }
  return undefined;
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolvePort(port));
    });
  });
}

function openssl(args, cwd) {
  const r = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.stderr}`);
}

/**
 * A CA, a serving certificate for 127.0.0.1/localhost signed by it, and the service-account
 * signing key, in `dir`.
 */
function makeCertificates(dir) {
  const days = '30';
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      days,
      '-subj',
      '/CN=kruise-ts-test-ca',
    ],
    dir,
  );
  openssl(
    [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'apiserver.key',
      '-out',
      'apiserver.csr',
      '-subj',
      '/CN=kube-apiserver',
    ],
    dir,
  );
  writeFileSync(
    join(dir, 'apiserver.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes.default.svc\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'apiserver.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'apiserver.crt',
      '-days',
      days,
      '-extfile',
      'apiserver.ext',
    ],
    dir,
  );
  openssl(['genrsa', '-out', 'sa.key', '2048'], dir);
  openssl(['rsa', '-in', 'sa.key', '-pubout', '-out', 'sa.pub'], dir);
}

/** The kubeconfig text for `url` with `token`, trusting `caPem`. */
export function kubeconfigText(url, token, caPem, name = 'kruise-ts-real') {
  const ca = Buffer.from(caPem).toString('base64');
  return [
    'apiVersion: v1',
    'kind: Config',
    `clusters:\n- name: ${name}\n  cluster:\n    server: ${url}\n    certificate-authority-data: ${ca}`,
    `users:\n- name: ${name}-admin\n  user:\n    token: ${token}`,
    `contexts:\n- name: ${name}\n  context:\n    cluster: ${name}\n    user: ${name}-admin\n    namespace: default`,
    `current-context: ${name}`,
    '',
  ].join('\n');
}

/** One HTTPS GET with the bearer token; resolves with the status and body text (never rejects). */
function get(url, token, ca) {
  return new Promise((done) => {
    const req = https.request(url, {
      method: 'GET',
      ca,
      headers: { Authorization: `Bearer ${token}` },
      timeout: 2000,
    });
    req.on('error', (e) => done({ status: 0, text: String(e) }));
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, text }));
    });
    req.end();
  });
}

async function terminate(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
}

async function etcdPost(url, body) {
  const r = await fetch(url, { method: 'POST', body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`etcd ${url}: ${r.status} ${await r.text()}`);
  return r.json();
}

function startProcess(bin, args, logPath, detached) {
  const fd = openSync(logPath, 'a');
  const child = spawn(bin, args, { stdio: ['ignore', fd, fd], detached });
  if (detached) child.unref();
  return child;
}

async function waitUntil(check, timeoutMs, what, logPath) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const r = await check();
    if (r === true) return;
    last = r;
    await new Promise((r2) => setTimeout(r2, 250));
  }
  const tail = existsSync(logPath) ? readFileSync(logPath, 'utf8').split('\n').slice(-15).join('\n') : '';
  throw new Error(`timed out waiting for ${what} (${last})\n--- ${logPath} ---\n${tail}`);
}

/**
 * Starts etcd and kube-apiserver in `dir` (created; data, certificates, logs and the kubeconfig
 * live there). `detached` processes outlive this Node process (for `run.mjs up`).
 * @returns {Promise<{ url: string, token: string, caCert: string, kubeconfigPath: string, dir: string,
 *   pids: number[], version: string, stop(): Promise<void>, restartApiServer(downMs?: number): Promise<void>,
 *   compactEtcd(): Promise<number> }>}
 */
export async function startControlPlane({ dir, binDir = defaultBinDir(), detached = false, log = () => {} }) {
  mkdirSync(dir, { recursive: true });
  const bins = { apiserver: join(binDir, 'kube-apiserver'), etcd: join(binDir, 'etcd') };
  if (!existsSync(bins.apiserver) || !existsSync(bins.etcd))
    throw new Error(
      `control plane binaries missing in ${binDir}: run node scripts/real-cluster/run.mjs build`,
    );
  makeCertificates(dir);
  const token = randomBytes(24).toString('hex');
  writeFileSync(join(dir, 'tokens.csv'), `${token},kruise-ts-admin,kruise-ts-admin,"system:masters"\n`, {
    mode: 0o600,
  });
  const [etcdClient, etcdPeer, securePort] = [await freePort(), await freePort(), await freePort()];
  const etcdUrl = `http://127.0.0.1:${etcdClient}`;
  const etcdLog = join(dir, 'etcd.log');
  const apiLog = join(dir, 'kube-apiserver.log');
  log(`etcd on ${etcdUrl}`);
  const etcd = startProcess(
    bins.etcd,
    [
      '--name=kruise-ts-test',
      `--data-dir=${join(dir, 'etcd-data')}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=kruise-ts-test=http://127.0.0.1:${etcdPeer}`,
      '--log-level=warn',
      '--quota-backend-bytes=2147483648',
    ],
    etcdLog,
    detached,
  );
  const url = `https://127.0.0.1:${securePort}`;
  log(`kube-apiserver on ${url}`);
  const apiserverArgs = [
    `--etcd-servers=${etcdUrl}`,
    `--secure-port=${securePort}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--tls-cert-file=${join(dir, 'apiserver.crt')}`,
    `--tls-private-key-file=${join(dir, 'apiserver.key')}`,
    `--client-ca-file=${join(dir, 'ca.crt')}`,
    `--token-auth-file=${join(dir, 'tokens.csv')}`,
    '--authorization-mode=RBAC',
    '--service-cluster-ip-range=10.96.0.0/16',
    '--service-account-issuer=https://kubernetes.default.svc',
    `--service-account-key-file=${join(dir, 'sa.pub')}`,
    `--service-account-signing-key-file=${join(dir, 'sa.key')}`,
    // No controller-manager creates each namespace's "default" ServiceAccount, so the admission
    // plugin that requires it would refuse every pod.
    '--disable-admission-plugins=ServiceAccount',
    // Short watch windows and frequent etcd compaction keep the fault tests (410 Gone) short.
    '--etcd-compaction-interval=1m',
    '--v=1',
  ];
  let apiserver = startProcess(bins.apiserver, apiserverArgs, apiLog, detached);
  const ca = readFileSync(join(dir, 'ca.crt'), 'utf8');
  const pids = [apiserver.pid, etcd.pid];
  const stop = async () => {
    for (const child of [apiserver, etcd]) await terminate(child, 'SIGTERM');
  };
  const ready = () =>
    waitUntil(
      async () => {
        if (apiserver.exitCode !== null)
          throw new Error(`kube-apiserver exited (${apiserver.exitCode}); see ${apiLog}`);
        if (etcd.exitCode !== null) throw new Error(`etcd exited (${etcd.exitCode}); see ${etcdLog}`);
        const r = await get(`${url}/readyz`, token, ca);
        return r.status === 200 && r.text.trim() === 'ok' ? true : `readyz ${r.status}`;
      },
      90_000,
      'kube-apiserver /readyz',
      apiLog,
    );
  try {
    await ready();
  } catch (e) {
    await stop();
    throw e;
  }
  /** Kills kube-apiserver (SIGKILL, as a crash), waits `downMs`, starts it again and waits until ready. */
  const restartApiServer = async (downMs = 0) => {
    await terminate(apiserver, 'SIGKILL');
    await new Promise((r) => setTimeout(r, downMs));
    apiserver = startProcess(bins.apiserver, apiserverArgs, apiLog, detached);
    await ready();
  };
  /**
   * Compacts etcd's history up to its current revision (through etcd's JSON gateway), so a watch
   * that resumes from an older resourceVersion gets 410 Gone once kube-apiserver's watch cache
   * no longer holds it.
   */
  const compactEtcd = async () => {
    const head = await etcdPost(`${etcdUrl}/v3/kv/range`, { key: Buffer.from('/').toString('base64') });
    const revision = head.header.revision;
    await etcdPost(`${etcdUrl}/v3/kv/compaction`, { revision, physical: true });
    return Number(revision);
  };
  const kubeconfigPath = join(dir, 'kubeconfig');
  writeFileSync(kubeconfigPath, kubeconfigText(url, token, ca), { mode: 0o600 });
  const version = JSON.parse((await get(`${url}/version`, token, ca)).text).gitVersion;
  return { url, token, caCert: ca, kubeconfigPath, dir, pids, version, stop, restartApiServer, compactEtcd };
}

/** The kubectl whose minor version is nearest the server's (the PATH's dispatcher picks 1.32 for 1.34). */
export function kubectlPath() {
  const dispatcher = spawnSync('sh', ['-c', 'readlink -f "$(command -v kubectl)"'], {
    encoding: 'utf8',
  }).stdout.trim();
  if (!dispatcher) return 'kubectl';
  const pinned = join(dirname(dispatcher), 'kubectl.1.33');
  return existsSync(pinned) ? pinned : dispatcher;
}

/**
 * Installs the CRDs of `packages/operator/deploy/crds` with the real kubectl (server-side apply)
 * and waits until every one is Established.
 */
export function installCrds(kubeconfigPath, cacheDir) {
  const kubectl = kubectlPath();
  const common = [`--kubeconfig=${kubeconfigPath}`, `--cache-dir=${cacheDir}`];
  const crds = join(repoRoot, 'packages/operator/deploy/crds');
  for (const args of [
    ['apply', '--server-side', '-f', crds],
    ['wait', '--for=condition=Established', '--timeout=60s', '-f', crds],
  ]) {
    const r = spawnSync(kubectl, [...common, ...args], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr || r.stdout}`);
  }
}
