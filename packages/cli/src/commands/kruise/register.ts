// Registers kubectl-kruise's commands on the `kruise-ts` program: `rollout status|history|undo|
// pause|resume`, `set image` and `scale`. Only commander is loaded here; each action imports its
// module (and @kubernetes/client-node behind it) when it runs, as every other command does.
import type { Command } from 'commander';
import type { CliIO } from '../../io';

const KINDS_HELP = `
Workloads: cloneset (clone), statefulset.apps.kruise.io (asts, sts), daemonset.apps.kruise.io (ads,
daemon); rollout status also sidecarset and uniteddeployment (ud). Name one as TYPE/NAME or TYPE NAME.
The cluster is the kubeconfig's (--kubeconfig, else $KUBECONFIG, else ~/.kube/config): kruise-ts
serve or a real cluster. Exit codes: 0 done, 1 a failure (kubectl's wording on stderr), 2 bad usage.`;

function connection(c: Command): Command {
  return c
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
    .option('--context <name>', 'the kubeconfig context to use')
    .option('-n, --namespace <namespace>', "namespace (default: the context's, else default)")
    .addHelpText('after', KINDS_HELP);
}

/** Adds `rollout`, `set` and `scale` to `program`; `setExit` receives each command's exit code. */
export function registerKruiseCommands(program: Command, io: CliIO, setExit: (code: number) => void): void {
  const rollout = program
    .command('rollout')
    .description("kubectl-kruise's rollout commands: status, history, undo, pause, resume");
  const load = () => import('./rollout');

  connection(rollout.command('status'))
    .description('wait until the rollout is done, printing its progress (exit 1 on --timeout)')
    .argument('<resource...>', 'TYPE/NAME, e.g. cloneset/sample')
    .option('-w, --watch [bool]', 'wait for the rollout to finish (--watch=false prints the status once)')
    .option('--timeout <duration>', 'give up after this long, e.g. 5m (0 = wait forever)', '0s')
    .action(async (args: string[], opts) =>
      setExit(await (await load()).rolloutStatusCommand(args, opts, io)),
    );

  connection(rollout.command('history'))
    .description('list the revisions (REVISION, CHANGE-CAUSE) from the ControllerRevisions')
    .argument('<resource...>', 'TYPE/NAME')
    .option('--revision <n>', "print one revision's pod template")
    .action(async (args: string[], opts) =>
      setExit(await (await load()).rolloutHistoryCommand(args, opts, io)),
    );

  connection(rollout.command('undo'))
    .description("put an earlier revision's pod template back (default: the previous one)")
    .argument('<resource...>', 'TYPE/NAME')
    .option('--to-revision <n>', 'the revision to go back to (0 = the previous one)', '0')
    .action(async (args: string[], opts) => setExit(await (await load()).rolloutUndoCommand(args, opts, io)));

  connection(rollout.command('pause'))
    .description('pause the rollout (the updateStrategy paused field)')
    .argument('<resource...>', 'TYPE/NAME')
    .action(async (args: string[], opts) =>
      setExit(await (await load()).rolloutPauseCommand(args, opts, io, true)),
    );

  connection(rollout.command('resume'))
    .description('resume a paused rollout')
    .argument('<resource...>', 'TYPE/NAME')
    .action(async (args: string[], opts) =>
      setExit(await (await load()).rolloutPauseCommand(args, opts, io, false)),
    );

  const set = program.command('set').description("kubectl-kruise's set commands: image");
  connection(set.command('image'))
    .description("change containers' images (CONTAINER=IMAGE, *=IMAGE for all)")
    .argument('<args...>', 'TYPE/NAME CONTAINER=IMAGE ...')
    .action(async (args: string[], opts) =>
      setExit(await (await import('./setImage')).setImageCommand(args, opts, io)),
    );

  connection(program.command('scale'))
    .description('delete chosen pods and scale down by as many (--pods), or set the replicas')
    .argument('<resource...>', 'TYPE/NAME of a CloneSet or an Advanced StatefulSet')
    .option('--pods <names>', 'comma-separated pods to delete (podsToDelete / reserveOrdinals)')
    .option('--replicas <n>', 'the replicas to set (default with --pods: the current count minus the pods)')
    .action(async (args: string[], opts) =>
      setExit(await (await import('./scalePods')).scaleCommand(args, opts, io)),
    );
}
