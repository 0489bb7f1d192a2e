// No module-level mutable state in the pure packages (docs/architecture.md, principle 1): the
// sources of @kruise-ts/api, @kruise-ts/core, every controller package, @kruise-ts/registry and
// @kruise-ts/cluster keep nothing between calls (a cluster's caches belong to its Store, Kubelet
// or Cluster instance). A cache that makes a reconcile fast is an object the caller
// creates and passes in (`cache` in the options or input), so a library user can see, size and
// drop it. @kruise-ts/sim follows the same rule, so two simulations or two API servers in one
// process share nothing (its memos belong to a Simulation or an API server).
//
// The rule, checked over packages/{api,core,<controllers>,registry,cluster,sim}/src/**/*.ts by
// test/moduleState.ts with the TypeScript compiler's parser and type checker:
//
//  1. `let` / `var`: no variable declared at module level.
//  2. mutable-type: a module-level `const` must not hold a container that can change. Its type
//     (as the checker infers it) must not be, or be a union with, `Map`, `Set`, `WeakMap`,
//     `WeakSet`, `WeakRef`, a mutable array (`T[]`) or tuple, a typed array, Node's `Buffer`,
//     `ArrayBuffer` or `DataView`, nor a `RegExp` with the `g` or `y` flag (its `lastIndex`
//     moves) unless its file uses it only as the pattern of `replace`, `replaceAll`, `match`,
//     `matchAll` or `split`, which reset `lastIndex` or copy the RegExp. The allowed
//     forms of a constant table are read-only types: `Object.freeze([...])`, `[...] as const`,
//     `const X: readonly T[] = [...]`, `const M: ReadonlyMap<K, V> = new Map([...])`,
//     `const S: ReadonlySet<T> = new Set([...])`, and plain objects and primitives.
//  3. write: no code inside a function or class member writes into a module-level binding of
//     these packages (its own file's or an imported one): no assignment, compound assignment,
//     `++`/`--` or `delete` on `x.p` / `x[i]` rooted at it, no call of a mutating method
//     (`push`, `pop`, `shift`, `unshift`, `splice`, `sort`, `reverse`, `fill`, `copyWithin`,
//     `set`, `add`, `delete`, `clear`) on it, no `Object.assign` / `defineProperty` /
//     `defineProperties` / `setPrototypeOf` with it as the target. Code at module level may
//     fill a table once while the module loads (deterministic, the same on every load).
//  4. static: a class's static field is `readonly` and holds no mutable container (rule 2).
//  5. iife: a module-level `const` is not the result of a function expression called on the
//     spot (`(() => { let n = 0; ... })()`), whose closure could keep state.
//
// What the check cannot see, and review must: state kept in the closure of a function returned
// by a named call at load time, and a write through a local alias of a module-level object
// (`const m = TABLE; m.x = 1`), which rule 2's read-only types make a type error for the
// containers it names.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Finding, findModuleState, programFor, programFromSources } from './moduleState';

const root = fileURLToPath(new URL('..', import.meta.url));
const PURE = [
  'api',
  'core',
  'cloneset',
  'statefulset',
  'daemonset',
  'sidecarset',
  'uniteddeployment',
  'nodeops',
  'registry',
  'cluster',
  'sim', // not pure, but its memos belong to a Simulation or an API server all the same
];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (path.endsWith('.ts')) out.push(path);
  }
  return out;
}

const show = (fs: Finding[]) =>
  fs.map((f) => `${f.file.replace(root, '')}:${f.line} [${f.rule}] ${f.detail}`);

/** The findings of one in-memory file `a.ts` (with `b.ts` beside it when given). */
function check(a: string, b?: string): string[] {
  const sources: Record<string, string> = { '/m/a.ts': a, ...(b === undefined ? {} : { '/m/b.ts': b }) };
  return findModuleState(programFromSources(sources), Object.keys(sources)).map((f) => `${f.rule}:${f.line}`);
}

describe('module-level state', () => {
  it('the pure packages keep none', () => {
    const files = PURE.flatMap((p) => sourceFiles(join(root, 'packages', p, 'src')));
    expect(files.length).toBeGreaterThan(200);
    const findings = findModuleState(programFor(join(root, 'tsconfig.json'), files), files);
    expect(show(findings)).toEqual([]);
  }, 120_000);

  it('reports let and var', () => {
    expect(check('let a = 1;\nvar b = 2;\nexport let c: string | undefined;')).toEqual([
      'let:1',
      'var:2',
      'let:3',
    ]);
  });

  it('reports mutable containers and allows read-only ones', () => {
    const findings = check(
      [
        'const m = new Map<string, number>();',
        'const w = new WeakMap<object, number>();',
        'const s = new Set([1]);',
        'const arr = [1, 2];',
        'const t: [number, number] = [1, 2];',
        'const u8 = new Uint8Array(4);',
        'const maybe: Map<string, string> | undefined = undefined;',
        "const g = new RegExp('a', 'g');",
        'const y = /a/y;',
        'const rt = /a/g; export const r1 = (s: string) => rt.test(s);',
        "const rg = /a/g; export const r2 = (s: string) => s.replace(rg, 'b');",
        'const rm: ReadonlyMap<string, number> = new Map([["a", 1]]);',
        'const rs: ReadonlySet<number> = new Set([1]);',
        'const frozen = Object.freeze([1, 2]);',
        'const tuple = [1, 2] as const;',
        'const ra: readonly number[] = [1];',
        "const re = new RegExp('^a$');",
        'const lit = /a/i;',
        'const table = { a: 1, b: [1] as const };',
        'const enc = new TextEncoder(); export { m, w, s, arr, t, u8, maybe, g, y, rm, rs, frozen, tuple, ra, re, lit, table, enc };',
      ].join('\n'),
    );
    expect(findings).toEqual([
      'mutable-type:1',
      'mutable-type:2',
      'mutable-type:3',
      'mutable-type:4',
      'mutable-type:5',
      'mutable-type:6',
      'mutable-type:7',
      'mutable-type:8',
      'mutable-type:9',
      'mutable-type:10',
    ]);
  });

  it("reports a Node Buffer (writable bytes, whatever its type's name)", () => {
    expect(check('declare class Buffer extends Uint8Array {}\nexport const b = new Buffer(4);')).toEqual([
      'mutable-type:2',
    ]);
  });

  it('reports writes inside functions, in this file or through an import, and allows them at load', () => {
    const a = [
      "import { shared } from './b';",
      'const counts: Record<string, number> = {};',
      "counts['loaded'] = 1;",
      'export function f(k: string) {',
      '  counts[k] = (counts[k] ?? 0) + 1;',
      '  counts.x++;',
      '  delete counts[k];',
      '  Object.assign(counts, { y: 1 });',
      '  shared.n = 2;',
      '  const local: Record<string, number> = {};',
      '  local[k] = 1;',
      '  return local;',
      '}',
      'export class C {',
      '  n = 0;',
      '  bump() { this.n++; }',
      '}',
    ].join('\n');
    expect(check(a, 'export const shared = { n: 1 };')).toEqual([
      'write:5',
      'write:6',
      'write:7',
      'write:8',
      'write:9',
    ]);
  });

  it('reports mutating method calls on a module-level binding', () => {
    const a = [
      'const list: string[][] = [];',
      'const m: ReadonlyMap<string, number[]> = new Map();',
      'export function g(s: string) {',
      '  list.push([s]);',
      '  (m as Map<string, number[]>).set(s, []);',
      '  return [s].sort();',
      '}',
    ].join('\n');
    expect(check(a)).toEqual(['mutable-type:1', 'write:4', 'write:5']);
  });

  it('reports static fields and state closed over at load', () => {
    const a = [
      'export class K {',
      '  static count = 0;',
      '  static readonly cache = new Map<string, number>();',
      '  static readonly LIMIT = 3;',
      '}',
      'export const next = (() => { let n = 0; return () => n++; })();',
    ].join('\n');
    expect(check(a)).toEqual(['static:2', 'static:3', 'iife:6']);
  });
});
