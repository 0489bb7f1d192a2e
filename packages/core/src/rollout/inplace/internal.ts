// Small private helpers of the in-place update protocol (not re-exported): Go's sorted name
// lists and the "absent or empty map" test the annotation codecs share.

/** Sorted copy, byte-wise like Go's sort.Strings (names here are ASCII). */
export function sortedNames(names: Iterable<string>): string[] {
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** True when a record is absent or has no keys. */
export function isEmptyMap(m: object | null | undefined): boolean {
  return !m || Object.keys(m).length === 0;
}
