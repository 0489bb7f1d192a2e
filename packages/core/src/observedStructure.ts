// The structural guard at a reconcile's entry: before any rule reads an observed object, each one
// is held to its kind's schema (checkStructure with `observed: true`), and one that does not fit
// is left out with a Warning event naming it and the field that is wrong.
//
// Why skipping is the right answer: a real controller only ever sees objects the API server has
// validated (its informers list and watch them), so a pod with `metadata.labels: null` or
// `status.conditions: 5` cannot reach it from a cluster; it can only come from a caller that
// built the input by hand, or from storage that was corrupted. Refusing the whole reconcile for
// one such pod would stop the workload; counting it would let a shape no rule was written for
// reach the rules. The workload object itself is not skipped: it is checked by its kind's
// validate<Kind> (non-observed, as a user's write), and a reconcile of an invalid workload
// answers with its errors. The input's own shape (not an object, a list that is not an array)
// is answered with field errors too. See docs/reference/core.md §10.1.
import { checkStructure, type ObservedListMemo, type StructureCache } from '@kruise-ts/api';
import type { Action, EventAction, ObjectRef } from './contract/actions';
import { sameElements } from './contract/dedupeObserved';
import { type FieldError, invalid, required } from './contract/errors';

/** The event reason of the warning {@link withWellFormedInput} adds when it skipped objects. */
export const MALFORMED_OBSERVED_REASON = 'MalformedObserved';

/** At most this many skipped objects are described in the warning's message. */
const OBJECTS_IN_MESSAGE = 3;

/**
 * The kind whose schema an observed object is checked against: a kind checkStructure knows
 * (`Pod`, `Node`, `ControllerRevision`, `PersistentVolumeClaim`, `Namespace`, a Kruise kind), or
 * a function naming it per object (a UnitedDeployment's subsets mix kinds). `undefined` from the
 * function: a kind checkStructure has no schema for (an apps/v1 Deployment), whose metadata
 * alone is checked.
 */
export type ObservedKind = string | ((obj: Record<string, unknown>) => string | undefined);

/** The shape of one reconcile function's input. */
export interface InputShape {
  /** The field holding the workload (`cloneSet`): it must be an object with `metadata`. */
  workload?: string;
  /** Observed lists (`pods: 'Pod'`): each entry that does not fit its kind's schema is skipped. */
  lists?: Readonly<Record<string, ObservedKind>>;
  /**
   * Observed single objects (`node: 'Node'`), each optional: a malformed one is answered with
   * errors, as there is no list to leave it out of.
   */
  singles?: Readonly<Record<string, ObservedKind>>;
  /** The lists that must be present (`pods`); the others may be absent, and `null` is absent. */
  required?: readonly string[];
  /** Fields that must be a time: an RFC 3339 string or a `Date` (`now`). */
  times?: readonly string[];
}

/** One observed object left out, with where it was and what is wrong with it. */
export interface SkippedObserved {
  /** `pods[3]`. */
  at: string;
  /** `namespace/name`, or `` when it has none. */
  name: string;
  /** The structural errors, with paths inside the object. */
  errors: FieldError[];
}

/** The outcome of {@link screenObservedInput}. */
export interface ScreenedInput<I> {
  /** The input with the malformed observed objects left out (the input itself when none was). */
  input: I;
  skipped: SkippedObserved[];
  /** Non-empty: the input's own shape is wrong, no reconcile can run. */
  errors: FieldError[];
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const typeName = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'number' && Number.isInteger(v)
        ? 'integer'
        : typeof v;

const mustBe = (field: string, type: string, v: unknown): FieldError =>
  invalid(
    field,
    typeName(v),
    `${field === '' ? '' : `${field} in body `}must be of type ${type}: "${typeName(v)}"`,
  );

/** A stand-in of the kinds checkStructure does not know, carrying only the object's metadata. */
function metadataOnly(obj: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: obj.metadata, revision: 1 };
}

/**
 * The structural errors of one observed object (checkStructure with `observed: true`, and a name
 * in its metadata). With `cache`, an object already checked is answered from it at the cost of
 * one lookup, without a copy: thousands of unchanged pods per reconcile cost next to nothing; a
 * new version of an object is checked in full (linear in its size).
 */
export function observedErrors(
  kind: ObservedKind,
  obj: unknown,
  cache?: StructureCache,
): readonly FieldError[] {
  if (!isRecord(obj)) return [mustBe('', 'object', obj)];
  // Every object the API server lists has metadata with a name; the schemas leave metadata
  // optional only because a user's manifest may rely on generateName.
  const meta = obj.metadata;
  if (!isRecord(meta))
    return [meta === undefined ? required('metadata') : mustBe('metadata', 'object', meta)];
  if (typeof meta.name !== 'string' || meta.name === '') {
    return [
      typeof meta.name === 'string' || meta.name === undefined
        ? required('metadata.name')
        : mustBe('metadata.name', 'string', meta.name),
    ];
  }
  const named = typeof kind === 'string' ? kind : kind(obj);
  if (named === undefined) {
    // a kind without a schema here: its type fields and its metadata
    for (const f of ['apiVersion', 'kind'])
      if (obj[f] !== undefined && typeof obj[f] !== 'string') return [mustBe(f, 'string', obj[f])];
    return checkStructure('ControllerRevision', metadataOnly(obj), { observed: true });
  }
  // checkStructure's own entry for (kind, observed, not admission), read without a copy; the key
  // string is the cache's own, so a remembered answer costs two lookups and builds nothing
  const hit = cache?.results.get(obj)?.get(cache.schemas.resultKey(named, true, false));
  const found = hit ?? checkStructure(named, obj, cache ? { observed: true, cache } : { observed: true });
  // A field the schema requires but the object lacks reads as its zero value, as a Go client
  // decodes it (a container status without `restartCount` has restarted 0 times): not malformed.
  return found.length === 0 || !found.some((e) => e.type === 'FieldValueRequired')
    ? found
    : found.filter((e) => e.type !== 'FieldValueRequired');
}

const NONE: readonly FieldError[] = Object.freeze([]);

/** The cache's memory of a clean list of `kind` that started with the same object as `list`. */
function cleanListMemo(
  cache: StructureCache,
  list: readonly unknown[],
  kind: ObservedKind,
): ObservedListMemo | undefined {
  const first = list[0];
  if (first === null || typeof first !== 'object') return undefined;
  const memo = cache.observedLists.get(first);
  return memo !== undefined && memo.kind === kind ? memo : undefined;
}

/** Remembers `list`, every element of which fits `kind`, under its first element. */
function rememberCleanList(cache: StructureCache, list: readonly unknown[], kind: ObservedKind): void {
  const first = list[0];
  if (first === null || typeof first !== 'object') return;
  cache.observedLists.set(first, { kind, elements: list.slice(), distinct: false });
}

function nameOf(obj: unknown): string {
  const meta = isRecord(obj) ? obj.metadata : undefined;
  if (!isRecord(meta)) return '';
  const name = typeof meta.name === 'string' ? meta.name : '';
  return typeof meta.namespace === 'string' && meta.namespace !== '' ? `${meta.namespace}/${name}` : name;
}

/**
 * Holds `input` to `shape`: the input and its workload must be objects, each list an array and
 * each observed object fit its kind's schema. Malformed list entries are left out (reported in
 * `skipped`); anything else wrong is answered in `errors`. Linear in the input's size. With
 * `cache`, each list found clean is remembered (by its first object, a copy of its elements): a
 * later list holding the same objects at the same places costs one identity comparison per
 * element, and one that changed checks only the objects not at their remembered place, each by
 * one lookup when already seen. The answer is the same with or without the cache. Never throws;
 * never mutates the input.
 *
 * Example: `screenObservedInput({cloneSet, pods: [p0, {metadata: {labels: null}}], now},
 * {workload: 'cloneSet', lists: {pods: 'Pod'}})` → input with `pods: [p0]`, one skipped entry at
 * `pods[1]` with the error `metadata.labels: Invalid value: "null": ... must be of type object`.
 */
export function screenObservedInput<I>(
  input: I,
  shape: InputShape,
  cache?: StructureCache,
): ScreenedInput<I> {
  if (!isRecord(input)) return { input, skipped: [], errors: [mustBe('', 'object', input)] };
  const errors: FieldError[] = [];
  const skipped: SkippedObserved[] = [];
  if (shape.workload !== undefined) {
    const w = input[shape.workload];
    if (!isRecord(w))
      errors.push(w === undefined ? required(shape.workload) : mustBe(shape.workload, 'object', w));
    else if (!isRecord(w.metadata)) {
      const at = `${shape.workload}.metadata`;
      errors.push(w.metadata === undefined ? required(at) : mustBe(at, 'object', w.metadata));
    }
  }
  let copy: Record<string, unknown> | undefined;
  for (const [field, kind] of Object.entries(shape.lists ?? {})) {
    const list = input[field];
    if (list === undefined || list === null) {
      if (shape.required?.includes(field)) errors.push(required(field));
      else if (list === null) {
        // JSON's null is an absent field, as the API server reads it
        copy ??= { ...input };
        delete copy[field];
      }
      continue;
    }
    if (!Array.isArray(list)) {
      errors.push(mustBe(field, 'array', list));
      continue;
    }
    const memo = cache === undefined ? undefined : cleanListMemo(cache, list, kind);
    // the same objects at the same places as a list found clean: nothing to check
    if (memo !== undefined && sameElements(memo.elements, list)) continue;
    const known = memo?.elements ?? [];
    let kept: unknown[] | undefined;
    for (let i = 0; i < list.length; i++) {
      // an object at the place it had in the last clean version of this list is clean
      const found = i < known.length && known[i] === list[i] ? NONE : observedErrors(kind, list[i], cache);
      if (found.length === 0) {
        kept?.push(list[i]);
        continue;
      }
      kept ??= list.slice(0, i);
      skipped.push({ at: `${field}[${i}]`, name: nameOf(list[i]), errors: [...found] });
    }
    if (kept) {
      copy ??= { ...input };
      copy[field] = kept;
    } else if (cache !== undefined) rememberCleanList(cache, list, kind);
  }
  for (const field of shape.times ?? []) {
    const t = input[field];
    const ok =
      t instanceof Date ? !Number.isNaN(t.getTime()) : typeof t === 'string' && !Number.isNaN(Date.parse(t));
    if (!ok) errors.push(invalid(field, t, 'must be an RFC 3339 time'));
  }
  for (const [field, kind] of Object.entries(shape.singles ?? {})) {
    const obj = input[field];
    if (obj === undefined || obj === null) continue;
    for (const e of observedErrors(kind, obj, cache)) {
      errors.push({ ...e, field: e.field === '' ? field : `${field}.${e.field}` });
    }
  }
  return { input: (copy ?? input) as I, skipped, errors };
}

/**
 * The one Warning event on `involvedObject` that reports skipped objects, or `undefined` when
 * none was. The message names the first few with their list position and first error.
 *
 * Example: `skipped 1 malformed observed object: pods[1] default/web-1 (metadata.labels:
 * Invalid value: "null": metadata.labels in body must be of type object: "null")`.
 */
export function malformedObservedEvent(
  skipped: readonly SkippedObserved[],
  involvedObject: ObjectRef,
): EventAction | undefined {
  if (skipped.length === 0) return undefined;
  const described = skipped.slice(0, OBJECTS_IN_MESSAGE).map((s) => {
    const e = s.errors[0];
    const what = e === undefined ? '' : ` (${e.field === '' ? '' : `${e.field}: `}${e.detail || e.type})`;
    return `${s.at}${s.name === '' ? '' : ` ${s.name}`}${what}`;
  });
  const more = skipped.length > OBJECTS_IN_MESSAGE ? `; and ${skipped.length - OBJECTS_IN_MESSAGE} more` : '';
  const n = skipped.length;
  return {
    verb: 'event',
    involvedObject,
    type: 'Warning',
    reason: MALFORMED_OBSERVED_REASON,
    message: `skipped ${n} malformed observed object${n === 1 ? '' : 's'}: ${described.join('; ')}${more}`,
  };
}

/**
 * Runs `reconcile` on `input` held to `shape` ({@link screenObservedInput}): when the input's own
 * shape is wrong, answers `invalidResult(errors)` without running it; otherwise runs it on the
 * input without the malformed observed objects and, when some were left out, puts one
 * `MalformedObserved` Warning event on `ref(input)` first (skipped when `ref` gives undefined).
 * The first call of every controller's reconcile entry.
 *
 * Example: `reconcileCloneSet` with one pod whose `status.conditions` is `5` answers as if the pod
 * were not listed, plus that event first.
 */
export function withWellFormedInput<I, R extends { actions: Action[] }>(
  input: I,
  shape: InputShape,
  cache: StructureCache | undefined,
  ref: (input: I) => ObjectRef | undefined,
  invalidResult: (errors: FieldError[]) => NoInfer<R>,
  reconcile: (input: I) => R,
): R {
  const screened = screenObservedInput(input, shape, cache);
  if (screened.errors.length > 0) return invalidResult(screened.errors);
  const result = reconcile(screened.input);
  if (screened.skipped.length === 0) return result;
  const target = ref(screened.input);
  const event = target === undefined ? undefined : malformedObservedEvent(screened.skipped, target);
  return event === undefined ? result : { ...result, actions: [event, ...result.actions] };
}
