// Helpers for tests of pure functions: deep-freeze inputs to prove nothing is mutated.

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
