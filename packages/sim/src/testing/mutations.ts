// One-field mutations of valid objects, for testing that a function holds its boundary: take an
// object that passes, change exactly one thing in it, and see what the function says. The changes
// are the ones malformed input is made of: a field deleted; a field set to null, -1, 1e308,
// 2^53 + 1, NaN, "abc%", "", {}, [] or a 300-character string; a list entry duplicated.
//
//   fc.assert(fc.property(arbOneFieldMutation(fc.constant(cloneSet)), (m) => {
//     expect(() => reconcileCloneSet({ cloneSet: m.mutated, pods: [], now })).not.toThrow();
//   }));
//
// Pure data in, new data out: the valid object is never modified (the mutated copy shares every
// subtree off the mutated path with it).
import fc from 'fast-check';

/** A step into a JSON value: a property name or an array index. */
export type JsonPathStep = string | number;

/** What is done at the chosen path. */
export type Mutation = { op: 'delete' } | { op: 'set'; value: unknown; label: string } | { op: 'duplicate' };

/** A valid object, one mutation of it, and where. */
export interface MutatedObject<T = unknown> {
  /** The valid object, untouched. */
  original: T;
  /** The copy with the one change. */
  mutated: unknown;
  /** Where the change is, as steps (`['spec', 'template', 'spec', 'containers', 0, 'image']`). */
  path: JsonPathStep[];
  /** The same path in Kubernetes' field notation: `spec.template.spec.containers[0].image`. */
  field: string;
  mutation: Mutation;
  /** The value at `path` before the change. */
  before: unknown;
}

/** The replacement values, with a label each (NaN and 1e308 do not print well in a report). */
export const mutationValues: readonly { label: string; value: unknown }[] = [
  { label: 'null', value: null },
  { label: '-1', value: -1 },
  { label: '1e308', value: 1e308 },
  { label: '2^53+1', value: 2 ** 53 + 1 },
  { label: 'NaN', value: Number.NaN },
  { label: '"abc%"', value: 'abc%' },
  { label: '""', value: '' },
  { label: '{}', value: {} },
  { label: '[]', value: [] },
  { label: '300 characters', value: 'x'.repeat(300) },
];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Every path inside `value` that a mutation can aim at: each property of each object and each
 * element of each array, at any depth, in document order. The root itself is not included.
 *
 * Example: `jsonPaths({a: [1, {b: 2}]})` → `[['a'], ['a', 0], ['a', 1], ['a', 1, 'b']]`.
 */
export function jsonPaths(value: unknown): JsonPathStep[][] {
  const out: JsonPathStep[][] = [];
  const visit = (v: unknown, at: JsonPathStep[]): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        out.push([...at, i]);
        visit(x, [...at, i]);
      });
    } else if (isRecord(v)) {
      for (const k of Object.keys(v)) {
        out.push([...at, k]);
        visit(v[k], [...at, k]);
      }
    }
  };
  visit(value, []);
  return out;
}

/** `['spec', 'containers', 0, 'image']` → `spec.containers[0].image`. */
export function fieldPath(path: readonly JsonPathStep[]): string {
  let s = '';
  for (const step of path) {
    if (typeof step === 'number') s += `[${step}]`;
    else s += s === '' ? step : `.${step}`;
  }
  return s;
}

/** The value at `path`, or undefined where the path leaves the value. */
export function valueAt(value: unknown, path: readonly JsonPathStep[]): unknown {
  let v: unknown = value;
  for (const step of path) {
    if (Array.isArray(v) && typeof step === 'number') v = v[step];
    else if (isRecord(v) && typeof step === 'string') v = v[step];
    else return undefined;
  }
  return v;
}

/**
 * A copy of `value` with `mutation` applied at `path` (a path from `jsonPaths`): the parent
 * containers along the path are copied, everything else is shared, `value` is not modified.
 * Deleting an array element removes it; duplicating an object property leaves the value as it is
 * (JSON objects have no duplicate keys), duplicating an array element inserts a copy after it.
 */
export function applyMutation(value: unknown, path: readonly JsonPathStep[], mutation: Mutation): unknown {
  if (path.length === 0) return mutation.op === 'set' ? mutation.value : value;
  const [step, ...rest] = path;
  if (Array.isArray(value) && typeof step === 'number') {
    const copy = [...value];
    if (rest.length > 0) copy[step] = applyMutation(value[step], rest, mutation);
    else if (mutation.op === 'delete') copy.splice(step, 1);
    else if (mutation.op === 'duplicate') copy.splice(step + 1, 0, structuredClone(value[step]));
    else copy[step] = mutation.value;
    return copy;
  }
  if (isRecord(value) && typeof step === 'string') {
    const copy: Record<string, unknown> = { ...value };
    if (rest.length > 0) copy[step] = applyMutation(value[step], rest, mutation);
    else if (mutation.op === 'delete') delete copy[step];
    else if (mutation.op === 'set') copy[step] = mutation.value;
    return copy;
  }
  return value;
}

/** Any one mutation: delete, set to one of `mutationValues`, or duplicate. */
export function arbMutation(): fc.Arbitrary<Mutation> {
  return fc.oneof(
    fc.constant<Mutation>({ op: 'delete' }),
    fc.constantFrom(...mutationValues).map((m): Mutation => ({ op: 'set', value: m.value, label: m.label })),
    fc.constant<Mutation>({ op: 'duplicate' }),
  );
}

/**
 * One-field mutations of the valid objects `valid` draws: a path of the object (any depth), and
 * a mutation there. Duplication is only drawn for array elements, where it means something.
 * Objects without any field give themselves back unmutated (path `[]`).
 */
export function arbOneFieldMutation<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<MutatedObject<T>> {
  return valid.chain((original) => {
    const paths = jsonPaths(original);
    if (paths.length === 0) {
      return fc.constant<MutatedObject<T>>({
        original,
        mutated: original,
        path: [],
        field: '',
        mutation: { op: 'delete' },
        before: original,
      });
    }
    return fc.tuple(fc.constantFrom(...paths), arbMutation()).map(([path, drawn]): MutatedObject<T> => {
      const inArray = typeof path[path.length - 1] === 'number';
      const mutation: Mutation = drawn.op === 'duplicate' && !inArray ? { op: 'delete' } : drawn;
      return {
        original,
        mutated: applyMutation(original, path, mutation),
        path,
        field: fieldPath(path),
        mutation,
        before: valueAt(original, path),
      };
    });
  });
}
