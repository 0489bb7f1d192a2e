// `kruise-ts serve`: the simulated cluster behind a Kubernetes API that the real
// kubectl and @kubernetes/client-node accept (packages/sim/src/apiserver). The
// virtual clock runs in real time (or faster with --speed) until SIGINT/SIGTERM.
// Safe by default: a bearer token in the kubeconfig it writes, Host checked on loopback;
// --insecure-no-auth drops the token.
import { type FeatureGates, parseFeatureGatesFlag } from '@kruise-ts/core';
import { type ApiServer, isLoopbackAddress, startApiServer } from '@kruise-ts/sim';
import { CliError, type CliIO } from '../io';

/** Options of `kruise-ts serve`, as commander parses them. */
export interface ServeCommandOptions {
  port?: string;
  host?: string;
  controllers?: string;
  speed?: string;
  kubeconfig?: string;
  seed?: string;
  nodes?: string;
  featureGates?: string;
  insecureNoAuth?: boolean;
}

function parseNumber(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new CliError(`${flag} must be a non-negative number, got "${value}"`, 2);
  return n;
}

/** Starts the server and prints how to point kubectl at it. Resolves with the handle. */
export async function startServe(opts: ServeCommandOptions, io: CliIO): Promise<ApiServer> {
  const controllers = opts.controllers ?? 'all';
  if (controllers !== 'all' && controllers !== 'none')
    throw new CliError(`--controllers must be "all" or "none", got "${controllers}"`, 2);
  const port = parseNumber('--port', opts.port, 6443);
  if (!Number.isInteger(port) || port > 65535)
    throw new CliError(`--port must be a TCP port, got "${opts.port}"`, 2);
  const nodeCount = parseNumber('--nodes', opts.nodes, 3);
  if (!Number.isInteger(nodeCount) || nodeCount < 1)
    throw new CliError(`--nodes must be a whole number of at least 1, got "${opts.nodes}"`, 2);
  // Each simulated node holds 110 pods (as a kubelet's default maxPods), so a 1,000-pod
  // CloneSet needs --nodes 10.
  const nodes = Array.from({ length: nodeCount }, (_, i) => ({ name: `node-${i + 1}` }));
  let featureGates: Partial<FeatureGates> | undefined;
  if (opts.featureGates !== undefined) {
    const r = parseFeatureGatesFlag(opts.featureGates);
    if ('error' in r) throw new CliError(`--feature-gates: ${r.error}`, 2);
    if (controllers === 'none')
      throw new CliError(
        '--feature-gates applies to the simulated controllers; with --controllers none, give them to the operator',
        2,
      );
    featureGates = r.gates;
  }
  const host = opts.host ?? '127.0.0.1';
  const server = await startApiServer({
    nodes,
    port,
    host,
    insecureNoAuth: opts.insecureNoAuth === true,
    controllers,
    speed: parseNumber('--speed', opts.speed, 1),
    kubeconfigPath: opts.kubeconfig,
    seed: parseNumber('--seed', opts.seed, 1),
    ...(featureGates ? { featureGates } : {}),
  });
  const auth =
    server.token === undefined
      ? isLoopbackAddress(host)
        ? 'authentication: off (--insecure-no-auth): every program on this machine can read and write the cluster'
        : `authentication: off (--insecure-no-auth) on ${host}: anyone who reaches this port can read and write the cluster`
      : 'authentication: a bearer token, in the kubeconfig only (users[].user.token)';
  io.stdout(
    [
      `kruise-ts serve: a simulated cluster (${nodeCount} nodes) behind a Kubernetes API on ${server.url} (controllers: ${controllers})`,
      auth,
      `kubeconfig written to ${server.kubeconfigPath}; point kubectl at it:`,
      '',
      `  export KUBECONFIG=${server.kubeconfigPath}`,
      '  kubectl create -f examples/cloneset.yaml',
      '  kubectl get clone',
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  return server;
}

/** Runs `kruise-ts serve` until SIGINT or SIGTERM (or `signal` aborts). */
export async function serveCommand(
  opts: ServeCommandOptions,
  io: CliIO,
  signal?: AbortSignal,
): Promise<number> {
  const server = await startServe(opts, io);
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    signal?.addEventListener('abort', done, { once: true });
  });
  await server.close();
  return 0;
}
