// A set of ordinals kept as sorted, disjoint intervals (docs/reference/statefulset.md R3.3), so a
// reservation like "0-2147483647" costs one interval, not two billion entries: membership, size
// and counts over a range are answered by binary search.

/** An interval of whole ordinals, both ends included. */
export interface OrdinalInterval {
  lo: number;
  hi: number;
}

/**
 * An immutable set of whole numbers stored as intervals. It reads like a `ReadonlySet<number>`
 * (`has`, `size`, iteration in ascending order) and adds `countIn`, which the replica range needs
 * (R3.5) without walking ordinal by ordinal.
 *
 * Example: `OrdinalSet.from([{lo: 1, hi: 3}, {lo: 2, hi: 4}, {lo: 9, hi: 9}])` holds {1, 2, 3, 4, 9}:
 * `size` 5, `has(4)` true, `countIn(0, 5)` 4.
 */
export class OrdinalSet implements Iterable<number> {
  /** Starts and ends of the merged intervals, ascending; `ends[i] < starts[i + 1] - 1`. */
  private readonly starts: number[];
  private readonly ends: number[];
  /** `before[i]`: members in the intervals before interval `i`. */
  private readonly before: number[];
  /** How many ordinals the set holds. */
  readonly size: number;

  private constructor(intervals: OrdinalInterval[]) {
    const sorted = intervals.filter((r) => r.lo <= r.hi).sort((a, b) => a.lo - b.lo);
    this.starts = [];
    this.ends = [];
    for (const r of sorted) {
      const last = this.ends.length - 1;
      // Overlapping or touching intervals merge: [1, 3] and [4, 6] are [1, 6].
      if (last >= 0 && r.lo <= this.ends[last] + 1) {
        if (r.hi > this.ends[last]) this.ends[last] = r.hi;
      } else {
        this.starts.push(r.lo);
        this.ends.push(r.hi);
      }
    }
    this.before = [];
    let total = 0;
    for (let i = 0; i < this.starts.length; i++) {
      this.before.push(total);
      total += this.ends[i] - this.starts[i] + 1;
    }
    this.size = total;
  }

  /** The empty set. */
  static readonly empty: OrdinalSet = new OrdinalSet([]);

  /** The set of the whole numbers in the given intervals (a number that is not whole is left out). */
  static from(intervals: Iterable<OrdinalInterval>): OrdinalSet {
    const whole: OrdinalInterval[] = [];
    for (const r of intervals) {
      const lo = Math.ceil(r.lo);
      const hi = Math.floor(r.hi);
      if (Number.isFinite(lo) && Number.isFinite(hi) && lo <= hi) whole.push({ lo, hi });
    }
    return new OrdinalSet(whole);
  }

  /** The set of some numbers (an `OrdinalSet` is returned as it is); numbers not whole are left out. */
  static of(values: Iterable<number>): OrdinalSet {
    if (values instanceof OrdinalSet) return values;
    const points: OrdinalInterval[] = [];
    for (const v of values) points.push({ lo: v, hi: v });
    return OrdinalSet.from(points);
  }

  /** The index of the last interval starting at or below `x`, or -1. */
  private floorIndex(x: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid] <= x) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** Whether `ordinal` is in the set. */
  has(ordinal: number): boolean {
    const i = this.floorIndex(ordinal);
    return i >= 0 && ordinal <= this.ends[i] && Number.isInteger(ordinal);
  }

  /** How many members are below `x` (`x` excluded). */
  countBelow(x: number): number {
    const i = this.floorIndex(x - 1);
    if (i < 0) return 0;
    return this.before[i] + Math.min(this.ends[i], Math.ceil(x) - 1) - this.starts[i] + 1;
  }

  /** How many members lie in `[from, to)`. Example: {1, 2, 3, 9}.countIn(2, 10) → 3. */
  countIn(from: number, to: number): number {
    return to <= from ? 0 : this.countBelow(to) - this.countBelow(from);
  }

  /** The intervals of the set, ascending and disjoint. */
  intervals(): OrdinalInterval[] {
    return this.starts.map((lo, i) => ({ lo, hi: this.ends[i] }));
  }

  /**
   * The interval holding `ordinal`, if any — the walk over the ordinals of a range jumps over a
   * whole reserved interval at once.
   */
  intervalOf(ordinal: number): OrdinalInterval | undefined {
    const i = this.floorIndex(ordinal);
    return i >= 0 && ordinal <= this.ends[i] ? { lo: this.starts[i], hi: this.ends[i] } : undefined;
  }

  /** Every member, ascending (as many steps as members: for small sets and tests). */
  *[Symbol.iterator](): Iterator<number> {
    for (let i = 0; i < this.starts.length; i++) for (let o = this.starts[i]; o <= this.ends[i]; o++) yield o;
  }
}
