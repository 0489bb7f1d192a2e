// What the CLI prints for an error no command expected (a bug, or a failure deep in a package):
// one line on stderr, `error: <message> (run with --debug for the stack trace)`, and exit 1.
// The stack trace is for whoever debugs kruise-ts, not for whoever ran it, so it appears only with
// the global `--debug` flag. Usage and input errors never reach here: they are `CliError`s.
import { oneLine } from './io';

/** The global flag that turns stack traces on. */
export const DEBUG_FLAG = '--debug';

/** The exit code of an unexpected error. */
export const UNEXPECTED_ERROR_EXIT = 1;

/**
 * The text printed for an unexpected error: its message on one line and a hint, or with `debug`
 * the whole stack trace.
 *
 * Example: `unexpectedErrorText(new TypeError('x is undefined'), false)` →
 * `error: x is undefined (run with --debug for the stack trace)\n`.
 */
export function unexpectedErrorText(e: unknown, debug: boolean): string {
  if (debug) {
    const stack = e instanceof Error && typeof e.stack === 'string' ? e.stack : oneLine(e);
    return `error: ${stack}\n`;
  }
  return `error: ${oneLine(e) || 'unknown error'} (run with ${DEBUG_FLAG} for the stack trace)\n`;
}
