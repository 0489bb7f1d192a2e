// `kruise-ts serve`: the simulated cluster behind a Kubernetes API that the real
// kubectl and @kubernetes/client-node accept (packages/sim/src/apiserver). The
// virtual clock runs in real time (or faster with --speed) until SIGINT/SIGTERM.
// Safe by default: a bearer token in the kubeconfig it writes, Host checked on loopback;
// --insecure-no-auth drops the token.
import { readYamlDocuments } from '@kruise-ts/api';
import { type FeatureGates, parseFeatureGatesFlag } from '@kruise-ts/core';
import {
  type ApiServer,
  DEFAULT_MAX_OBJECTS,
  isLoopbackAddress,
  type NodeConfig,
  nodesFromFile,
  nodesInZones,
  startApiServer,
} from '@kruise-ts/sim';
import { CliError, type CliIO, readInput } from '../io';

/** Options of `kruise-ts serve`, as commander parses them. */
export interface ServeCommandOptions {
  port?: string;
  host?: string;
  controllers?: string;
  speed?: string;
  kubeconfig?: string;
  seed?: string;
  nodes?: string;
  zones?: string;
  nodesFile?: string;
  featureGates?: string;
  insecureNoAuth?: boolean;
  /** `--max-objects`: the store's object quota (default 200,000; @kruise-ts/sim objectQuota). */
  maxObjects?: string;
}

function parseNumber(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new CliError(`${flag} must be a non-negative number, got "${value}"`, 2);
  return n;
}

/**
 * The simulated nodes: `--nodes-file` (checked, every problem at its path, exit 2), or `--nodes`
 * nodes spread over `--zones` round-robin. Each simulated node holds 110 pods (a kubelet's default
 * maxPods), so a 1,000-pod CloneSet needs --nodes 10.
 */
function clusterNodes(opts: ServeCommandOptions, io: CliIO): NodeConfig[] {
  if (opts.nodesFile !== undefined) {
    if (opts.zones !== undefined)
      throw new CliError(
        '--zones and --nodes-file cannot be combined: give each node its zone in the file',
        2,
      );
    const text = readInput(io, opts.nodesFile, opts.nodesFile);
    const docs = readYamlDocuments(text);
    const problem = docs.problem ?? docs.documents.flatMap((d) => d.problems)[0];
    if (problem) throw new CliError(`${opts.nodesFile}:${problem.line}: ${problem.message}`, 2);
    const values = docs.documents.filter((d) => d.value !== null);
    if (values.length !== 1)
      throw new CliError(`${opts.nodesFile}: expected one YAML document with a nodes list`, 2);
    const r = nodesFromFile(values[0].value);
    if (!r.ok) throw new CliError(`${opts.nodesFile} is invalid: ${r.errors.join('; ')}`, 2);
    return r.nodes;
  }
  const nodeCount = parseNumber('--nodes', opts.nodes, 3);
  if (!Number.isInteger(nodeCount) || nodeCount < 1)
    throw new CliError(`--nodes must be a whole number of at least 1, got "${opts.nodes}"`, 2);
  const zones = opts.zones === undefined ? [] : opts.zones.split(',').map((z) => z.trim());
  if (
    opts.zones !== undefined &&
    (zones.length === 0 || zones.some((z) => !/^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/.test(z)))
  )
    throw new CliError(
      `--zones must be a comma-separated list of label values such as a,b,c, got "${opts.zones}"`,
      2,
    );
  return nodesInZones(nodeCount, zones);
}

/** Starts the server and prints how to point kubectl at it. Resolves with the handle. */
export async function startServe(opts: ServeCommandOptions, io: CliIO): Promise<ApiServer> {
  const controllers = opts.controllers ?? 'all';
  if (controllers !== 'all' && controllers !== 'none')
    throw new CliError(`--controllers must be "all" or "none", got "${controllers}"`, 2);
  const port = parseNumber('--port', opts.port, 6443);
  if (!Number.isInteger(port) || port > 65535)
    throw new CliError(`--port must be a TCP port, got "${opts.port}"`, 2);
  const nodes = clusterNodes(opts, io);
  const nodeCount = nodes.length;
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
  const maxObjects = parseNumber('--max-objects', opts.maxObjects, DEFAULT_MAX_OBJECTS);
  if (!Number.isInteger(maxObjects) || maxObjects < 1)
    throw new CliError(`--max-objects must be a whole number of at least 1, got "${opts.maxObjects}"`, 2);
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
  // before the first request is read: creates past the quota are refused (403 exceeded quota)
  server.simulation.store.limitObjects(maxObjects);
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
