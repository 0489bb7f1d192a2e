// Test helpers: start `kruise-ts serve --controllers none` in-process, run operators against it
// (directly or through the fault proxy), a test file's per-test cluster lifecycle (`useCluster`),
// and small REST helpers. The server runs as `kruise-ts serve` does by default (HTTPS with a
// bearer token): the REST helpers and the kubeconfigs written here carry the credentials of the
// server a URL leads to (serverAccess.ts).
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { type ApiServer, kubeconfigFor, startApiServer } from '../../../sim/src/apiserver/index';
import {
  defaultOperatorOptions,
  type OperatorOptions,
  type RunningOperator,
  runOperator,
} from '../../src/index';
import { credentialsFor, rememberServer, requestText } from './serverAccess';

export type { ApiServer };

let seq = 0;

/**
 * Starts the simulator's API server. `nodes`: how many nodes of 110 pods (default: the
 * simulation's 3, i.e. at most 330 schedulable pods; more stay Pending "Too many pods").
 */
export async function startCluster(speed = 10, nodes?: number): Promise<ApiServer> {
  const server = await startApiServer({
    port: 0,
    controllers: 'none',
    speed,
    nodes:
      nodes === undefined
        ? undefined
        : Array.from({ length: nodes }, (_, i) => ({
            name: `node-${i + 1}`,
            capacity: { cpu: '4', memory: '16Gi', pods: '110' },
          })),
    kubeconfigPath: join(tmpdir(), `kruise-ts-op-${process.pid}-${seq++}.kubeconfig`),
  });
  rememberServer(server.url, { token: server.token, caCert: server.caCert });
  return server;
}

/**
 * A kubeconfig file pointing at `url` (the fault proxy, plain HTTP), with the token of the
 * server behind it.
 */
export function kubeconfigAt(url: string): string {
  const p = join(tmpdir(), `kruise-ts-op-proxy-${process.pid}-${seq++}.kubeconfig`);
  writeFileSync(p, kubeconfigFor(url, { token: credentialsFor(url).token }), { mode: 0o600 });
  return p;
}

/** An operator with test-friendly settings (free ports, fast leader election, quiet logs). */
export function startOperator(
  kubeconfig: string,
  identity: string,
  extra: Partial<OperatorOptions> = {},
): Promise<RunningOperator> {
  const d = defaultOperatorOptions({});
  return runOperator({
    kubeconfig,
    metricsAddr: '127.0.0.1:0',
    healthProbeAddr: '127.0.0.1:0',
    protectionLogPath: '',
    logLevel: process.env.OPERATOR_LOG ?? 'silent',
    onLeadershipLost: 'standby',
    watchBackoffMs: 50,
    rateLimiter: { baseDelayMs: 5, maxDelayMs: 2000, qps: 100, burst: 200 },
    ...extra,
    leaderElection: {
      ...d.leaderElection,
      identity,
      leaseDurationMs: 2000,
      renewDeadlineMs: 1500,
      retryPeriodMs: 200,
      ...extra.leaderElection,
    },
    webhook: { ...d.webhook, host: '127.0.0.1', bind: '127.0.0.1', port: 0, install: true, ...extra.webhook },
  });
}

/** What `useCluster` gives a test file: this test's server and operators, torn down after it. */
export interface TestCluster {
  /** Starts this test's API server (`startCluster(speed, nodes)`); it is closed after the test. */
  start(speed?: number, nodes?: number): Promise<ApiServer>;
  /**
   * Starts an operator (`startOperator`) against the server, or against `kubeconfig` (e.g. the
   * fault proxy's); it is stopped after the test.
   */
  operator(
    identity?: string,
    extra?: Partial<OperatorOptions>,
    kubeconfig?: string,
  ): Promise<RunningOperator>;
  /** Stops an operator now (e.g. a leader change); it is not stopped again after the test. */
  stopOperator(op: RunningOperator): Promise<void>;
  /** Closes `c` after the test, once the operators stopped and before the server closes. */
  closeAfter<T extends { close(): Promise<void> }>(c: T): T;
}

/**
 * Registers an `afterEach` that stops the test's operators, closes what `closeAfter` got and then
 * the server. Call once at the top of a test file: `const cluster = useCluster();`, then in a test
 * `const server = await cluster.start(); const op = await cluster.operator();`.
 *
 * `teardownTimeoutMs` bounds that `afterEach` (vitest's default hook timeout otherwise): an
 * operator stops after its in-flight reconcile's writes, which for a burst of 500 pod creates on a
 * loaded machine can take longer than the default 10 s.
 */
export function useCluster(opts: { teardownTimeoutMs?: number } = {}): TestCluster {
  let server: ApiServer | undefined;
  const ops: RunningOperator[] = [];
  const closables: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const op of ops.splice(0)) await op.stop();
    for (const c of closables.splice(0)) await c.close();
    await server?.close();
    server = undefined;
  }, opts.teardownTimeoutMs);
  return {
    async start(speed, nodes) {
      server = await startCluster(speed, nodes);
      return server;
    },
    async operator(identity = 'replica-a', extra = {}, kubeconfig = server?.kubeconfigPath) {
      if (!kubeconfig) throw new Error('cluster.operator: start the server first (or pass a kubeconfig)');
      const op = await startOperator(kubeconfig, identity, extra);
      ops.push(op);
      return op;
    },
    async stopOperator(op) {
      const i = ops.indexOf(op);
      if (i >= 0) ops.splice(i, 1);
      await op.stop();
    },
    closeAfter(c) {
      closables.push(c);
      return c;
    },
  };
}

export async function api(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<{ status: number; body: any }> {
  const r = await requestText(
    `${base}${path}`,
    method,
    body === undefined ? undefined : JSON.stringify(body),
    contentType,
  );
  return { status: r.status, body: r.text ? JSON.parse(r.text) : undefined };
}

export async function waitFor<T>(
  fn: () => Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as T;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const CS_PATH = '/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets';

/** The seed's CloneSet (examples/cloneset.yaml) with optional update strategy. */
export function sampleCloneSet(
  name = 'sample',
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: {
      replicas: 5,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] },
      },
      ...extra,
    },
  };
}

export async function podsOf(base: string, app: string): Promise<any[]> {
  const r = await api(base, 'GET', `/api/v1/namespaces/default/pods?labelSelector=app%3D${app}`);
  return (r.body.items ?? []).filter((p: any) => !p.metadata.deletionTimestamp);
}

export const isReady = (p: any) =>
  p.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True');
