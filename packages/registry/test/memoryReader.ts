// The descriptor tests' cluster: core's `objectReaderOf` over deep-frozen objects, so a reconcile
// or hook that mutated what it read would throw.
import type { KubeObject } from '@kruise-ts/api';
import { type ObjectReader, objectReaderOf } from '@kruise-ts/core';

/** `value`, frozen all the way down (the same object). */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A reader answering from `objects` (deep-frozen here), in their given order. */
export function memoryReader(objects: readonly object[]): ObjectReader {
  return objectReaderOf(deepFreeze([...objects]) as readonly KubeObject[]);
}
