// The listing part of the CloneSet cache (cache.ts): the last pod list of each CloneSet with
// what was read of each pod (its content facts, podContent.ts, and its ownership class,
// ownership.ts), so that a pod object listed again is not read again. Results never depend on it.
//
// The store and informer caches list pods in a stable order, and most pods are unchanged between
// reconciles, so the previous list is walked alongside the new one (a cursor): the same object at
// the cursor or a few places further on (a pod went away in between) is recalled. A pod not found
// is read afresh, and the cursor then moves past that pod's previous version, found by name: the
// pod changed. Without that step a run of changed pods longer than the look-ahead (an update wave
// takes the first 2,000 of 10,000 pods in order) would leave the cursor behind, and every pod after
// the run would be read again although it had not changed.
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { PodContentFacts } from './podContent';

/** What `listPods` keeps between calls: the last listing per listing key. */
export interface ListingCache {
  /**
   * The last pod list and its facts per listing key. Bounded: the oldest entry goes when more
   * than `MAX_LISTINGS` CloneSets are listed.
   */
  readonly listings: Map<string, Listing>;
}

/** A new, empty `ListingCache`. */
export function createListingCache(): ListingCache {
  return { listings: new Map() };
}

/** One listing: the pods (a copy of the list), their content facts and their classes. */
export interface Listing {
  pods: readonly Pod[];
  facts: PodContentFacts[];
  classes: Uint8Array;
}

const MAX_LISTINGS = 64;
/** How far ahead in the previous listing a pod object (or a changed pod's name) is looked for. */
const LOOKAHEAD = 8;

/**
 * The listing of `pods`: each pod's content facts and class, recalled from `previous` for a pod
 * object listed there, otherwise from `read(pod)`.
 *
 * Example: previous [a, b, c], now [a, b', c] (b changed): a is recalled at the cursor, b' is
 * read (the cursor moves past b, found by name), c is recalled.
 */
export function recallListing(
  previous: Listing | undefined,
  pods: readonly Pod[],
  read: (pod: Pod) => { facts: PodContentFacts; cls: number },
): Listing {
  const facts: PodContentFacts[] = new Array(pods.length);
  const classes = new Uint8Array(pods.length);
  let j = 0;
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i];
    let found = false;
    if (previous !== undefined) {
      const end = Math.min(j + LOOKAHEAD, previous.pods.length);
      for (let k = j; k < end; k++)
        if (previous.pods[k] === pod) {
          facts[i] = previous.facts[k];
          classes[i] = previous.classes[k];
          j = k + 1;
          found = true;
          break;
        }
    }
    if (!found) {
      const r = read(pod);
      facts[i] = r.facts;
      classes[i] = r.cls;
      if (previous !== undefined) j = pastPreviousVersion(previous.facts, j, r.facts.name);
    }
  }
  return { pods: pods.slice(), facts, classes };
}

/**
 * The cursor just past the previous version of a changed pod named `name` (found within
 * {@link LOOKAHEAD} places of the cursor `j`), or `j` when there is none (a new pod). Names
 * are unique among one CloneSet's pods (one namespace).
 */
function pastPreviousVersion(prevFacts: readonly PodContentFacts[], j: number, name: string): number {
  const end = Math.min(j + LOOKAHEAD, prevFacts.length);
  for (let k = j; k < end; k++) if (prevFacts[k].name === name) return k + 1;
  return j;
}

/** Keeps `listing` for `key`, dropping the least recently listed CloneSet beyond the bound. */
export function rememberListing(cache: ListingCache, key: string, listing: Listing): void {
  const listings = cache.listings;
  listings.delete(key);
  if (listings.size >= MAX_LISTINGS) {
    const oldest = listings.keys().next().value;
    if (oldest !== undefined) listings.delete(oldest);
  }
  listings.set(key, listing);
}
