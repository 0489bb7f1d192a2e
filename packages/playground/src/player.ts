// The playback state: the frames a run has produced so far and the cursor over them. Playing
// moves the cursor's simulated time at `speed` simulated seconds per wall second; stepping moves
// it one instant; scrubbing sets it. The run is computed ahead in the worker, so the cursor can
// go anywhere the frames reach.
import type { Frame } from './protocol';

export class Player {
  frames: Frame[] = [];
  /** Simulated ms the cursor is at. */
  t = 0;
  playing = false;
  /** Simulated seconds per wall second. */
  speed = 10;
  /** The run has sent its last frame. */
  complete = false;

  /** Forgets the frames (a new run). */
  reset(): void {
    this.frames = [];
    this.t = 0;
    this.complete = false;
  }

  /** Adds frames in time order; one at the same instant as the last replaces it. */
  add(frames: readonly Frame[]): void {
    for (const f of frames) {
      const last = this.frames[this.frames.length - 1];
      if (last && last.t === f.t) this.frames[this.frames.length - 1] = f;
      else this.frames.push(f);
    }
  }

  /** The last frame's time. */
  get endMs(): number {
    return this.frames[this.frames.length - 1]?.t ?? 0;
  }

  /** The index of the frame shown at the cursor: the last one at or before it. */
  get index(): number {
    let lo = 0;
    let hi = this.frames.length - 1;
    if (hi < 0) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.frames[mid].t <= this.t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The frame shown at the cursor. */
  get frame(): Frame | undefined {
    return this.frames[this.index];
  }

  /** Moves the cursor by `wallMs` of playing; stops at the end of a complete run. */
  tick(wallMs: number): void {
    if (!this.playing) return;
    this.t = Math.min(this.t + wallMs * this.speed, this.endMs);
    if (this.complete && this.t >= this.endMs) this.playing = false;
  }

  /** One instant forward (`+1`) or back (`-1`). */
  step(direction: 1 | -1): void {
    this.playing = false;
    const i = Math.max(0, Math.min(this.frames.length - 1, this.index + direction));
    this.t = this.frames[i]?.t ?? 0;
  }

  /** The cursor to `ms`, within the frames. */
  seek(ms: number): void {
    this.t = Math.max(0, Math.min(ms, this.endMs));
  }
}
