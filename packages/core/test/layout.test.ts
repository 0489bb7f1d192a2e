// The package's layout as README.md "Layout" describes it: each folder's index.ts lists its
// exports by name (no `export *`), src/index.ts re-exports exactly those lists, every source file
// opens with a comment saying what it owns, and each subpath of package.json "exports" is a tsup
// entry and a TypeDoc entry point.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const src = join(pkg, 'src');
const read = (path: string) => readFileSync(join(pkg, path), 'utf8');

/** The folders whose index.ts this package owns (controller/ has its own rules). */
const FOLDERS = [
  'kube',
  'json',
  'pods',
  'rollout',
  'rollout/inplace',
  'rollout/ordering',
  'contract',
  'apply',
];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (path.endsWith('.ts')) out.push(relative(src, path));
  }
  return out;
}

/** `from` → names of every `export { ... } from '<from>'` statement of a file (`type` dropped). */
function namedExports(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of text.matchAll(/export\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
    const names = m[1]
      .split(',')
      .map((s) => s.trim().replace(/^type\s+/, ''))
      .filter((s) => s !== '');
    out.set(m[2], [...(out.get(m[2]) ?? []), ...names]);
  }
  return out;
}

describe('core layout', () => {
  it.each(FOLDERS)('%s/index.ts exports by name only', (folder) => {
    const text = read(`src/${folder}/index.ts`);
    expect(text).not.toMatch(/export \*/);
    expect([...namedExports(text).values()].flat().length).toBeGreaterThan(0);
  });

  it('src/index.ts re-exports each folder list exactly (apply/ is the /apply subpath)', () => {
    const top = namedExports(read('src/index.ts'));
    for (const folder of FOLDERS.filter((f) => f !== 'apply')) {
      const listed = [...namedExports(read(`src/${folder}/index.ts`)).values()].flat().sort();
      expect(top.get(`./${folder}/index`)?.slice().sort(), folder).toEqual(listed);
    }
    expect(top.has('./apply/index')).toBe(false);
    expect(top.has('./expectations')).toBe(false);
    expect(top.has('./testing')).toBe(false);
  });

  it('every source file opens with a comment', () => {
    const bare = sourceFiles(src).filter((f) => !read(`src/${f}`).startsWith('//'));
    expect(bare).toEqual([]);
  });

  it('no two files named readiness and podReadiness side by side, goJsonStringify in its own file', () => {
    const names = sourceFiles(src);
    expect(names.filter((f) => /readiness\.ts$/i.test(f))).toEqual([]);
    expect(read('src/json/goJson.ts')).toMatch(/export function goJsonStringify/);
    expect(read('src/json/strategicMerge.ts')).not.toMatch(/export function goJsonStringify/);
  });

  it('each subpath of package.json "exports" is a tsup entry and a TypeDoc entry point', () => {
    const exportsField = JSON.parse(read('package.json')).exports as Record<string, Record<string, string>>;
    const tsup = read('tsup.config.ts');
    const typedoc = read('typedoc.json');
    expect(Object.keys(exportsField).sort()).toEqual(['.', './apply', './expectations', './testing']);
    for (const [subpath, targets] of Object.entries(exportsField)) {
      const source = targets['@kruise-ts/source'].replace(/^\.\//, '');
      const name = subpath === '.' ? 'index' : subpath.slice(2);
      expect(targets.types).toBe(`./dist/${name}.d.ts`);
      expect(targets.default).toBe(`./dist/${name}.js`);
      expect(tsup).toContain(`${name}: '${source}'`);
      expect(typedoc).toContain(`"${source}"`);
    }
  });
});
