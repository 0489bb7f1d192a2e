// The last two answers to "is this pod available?" for minReadySeconds 0, where the answer does
// not depend on the clock. On every pod write the timeline and the invariant checker each ask
// about the old and the new version of the pod; stored pods are never changed in place, so the
// object itself identifies the answer and two slots catch nearly every repeat. A simulation makes
// one memo and hands it to its timeline and its checker; two simulations never share one.
import type { Pod } from 'kubernetes-types/core/v1.js';

/** The last two pod-availability answers for minReadySeconds 0 (see `cloneSetPodAvailable`). */
export class AvailabilityMemo {
  private podA: Pod | undefined = undefined;
  private a = false;
  private podB: Pod | undefined = undefined;
  private b = false;

  /** The remembered answer for this very pod object, or undefined. */
  get(pod: Pod): boolean | undefined {
    if (pod === this.podA) return this.a;
    if (pod === this.podB) return this.b;
    return undefined;
  }

  /** Remembers `pod`'s answer, forgetting the older of the two kept. */
  remember(pod: Pod, available: boolean): void {
    this.podB = this.podA;
    this.b = this.a;
    this.podA = pod;
    this.a = available;
  }
}
