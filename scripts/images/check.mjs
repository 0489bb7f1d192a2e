#!/usr/bin/env node
// Checks the two images without a container engine (none is reachable here or in CI): for each
// Dockerfile (packages/operator, packages/daemon) it
//   1. reads the `pnpm ... deploy` command of its build stage and the runtime stage's USER,
//      ENTRYPOINT and CMD;
//   2. runs that same `pnpm deploy` into a temporary folder (what COPY --from=build puts in /app);
//   3. checks that every workspace package in it holds exactly the files its package.json `files`
//      publishes (plus package.json and README.md), so the image holds nothing else of the repo;
//   4. starts the entry point from that folder: `<CMD> --help` must print the command's usage.
// Needs the packages built (`pnpm build`); run after it: `node scripts/images/check.mjs`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const IMAGES = [
  { dockerfile: 'packages/operator/Dockerfile', command: 'operator' },
  { dockerfile: 'packages/daemon/Dockerfile', command: 'daemon' },
];

/** The instructions of a Dockerfile, continuation lines joined, comments dropped. */
export function instructions(text) {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** What the check needs from a Dockerfile, or throws saying what is missing. */
export function parseDockerfile(text) {
  const lines = instructions(text);
  const stages = lines.filter((l) => l.startsWith('FROM ')).length;
  const deploy = lines.join('\n').match(/pnpm --filter (\S+) deploy --prod (\/\S+)/);
  if (!deploy) throw new Error('no `pnpm --filter <pkg> deploy --prod <dir>` in a RUN line');
  const last = lines.slice(lines.findLastIndex((l) => l.startsWith('FROM ')));
  const json = (key) => {
    const l = last.find((x) => x.startsWith(`${key} `));
    return l === undefined ? undefined : JSON.parse(l.slice(key.length + 1));
  };
  const user = last.find((l) => l.startsWith('USER '))?.slice(5);
  const copy = last.find((l) => l.startsWith('COPY '));
  return {
    stages,
    filter: deploy[1],
    outDir: deploy[2],
    copy,
    user,
    entrypoint: json('ENTRYPOINT'),
    cmd: json('CMD'),
  };
}

/** Every file under `dir`, relative to it, following no symbolic links. */
function walk(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return walk(p, base);
    return [relative(base, p)];
  });
}

/** The files a workspace package publishes: its `files` entries, package.json and README.md. */
function publishedFiles(pkgDir) {
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const out = ['package.json'];
  if (existsSync(join(pkgDir, 'README.md'))) out.push('README.md');
  for (const f of pkg.files ?? []) {
    const p = join(pkgDir, f);
    if (!existsSync(p))
      throw new Error(`${pkgDir}: "files" names ${f}, which does not exist (run pnpm build)`);
    if (statSync(p).isDirectory()) out.push(...walk(p).map((x) => join(f, x)));
    else out.push(f);
  }
  return out.sort();
}

function check({ dockerfile, command }) {
  const d = parseDockerfile(readFileSync(join(repo, dockerfile), 'utf8'));
  const fail = (why) => {
    throw new Error(`${dockerfile}: ${why}`);
  };
  if (d.stages !== 2) fail('expected a build stage and a runtime stage');
  if (d.copy !== `COPY --from=build ${d.outDir} /app`) fail(`the runtime stage must copy only ${d.outDir}`);
  if (!d.user || d.user.startsWith('0') || d.user.startsWith('root')) fail(`runs as ${d.user ?? 'root'}`);
  if (!Array.isArray(d.entrypoint) || d.entrypoint[1] !== '/app/dist/bin.js')
    fail('entry point is not /app/dist/bin.js');
  if (!Array.isArray(d.cmd) || d.cmd[0] !== command) fail(`CMD does not start with ${command}`);

  const out = mkdtempSync(join(tmpdir(), 'kruise-image-'));
  try {
    execFileSync('pnpm', ['--filter', d.filter, 'deploy', '--prod', out], { cwd: repo, stdio: 'pipe' });
    // 3. each workspace package in the deploy holds exactly what it publishes
    const pnpmDir = join(out, 'node_modules', '.pnpm');
    const workspace = readdirSync(pnpmDir).filter((n) => n.startsWith('@kruise-ts+'));
    for (const entry of workspace) {
      const name = entry.slice('@kruise-ts+'.length).split('@')[0];
      const inImage = join(pnpmDir, entry, 'node_modules', '@kruise-ts', name);
      const got = walk(inImage)
        .filter((f) => !f.startsWith('node_modules/'))
        .sort();
      const want = publishedFiles(join(repo, 'packages', name));
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        const extra = got.filter((f) => !want.includes(f));
        const missing = want.filter((f) => !got.includes(f));
        fail(
          `@kruise-ts/${name} in the image differs from its package files: extra ${extra}, missing ${missing}`,
        );
      }
    }
    // the deployed package itself (the CLI) at the root of /app
    const rootPkg = d.filter.replace('@kruise-ts/', '');
    const rootGot = walk(out)
      .filter((f) => !f.startsWith('node_modules/') && !/^pnpm-(lock|workspace)\.yaml$/.test(f))
      .sort();
    const rootWant = publishedFiles(join(repo, 'packages', rootPkg));
    if (JSON.stringify(rootGot) !== JSON.stringify(rootWant))
      fail(`/app differs from ${d.filter}'s package files`);
    // 4. the entry point starts: `node /app/dist/bin.js <command> --help`
    const entry = join(out, relative('/app', d.entrypoint[1]));
    const help = execFileSync(process.execPath, [entry, command, '--help'], { encoding: 'utf8' });
    if (!help.includes(`Usage: kruise-ts ${command}`))
      fail(`\`${command} --help\` printed no usage:\n${help}`);
    console.log(
      `${dockerfile}: ok (${workspace.length} workspace packages, /app = ${d.filter}, ${command} --help starts)`,
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const image of IMAGES) check(image);
}
