#!/usr/bin/env node
// The `kruise-ts` executable: runs `main` and sets the exit code. `main` answers every failure
// itself; what is left for here is an error thrown outside it (a server's socket error after a
// command started, a rejected promise nobody awaited), printed the same way: one line, the stack
// trace only with --debug.
import { DEBUG_FLAG, UNEXPECTED_ERROR_EXIT, unexpectedErrorText } from './failure';
import { main } from './program';

const debug = process.argv.slice(2).includes(DEBUG_FLAG);
const fail = (e: unknown): void => {
  process.stderr.write(unexpectedErrorText(e, debug));
  process.exit(UNEXPECTED_ERROR_EXIT);
};
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, fail);
