// `kruise-ts daemon`: the node daemon (packages/daemon) — image pre-pull for NodeImage tags
// and container recreate for ContainerRecreateRequests, over CRI.
import { runDaemon } from '@kruise-ts/daemon';

/** Options of `kruise-ts daemon`, as commander parses them. */
export interface DaemonCommandOptions {
  node: string;
  runtimeEndpoint?: string;
  socketFile?: string;
  varRunDir?: string;
  kubeconfig?: string;
  logLevel?: string;
}

/** Runs the daemon until SIGINT/SIGTERM. */
export async function daemonCommand(opts: DaemonCommandOptions): Promise<number> {
  await runDaemon({
    nodeName: opts.node,
    runtimeEndpoint: opts.runtimeEndpoint,
    socketFile: opts.socketFile,
    varRunDir: opts.varRunDir,
    kubeconfig: opts.kubeconfig,
    logLevel: opts.logLevel,
  });
  return 0;
}
