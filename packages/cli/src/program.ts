// The `kruise-ts` program: commander's command tree and `main(argv)`. Each command's module
// (and the packages behind it: the simulator, the operator's client stack, the daemon's gRPC
// stack) is imported only when that command runs, so `kruise-ts --help` loads commander alone
// and `kruise-ts demo` never loads @kubernetes/client-node or protobufjs.
import { Command, CommanderError } from 'commander';
import { registerForecastCommand } from './commands/forecastRegister';
import { registerKruiseCommands } from './commands/kruise/register';
import { OPERATOR_HELP } from './commands/operatorHelp';
import { DEBUG_FLAG, UNEXPECTED_ERROR_EXIT, unexpectedErrorText } from './failure';
import { CliError, type CliIO, processIO } from './io';

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

  // Global options: given before the command's name they apply to every command; sim, demo and
  // reconcile, the commands that read files, also take them after it.
  const globalOptions = (c: Command) =>
    c
      .option(DEBUG_FLAG, 'print the stack trace of an unexpected error')
      .option(
        '--max-input-bytes <bytes>',
        'the most bytes read from one input file (default 10Mi, e.g. 20Mi)',
      );
  globalOptions(program);

  const simOptions = (c: Command) =>
    globalOptions(c)
      .option('--report <file>', 'write a self-contained HTML report (timeline chart and event table)')
      .option('--json', 'print the event log as JSON lines (one record per line) instead of the tables')
      .option('--seed <n>', "override the scenario's seed")
      .option('-q, --quiet', 'print only the summary');

  simOptions(
    program
      .command('sim')
      .description('run a scenario file: tables as the rollout goes, then a summary')
      .argument('<scenario.yaml>', 'a scenario file (a kind: Scenario document plus manifests)'),
  ).action(async (file: string, _opts, cmd: Command) =>
    setExit((await import('./commands/sim')).simCommand(file, cmd.optsWithGlobals(), io)),
  );

  globalOptions(program.command('reconcile'))
    .description('print the actions one reconcile would take for the objects given (dry run)')
    .requiredOption(
      '-f, --file <manifest>',
      'manifest file (repeatable): the workload and, optionally, its pods and revisions',
      collect,
    )
    .option('--now <time>', 'RFC 3339 time of the reconcile (default: the latest timestamp in the manifests)')
    .option('--seed <n>', 'seed for generated names', '1')
    .option('-o, --output <format>', 'text, json or yaml', 'text')
    .action(async (_opts, cmd: Command) =>
      setExit((await import('./commands/reconcile')).reconcileCommand(cmd.optsWithGlobals(), io)),
    );

  simOptions(
    program
      .command('demo')
      .description(
        'run examples/scenarios/cloneset-inplace.yaml: the sample CloneSet rolls an image in place',
      ),
  ).action(async (_opts, cmd: Command) =>
    setExit((await import('./commands/demo')).demoCommand(cmd.optsWithGlobals(), io)),
  );

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
    .option('--zones <list>', 'spread the nodes over these zones (topology.kubernetes.io/zone), e.g. a,b,c')
    .option(
      '--nodes-file <file>',
      'the nodes from a YAML file (names, zones, labels, taints, capacity); replaces --nodes',
    )
    .option(
      '--feature-gates <gates>',
      'kruise feature gates of the simulated controllers, e.g. ResourcesDeletionProtection=true',
    )
    .option(
      '--insecure-no-auth',
      'serve without the bearer token the kubeconfig otherwise carries (any local program can then write)',
    )
    .option(
      '--max-objects <n>',
      'most objects the cluster holds; creates past it get 403 exceeded quota',
      '200000',
    )
    .action(async (opts) => setExit(await (await import('./commands/serve')).serveCommand(opts, io)));

  program
    .command('operator')
    .description('run the operator: the reconcile functions against a real cluster (or kruise-ts serve)')
    .argument('[flags...]', 'kruise-manager-style flags, e.g. --kubeconfig=<file>')
    .allowUnknownOption(true)
    .passThroughOptions(true)
    .helpOption('-h, --help', 'show the flags')
    .addHelpText('after', OPERATOR_HELP)
    .action(async (flags: string[]) =>
      setExit(await (await import('./commands/operator')).operatorCommand(flags, io)),
    );

  program
    .command('daemon')
    .description('run the node daemon: image pre-pull (NodeImage) and container recreate over CRI')
    .requiredOption('--node <name>', "this node's name")
    .option('--runtime-endpoint <endpoint>', 'CRI endpoint, e.g. unix:///run/containerd/containerd.sock')
    .option('--socket-file <file>', 'probe only <var-run-dir>/<file> for the runtime socket')
    .option('--var-run-dir <dir>', "the host's var-run directory to probe", '/hostvarrun')
    .option('--kubeconfig <file>', 'kubeconfig (default: in-cluster or ~/.kube/config)')
    .option('--log-level <level>', 'log level', 'info')
    .action(async (opts) => setExit(await (await import('./commands/daemon')).daemonCommand(opts)));

  // kubectl-kruise's rollout, set image and scale --pods (each action imports its module lazily).
  registerKruiseCommands(program, io, setExit);
  // kruise-ts forecast (and forecast merge): a rollout played out from a saved or live state.
  registerForecastCommand(program, io, setExit);
  return program;
}

/**
 * Runs the command line (`argv` without node and the script, e.g. `['sim', 'x.yaml']`)
 * and returns the exit code: 0 success, 1 a failed run (step, invariant, rejected
 * object) or an unexpected error, 2 bad usage or input (an unreadable, oversized or
 * unparsable file). Every failure is one line on stderr; an unexpected error's stack
 * trace is printed only with `--debug`.
 */
export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  let code = 0;
  const program = buildProgram(io, (c) => {
    code = c;
  });
  // Known once the options are parsed; until then an error is commander's own (a usage error).
  let debug = false;
  program.hook('preAction', (_program, action) => {
    debug = Boolean(action.optsWithGlobals().debug);
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
    io.stderr(unexpectedErrorText(e, debug));
    return UNEXPECTED_ERROR_EXIT;
  }
  if (argv.length === 0) {
    io.stdout(program.helpInformation());
    return 0;
  }
  return code;
}
