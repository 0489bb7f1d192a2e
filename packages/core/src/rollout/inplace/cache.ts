// The in-place update protocol's cache (docs/reference/core.md 2.7): what the state codec and
// the change hints of inPlaceUpdate remember between calls, held in an object the caller creates
// and passes in. Without one every call computes from scratch, with the same results.
import type { InPlaceUpdateState } from '@kruise-ts/api';
import type { PodChangeHint } from './diff';

/** How many decoded state texts an {@link InPlaceCache} keeps before it starts over. */
export const IN_PLACE_DECODE_MEMO_SIZE = 256;

/**
 * What the in-place functions remember between calls: made by {@link createInPlaceCache}, passed
 * as `cache` in the options of `inPlaceUpdate`, `inPlaceRefresh`, `patchSpecToPod`,
 * `encodeInPlaceUpdateState` and `decodeInPlaceUpdateState`.
 *
 * - `decodedStates`: state annotation text → its parse, deep-frozen. The pods of one update wave
 *   carry the same text, and every reconcile reads it again. At most
 *   {@link IN_PLACE_DECODE_MEMO_SIZE} entries; when full it is emptied and starts over.
 * - `lastEncoded`: the last state encoded (a private deep copy) and its text; a state equal in
 *   every encoded field gets the same text without re-escaping it. One entry.
 * - `updateChanges`: the change hints of `inPlaceUpdate` per extra-mutator hint (four
 *   combinations each), weakly keyed by the hint object.
 *
 * Bounded as above, so a shell keeps one per controller for the life of the process; drop it
 * (or make a new one) to free the memory. Results never depend on it: it is sound because
 * inputs are never mutated (a text always parses to the same state).
 */
export interface InPlaceCache {
  readonly decodedStates: Map<string, { ok: true; value: InPlaceUpdateState } | { ok: false; error: string }>;
  lastEncoded: { readonly state: InPlaceUpdateState; readonly text: string } | undefined;
  readonly updateChanges: WeakMap<PodChangeHint, PodChangeHint[]>;
}

/** A new, empty {@link InPlaceCache}. */
export function createInPlaceCache(): InPlaceCache {
  return { decodedStates: new Map(), lastEncoded: undefined, updateChanges: new WeakMap() };
}
