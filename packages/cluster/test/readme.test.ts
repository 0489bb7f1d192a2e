// The README's first example ("A first cluster") is code a newcomer copies, so it must work as
// written: this test takes the block out of README.md, type-checks it against the package's
// sources as a user's strict project would, runs it, and compares what it prints with the
// README's `text` block after it. The repository's doc test (scripts/doctest) covers the
// tutorials under docs/tutorials/, not package READMEs, hence this test.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as cluster from '../src/index';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(`${packageDir}README.md`, 'utf8');

/** The first fenced block of `lang` after the heading `heading`. */
function blockAfter(heading: string, lang: string, from = 0): { code: string; end: number } {
  const at = readme.indexOf(`\n${heading}\n`, from);
  expect(at, `README heading ${heading}`).toBeGreaterThanOrEqual(0);
  const open = readme.indexOf(`\n\`\`\`${lang}\n`, at);
  expect(open, `a ${lang} block after ${heading}`).toBeGreaterThan(at);
  const start = open + lang.length + 5;
  const close = readme.indexOf('\n```\n', start - 1);
  return { code: readme.slice(start, close + 1), end: close + 4 };
}

const example = blockAfter('## A first cluster', 'ts');
const printed = blockAfter('prints', 'text', example.end - 1);

/** Type errors of `code` as a file of this package's tests importing the package by name. */
function typeErrors(code: string): string[] {
  const file = `${packageDir}test/readme-example.ts`;
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    customConditions: ['@kruise-ts/source'],
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    baseUrl: packageDir,
    paths: { '@kruise-ts/cluster': ['src/index.ts'] },
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (f) => f === file || fileExists(f);
  host.readFile = (f) => (f === file ? code : readFile(f));
  host.getSourceFile = (f, lang, ...rest) =>
    f === file ? ts.createSourceFile(f, code, lang, true) : getSourceFile(f, lang, ...rest);
  const program = ts.createProgram({ rootNames: [file], options, host });
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/** Runs `code` (TypeScript) with `@kruise-ts/cluster` bound to this package; returns what it logged. */
function run(code: string): string {
  const js = ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const lines: string[] = [];
  const modules: Record<string, unknown> = { '@kruise-ts/cluster': cluster };
  const require = (name: string) => {
    if (!(name in modules)) throw new Error(`the README example imports ${name} at run time`);
    return modules[name];
  };
  const console = { log: (...args: unknown[]) => lines.push(format(...args)) };
  new Function('require', 'exports', 'console', js)(require, {}, console);
  return lines.map((l) => `${l}\n`).join('');
}

describe('README: A first cluster', () => {
  it('type-checks as a strict user project would', () => {
    expect(typeErrors(example.code)).toEqual([]);
  }, 60_000);

  it('prints what the README says', () => {
    expect(printed.code).not.toBe('');
    expect(run(example.code)).toBe(printed.code);
  });
});
