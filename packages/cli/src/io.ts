// The CLI's input/output: where it writes and reads, so tests can run `main`
// in-process and capture everything. Every input file is read through `readInput`, which applies
// the input size limit (./inputLimit).
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { checkInputSize, DEFAULT_MAX_INPUT_BYTES, parseByteSize, readFileBounded } from './inputLimit';

/** What a command may touch. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Directory relative paths resolve against. */
  cwd: string;
  /** True when stdout is a terminal (progress lines are redrawn in place). */
  isTTY: boolean;
  /**
   * Reads a file as text. `maxBytes` is the input limit: a reader should refuse a larger file
   * before reading it (the process's reader throws an `InputTooLargeError`); one that ignores it
   * is still covered, since `readInput` checks the text's size afterwards.
   */
  readFile: (path: string, maxBytes?: number) => string;
  writeFile: (path: string, text: string) => void;
}

/** The process's real IO. */
export function processIO(): CliIO {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY),
    readFile: (p, maxBytes) => readFileBounded(p, maxBytes),
    writeFile: (p, t) => writeFileSync(p, t),
  };
}

/** Resolves `path` against the IO's working directory. */
export function resolvePath(io: CliIO, path: string): string {
  return resolve(io.cwd, path);
}

/**
 * Reads the input file at `path` (resolved against the IO's directory) within `maxBytes`; any
 * failure, the size limit included, is a `CliError` (exit 2) saying `cannot read <what>: <why>`.
 *
 * Example: `readInput(io, 'big.yaml', 'big.yaml', 10485760)` on a 20 MB file throws `cannot read
 * big.yaml: the file is 20971520 bytes, more than the input limit of 10485760 bytes (raise it with
 * --max-input-bytes)`.
 */
export function readInput(io: CliIO, path: string, what: string, maxBytes = DEFAULT_MAX_INPUT_BYTES): string {
  try {
    return checkInputSize(io.readFile(resolvePath(io, path), maxBytes), maxBytes);
  } catch (e) {
    throw new CliError(`cannot read ${what}: ${oneLine(e)}`);
  }
}

/**
 * A reader for files a scenario names, relative to the scenario file, each within `maxBytes`.
 * Its failures are thrown as they are: the scenario parser reports them at the field naming the file.
 */
export function relativeReader(
  io: CliIO,
  scenarioPath: string,
  maxBytes = DEFAULT_MAX_INPUT_BYTES,
): (rel: string) => string {
  const dir = dirname(scenarioPath);
  return (rel) => checkInputSize(io.readFile(resolve(dir, rel), maxBytes), maxBytes);
}

/**
 * The input limit a command was given (`--max-input-bytes`, before or after the command's name),
 * or the default 10 MiB; a value that is not a positive size is a usage error (exit 2).
 */
export function maxInputBytesOf(opts: { maxInputBytes?: string }): number {
  if (opts.maxInputBytes === undefined) return DEFAULT_MAX_INPUT_BYTES;
  const n = parseByteSize(String(opts.maxInputBytes));
  if (n === undefined)
    throw new CliError(
      `--max-input-bytes must be a positive number of bytes such as 20971520 or 20Mi, not ${JSON.stringify(opts.maxInputBytes)}`,
    );
  return n;
}

/** An error's message on one line (`fs` and parser messages can run over several). */
export function oneLine(e: unknown): string {
  let text: string;
  try {
    text = e instanceof Error ? e.message : String(e);
  } catch {
    text = 'an error that cannot be printed';
  }
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** A usage or input error: printed without a stack trace, exit code 2. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
