// The controller work queue: keys are coalesced (a key already waiting is not
// added twice) and handed out in first-added order, like client-go's workqueue.

/**
 * A coalescing FIFO of keys.
 *
 * Example: add(a), add(b), add(a) → drains a, b (the second `a` is coalesced).
 * A key added again while it is being processed is queued once more.
 */
export class WorkQueue {
  private queue: string[] = [];
  private head = 0;
  private waiting = new Set<string>();

  get length(): number {
    return this.queue.length - this.head;
  }

  /** Adds a key unless it is already waiting. */
  add(key: string): void {
    if (this.waiting.has(key)) return;
    this.waiting.add(key);
    this.queue.push(key);
  }

  /** Takes the next key, or undefined when empty. */
  next(): string | undefined {
    if (this.head >= this.queue.length) {
      if (this.queue.length > 0) {
        this.queue = [];
        this.head = 0;
      }
      return undefined;
    }
    const key = this.queue[this.head++];
    this.waiting.delete(key);
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return key;
  }

  /** True when `key` is waiting. */
  has(key: string): boolean {
    return this.waiting.has(key);
  }
}
