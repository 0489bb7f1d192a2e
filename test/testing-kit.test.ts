// The testing kit's fast-check stays out of a production install: `@kruise-ts/sim` declares
// fast-check only as an optional peer (and a dev dependency for its own tests), and nothing its
// main or browser entry reaches imports it. Only `@kruise-ts/sim/testing` does, and a user who
// imports that subpath installs fast-check beside it (the pack-and-consume test does).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const simSrc = join(root, 'packages/sim/src');

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/g;

function resolveRelative(fromFile: string, spec: string): string | undefined {
  const base = resolve(dirname(fromFile), spec.replace(/\.js$/, ''));
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/**
 * The files of sim's sources that import `pkg` at run time, among those `entry` reaches through
 * relative imports (type-only imports vanish from the bundle, so they do not count).
 */
function runtimeImportersOf(entry: string, pkg: string): string[] {
  const seen = new Set<string>();
  const importers: string[] = [];
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      if (/^(import|export)\s+type\s/.test(m[0].trim())) continue;
      const spec = m[1];
      if (spec === pkg || spec.startsWith(`${pkg}/`)) importers.push(file.slice(root.length));
      else if (spec.startsWith('.')) {
        const target = resolveRelative(file, spec);
        if (target) queue.push(target);
      }
    }
  }
  return importers;
}

describe('the testing kit keeps fast-check out of a production install', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'packages/sim/package.json'), 'utf8'));

  it('declares fast-check as an optional peer, not a dependency', () => {
    expect(manifest.dependencies?.['fast-check']).toBeUndefined();
    expect(manifest.peerDependencies?.['fast-check']).toBeDefined();
    expect(manifest.peerDependenciesMeta?.['fast-check']?.optional).toBe(true);
  });

  it('the main and browser entries never load fast-check', () => {
    expect(runtimeImportersOf(join(simSrc, 'index.ts'), 'fast-check')).toEqual([]);
    expect(runtimeImportersOf(join(simSrc, 'browser.ts'), 'fast-check')).toEqual([]);
  });

  it('the /testing entry does (so the check above can fail)', () => {
    expect(runtimeImportersOf(join(simSrc, 'testing.ts'), 'fast-check').length).toBeGreaterThan(0);
  });
});
