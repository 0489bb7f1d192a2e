// Shallow copies of plain JSON objects that keep V8's hidden classes shared.
//
// Why this exists: on Node 20 (V8 11.3) an object spread that ends up with a key its source did
// not have — `{ ...spec, nodeName }`, or `{ ...labels }` followed by `copy[key] = v` — gets a
// hidden class (map) of its own once the spread's inline cache is warm: 3,000 such copies of one
// object get nearly 3,000 distinct maps, and each spread is several times slower than building the
// same object by assignment (each copy allocates a new map). A store of 10k pods built that way
// holds 10k maps, so every later read of `pod.spec.containers` or `labels[key]` across the pods
// is a megamorphic lookup. Keys assigned one by one onto `{}` (what `Object.assign` does) follow
// V8's shared transition tree instead: one map per key order, e.g. 1 map for those 3,000 copies.
// A spread that only overrides keys its source already has is fine and stays a spread.

/** The type of `{ ...base, ...extra }` (a spread's result is writable: `readonly` is dropped). */
export type Extended<T, U> = { -readonly [K in keyof (T & U)]: (T & U)[K] };

/**
 * `{ ...base, ...extra }` for plain JSON objects, built by assignment so that copies with the
 * same keys in the same order share one hidden class (see the file header). Same own keys, order
 * and values as the spread; `undefined` values are kept, as a spread keeps them. A source with
 * an own `__proto__` key (possible in parsed JSON) takes the spread, which defines it as a plain
 * property where assignment would change the copy's prototype.
 *
 * Example: `extend(pod.spec, { nodeName: 'node-1' })` → a new spec with `nodeName` last (or in
 * its old place when the spec had one).
 */
export function extend<T extends object, U extends object = Record<never, never>>(
  base: T | undefined | null,
  extra?: U,
): Extended<T, U> {
  if (
    (base != null && Object.hasOwn(base, '__proto__')) ||
    (extra != null && Object.hasOwn(extra, '__proto__'))
  )
    return { ...base, ...extra } as Extended<T, U>;
  return Object.assign({}, base, extra) as Extended<T, U>;
}
