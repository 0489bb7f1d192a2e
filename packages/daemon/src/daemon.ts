// Daemon wiring (docs/reference/daemon.md §7.1, §7.2, §9.2): discover the CRI runtimes, connect the Kubernetes
// adapter, run the image puller and the CRR controller until stopped. `kruise-ts daemon` calls
// `runDaemon`; tests and embedders call `createDaemon`.
import type { Clock, Rng } from './clock';
import { type CriRuntimes, candidateEndpoints, discoverRuntimes } from './cri/discovery';
import { CrrDaemonController } from './crr/controller';
import type { DockerConfig } from './keyring';
import type { KubeAdapter } from './kube/adapter';
import { ClientNodeKube } from './kube/clientNode';
import { createLogger, type Logger } from './log';
import { ImagePuller } from './puller/controller';
import type { PullerTimings } from './puller/status';

/** Options of {@link createDaemon} / {@link runDaemon}. */
export interface DaemonOptions {
  /** This node's name (the NodeImage name and the CRR node-name label). */
  nodeName: string;
  /** `--runtime-endpoint`: explicit CRI endpoints (`unix:///…/containerd.sock`); else discovery. */
  runtimeEndpoint?: string | string[];
  /** §7.1: the host's var-run directory to probe (default `/hostvarrun`). */
  varRunDir?: string;
  /** §7.1: `--socket-file`: probe only `<varRunDir>/<socketFile>`. */
  socketFile?: string;
  /** The API; default: {@link ClientNodeKube} from `kubeconfig` or the default kubeconfig. */
  kube?: KubeAdapter;
  kubeconfig?: string;
  logger?: Logger;
  /** Log level of the default logger (`info`). */
  logLevel?: string;
  clock?: Clock;
  rng?: Rng;
  /** Turn either half off (both on by default). */
  enableImagePuller?: boolean;
  enableContainerRecreate?: boolean;
  pullerTimings?: Partial<PullerTimings>;
  crrWorkers?: number;
  /** Node-level docker credentials, used after the pull secrets' entries. */
  nodeDockerConfig?: DockerConfig;
}

/** A created daemon. */
export interface Daemon {
  readonly runtimes: CriRuntimes;
  readonly imagePuller?: ImagePuller;
  readonly containerRecreate?: CrrDaemonController;
  readonly logger: Logger;
  /** Starts the watches and workers. */
  start(): Promise<void>;
  /** Stops everything and closes the CRI connections. */
  stop(): Promise<void>;
}

/**
 * Discovers the runtimes (§7.1; rejects when none is usable) and builds the two controllers.
 *
 * Example: `const d = await createDaemon({nodeName: 'n1', runtimeEndpoint: 'unix:///run/containerd/containerd.sock', kube});
 * await d.start(); … await d.stop();`
 */
export async function createDaemon(opts: DaemonOptions): Promise<Daemon> {
  const logger = opts.logger ?? createLogger({ level: opts.logLevel });
  const explicit =
    opts.runtimeEndpoint === undefined ? undefined : ([] as string[]).concat(opts.runtimeEndpoint);
  const endpoints = candidateEndpoints({
    endpoints: explicit,
    varRunDir: opts.varRunDir,
    socketFile: opts.socketFile,
  });
  const runtimes = await discoverRuntimes(endpoints, {
    onProbe: (endpoint) => logger.info({ endpoint }, 'probing CRI endpoint (dial timeout 30 s)'),
    onSkip: (endpoint, err) => logger.warn({ endpoint, err: err.message }, 'skipping CRI endpoint'),
  });
  for (const r of runtimes.runtimes)
    logger.info({ endpoint: r.endpoint, runtime: r.runtimeName }, 'CRI runtime found');
  const kube = opts.kube ?? new ClientNodeKube({ kubeconfig: opts.kubeconfig, logger, host: opts.nodeName });
  const imagePuller =
    opts.enableImagePuller === false
      ? undefined
      : new ImagePuller({
          nodeName: opts.nodeName,
          kube,
          image: runtimes.imageService,
          clock: opts.clock,
          rng: opts.rng,
          logger,
          timings: opts.pullerTimings,
          nodeDockerConfig: opts.nodeDockerConfig,
        });
  const containerRecreate =
    opts.enableContainerRecreate === false
      ? undefined
      : new CrrDaemonController({
          nodeName: opts.nodeName,
          kube,
          runtimeByName: (n) => runtimes.runtimeByName(n),
          clock: opts.clock,
          rng: opts.rng,
          logger,
          workers: opts.crrWorkers,
        });
  let started = false;
  return {
    runtimes,
    imagePuller,
    containerRecreate,
    logger,
    async start() {
      if (started) return;
      started = true;
      await imagePuller?.start();
      await containerRecreate?.start();
      logger.info({ node: opts.nodeName }, 'kruise-daemon started');
    },
    async stop() {
      await Promise.all([imagePuller?.stop(), containerRecreate?.stop()]);
      runtimes.close();
      logger.info({ node: opts.nodeName }, 'kruise-daemon stopped');
    },
  };
}

/**
 * Runs the daemon until `signal` aborts (or, without a signal, until SIGINT/SIGTERM), then stops it.
 * This is what `kruise-ts daemon --node <name> --runtime-endpoint <endpoint>` calls.
 */
export async function runDaemon(opts: DaemonOptions & { signal?: AbortSignal }): Promise<void> {
  const daemon = await createDaemon(opts);
  await daemon.start();
  await new Promise<void>((resolve) => {
    if (opts.signal) {
      if (opts.signal.aborted) return resolve();
      opts.signal.addEventListener('abort', () => resolve(), { once: true });
      return;
    }
    const onSignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  await daemon.stop();
}
