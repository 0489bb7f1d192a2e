// Reads the import graph of the packages' sources: which file imports which (relative imports,
// type-only ones included, since a cycle of types is still a tangle a reader must untie) and
// which @kruise-ts package each package imports. Used by layering.test.ts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** One import statement of a source file. */
export interface ImportEdge {
  from: string;
  to: string;
}

/** The import graph of packages/<pkg>/src/**.ts, with paths relative to `root`. */
export interface SourceGraph {
  /** file -> files it imports (relative imports resolved to files) */
  files: Map<string, string[]>;
  /** `pkg -> @kruise-ts/other` edges, with one importing file as evidence */
  packages: Map<string, ImportEdge>;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (path.endsWith('.ts')) out.push(path);
  }
  return out;
}

function resolveRelative(fromFile: string, spec: string): string | undefined {
  const base = resolve(dirname(fromFile), spec.replace(/\.js$/, ''));
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Reads every package's `src` folder under `root/packages`. */
export function readSourceGraph(root: string): SourceGraph {
  const files = new Map<string, string[]>();
  const packages = new Map<string, ImportEdge>();
  const rel = (p: string) => relative(root, p).split(sep).join('/');
  for (const pkg of readdirSync(join(root, 'packages'))) {
    const src = join(root, 'packages', pkg, 'src');
    if (!existsSync(src)) continue;
    for (const file of sourceFiles(src)) {
      const text = readFileSync(file, 'utf8');
      const targets: string[] = [];
      const specs = [...text.matchAll(IMPORT), ...text.matchAll(DYNAMIC_IMPORT)].map((m) => m[1]);
      for (const spec of specs) {
        if (spec.startsWith('.')) {
          const target = resolveRelative(file, spec);
          if (target !== undefined) targets.push(rel(target));
        } else if (spec.startsWith('@kruise-ts/')) {
          const other = spec.split('/')[1];
          const key = `${pkg} -> ${other}`;
          if (!packages.has(key)) packages.set(key, { from: rel(file), to: spec });
        }
      }
      files.set(rel(file), targets);
    }
  }
  return { files, packages };
}

/** The strongly connected components with more than one file: each is an import cycle. */
export function importCycles(files: Map<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  // Tarjan's algorithm, iterative so a deep import chain cannot overflow the call stack.
  for (const start of files.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = files.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const w = targets[frame.next++];
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, next: 0 });
        } else if (onStack.has(w)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== frame.node);
        if (component.length > 1) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}
