// Helpers for tests of pure functions: deep-freeze inputs to prove nothing is mutated, and a
// read-only cluster of frozen objects for a controller descriptor's reconcile and hooks.
import type { KubeObject } from '@kruise-ts/api';
import { type ObjectReader, objectReaderOf } from './controller/objectReader';
import { deepFreeze } from './json/deepFreeze';

export { deepFreeze } from './json/deepFreeze';

/**
 * An ObjectReader answering from `objects`, deep-frozen here, in their given order: a reconcile or
 * admission hook that mutated what it read would throw.
 *
 * Example: `cloneSetDescriptor.reconcile(cs, frozenReader([cs, pod1, pod2]), now, undefined, env)`.
 */
export function frozenReader(objects: readonly object[]): ObjectReader {
  return objectReaderOf(deepFreeze([...objects]) as readonly KubeObject[]);
}
