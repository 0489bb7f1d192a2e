// The discrete-event queue: a binary min-heap ordered by (time, sequence
// number), so events at the same time run in the order they were scheduled.

/** One scheduled event. */
export interface Scheduled<T> {
  /** Simulated milliseconds. */
  time: number;
  /** Insertion counter: ties on time run first-scheduled first. */
  seq: number;
  payload: T;
}

/**
 * A min-heap of events by (time, seq). `push` and `pop` are O(log n).
 *
 * Example: push A at 5000 ms, B at 1000 ms, C at 1000 ms → pops B, C, A.
 */
export class EventQueue<T> {
  private heap: Scheduled<T>[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  /** Schedules `payload` at `time`; returns the event. */
  push(time: number, payload: T): Scheduled<T> {
    const ev: Scheduled<T> = { time, seq: this.seq++, payload };
    const h = this.heap;
    h.push(ev);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
    return ev;
  }

  /** The earliest event without removing it. */
  peek(): Scheduled<T> | undefined {
    return this.heap[0];
  }

  /** Removes and returns the earliest event. */
  pop(): Scheduled<T> | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && less(h[l], h[m])) m = l;
        if (r < h.length && less(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}

function less<T>(a: Scheduled<T>, b: Scheduled<T>): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}
