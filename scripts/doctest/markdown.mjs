// The doc-test convention, read from a Markdown page (see scripts/doctest/README.md):
//
//   ```sh doctest                       run with `sh -e` (`bash doctest`: with `bash -e`)
//   ```ts doctest                       run with `tsx` (`js doctest`: with `node`)
//   ```ts doctest file=controller.ts    written to controller.ts, not run (any language)
//   ```text expect                      lines the output of the run block before it must contain
//
// Attributes of a run block: `exit=<code>` (the exit code it must end with, default 0) and
// `timeout=<seconds>` (default 180). Fences without `doctest` or `expect` are shown, never run.
// Pure: text in, blocks or errors out.

/** Languages a block runs in, and how: the interpreter and the file extension of the block. */
export const RUNNERS = {
  sh: { command: ['sh', '-e'], ext: '.sh' },
  bash: { command: ['bash', '-e'], ext: '.sh' },
  ts: { command: ['tsx'], ext: '.ts' },
  typescript: { command: ['tsx'], ext: '.ts' },
  js: { command: ['node'], ext: '.mjs' },
  javascript: { command: ['node'], ext: '.mjs' },
};

export const DEFAULT_TIMEOUT_SECONDS = 180;

/**
 * Every fenced code block of `text`: `{ line, fence, info, lang, words, attrs, body }`, `line`
 * being the 1-based line of the opening fence. A fence is three or more backticks or tildes,
 * indented at most three spaces; it closes with at least as many of the same character.
 *
 * Example: "```ts doctest file=a.ts\nx\n```" → `[{ line: 1, lang: 'ts', words: ['doctest'],
 * attrs: { file: 'a.ts' }, body: 'x\n', ... }]`.
 */
export function fencedBlocks(text) {
  const lines = text.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(lines[i]);
    if (!open || (open[1][0] === '`' && open[2].includes('`'))) continue;
    const fence = open[1];
    const info = open[2].trim();
    const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    const body = [];
    let j = i + 1;
    while (j < lines.length && !close.test(lines[j])) body.push(lines[j++]);
    const [lang = '', ...rest] = info.split(/\s+/).filter(Boolean);
    const words = rest.filter((w) => !w.includes('='));
    const attrs = Object.fromEntries(
      rest
        .filter((w) => w.includes('='))
        .map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]),
    );
    out.push({ line: i + 1, fence, info, lang: lang.toLowerCase(), words, attrs, body: body.join('\n') });
    i = j;
  }
  return out;
}

/**
 * The doc-test steps of a page, in order: `{ kind: 'file', line, path, body }` and
 * `{ kind: 'run', line, lang, body, exit, timeoutSeconds, expects: [{ line, lines }] }`. Errors
 * (an unknown language, an expect block with nothing to attach to, a file name that leaves the
 * page's directory, a bad attribute) come back as `{ errors: ['line N: ...'] }` with no steps.
 */
export function doctestSteps(text) {
  const steps = [];
  const errors = [];
  let lastRun;
  for (const b of fencedBlocks(text)) {
    const where = `line ${b.line}`;
    if (b.words.includes('expect')) {
      if (!lastRun) {
        errors.push(
          `${where}: an expect block must follow a doctest block that runs, with no file block between them`,
        );
        continue;
      }
      const lines = b.body
        .split('\n')
        .map((l) => l.trimEnd())
        .filter((l) => l.trim() !== '');
      lastRun.expects.push({ line: b.line, lines });
      continue;
    }
    if (!b.words.includes('doctest')) continue;
    for (const key of Object.keys(b.attrs)) {
      if (!['file', 'exit', 'timeout'].includes(key)) errors.push(`${where}: unknown attribute ${key}=`);
    }
    if (b.attrs.file !== undefined) {
      const path = b.attrs.file;
      if (path === '' || path.startsWith('/') || path.split(/[\\/]/).includes('..'))
        errors.push(`${where}: file=${path} must be a relative path inside the page's directory`);
      else steps.push({ kind: 'file', line: b.line, path, body: `${b.body}\n` });
      lastRun = undefined; // an expect block right after a file has nothing to check
      continue;
    }
    if (!Object.hasOwn(RUNNERS, b.lang)) {
      errors.push(
        `${where}: cannot run a "${b.lang}" block (runs: ${Object.keys(RUNNERS).join(', ')}; give other languages file=<name>)`,
      );
      continue;
    }
    const exit = b.attrs.exit === undefined ? 0 : Number(b.attrs.exit);
    const timeoutSeconds = b.attrs.timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : Number(b.attrs.timeout);
    if (!Number.isInteger(exit) || exit < 0 || exit > 255)
      errors.push(`${where}: exit=${b.attrs.exit} is not an exit code`);
    if (!(timeoutSeconds > 0)) errors.push(`${where}: timeout=${b.attrs.timeout} is not a number of seconds`);
    lastRun = {
      kind: 'run',
      line: b.line,
      lang: b.lang,
      body: `${b.body}\n`,
      exit,
      timeoutSeconds,
      expects: [],
    };
    steps.push(lastRun);
  }
  return errors.length > 0 ? { errors, steps: [] } : { errors: [], steps };
}

/** Removes ANSI escape sequences (colours, cursor moves) from a tool's output. */
export function stripAnsi(text) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the escape character is the point
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g, '');
}

/**
 * Checks that `output` contains every expected line, in order: each expected line (trailing
 * spaces and leading indentation ignored) must occur inside an output line after the line that
 * matched the previous one. Returns the first expected line that was not found, or undefined.
 *
 * Example: output "a 1\nb 2\nc 3", expected ["a", "c 3"] → undefined; expected ["c", "a"] → "a".
 */
export function missingLine(output, expected) {
  const lines = stripAnsi(output).split('\n');
  let at = 0;
  for (const want of expected) {
    const needle = want.trim();
    let found = -1;
    for (let i = at; i < lines.length; i++) {
      if (lines[i].includes(needle)) {
        found = i;
        break;
      }
    }
    if (found < 0) return want;
    at = found + 1;
  }
  return undefined;
}
