// What reconcileCloneSet remembers between reconciles, in one object the caller creates with
// createCloneSetCache() and passes as `options.cache`. A reconcile without it computes
// everything from its input and returns the same result, only slower on large CloneSets.
import { createInPlaceCache, type InPlaceCache, type PodChangeHint } from '@kruise-ts/core';
import { createListingCache, type ListingCache } from './listingCache';

/**
 * The memory of {@link reconcileCloneSet} across reconciles (see the package README, "The
 * reconcile cache"). Each part is bounded, so a shell keeps one per CloneSet controller for the
 * life of the process; a fresh one (or none) only costs speed.
 *
 * - `listings` (a `ListingCache`): the last pod list of each CloneSet with the content facts
 *   and ownership class of each pod, so an unchanged pod object is not read again (§1 steps
 *   4–7); at most 64 CloneSets (the least recently listed goes first).
 * - `refreshChanges`: the change hint of each in-place refresh hint merged with the lifecycle
 *   refresh's, weakly keyed by core's (frozen) hint objects; a handful of entries.
 * - `inPlace`: core's {@link InPlaceCache} (decoded state annotations, at most 256; the last
 *   encoded state; the change hints of `inPlaceUpdate`).
 *
 * Sound because inputs are never mutated: a pod object always has the same content, and any
 * change to a pod comes as a new object. Drop the cache to free its memory, e.g. when the
 * controller stops; never share one between threads of control that run concurrently.
 */
export interface CloneSetCache extends ListingCache {
  readonly refreshChanges: WeakMap<PodChangeHint, PodChangeHint>;
  readonly inPlace: InPlaceCache;
}

/** A new, empty {@link CloneSetCache}. */
export function createCloneSetCache(): CloneSetCache {
  return { ...createListingCache(), refreshChanges: new WeakMap(), inPlace: createInPlaceCache() };
}
