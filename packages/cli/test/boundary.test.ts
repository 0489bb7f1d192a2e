// The CLI at its boundary: every bad input and every failure is one line on stderr with the
// documented exit code (2 usage or unreadable, oversized, unparsable input; 1 a rejected object,
// a failed run or an unexpected error), and a stack trace only with --debug.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type CliIO, main, processIO } from '../src/index';
import { DEFAULT_MAX_INPUT_BYTES, parseByteSize, readFileBounded } from '../src/inputLimit';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = 'packages/cli/test/fixtures/cloneset.yaml';
const scenarioHeader = 'apiVersion: sim.kruise-ts.io/v1alpha1\nkind: Scenario\nmetadata: {name: t}\nspec:\n';

/** The process's own file reader (so the size limit is the real one), with output captured. */
function capture(): {
  io: CliIO;
  out: () => string;
  err: () => string;
  reads: [string, number | undefined][];
} {
  let out = '';
  let err = '';
  const reads: [string, number | undefined][] = [];
  const real = processIO();
  const io: CliIO = {
    ...real,
    cwd: repo,
    isTTY: false,
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    readFile: (p, maxBytes) => {
      reads.push([p, maxBytes]);
      return real.readFile(p, maxBytes);
    },
    writeFile: () => {},
  };
  return { io, out: () => out, err: () => err, reads };
}

/** Writes files into a fresh temporary directory; returns their paths by name. */
function files(contents: Record<string, string>): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'kts-boundary-'));
  const paths: Record<string, string> = {};
  for (const [name, text] of Object.entries(contents)) {
    paths[name] = join(dir, name);
    writeFileSync(paths[name], text);
  }
  return paths;
}

/** A "billion laughs": eight levels of nine aliases of the level before. */
function aliasBomb(): string {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i <= 8; i++)
    lines.push(
      `a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(',')}]`,
    );
  return `${lines.join('\n')}\n`;
}

/** Runs `argv` and returns the exit code and stderr, asserting stderr holds no stack trace. */
async function run(argv: string[]): Promise<{ code: number; err: string; out: string }> {
  const c = capture();
  const code = await main(argv, c.io);
  expect(c.err()).not.toMatch(/\n\s+at /);
  return { code, err: c.err(), out: c.out() };
}

const bad = files({
  'alias.yaml': '*NKG\n',
  'bomb.yaml': aliasBomb(),
  'malformed.yaml': 'apiVersion: v1\nkind: Pod\nmetadata: {name: [oops\n',
  'list.yaml': '- a\n- b\n',
  'scalar.yaml': 'just a string\n',
  'deep.yaml': `${'- '.repeat(3000)}x\n`,
});

describe.each([
  ['reconcile', (f: string) => ['reconcile', '-f', f]],
  ['sim', (f: string) => ['sim', f]],
])('kruise-ts %s: bad YAML is exit 2 with file:line, never a stack trace', (name, argv) => {
  const tail = name === 'sim' ? ` is not a valid scenario; nothing was run\n` : '';
  const expectErr = (file: string, first: string) =>
    `error: ${bad[file]}:${first}\n${tail ? `error: ${bad[file]}${tail}` : ''}`;

  it('an alias naming no anchor (*NKG)', async () => {
    expect(await run(argv(bad['alias.yaml']))).toMatchObject({
      code: 2,
      err: expectErr(
        'alias.yaml',
        '1 (document 0): malformed YAML: alias *NKG names no anchor &NKG defined before it',
      ),
    });
  });

  it('an alias bomb (billion laughs)', async () => {
    expect(await run(argv(bad['bomb.yaml']))).toMatchObject({
      code: 2,
      err: expectErr(
        'bomb.yaml',
        '1 (document 0): malformed YAML: aliases expand past the limit of 100 (write the repeated values out instead)',
      ),
    });
  });

  it('malformed YAML', async () => {
    const r = await run(argv(bad['malformed.yaml']));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      new RegExp(`^error: ${bad['malformed.yaml']}:\\d+ \\(document 0\\): malformed YAML: `),
    );
  });

  it('a document that is not an object', async () => {
    for (const f of ['list.yaml', 'scalar.yaml'])
      expect(await run(argv(bad[f]))).toMatchObject({
        code: 2,
        err: expectErr(f, '1 (document 0): document is not a mapping (an object)'),
      });
  });

  it('a document nested 3,000 levels deep', async () => {
    expect(await run(argv(bad['deep.yaml']))).toMatchObject({
      code: 2,
      err: expectErr('deep.yaml', '1 (document 0): malformed YAML: nested deeper than 128 levels'),
    });
  });

  it('a file that does not exist, and a directory', async () => {
    const what = name === 'sim' ? 'scenario ' : '';
    expect(await run(argv('no/such.yaml'))).toEqual({
      code: 2,
      out: '',
      err: `error: cannot read ${what}no/such.yaml: ENOENT: no such file or directory, open '${join(repo, 'no/such.yaml')}'\n`,
    });
    const dir = await run(argv(tmpdir()));
    expect(dir.code).toBe(2);
    expect(dir.err).toMatch(new RegExp(`^error: cannot read ${what}${tmpdir()}: EISDIR: [^\\n]*\\n$`));
  });
});

describe('the input size limit', () => {
  const big = files({ 'big.yaml': `# ${'x'.repeat(DEFAULT_MAX_INPUT_BYTES)}\n` })['big.yaml'];
  const over = `the file is ${DEFAULT_MAX_INPUT_BYTES + 3} bytes, more than the input limit of ${DEFAULT_MAX_INPUT_BYTES} bytes (raise it with --max-input-bytes)`;

  it('refuses a file over 10 MiB by its size, before reading it (exit 2)', async () => {
    const c = capture();
    expect(await main(['reconcile', '-f', big], c.io)).toBe(2);
    expect(c.err()).toBe(`error: cannot read ${big}: ${over}\n`);
    expect(c.reads).toEqual([[big, DEFAULT_MAX_INPUT_BYTES]]);
    expect(await run(['sim', big])).toMatchObject({
      code: 2,
      err: `error: cannot read scenario ${big}: ${over}\n`,
    });
  });

  it('--max-input-bytes raises or lowers it, before or after the command', async () => {
    expect((await run(['reconcile', '-f', big, '--max-input-bytes', '11Mi'])).err).not.toContain(
      'input limit',
    );
    expect((await run(['--max-input-bytes', '11Mi', 'reconcile', '-f', big])).err).not.toContain(
      'input limit',
    );
    expect((await run(['reconcile', '-f', fixture])).code).toBe(0);
    const lowered = await run(['--max-input-bytes', '100', 'reconcile', '-f', fixture]);
    expect(lowered.code).toBe(2);
    expect(lowered.err).toMatch(
      /^error: cannot read packages\/cli\/test\/fixtures\/cloneset\.yaml: the file is \d+ bytes, more than the input limit of 100 bytes/,
    );
    expect(
      (await run(['sim', 'examples/scenarios/cloneset-inplace.yaml', '-q', '--max-input-bytes', '1Ki'])).code,
    ).toBe(2);
  });

  it('applies to the files a scenario names, reported at the field that names them', async () => {
    const p = files({
      's.yaml': `${scenarioHeader}  manifestFiles: [m.yaml]\n  steps: []\n`,
      'm.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: "${'x'.repeat(300)}"}\n`,
    });
    const r = await run(['sim', p['s.yaml'], '--max-input-bytes', '200']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      `error: ${p['s.yaml']}:5 (document 0): spec.manifestFiles[0]: cannot read "m.yaml": the file is 365 bytes, more than the input limit of 200 bytes`,
    );
  });

  it('stops reading a stream without a size one byte past the limit (/dev/zero never ends)', async () => {
    expect(await run(['reconcile', '-f', '/dev/zero', '--max-input-bytes', '1Mi'])).toMatchObject({
      code: 2,
      err: 'error: cannot read /dev/zero: the input holds more than 1048576 bytes, the input limit (raise it with --max-input-bytes)\n',
    });
  });

  it('a --max-input-bytes that is not a positive size is a usage error', async () => {
    for (const v of ['0', '-1', '1.5', '10MB', 'ten'])
      expect(await run(['reconcile', '-f', fixture, '--max-input-bytes', v])).toMatchObject({
        code: 2,
        err: `error: --max-input-bytes must be a positive number of bytes such as 20971520 or 20Mi, not "${v}"\n`,
      });
  });

  it('parseByteSize reads bytes and binary suffixes; readFileBounded reads a file within the limit', () => {
    expect([
      parseByteSize('20971520'),
      parseByteSize('512Ki'),
      parseByteSize('20Mi'),
      parseByteSize('1Gi'),
    ]).toEqual([20971520, 512 * 1024, 20 * 1024 ** 2, 1024 ** 3]);
    expect(parseByteSize('99999999999999999999Gi')).toBeUndefined();
    expect(readFileBounded(join(repo, fixture))).toBe(readFileSync(join(repo, fixture), 'utf8'));
  });
});

describe('annotations over 256 KiB', () => {
  const configMap = (bytes: number) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  annotations:\n    note: "${'x'.repeat(bytes - 4)}"\n`;
  const p = files({
    'at-limit.yaml': `${readFileSync(join(repo, fixture), 'utf8')}---\n${configMap(262144)}`,
    'over.yaml': `${readFileSync(join(repo, fixture), 'utf8')}---\n${configMap(262145)}`,
  });

  it('reconcile rejects the object like an API server 422 (exit 1); at the limit it passes', async () => {
    expect(await run(['reconcile', '-f', p['over.yaml']])).toEqual({
      code: 1,
      out: '',
      err: 'error: The ConfigMap "big" is invalid: metadata.annotations: Too long: must have at most 262144 bytes\n',
    });
    expect((await run(['reconcile', '-f', p['at-limit.yaml']])).code).toBe(0);
  });

  it('sim refuses the scenario before running anything (exit 2), naming the line', async () => {
    const s = files({ 's.yaml': `${scenarioHeader}  steps: []\n---\n${configMap(262145)}` })['s.yaml'];
    expect(await run(['sim', s])).toEqual({
      code: 2,
      out: '',
      err: `error: ${s}:11 (document 1): metadata.annotations: Too long: must have at most 262144 bytes\nerror: ${s} is not a valid scenario; nothing was run\n`,
    });
  });
});

describe('an unexpected error', () => {
  const throwingIO = () => {
    const c = capture();
    const io: CliIO = {
      ...c.io,
      stdout: () => {
        throw new TypeError('the terminal went away');
      },
    };
    return { io, err: c.err };
  };

  it('is one line and exit 1, with a hint at --debug', async () => {
    const c = throwingIO();
    expect(await main(['reconcile', '-f', fixture], c.io)).toBe(1);
    expect(c.err()).toBe('error: the terminal went away (run with --debug for the stack trace)\n');
  });

  it('prints the stack trace with --debug, before or after the command', async () => {
    for (const argv of [
      ['--debug', 'reconcile', '-f', fixture],
      ['reconcile', '-f', fixture, '--debug'],
    ]) {
      const c = throwingIO();
      expect(await main(argv, c.io)).toBe(1);
      expect(c.err()).toMatch(/^error: TypeError: the terminal went away\n\s+at /);
    }
  });
});

describe('the real executable', () => {
  it('exits 2 on an alias error with one line on stderr', () => {
    let status = 0;
    let stderr = '';
    try {
      execFileSync(
        'npx',
        ['tsx', '--conditions=@kruise-ts/source', 'packages/cli/src/bin.ts', 'sim', bad['alias.yaml']],
        { cwd: repo, encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] },
      );
    } catch (e) {
      ({ status, stderr } = e as { status: number; stderr: string });
    }
    expect(status).toBe(2);
    expect(stderr).toBe(
      `error: ${bad['alias.yaml']}:1 (document 0): malformed YAML: alias *NKG names no anchor &NKG defined before it\nerror: ${bad['alias.yaml']} is not a valid scenario; nothing was run\n`,
    );
  });
});
