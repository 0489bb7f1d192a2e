// Test helpers for @kruise-ts/api. `api` sits below `core` in the dependency order, so
// its tests keep their own deepFreeze (same behaviour as core's testing.ts) and read
// the repository's test data directly.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Recursively freezes a value so any mutation by the code under test throws. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value as object)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** The text of a file under the repository's `testdata/` folder. */
export function readTestdata(relative: string): string {
  return readFileSync(fileURLToPath(new URL(`../../../testdata/${relative}`, import.meta.url)), 'utf8');
}

/** The text of a file under packages/api. */
export function readPackageFile(relative: string): string {
  return readFileSync(fileURLToPath(new URL(`../${relative}`, import.meta.url)), 'utf8');
}

/** The text of a file under the repository's root folder. */
export function readRepoFile(relative: string): string {
  return readFileSync(fileURLToPath(new URL(`../../../${relative}`, import.meta.url)), 'utf8');
}
