// @kruise-ts/cli: the `kruise-ts` command — `sim`, `reconcile`, `demo`, `serve`, `operator` and `daemon`.
// `main(argv)` runs in-process (tests call it) and returns the exit code.
import { Command, CommanderError } from 'commander';
import { daemonCommand } from './commands/daemon';
import { demoCommand } from './commands/demo';
import { OPERATOR_HELP, operatorCommand } from './commands/operator';
import { reconcileCommand } from './commands/reconcile';
import { serveCommand } from './commands/serve';
import { simCommand } from './commands/sim';
import { CliError, type CliIO, processIO } from './io';

export { type DaemonCommandOptions, daemonCommand } from './commands/daemon';
export { DEMO_SCENARIO, demoCommand, demoScenarioPath } from './commands/demo';
export { OPERATOR_HELP, operatorCommand } from './commands/operator';
export {
  type ReconcileCommandOptions,
  type ReconcileReport,
  reconcileCommand,
  renderText,
} from './commands/reconcile';
export { type ServeCommandOptions, serveCommand, startServe } from './commands/serve';
export { type SimCommandOptions, simCommand } from './commands/sim';
export { CliError, type CliIO, processIO } from './io';

/** The version printed by `--version`. */
export const VERSION = '0.1.0';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Builds the commander program; `setExit` receives each command's exit code. */
export function buildProgram(io: CliIO, setExit: (code: number) => void): Command {
  const program = new Command('kruise-ts')
    .description(
      "OpenKruise's workload controllers as pure TypeScript functions, with a deterministic cluster simulator",
    )
    .version(VERSION)
    .exitOverride()
    .enablePositionalOptions()
    .showHelpAfterError('(run `kruise-ts --help` for usage)')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  const simOptions = (c: Command) =>
    c
      .option('--report <file>', 'write a self-contained HTML report (timeline chart and event table)')
      .option('--json', 'print the event log as JSON lines (one record per line) instead of the tables')
      .option('--seed <n>', "override the scenario's seed")
      .option('-q, --quiet', 'print only the summary');

  simOptions(
    program
      .command('sim')
      .description('run a scenario file: tables as the rollout goes, then a summary')
      .argument('<scenario.yaml>', 'a scenario file (a kind: Scenario document plus manifests)'),
  ).action((file: string, opts) => setExit(simCommand(file, opts, io)));

  program
    .command('reconcile')
    .description('print the actions one reconcile would take for the objects given (dry run)')
    .requiredOption(
      '-f, --file <manifest>',
      'manifest file (repeatable): the workload and, optionally, its pods and revisions',
      collect,
    )
    .option('--now <time>', 'RFC 3339 time of the reconcile (default: the latest timestamp in the manifests)')
    .option('--seed <n>', 'seed for generated names', '1')
    .option('-o, --output <format>', 'text, json or yaml', 'text')
    .action((opts) => setExit(reconcileCommand(opts, io)));

  simOptions(
    program
      .command('demo')
      .description(
        'run examples/scenarios/cloneset-inplace.yaml: the sample CloneSet rolls an image in place',
      ),
  ).action((opts) => setExit(demoCommand(opts, io)));

  program
    .command('serve')
    .description('serve the simulated cluster as a Kubernetes API for kubectl and client libraries')
    .option('--port <port>', 'TCP port (0 = a random free port)', '6443')
    .option('--host <address>', 'bind address (loopback by default)', '127.0.0.1')
    .option('--controllers <set>', 'all: run every controller; none: leave reconciling to an operator', 'all')
    .option('--speed <factor>', 'simulated seconds per wall-clock second', '1')
    .option('--kubeconfig <file>', 'where to write the kubeconfig (default: a file in the temp directory)')
    .option('--seed <n>', 'seed of the simulation', '1')
    .option('--nodes <n>', 'number of simulated nodes, 110 pods each', '3')
    .option(
      '--feature-gates <gates>',
      'kruise feature gates of the simulated controllers, e.g. ResourcesDeletionProtection=true',
    )
    .action(async (opts) => setExit(await serveCommand(opts, io)));

  program
    .command('operator')
    .description('run the operator: the reconcile functions against a real cluster (or kruise-ts serve)')
    .argument('[flags...]', 'kruise-manager-style flags, e.g. --kubeconfig=<file>')
    .allowUnknownOption(true)
    .passThroughOptions(true)
    .helpOption('-h, --help', 'show the flags')
    .addHelpText('after', OPERATOR_HELP)
    .action(async (flags: string[]) => setExit(await operatorCommand(flags, io)));

  program
    .command('daemon')
    .description('run the node daemon: image pre-pull (NodeImage) and container recreate over CRI')
    .requiredOption('--node <name>', "this node's name")
    .option('--runtime-endpoint <endpoint>', 'CRI endpoint, e.g. unix:///run/containerd/containerd.sock')
    .option('--socket-file <file>', 'probe only <var-run-dir>/<file> for the runtime socket')
    .option('--var-run-dir <dir>', "the host's var-run directory to probe", '/hostvarrun')
    .option('--kubeconfig <file>', 'kubeconfig (default: in-cluster or ~/.kube/config)')
    .option('--log-level <level>', 'log level', 'info')
    .action(async (opts) => setExit(await daemonCommand(opts)));
  return program;
}

/**
 * Runs the command line (`argv` without node and the script, e.g. `['sim', 'x.yaml']`)
 * and returns the exit code: 0 success, 1 a failed run (step, invariant, rejected
 * object), 2 bad usage or input.
 */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  let code = 0;
  const program = buildProgram(io, (c) => {
    code = c;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (
        e.code === 'commander.helpDisplayed' ||
        e.code === 'commander.version' ||
        e.code === 'commander.help'
      )
        return 0;
      return e.exitCode === 0 ? 0 : 2;
    }
    if (e instanceof CliError) {
      io.stderr(`error: ${e.message}\n`);
      return e.exitCode;
    }
    io.stderr(`error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 1;
  }
  if (argv.length === 0) {
    io.stdout(program.helpInformation());
    return 0;
  }
  return code;
}
