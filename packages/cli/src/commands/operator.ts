// `kruise-ts operator`: the operator shell (packages/operator) against a real cluster or
// `kruise-ts serve --controllers none`. Its flags follow kruise-manager's (`--flag=value` or
// `--flag value`) and are parsed by the operator package itself.
import { installSignalHandlers, parseOperatorArgs, runOperator } from '@kruise-ts/operator';
import { CliError, type CliIO } from '../io';

export { OPERATOR_HELP } from './operatorHelp';

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
