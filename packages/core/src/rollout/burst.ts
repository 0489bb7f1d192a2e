// The per-reconcile burst: the most pods one reconcile creates or deletes, and how a reconcile
// that stopped at it says that more work remains. kruise-ts's bound on the work of one call
// (docs/architecture.md, principle 6), shared by every controller that creates pods.

/**
 * The most pods one reconcile creates and deletes together, unless the caller says otherwise:
 * Kubernetes' ReplicaSet controller's `burstReplicas` (500). A CloneSet of 2,147,483,647 replicas
 * is thus reconciled 500 pods at a time instead of building 4 billion actions in one call.
 */
export const DEFAULT_BURST_REPLICAS = 500;

/**
 * The `requeueAfterSeconds` of a reconcile that stopped at its burst with work left: 0, "run me
 * again at once". Every delay a controller asks for is positive, so 0 is never a timer and a shell
 * tells the two apart (the simulator runs the object again at its next step).
 */
export const REQUEUE_NOW = 0;

/**
 * The burst a reconcile uses for `options.burstReplicas`: a positive number, rounded down (at
 * least 1); `Infinity` lifts the bound (OpenKruise's own behaviour); anything else (absent, 0,
 * negative, NaN, not a number) gives {@link DEFAULT_BURST_REPLICAS}. Never throws.
 *
 * Examples: `undefined` → 500, `20` → 20, `2.7` → 2, `0.5` → 1, `-3` → 500, `"9"` → 500.
 */
export function resolveBurstReplicas(value: unknown): number {
  if (typeof value !== 'number' || !(value > 0)) return DEFAULT_BURST_REPLICAS;
  return Math.max(1, Math.floor(value));
}

/**
 * A reconcile's remaining burst: `take()` spends one create or delete and answers false once the
 * burst is used up, after which `limited` is true — the reconcile then asks for
 * {@link REQUEUE_NOW}.
 *
 * Example: `new Burst(2)`: take() → true, take() → true, take() → false; limited → true.
 */
export class Burst {
  private left: number;
  /** A create or delete was refused: work remains for the next reconcile. */
  limited = false;

  constructor(size: number) {
    this.left = size;
  }

  /** Pods this reconcile may still create or delete. */
  get remaining(): number {
    return this.left;
  }

  /** Spends one unit; false (and `limited` set) when none is left. */
  take(): boolean {
    if (this.left <= 0) {
      this.limited = true;
      return false;
    }
    this.left--;
    return true;
  }

  /**
   * Up to `wanted` units at once (a batch of creates): how many were granted. Fewer than asked
   * marks the burst `limited`.
   */
  takeUpTo(wanted: number): number {
    const n = Math.max(0, Math.min(wanted, this.left));
    this.left -= n;
    if (n < wanted) this.limited = true;
    return n;
  }
}
