// Pure decisions of one image's worker pool (docs/reference/daemon.md §7.4): which tags are active, which
// running workers to stop, which to start, which stored statuses to keep, and the pool's status.
import type { ImageSpec, ImageStatus, ImageTagSpec, ImageTagStatus } from '@kruise-ts/api';

/** A running worker, identified by tag and version (one worker per image:tag:version, §7.5). */
export interface RunningWorker {
  tag: string;
  version: number;
}

/** The result of {@link planPoolSync}. */
export interface PoolSyncPlan {
  /** §7.4 item 1.3: spec tags with no finished status of the same version. */
  active: ImageTagSpec[];
  /** §7.4 item 1.3: final statuses (same tag and version, with completionTime) to keep. */
  finished: ImageTagStatus[];
  /** §7.4 item 2: tags whose running worker must be stopped and forgotten. */
  stop: string[];
  /** §7.4 item 3: active tags that get a new worker. */
  start: ImageTagSpec[];
  /** §7.4 item 2: stored tag statuses to forget (tags that left the spec). */
  forget: string[];
}

const versionOf = (t: { version?: number }): number => t.version ?? 0;

/**
 * §7.4 items 1.3–3. For each spec tag, the status tag with the same tag **and version** decides:
 * none, or no `completionTime` → active; else its status is final. Running workers whose tag is not
 * active or whose version differs from the spec's are stopped; active tags without a (remaining)
 * worker start one; stored statuses of tags no longer in the spec are forgotten.
 *
 * Example: spec tags `v1@1, v2@0`, status `v1@1 Succeeded (completed)`, running `[v1@1]`, stored `[v1, old]`
 * → active `[v2]`, finished `[v1]`, stop `[v1]`, start `[v2]`, forget `[old]`.
 */
export function planPoolSync(
  spec: ImageSpec,
  status: ImageStatus | undefined,
  running: readonly RunningWorker[],
  storedTags: readonly string[],
): PoolSyncPlan {
  const tags = spec.tags ?? [];
  const active: ImageTagSpec[] = [];
  const finished: ImageTagStatus[] = [];
  for (const t of tags) {
    const st = status?.tags?.find((s) => s.tag === t.tag && versionOf(s) === versionOf(t));
    if (!st?.completionTime) active.push(t);
    else finished.push(st);
  }
  const stop: string[] = [];
  const keep = new Set<string>();
  for (const w of running) {
    const a = active.find((t) => t.tag === w.tag);
    if (!a || versionOf(a) !== w.version) stop.push(w.tag);
    else keep.add(w.tag);
  }
  const start = active.filter((t) => !keep.has(t.tag));
  const specTags = new Set(tags.map((t) => t.tag));
  const forget = storedTags.filter((t) => !specTags.has(t));
  return { active, finished, stop, start, forget };
}

/**
 * §7.4 item 4: the pool status, for each spec tag in spec order its stored status if any;
 * `undefined` when there is none.
 *
 * Example: spec `[v1, v2]`, stored `{v2: Pulling}` → `{tags: [v2 Pulling]}`.
 */
export function poolStatus(
  spec: ImageSpec,
  stored: ReadonlyMap<string, ImageTagStatus>,
): ImageStatus | undefined {
  const tags: ImageTagStatus[] = [];
  for (const t of spec.tags ?? []) {
    const s = stored.get(t.tag);
    if (s) tags.push(s);
  }
  return tags.length > 0 ? { tags } : undefined;
}
