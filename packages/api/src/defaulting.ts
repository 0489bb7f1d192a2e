// Shared plumbing of the setDefaults* functions: the options they take, whether the
// pod-template defaults are injected (gate TemplateNoDefaults, "on create, or when the
// template changed": docs/reference/cloneset.md §2.1, uniteddeployment.md §1.3 item 3,
// advancedcronjob.md AC1.3 item 1), deep copy and deep equality.

/**
 * The feature gates defaulting reads, with OpenKruise v1.8.2's defaults when absent:
 * `TemplateNoDefaults` false, `StatefulSetAutoDeletePVC` true, `StatefulSetAutoResizePVCGate` false.
 * Any other gate may be passed (e.g. a whole `FeatureGates` record) and is ignored.
 */
export interface DefaultingFeatureGates {
  TemplateNoDefaults?: boolean;
  StatefulSetAutoDeletePVC?: boolean;
  StatefulSetAutoResizePVCGate?: boolean;
  [gate: string]: boolean | undefined;
}

/** Default `revisionHistoryLimit` of every workload kind (CloneSet, ASTS, ADS, SidecarSet, UD). */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/** Options every `setDefaults<Kind>` accepts. */
export interface DefaultingOptions {
  /** Partial feature-gate map; missing gates take v1.8.2 defaults. */
  featureGates?: DefaultingFeatureGates;
  /**
   * The stored object when defaulting an UPDATE. The webhooks inject pod-template defaults on
   * CREATE, and on UPDATE only when the template differs from the stored one; create-only
   * defaults (e.g. the ImagePullJob finalizer) are skipped when `old` is given.
   */
  old?: unknown;
}

/** A JSON-like record, used while defaulting a private copy. */
export type Obj = Record<string, any>;

/** A deep copy of plain JSON data (inputs are never mutated). */
export function clone<T>(value: T): T {
  return structuredClone(value);
}

/** Structural equality of plain JSON data (key order ignored; `undefined` members ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Obj)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Obj)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Obj)[k], (b as Obj)[k]));
}

/** `obj[key]` as an object, creating `{}` when absent or not an object. */
export function ensureObject(obj: Obj, key: string): Obj {
  const v = obj[key];
  if (v === null || typeof v !== 'object' || Array.isArray(v)) obj[key] = {};
  return obj[key];
}

/** True when `v` is a non-array object. */
export function isObject(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Sets `obj[key] = value` when the member is absent (`undefined` or `null`, i.e. a Go nil pointer). */
export function defaultNil(obj: Obj, key: string, value: unknown): void {
  if (obj[key] === undefined || obj[key] === null) obj[key] = value;
}

/** Sets `obj[key] = value` when the member is absent or `""` (a Go empty string). */
export function defaultEmpty(obj: Obj, key: string, value: string): void {
  if (obj[key] === undefined || obj[key] === null || obj[key] === '') obj[key] = value;
}

/** Resolves one gate with its v1.8.2 default. */
export function gate(
  opts: DefaultingOptions | undefined,
  name: keyof typeof defaultingGateDefaults,
): boolean {
  const v = opts?.featureGates?.[name];
  return typeof v === 'boolean' ? v : defaultingGateDefaults[name];
}

/** v1.8.2 defaults of the gates defaulting reads (docs/reference/operator.md gate table). */
export const defaultingGateDefaults = {
  TemplateNoDefaults: false,
  StatefulSetAutoDeletePVC: true,
  StatefulSetAutoResizePVCGate: false,
} as const;

/**
 * Whether the webhook injects pod-template defaults: never with `TemplateNoDefaults`; always on
 * CREATE (no `old`); on UPDATE only if `template(new)` differs from `template(old)`.
 */
export function shouldInjectTemplateDefaults(
  obj: unknown,
  opts: DefaultingOptions | undefined,
  template: (o: Obj) => unknown,
): boolean {
  if (gate(opts, 'TemplateNoDefaults')) return false;
  if (opts?.old === undefined || opts.old === null) return true;
  if (!isObject(opts.old) || !isObject(obj)) return true;
  return !deepEqual(template(obj), template(opts.old));
}

/** Reads a nested member, `undefined` when any step is missing. */
export function path(obj: unknown, ...keys: string[]): unknown {
  let cur: unknown = obj;
  for (const k of keys) {
    if (!isObject(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}
