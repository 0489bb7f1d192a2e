#!/usr/bin/env node
// Doc test: do the tutorials under docs/tutorials/ work for a user who installs the packages?
//
// Needs the packages built (`pnpm build`); builds nothing itself. Then:
//   1. reads every Markdown page under docs/tutorials/ and its doctest blocks (the convention is
//      in scripts/doctest/README.md and markdown.mjs: ```sh doctest, ```ts doctest,
//      ```ts doctest file=<name>, ```text expect);
//   2. packs every package and installs the tarballs into a project in os.tmpdir(), outside the
//      workspace (scripts/pack-consume/lib.mjs: `file:` dependencies, npm overrides), with the
//      tools the tutorials use: typescript, @types/node, tsx, vitest and vite, fast-check,
//      kubernetes-types and @kubernetes/client-node, at the versions the workspace uses;
//   3. runs each page in a new directory of its own inside that project, block after block, with
//      the project's node_modules/.bin (kruise-ts, tsx, vitest) on the PATH (and the helm of
//      scripts/helm/build.sh when built), and a link `charts` to the repository's charts/ folder
//      (the Helm chart, which a user installs from a checkout): a file block is
//      written, a shell block runs with `sh -e`, a TypeScript block with `tsx`. A run block must
//      end with its exit code (0 unless it says `exit=<code>`), and its output must contain every
//      line of the expect blocks after it, in order;
//   4. type-checks the TypeScript the page wrote (`tsc --noEmit`, strict, NodeNext);
//   5. stops whatever a page left running: every block runs in a process group of its own, and
//      a group still alive 2 s after the page's last block (a server started with `&`) gets
//      SIGTERM, then SIGKILL.
// Prints each page's result and time and exits 1 naming the page, the block and its output when
// anything failed.
//
// Usage: node scripts/doctest/run.mjs [--keep] [--list] [--verbose] [--project <dir>] [page.md ...]
//   page.md          only these pages (paths, or names under docs/tutorials/)
//   --list           print the blocks of each page and exit, installing nothing
//   --verbose        print the output of every block that runs
//   --keep           leave the temporary directory (tarballs, the project, one directory per page)
//   --project <dir>  reuse the project of an earlier --keep run (<tmp>/kruise-ts-doctest-*/project):
//                    no packing, no install; for writing a page, not for CI

import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import {
  consumerEnv,
  consumerManifest,
  exec,
  expectSuccess,
  packAll,
  root,
  rootPackage,
  tail,
  unbuiltFiles,
  unbuiltMessage,
  workspacePackages,
} from '../pack-consume/lib.mjs';
import { doctestSteps, missingLine, RUNNERS, stripAnsi } from './markdown.mjs';

const USAGE =
  'usage: node scripts/doctest/run.mjs [--keep] [--list] [--verbose] [--project <dir>] [page.md ...]';
const tutorials = join(root, 'docs', 'tutorials');
const started = performance.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;
const indent = (text, by = '    ') =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => `${by}${l}`)
    .join('\n');

// ---------------------------------------------------------------- arguments and pages

const args = process.argv.slice(2);
let keep = false;
let listOnly = false;
let verbose = false;
let reuse;
const wanted = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--keep') keep = true;
  else if (a === '--list') listOnly = true;
  else if (a === '--verbose') verbose = true;
  else if (a === '--project' && args[i + 1]) reuse = resolve(args[++i]);
  else if (a.startsWith('-')) {
    console.error(`unknown argument ${a}\n${USAGE}`);
    process.exit(2);
  } else wanted.push(a);
}
if (reuse && !existsSync(join(reuse, 'node_modules'))) {
  console.error(`doctest: ${reuse} is not an installed project (no node_modules)\n${USAGE}`);
  process.exit(2);
}

/** Every Markdown page under dir, relative to the repository root, sorted. */
function markdownPages(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...markdownPages(p));
    else if (e.name.endsWith('.md')) out.push(relative(root, p).split('\\').join('/'));
  }
  return out.sort();
}

let pages = markdownPages(tutorials);
if (wanted.length > 0) {
  const chosen = wanted.map((w) => {
    const candidates = [resolve(w), join(tutorials, w), join(tutorials, `${w}.md`)];
    const hit = candidates.find((c) => existsSync(c));
    const rel = hit && relative(root, hit).split('\\').join('/');
    if (!rel || !pages.includes(rel)) {
      console.error(`doctest: ${w} is not a page under docs/tutorials/\n${USAGE}`);
      process.exit(2);
    }
    return rel;
  });
  pages = pages.filter((p) => chosen.includes(p));
}

const parsed = pages.map((page) => ({ page, ...doctestSteps(readFileSync(join(root, page), 'utf8')) }));
const invalid = parsed.filter((p) => p.errors.length > 0);
if (invalid.length > 0) {
  for (const p of invalid) console.error(`${p.page}:\n${indent(p.errors.join('\n'))}`);
  process.exit(1);
}
const runnable = parsed.filter((p) => p.steps.some((s) => s.kind === 'run'));

if (listOnly) {
  for (const { page, steps } of parsed) {
    console.log(`${page}${steps.length === 0 ? ': no doctest blocks' : ''}`);
    for (const s of steps) {
      if (s.kind === 'file') console.log(`  line ${s.line}: write ${s.path}`);
      else {
        const first = s.body.trim().split('\n')[0];
        const extra = [
          s.exit !== 0 ? `exit ${s.exit}` : '',
          s.expects.length ? `${s.expects.length} expect` : '',
        ]
          .filter(Boolean)
          .join(', ');
        console.log(`  line ${s.line}: run ${s.lang}${extra ? ` (${extra})` : ''}: ${first}`);
      }
    }
  }
  process.exit(0);
}
if (runnable.length === 0) {
  console.log('doctest: no page under docs/tutorials/ has a doctest block that runs');
  process.exit(0);
}

// ---------------------------------------------------------------- the project

const packages = workspacePackages();
const unbuilt = unbuiltFiles(packages);
if (unbuilt.length > 0) {
  console.error(unbuiltMessage('doctest', unbuilt));
  process.exit(1);
}

/** The tools a tutorial may use, at the versions the workspace itself uses. */
function toolVersions() {
  const dev = rootPackage().devDependencies ?? {};
  const operator = packages.find(({ pkg }) => pkg.name === '@kruise-ts/operator')?.pkg.dependencies ?? {};
  const pick = (name, from, fallback) => [name, from[name] ?? fallback];
  return Object.fromEntries([
    ['@types/node', '^20'],
    ['typescript', '~5.9.0'],
    pick('tsx', dev, '^4'),
    // vitest 4 and vite 8: vitest 5 needs Node 22.
    pick('vitest', dev, '4.1.12'),
    pick('vite', dev, '8.3.8'),
    pick('fast-check', dev, '4.11.0'),
    pick('kubernetes-types', dev, '1.30.0'),
    pick('@kubernetes/client-node', operator, '^2.0.1'),
  ]);
}

const work = reuse ? dirname(reuse) : mkdtempSync(join(tmpdir(), 'kruise-ts-doctest-'));
const tarDir = join(work, 'tarballs');
const project = reuse ?? join(work, 'project');
// Never remove a project this run did not make.
if (reuse) keep = true;
else {
  mkdirSync(tarDir);
  mkdirSync(project);
}
console.log(`doctest: ${runnable.length} page(s), ${reuse ? 'reusing the project' : 'working'} in ${work}`);

/** The process group of every block of the page (`{ pid, label }`), so its leftovers can be stopped. */
let groups = [];

function cleanUp() {
  for (const { pid } of groups) signalGroup(pid, 'SIGKILL');
  if (!keep) rmSync(work, { recursive: true, force: true });
}
for (const [sig, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.once(sig, () => {
    cleanUp();
    process.exit(code);
  });
}

function fail(message) {
  console.log(`\n${message}`);
  cleanUp();
  if (keep) console.log(`\nkept ${work}`);
  process.exit(1);
}

const env = consumerEnv();
if (!reuse) await install();

/** Packs the packages and installs them, with the tools, into the project. */
async function install() {
  const tools = toolVersions();
  let t0 = performance.now();
  let tarballs;
  try {
    tarballs = await packAll(packages, tarDir);
  } catch (e) {
    fail(`doctest: packing failed\n${indent(e.message)}`);
  }
  console.log(`- pnpm pack (${tarballs.size} packages) ... ok (${seconds(performance.now() - t0)})`);
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify(consumerManifest('kruise-ts-doctest', tarballs, tools), null, 2)}\n`,
  );
  t0 = performance.now();
  const r = await exec(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
    {
      cwd: project,
      env,
    },
  );
  try {
    expectSuccess('npm install', r);
  } catch (e) {
    fail(`doctest: installing the project failed\n${indent(e.message)}`);
  }
  const list = Object.entries(tools)
    .map(([n, v]) => `${n} ${v}`)
    .join(', ');
  console.log(`- npm install (tarballs, ${list}) ... ok (${seconds(performance.now() - t0)})`);
}

// ---------------------------------------------------------------- running a block

/** Sends `signal` to process group `pid`; false when the group is gone. */
function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `command` in a process group of its own, in `cwd`. Resolves with its exit code, its
 * output (stdout and stderr as they arrived) and whether it timed out. Returns when the command
 * exits, even when a background job it started still holds the output pipes.
 */
function runBlock(command, cwd, blockEnv, timeoutSeconds, label) {
  return new Promise((done) => {
    const t = performance.now();
    const child = spawn(command[0], command.slice(1), {
      cwd,
      env: blockEnv,
      detached: true, // a process group of its own: the page's end stops what it left running
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid) groups.push({ pid: child.pid, label });
    let output = '';
    let timedOut = false;
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      signalGroup(child.pid, 'SIGKILL');
    }, timeoutSeconds * 1000);
    const finish = (code) => {
      clearTimeout(timer);
      done({ code, output, timedOut, ms: performance.now() - t });
    };
    child.on('error', (e) => {
      output += e.message;
      finish(-1);
    });
    child.on('exit', (code, signal) => {
      const exitCode = code ?? (signal ? 128 : -1);
      // Give the pipes a moment to drain; a background job may keep them open for good.
      const closeTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(exitCode);
      }, 500);
      child.once('close', () => {
        clearTimeout(closeTimer);
        finish(exitCode);
      });
    });
  });
}

/**
 * Stops what the page's blocks left running: groups still alive after 2 s (a server the page
 * started with `&` and did not stop) get SIGTERM, and SIGKILL 5 s later. Returns the labels of the
 * blocks whose groups had to be stopped.
 */
async function stopLeftovers() {
  const alive = () => groups.filter(({ pid }) => signalGroup(pid, 0));
  for (let waited = 0; waited < 2000 && alive().length > 0; waited += 100) await sleep(100);
  const left = alive();
  for (const { pid } of left) signalGroup(pid, 'SIGTERM');
  for (let waited = 0; waited < 5000 && alive().length > 0; waited += 100) await sleep(100);
  for (const { pid } of alive()) signalGroup(pid, 'SIGKILL');
  groups = [];
  return left.map((g) => g.label);
}

/** A block's source for a failure message: its first lines. */
function excerpt(body, lines = 12) {
  const all = body.trimEnd().split('\n');
  return all.length > lines
    ? [...all.slice(0, lines), `... (${all.length - lines} more lines)`].join('\n')
    : body;
}

// ---------------------------------------------------------------- the pages

const binDir = join(project, 'node_modules', '.bin');
// The helm scripts/helm/build.sh builds (CI builds it before this runs), for pages that render the
// repository's chart; on the PATH only when it is there.
const helmDir =
  process.env.KRUISE_TS_BIN_DIR ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kruise-ts', 'bin');
const toolDirs = existsSync(join(helmDir, 'helm')) ? [binDir, helmDir] : [binDir];
const results = [];

for (const { page, steps } of runnable) {
  const pageStart = performance.now();
  const slug = page
    .replace(/^docs\/tutorials\//, '')
    .replace(/\.md$/, '')
    .replace(/[^\w.-]+/g, '-');
  const dir = join(project, 'pages', slug);
  rmSync(dir, { recursive: true, force: true }); // a reused project keeps nothing of an earlier run
  mkdirSync(dir, { recursive: true });
  // A page that installs from a checkout (the Helm chart) finds the repository's charts/ where a
  // user's checkout has it; nothing else of the repository is reachable from the page.
  symlinkSync(join(root, 'charts'), join(dir, 'charts'));
  const blockEnv = {
    ...env,
    PATH: [...toolDirs, env.PATH ?? ''].join(delimiter),
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    CI: 'true',
  };
  process.stdout.write(`- ${page} ... `);
  let failure;
  const written = [];
  for (const [i, step] of steps.entries()) {
    const label = `${page}:${step.line}`;
    if (step.kind === 'file') {
      const target = join(dir, step.path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, step.body);
      written.push(step.path);
      continue;
    }
    const runner = RUNNERS[step.lang];
    const file = `doctest-block-${i + 1}${runner.ext}`;
    writeFileSync(join(dir, file), step.body);
    if (runner.ext === '.ts') written.push(file);
    const r = await runBlock([...runner.command, file], dir, blockEnv, step.timeoutSeconds, label);
    const output = stripAnsi(r.output);
    if (verbose)
      console.log(`\n  ${label} (${step.lang}, exit ${r.code}, ${seconds(r.ms)}):\n${indent(output)}`);
    const shown = `${label} (${step.lang} block):\n${indent(excerpt(step.body))}`;
    if (r.timedOut) {
      failure = `block ${shown}\ndid not finish within ${step.timeoutSeconds}s. Output:\n${indent(tail(output, 60))}`;
      break;
    }
    if (r.code !== step.exit) {
      failure = `block ${shown}\nexited with ${r.code}, expected ${step.exit}. Output:\n${indent(tail(output, 60))}`;
      break;
    }
    for (const exp of step.expects) {
      const missing = missingLine(output, exp.lines);
      if (missing !== undefined) {
        failure = `block ${shown}\nhas no output line containing\n${indent(missing)}\n(expect block at ${page}:${exp.line}, its lines in order). Output:\n${indent(tail(output, 60))}`;
        break;
      }
    }
    if (failure) break;
  }
  const stopped = await stopLeftovers();
  const typeScript = written.filter((f) => /\.[cm]?tsx?$/.test(f));
  if (!failure && typeScript.length > 0) {
    // The TypeScript a page shows must type-check as a user's strict project would.
    writeFileSync(
      join(dir, 'tsconfig.doctest.json'),
      `${JSON.stringify(
        {
          compilerOptions: {
            strict: true,
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            target: 'ES2022',
            types: ['node'],
            noEmit: true,
            skipLibCheck: true,
            allowImportingTsExtensions: true,
          },
          files: typeScript,
        },
        null,
        2,
      )}\n`,
    );
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = await exec(process.execPath, [tsc, '-p', 'tsconfig.doctest.json', '--pretty', 'false'], {
      cwd: dir,
      env,
    });
    if (r.code !== 0)
      failure = `the TypeScript of the page (${typeScript.join(', ')}) does not type-check:\n${indent(tail(`${r.stdout}\n${r.stderr}`, 40))}`;
  }
  const ms = performance.now() - pageStart;
  const runs = steps.filter((s) => s.kind === 'run').length;
  results.push({ page, ok: !failure, ms, failure });
  if (failure) console.log(`FAILED (${seconds(ms)})\n${indent(failure)}`);
  else
    console.log(
      `ok (${seconds(ms)}): ${runs} blocks run, ${typeScript.length} TypeScript files type-checked${stopped.length > 0 ? `; stopped what the block(s) at ${stopped.join(', ')} left running` : ''}`,
    );
}

// ---------------------------------------------------------------- summary

const failed = results.filter((r) => !r.ok);
console.log(`\nSummary (${seconds(performance.now() - started)} in all):`);
const width = Math.max(...results.map((r) => r.page.length));
for (const r of results)
  console.log(`  ${r.ok ? 'ok    ' : 'FAILED'}  ${r.page.padEnd(width)}  ${seconds(r.ms)}`);
cleanUp();
if (keep) console.log(`\nkept ${work}`);
if (failed.length > 0) {
  console.log(
    `\n${failed.length} page(s) failed: ${failed.map((f) => f.page).join(', ')}${keep ? '' : ' (run with --keep to inspect the project)'}`,
  );
  process.exit(1);
}
console.log(`\nevery tutorial runs as written against the packed packages`);
process.exit(0);
