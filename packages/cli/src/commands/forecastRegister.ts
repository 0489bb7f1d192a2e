// Registers `kruise-ts forecast` (and `kruise-ts forecast merge`) on the program. Only commander
// is loaded here; the forecast itself (the simulator, worker_threads, client-node for
// --from-cluster) is imported when the command runs.
import { type Command, Option } from 'commander';
import type { CliIO } from '../io';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Adds the forecast command to `program`. */
export function registerForecastCommand(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('forecast')
    .description(
      'forecast a rollout from a saved cluster state (kubectl get ... -o yaml) or the live cluster: duration, availability floor, batches, stalls',
    )
    .argument('[state...]', 'the saved state file; or `merge <shard.json>...` to merge sweep shards')
    .option('--from-cluster', 'read the state from the current kubeconfig (read-only: lists only)')
    .option(
      '--kubeconfig <file>',
      'with --from-cluster: the kubeconfig (default: $KUBECONFIG or ~/.kube/config)',
    )
    .option(
      '--target <kind/name>',
      'the workload to roll out (clone/NAME, asts/NAME, ads/NAME, sidecarset/NAME, ud/NAME)',
    )
    .option('-n, --namespace <namespace>', 'the namespace of the target')
    .option(
      '--set-image <container=image>',
      'new image of a container (repeatable; * for every container)',
      collect,
    )
    .option('--partition <n>', 'set the update partition (an integer or a percentage)')
    .option('--pause', 'pause the update')
    .option('--resume', 'resume a paused update')
    .option('--patch <json>', 'a JSON merge patch of the workload, e.g. \'{"spec":{"replicas":8}}\'')
    .option(
      '-f, --filename <manifest>',
      'the changed manifest of the workload (its spec replaces the live one)',
    )
    .option('--seed <n>', 'seed of the random timings and names', '1')
    .option('--image-pull <duration>', 'image pull time on a node that lacks the image', '30s')
    .option('--image-pull-for <image=duration>', 'pull time of one image (repeatable)', collect)
    .option(
      '--image-pull-on <node[:image]=duration>',
      'pull time on one node, of one image or of any (repeatable), e.g. node-3=2m or node-3:nginx:1.27=2m',
      collect,
    )
    .option('--start <duration>', 'container start time, image present to running', '2s')
    .option('--readiness <duration>', 'running to ready', '5s')
    .option('--stop <duration>', 'time containers take to stop', '5s')
    .option(
      '--jitter <fraction>',
      'spread of every duration, uniform within ±fraction (default 0, or 0.2 with --runs)',
    )
    .option(
      '--fail <mode>',
      'failure injected into the new revision: none, never-ready or crash-loop',
      'none',
    )
    .option('--max-duration <duration>', 'the longest rollout simulated', '2h')
    .option('--stall-after <duration>', 'no progress for this long is a stall', '10m')
    .option('--json', 'print the forecast (or the sweep) as JSON')
    .option('--report <file>', 'write the HTML report of the forecast')
    .option('--runs <n>', 'a sweep: repeat the forecast with seeds seed..seed+n-1 and report percentiles')
    .option('--workers <n>', 'worker threads of a sweep (default: the CPU cores)')
    .option('--shard <i/n>', 'run only shard i of n of the sweep (runs whose index is i modulo n)')
    .option(
      '--out <file>',
      'write the sweep runs as a shard file for kruise-ts forecast merge (- : to stdout, instead of the summary)',
    )
    .option('--max-input-bytes <bytes>', 'the most bytes read from one input file (default 10Mi)')
    .addOption(new Option('--sweep-worker').hideHelp())
    .action(async (args: string[], _opts, cmd: Command) => {
      const opts = cmd.optsWithGlobals();
      if (args[0] === 'merge')
        setExit((await import('./forecastSweep')).mergeCommand(args.slice(1), opts, io));
      else setExit(await (await import('./forecast')).forecastCommand(args, opts, io));
    });
}
