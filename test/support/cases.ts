// Guards for tests fed by OpenKruise's upstream cases (testdata/upstream). A case's `expected`
// object may carry several optional fields; a test asserts each one it carries. These helpers
// make sure a field the test does not know how to assert fails the test instead of being skipped
// (a case carrying `{ upgradeCount: 2, orderedNames: [...] }` to a test that knows only
// `upgradeCount` would otherwise check half of what upstream asserts).
import { expect } from 'vitest';

/** Fails unless every key of `expected` is one of `known`, and at least one is present. */
export function expectKnownFields(expected: unknown, known: readonly string[], where: string): void {
  expect(expected, `${where}: expected is an object`).toBeTypeOf('object');
  const keys = Object.keys(expected as object);
  const unknown = keys.filter((k) => !known.includes(k));
  expect(unknown, `${where}: fields the test does not assert`).toEqual([]);
  expect(keys.length, `${where}: the case asserts nothing`).toBeGreaterThan(0);
}
