// Turning a new pod returned by the in-place functions into a patch: an RFC 7386 JSON merge
// patch of the metadata/spec/status changes (lists replaced whole), so controllers can emit
// `patch` actions (patchType `merge`) from the pods they computed.
import type { Pod } from 'kubernetes-types/core/v1.js';
import { jsonEqual } from '../../json/jsonPatch';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The RFC 7386 merge patch from `a` to `b`, or `undefined` when they are equal. */
export function mergePatchDiff(a: unknown, b: unknown): unknown {
  if (a === b) return undefined; // shared subtree (copy-on-write pods): nothing to compare
  if (b === undefined || b === null) return a === undefined || a === null ? undefined : null;
  if (isPlainObject(a) && isPlainObject(b)) return mergePatchDiffObjects(a, b);
  return jsonEqual(a, b) ? undefined : b;
}

/**
 * {@link mergePatchDiff} of two objects: the changed and added keys of `b` in `b`'s key order,
 * then `null` for each key of `a` that `b` lacks, in `a`'s order. The patch object is only
 * allocated at the first difference, and the keys are walked with `for…in` over own keys (no
 * key array, no `[key, value]` pair per key): a reconcile diffs thousands of pods whose maps are
 * mostly shared.
 */
function mergePatchDiffObjects(a: Record<string, unknown>, b: Record<string, unknown>): unknown {
  let patch: Record<string, unknown> | undefined;
  for (const k in b) {
    if (!Object.hasOwn(b, k)) continue;
    const v = b[k];
    if (v === undefined) continue;
    const old = Object.hasOwn(a, k) ? a[k] : undefined;
    const d = old !== undefined ? mergePatchDiff(old, v) : v;
    if (d === undefined) continue;
    patch ??= {};
    patch[k] = d;
  }
  for (const k in a) {
    if (!Object.hasOwn(a, k)) continue;
    if (a[k] === undefined || (Object.hasOwn(b, k) && b[k] !== undefined)) continue;
    patch ??= {};
    patch[k] = null;
  }
  return patch;
}

/**
 * A JSON merge patch (RFC 7386) of the `metadata`, `spec` and `status` changes from `oldPod`
 * to `newPod`; maps merge key-wise (a removed key is `null`), lists are replaced whole. `{}`
 * when nothing changed.
 *
 * Example: labels `{a: "1", b: "2"}` → `{a: "1", c: "3"}` and container image `x` → `y` gives
 * `{metadata: {labels: {b: null, c: "3"}}, spec: {containers: [<the whole new list>]}}`.
 * A status change in the result must go to the status subresource (`updateStatus`).
 */
export function diffPodForPatch(oldPod: Pod, newPod: Pod): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of ['metadata', 'spec', 'status'] as const) {
    const d = mergePatchDiff(oldPod[key], newPod[key]);
    if (d !== undefined) patch[key] = d;
  }
  return patch;
}

/**
 * Where a writer may have changed a pod: per key, `true` (that value is diffed whole) or a
 * nested hint (only the listed keys of that object may differ). A key a hint leaves out must
 * hold the very same value (`===`) in both objects, or be absent from both.
 * Example: `{metadata: {labels: true, annotations: true}, status: {conditions: true}}`.
 */
export type PodChangeHint = { readonly [key: string]: PodChangeHint | true };

/**
 * {@link diffPodForPatch} when the caller knows where the pods can differ (`hint`): the same
 * patch (same values, same key order), but only the hinted keys are visited, not every key of
 * the metadata, spec and status. A writer that copies a pod on write and changes a few maps
 * (an in-place update: labels, annotations, containers, conditions) knows them; the diff then
 * skips the pod's other keys. A wrong hint gives a wrong patch: when in doubt, pass `true`.
 *
 * Example: hint `{metadata: {labels: true}}`, labels `{a: "1"}` → `{a: "2"}` →
 * `{metadata: {labels: {a: "2"}}}`, whatever else the metadata holds.
 */
export function diffPodForPatchHinted(
  oldPod: Pod,
  newPod: Pod,
  hint: PodChangeHint,
): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of POD_PARTS) {
    const h = hint[key];
    if (h === undefined) continue; // the caller's promise: oldPod[key] === newPod[key]
    const d = h === true ? mergePatchDiff(oldPod[key], newPod[key]) : hintedDiff(oldPod[key], newPod[key], h);
    if (d !== undefined) patch[key] = d;
  }
  return patch;
}

/** The parts of a pod a patch carries, in patch order. */
const POD_PARTS = ['metadata', 'spec', 'status'] as const;

/** {@link mergePatchDiff} visiting only the keys of `hint` (see {@link diffPodForPatchHinted}). */
function hintedDiff(a: unknown, b: unknown, hint: PodChangeHint): unknown {
  if (a === b) return undefined;
  if (!isPlainObject(a) || !isPlainObject(b)) return mergePatchDiff(a, b);
  let changed: string[] | undefined;
  let removed: string[] | undefined;
  let values: Record<string, unknown> | undefined; // key → its patch (keys of `changed`), no prototype
  for (const k in hint) {
    const v = Object.hasOwn(b, k) ? b[k] : undefined;
    const old = Object.hasOwn(a, k) ? a[k] : undefined;
    if (v === undefined) {
      if (old !== undefined) {
        removed ??= [];
        removed.push(k);
      }
      continue;
    }
    const h = hint[k]!;
    const d = old === undefined ? v : h === true ? mergePatchDiff(old, v) : hintedDiff(old, v, h);
    if (d === undefined) continue;
    changed ??= [];
    changed.push(k);
    values ??= Object.create(null) as Record<string, unknown>;
    values[k] = d;
  }
  if (changed === undefined && removed === undefined) return undefined;
  // mergePatchDiffObjects' order: changed keys in b's key order, then removed ones in a's
  const patch: Record<string, unknown> = {};
  for (const k of inKeyOrder(b, changed)) patch[k] = values![k];
  for (const k of inKeyOrder(a, removed)) patch[k] = null;
  return patch;
}

/** `keys` (own keys of `obj`) in `obj`'s key order; the walk stops once all are placed. */
function inKeyOrder(obj: Record<string, unknown>, keys: string[] | undefined): readonly string[] {
  if (keys === undefined) return [];
  if (keys.length < 2) return keys;
  const out: string[] = [];
  for (const k in obj) {
    if (Object.hasOwn(obj, k) && keys.includes(k)) {
      out.push(k);
      if (out.length === keys.length) break;
    }
  }
  return out;
}

/** The union of two hints: a key either side diffs whole (`true`) is diffed whole. */
export function mergePodChangeHints(a: PodChangeHint, b: PodChangeHint): PodChangeHint {
  const out: Record<string, PodChangeHint | true> = { ...a };
  for (const k in b) {
    if (!Object.hasOwn(b, k)) continue;
    const x = out[k];
    const y = b[k]!;
    out[k] = x === undefined ? y : x === true || y === true ? true : mergePodChangeHints(x, y);
  }
  return out;
}
