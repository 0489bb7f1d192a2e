// Helpers for tests of pure functions: deep-freeze inputs to prove nothing is mutated, and a
// read-only cluster of frozen objects for a controller descriptor's reconcile and hooks.
import type { KubeObject } from '@kruise-ts/api';
import { type ObjectReader, objectReaderOf } from './controller/objectReader';

/**
 * Recursively freezes a value and returns it, so a test can hand it to a pure
 * function and any attempted mutation throws (in strict-mode ES modules).
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value as object)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * An ObjectReader answering from `objects`, deep-frozen here, in their given order: a reconcile or
 * admission hook that mutated what it read would throw.
 *
 * Example: `cloneSetDescriptor.reconcile(cs, frozenReader([cs, pod1, pod2]), now, undefined, env)`.
 */
export function frozenReader(objects: readonly object[]): ObjectReader {
  return objectReaderOf(deepFreeze([...objects]) as readonly KubeObject[]);
}
