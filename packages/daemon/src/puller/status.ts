// Pure NodeImage status logic of the image puller (docs/reference/daemon.md §7.3): the fresh status from the
// pools, whether a write is due (JSON equality, 12 h forced rewrite, 0.5/s burst-5 token bucket)
// and when to requeue.
import type { ImageStatus, ImageTagStatus, NodeImageSpec, NodeImageStatus } from '@kruise-ts/api';

/** Timing constants of the puller (§11 item 1: injectable). Milliseconds. */
export interface PullerTimings {
  /** §7.3 item 4: requeue while pulling or throttled: base + uniform[0, jitter). */
  pullingRequeueMs: number;
  pullingRequeueJitterMs: number;
  /** §7.3 item 4: requeue when idle. */
  idleRequeueMs: number;
  idleRequeueJitterMs: number;
  /** §7.3 item 3.1: forced rewrite of an unchanged status. */
  forcedWriteMs: number;
  forcedWriteJitterMs: number;
  /** §7.3 item 3.2: token bucket. */
  writesPerSecond: number;
  writeBurst: number;
}

/** The upstream values. */
export const DEFAULT_PULLER_TIMINGS: PullerTimings = {
  pullingRequeueMs: 3_000,
  pullingRequeueJitterMs: 2_000,
  idleRequeueMs: 20 * 60_000,
  idleRequeueJitterMs: 10 * 60_000,
  forcedWriteMs: 12 * 3_600_000,
  forcedWriteJitterMs: 3_600_000,
  writesPerSecond: 0.5,
  writeBurst: 5,
};

const byTag = (a: ImageTagStatus, b: ImageTagStatus) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0);

/**
 * §7.3 item 2: `desired` = number of spec tags; each spec image's pool status (when non-nil) with
 * tags sorted; `succeeded` / `failed` / `pulling` counted by phase; `imageStatuses` omitted when empty.
 *
 * Example: spec `{a: [v1, v2]}`, pool `{a: [v2 Succeeded, v1 Pulling]}` → `{desired: 2, succeeded: 1,
 * failed: 0, pulling: 1, imageStatuses: {a: {tags: [v1 Pulling, v2 Succeeded]}}}`.
 */
export function buildNodeImageStatus(
  spec: NodeImageSpec | undefined,
  pools: Readonly<Record<string, ImageStatus | undefined>>,
): NodeImageStatus {
  const images = spec?.images ?? {};
  let desired = 0;
  let succeeded = 0;
  let failed = 0;
  let pulling = 0;
  const imageStatuses: Record<string, ImageStatus> = {};
  for (const [name, img] of Object.entries(images)) {
    desired += img.tags?.length ?? 0;
    const ps = pools[name];
    if (!ps) continue;
    const tags = [...ps.tags].sort(byTag);
    imageStatuses[name] = { tags };
    for (const t of tags) {
      if (t.phase === 'Succeeded') succeeded++;
      else if (t.phase === 'Failed') failed++;
      else if (t.phase === 'Pulling') pulling++;
    }
  }
  const out: NodeImageStatus = { desired, succeeded, failed, pulling };
  if (Object.keys(imageStatuses).length > 0) out.imageStatuses = imageStatuses;
  return out;
}

/**
 * §7.3 item 4: still pulling when `succeeded + failed < desired`, or some status tag's version
 * differs from its spec tag's version.
 *
 * Example: desired 2, succeeded 2, but status `a:v1@0` while spec `a:v1@1` → true.
 */
export function isStillPulling(spec: NodeImageSpec | undefined, status: NodeImageStatus): boolean {
  if ((status.succeeded ?? 0) + (status.failed ?? 0) < status.desired) return true;
  for (const [name, st] of Object.entries(status.imageStatuses ?? {})) {
    const specTags = spec?.images?.[name]?.tags ?? [];
    for (const t of st.tags) {
      const s = specTags.find((x) => x.tag === t.tag);
      if (s && (s.version ?? 0) !== (t.version ?? 0)) return true;
    }
  }
  return false;
}

/**
 * §7.3 item 4: requeue after `pullingRequeue + u·jitter` (3–5 s) when throttled or still pulling,
 * else `idleRequeue + u·jitter` (20–30 min). `u` ∈ [0,1) comes from the injected RNG.
 *
 * Example: pulling, u = 0.5 → 4 000 ms; idle, u = 0.5 → 1 500 000 ms (25 min).
 */
export function pullerRequeueMs(
  pullingOrLimited: boolean,
  u: number,
  t: PullerTimings = DEFAULT_PULLER_TIMINGS,
): number {
  return pullingOrLimited
    ? t.pullingRequeueMs + Math.floor(u * t.pullingRequeueJitterMs)
    : t.idleRequeueMs + Math.floor(u * t.idleRequeueJitterMs);
}

/** A token bucket's state (§7.3 item 3.2). */
export interface TokenBucket {
  tokens: number;
  lastMs: number;
}

/**
 * Takes one token if available after refilling at `rate`/s up to `burst`.
 *
 * Example: empty bucket at t=0, rate 0.5/s: at t=1 000 ms 0.5 token → refused; at t=2 000 ms → taken.
 */
export function takeToken(
  bucket: TokenBucket | undefined,
  nowMs: number,
  rate: number,
  burst: number,
): { ok: boolean; bucket: TokenBucket } {
  const prev = bucket ?? { tokens: burst, lastMs: nowMs };
  const tokens = Math.min(burst, prev.tokens + (Math.max(0, nowMs - prev.lastMs) / 1000) * rate);
  if (tokens >= 1) return { ok: true, bucket: { tokens: tokens - 1, lastMs: nowMs } };
  return { ok: false, bucket: { tokens, lastMs: nowMs } };
}

/** What the status writer remembers between syncs. */
export interface StatusWriterState {
  lastWritten?: string;
  /** When an unchanged status must be rewritten anyway (12 h + jitter after the last write). */
  forceWriteAtMs?: number;
  bucket?: TokenBucket;
}

/**
 * §7.3 item 3: `skip` when the status equals the last written one (JSON) and the forced rewrite is
 * not due; `limited` when the token bucket refuses; else `write`. Returns the next writer state,
 * assuming the write (if any) succeeds; `u` ∈ [0,1) draws the forced-rewrite jitter.
 */
export function statusWriteDecision(
  status: NodeImageStatus,
  state: StatusWriterState,
  nowMs: number,
  u: number,
  t: PullerTimings = DEFAULT_PULLER_TIMINGS,
): { decision: 'skip' | 'limited' | 'write'; state: StatusWriterState } {
  const json = JSON.stringify(status);
  if (json === state.lastWritten && (state.forceWriteAtMs === undefined || nowMs < state.forceWriteAtMs)) {
    return { decision: 'skip', state };
  }
  const tk = takeToken(state.bucket, nowMs, t.writesPerSecond, t.writeBurst);
  if (!tk.ok) return { decision: 'limited', state: { ...state, bucket: tk.bucket } };
  return {
    decision: 'write',
    state: {
      lastWritten: json,
      forceWriteAtMs: nowMs + t.forcedWriteMs + Math.floor(u * t.forcedWriteJitterMs),
      bucket: tk.bucket,
    },
  };
}
