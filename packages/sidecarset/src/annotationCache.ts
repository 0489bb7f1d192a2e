// An explicit cache of what pods' SidecarSet hash annotations say (SS-4.7.2), owned and passed
// in by the caller: a controller that keeps one across reconciles parses each distinct
// annotation text once instead of once per pod per reconcile. It changes no answer: without one,
// each reconcile makes its own (so pods that share a text are still parsed once per round).

import { hashesOfAnnotation, parseUpgradeSpecMap, type UpgradeSpecMap } from './annotations';

/** Entries kept before the cache starts afresh: distinct texts, not pods (pods share texts). */
const DEFAULT_MAX_ENTRIES = 65_536;

/**
 * Memo of the SidecarSet name → hash table of hash-annotation texts, keyed by the text itself.
 * A text is immutable, so an entry never goes stale; the cache is bounded by `maxEntries` (it is
 * emptied when full). Pass one as `reconcileSidecarSet(input, { annotationCache })`.
 *
 * Example: `const cache = new SidecarSetAnnotationCache();` then every
 * `reconcileSidecarSet(input, { annotationCache: cache })` of the controller's loop.
 */
export class SidecarSetAnnotationCache {
  private readonly tables = new Map<string, ReadonlyMap<string, string>>();
  private readonly specMaps = new Map<string, Readonly<UpgradeSpecMap> | undefined>();

  constructor(private readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  /** The name → hash table of one annotation text (as `hashesOfAnnotation`), memoised. */
  hashes(text: string): ReadonlyMap<string, string> {
    let t = this.tables.get(text);
    if (t === undefined) {
      if (this.tables.size >= this.maxEntries) this.tables.clear();
      t = hashesOfAnnotation(text);
      this.tables.set(text, t);
    }
    return t;
  }

  /**
   * The whole entry map of one annotation text (as `parseUpgradeSpecMap`, `undefined` when it
   * does not parse), memoised: what the in-place update rewrites (SS-5.7.3). The answer is
   * shared between callers, so it is frozen.
   */
  upgradeSpecMap(text: string): Readonly<UpgradeSpecMap> | undefined {
    if (this.specMaps.has(text)) return this.specMaps.get(text);
    if (this.specMaps.size >= this.maxEntries) this.specMaps.clear();
    const parsed = parseUpgradeSpecMap(text);
    if (parsed !== undefined) {
      for (const e of Object.values(parsed.entries)) {
        if (e.sidecarList !== null) Object.freeze(e.sidecarList);
        Object.freeze(e);
      }
      Object.freeze(parsed.entries);
      Object.freeze(parsed);
    }
    this.specMaps.set(text, parsed);
    return parsed;
  }

  /** How many distinct texts are held (of the hash tables). */
  get size(): number {
    return this.tables.size;
  }
}
