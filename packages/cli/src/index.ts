// @kruise-ts/cli: the `kruise-ts` command — `sim`, `reconcile`, `demo`, `serve`, `operator` and `daemon`.
// `main(argv)` runs in-process (tests call it) and returns the exit code. This entry point
// re-exports every command for library use; the executable (bin.ts) starts from program.ts,
// which loads a command's module only when that command runs.
export { type DaemonCommandOptions, daemonCommand } from './commands/daemon';
export { DEMO_SCENARIO, demoCommand, demoScenarioPath } from './commands/demo';
export { operatorCommand } from './commands/operator';
export { OPERATOR_HELP } from './commands/operatorHelp';
export {
  type ReconcileCommandOptions,
  type ReconcileReport,
  reconcileCommand,
  renderText,
} from './commands/reconcile';
export { type ServeCommandOptions, serveCommand, startServe } from './commands/serve';
export { type SimCommandOptions, simCommand } from './commands/sim';
export { CliError, type CliIO, processIO } from './io';
export { buildProgram, main, VERSION } from './program';
