// Deep-freezing a plain JSON value: the one implementation behind @kruise-ts/core/testing's
// `deepFreeze` (tests freeze inputs to prove a pure function never mutates them, and the cluster's
// store freezes what it stores when asked to) and the in-place cache, which freezes the states it
// shares between callers (rollout/inplace/annotations.ts).

/**
 * Recursively freezes a value and returns it, so a test can hand it to a pure
 * function and any attempted mutation throws (in strict-mode ES modules). An object that is
 * already frozen is taken as frozen through and through, and not walked again.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value as object)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
