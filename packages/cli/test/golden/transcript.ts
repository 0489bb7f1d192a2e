// Recording and comparing the golden kubectl transcripts: each step's command line, output and
// exit code, with what changes from run to run masked (ages, uids, resourceVersions, timestamps,
// generated names, the server's port). `UPDATE_GOLDEN=1` rewrites the recorded files instead of
// comparing.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** One step of a transcript. */
export interface Step {
  /** The command as a user types it (`kubectl get clone`). */
  command: string;
  stdout: string;
  stderr: string;
  code: number;
}

const MASKS: [RegExp, string][] = [
  // RFC 3339 times and describe's RFC 1123 ones.
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>'],
  [/[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}/g, '<time>'],
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>'],
  [/(resourceVersion"?:\s*)"?\d+"?/g, '$1<rv>'],
  [/(Resource Version:\s+)\d+/g, '$1<rv>'],
  [/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>'],
  // Generated pod names and revision hashes: Kubernetes' name alphabet after the owner's name.
  [/\b([a-z][a-z0-9]*(?:-[a-z0-9]+)*?)-[bcdfghjklmnpqrstvwxz2456789]{5,10}\b/g, '$1-<id>'],
  // Ages: 5s, 60s, 2m, 2m30s, 3h, 4d, and kubectl's "(x5 over 60s)".
  [/\b\d+[smhd](\d+[smh])?\b/g, '<age>'],
  // Column alignment follows the masked widths; keep the gaps, not their lengths.
  [/(\S) {2,}/g, '$1  '],
  [/\s+$/gm, ''],
];

/** `text` with every run-to-run difference masked. */
export function mask(text: string): string {
  return MASKS.reduce((t, [re, to]) => t.replace(re, to), text);
}

/** A transcript as text: `$ command`, the output, and `[exit N]` when N is not 0. */
export function render(steps: readonly Step[]): string {
  return steps
    .map((s) => {
      const out = `${s.stdout}${s.stderr}`.replace(/\n?$/, '\n');
      const exit = s.code === 0 ? '' : `[exit ${s.code}]\n`;
      return mask(`$ ${s.command}\n${out}${exit}`).replace(/\n+$/, '\n');
    })
    .join('\n');
}

/**
 * The recording at `file` to compare `actual` with; with UPDATE_GOLDEN=1 `actual` is written there
 * first. A missing recording is an empty text, so the comparison fails and says what to run.
 */
export function recorded(file: string, actual: string): string {
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, actual);
  return existsSync(file)
    ? readFileSync(file, 'utf8')
    : `(no recording at ${file}: run with UPDATE_GOLDEN=1)\n`;
}
