// `kruise-ts operator`: the operator shell (packages/operator) against a real cluster or
// `kruise-ts serve --controllers none`. Its flags follow kruise-manager's (`--flag=value` or
// `--flag value`) and are parsed by the operator package itself.
import { installSignalHandlers, parseOperatorArgs, runOperator } from '@kruise-ts/operator';
import { CliError, type CliIO } from '../io';

/** The most used flags, for `kruise-ts operator --help` (packages/operator/README.md lists all). */
export const OPERATOR_HELP = `
Common flags (kruise-manager style; see packages/operator/README.md for all):
  --kubeconfig <file>               kubeconfig (default: in-cluster config)
  --controllers <all|a,b>           which controllers to run (default all)
  --feature-gates <Name=bool,...>   OpenKruise v1.8.2 feature gates
  --enable-deletion-protection      turn on ResourcesDeletionProtection (off by default in v1.8.2)
  --enable-leader-election          run with a coordination.k8s.io Lease
  --install-webhooks                create the webhook configurations with the generated caBundle
  --webhook-host / --webhook-bind   where the API server reaches the webhooks / where they listen
  --metrics-addr / --health-probe-addr  Prometheus metrics and health/readiness endpoints

Against the embedded cluster:
  kruise-ts serve --controllers none --kubeconfig /tmp/kts.kubeconfig &
  kruise-ts operator --kubeconfig /tmp/kts.kubeconfig --webhook-host 127.0.0.1 --webhook-bind 127.0.0.1 --install-webhooks
`;

/** Starts the operator with kruise-manager-style flags and keeps it running until a signal. */
export async function operatorCommand(args: readonly string[], io: CliIO): Promise<number> {
  const parsed = parseOperatorArgs(args);
  if ('error' in parsed) throw new CliError(parsed.error, 2);
  const op = await runOperator(parsed);
  installSignalHandlers(op);
  io.stderr(
    `kruise-ts operator: running (leader election ${parsed.leaderElection.enabled ? 'on' : 'off'})\n`,
  );
  await new Promise<void>(() => {}); // runs until SIGINT/SIGTERM; the handlers exit the process
  return 0;
}
