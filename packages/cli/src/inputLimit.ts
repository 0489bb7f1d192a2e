// The limit on how much the CLI reads from one input file (a manifest, a scenario, a file a
// scenario names): 10 MiB unless `--max-input-bytes` raises it. The size is checked before any
// parsing: a regular file by its size on disk, before a byte is read; a pipe or device
// (`/dev/stdin`) by counting as it is read, stopping one byte past the limit. Without it a 20 MB
// manifest kept `kruise-ts reconcile` busy for minutes, where the usual one is a few kilobytes.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** The default limit: 10 MiB per input file. */
export const DEFAULT_MAX_INPUT_BYTES = 10 * 1024 * 1024;

const UNITS: Record<string, number> = { '': 1, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 };

/**
 * Reads a `--max-input-bytes` value: a positive whole number of bytes, optionally with a binary
 * suffix as Kubernetes quantities write them (`20971520`, `512Ki`, `20Mi`, `1Gi`). Returns
 * undefined for anything else (`0`, `-1`, `1.5`, `10MB`, `ten`).
 */
export function parseByteSize(text: string): number | undefined {
  const m = /^([1-9][0-9]*)(Ki|Mi|Gi)?$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]) * UNITS[m[2] ?? ''];
  return Number.isSafeInteger(n) ? n : undefined;
}

/** An input over the limit; the message says by how much and how to raise the limit. */
export class InputTooLargeError extends Error {
  constructor(
    /** The input's size when known (a regular file), else undefined (a pipe stopped at the limit). */
    readonly bytes: number | undefined,
    readonly limit: number,
  ) {
    super(
      bytes === undefined
        ? `the input holds more than ${limit} bytes, the input limit (raise it with --max-input-bytes)`
        : `the file is ${bytes} bytes, more than the input limit of ${limit} bytes (raise it with --max-input-bytes)`,
    );
    this.name = 'InputTooLargeError';
  }
}

const CHUNK = 1024 * 1024;

/**
 * Reads a file as UTF-8 text, refusing one over `maxBytes` with an `InputTooLargeError`: a
 * regular file before reading it, anything else once more than `maxBytes` bytes have arrived.
 * Other failures (a missing file, a directory) are the `fs` errors, e.g. `ENOENT: no such file or
 * directory, open 'x.yaml'`.
 */
export function readFileBounded(path: string, maxBytes: number = DEFAULT_MAX_INPUT_BYTES): string {
  const fd = openSync(path, 'r');
  try {
    const st = fstatSync(fd);
    if (st.isFile() && st.size > maxBytes) throw new InputTooLargeError(st.size, maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(CHUNK);
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      total += n;
      // A regular file that grew since fstat, or a pipe: stop as soon as the limit is passed.
      if (total > maxBytes) throw new InputTooLargeError(st.isFile() ? total : undefined, maxBytes);
      chunks.push(buf.subarray(0, n));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The text's size checked once more after `readFile`, for a `CliIO` whose reader ignores the
 * limit (tests pass one that reads from memory).
 */
export function checkInputSize(text: string, maxBytes: number): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) throw new InputTooLargeError(bytes, maxBytes);
  return text;
}
