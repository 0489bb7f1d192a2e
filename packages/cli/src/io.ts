// The CLI's input/output: where it writes and reads, so tests can run `main`
// in-process and capture everything.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** What a command may touch. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Directory relative paths resolve against. */
  cwd: string;
  /** True when stdout is a terminal (progress lines are redrawn in place). */
  isTTY: boolean;
  readFile: (path: string) => string;
  writeFile: (path: string, text: string) => void;
}

/** The process's real IO. */
export function processIO(): CliIO {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY),
    readFile: (p) => readFileSync(p, 'utf8'),
    writeFile: (p, t) => writeFileSync(p, t),
  };
}

/** Resolves `path` against the IO's working directory. */
export function resolvePath(io: CliIO, path: string): string {
  return resolve(io.cwd, path);
}

/** A reader for files a scenario names, relative to the scenario file. */
export function relativeReader(io: CliIO, scenarioPath: string): (rel: string) => string {
  const dir = dirname(scenarioPath);
  return (rel) => io.readFile(resolve(dir, rel));
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
