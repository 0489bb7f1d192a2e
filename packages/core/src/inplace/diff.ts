// Turning a new pod returned by the in-place functions into a patch: an RFC 7386 JSON merge
// patch of the metadata/spec/status changes (lists replaced whole), so controllers can emit
// `patch` actions (patchType `merge`) from the pods they computed.
import type { Pod } from 'kubernetes-types/core/v1';
import { jsonDeepEqual } from '../jsonDiff';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The RFC 7386 merge patch from `a` to `b`, or `undefined` when they are equal. */
export function mergePatchDiff(a: unknown, b: unknown): unknown {
  if (a === b) return undefined; // shared subtree (copy-on-write pods): nothing to compare
  if (b === undefined || b === null) return a === undefined || a === null ? undefined : null;
  if (isPlainObject(a) && isPlainObject(b)) return mergePatchDiffObjects(a, b);
  return jsonDeepEqual(a, b) ? undefined : b;
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
