// ImagePullJob's parallelism (docs/reference/daemon.md §3.5, §4.4): the job adds itself to a
// NodeImage only while fewer than `parallelism` of its NodeImages are still pulling, so no more than
// `parallelism` are in flight. Counted here from the NodeImages, not from the job's status: a node
// is the job's when a spec tag of some image lists the job among its owners, and in flight when its
// status has no result for that tag's version yet (no `imageStatuses` entry for the image, or a
// status tag of another version, or a phase other than Succeeded/Failed). The rules' exceptions: a
// status entry for the image without the tag puts the node in no bucket (§4.3 quirk), so it does
// not count; the check is made only when the job has just added a node, so lowering parallelism
// while pulls run is no violation; `parallelism` reads as an integer, a non-integer string is 0
// (§3.5).
import type { KubeObject } from '@kruise-ts/api';
import { displayName, type Store } from '@kruise-ts/cluster';
import type { Verdict } from './invariantTypes';

type J = Record<string, any>;

/** §3.5: default 1, an integer, a decimal string, anything else 0. */
export function pullParallelism(job: KubeObject): number {
  const v = ((job.spec ?? {}) as J).parallelism;
  if (v === undefined || v === null) return 1;
  if (typeof v === 'number') return Math.max(0, Math.trunc(v));
  return typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0;
}

/** The job's NodeImages and which of them are in flight. */
function countNodes(
  job: KubeObject,
  nodeImages: readonly KubeObject[],
): { synced: number; inFlight: string[] } {
  const uid = job.metadata.uid;
  let synced = 0;
  const inFlight: string[] = [];
  for (const ni of nodeImages) {
    const images = ((ni.spec as J | undefined)?.images ?? {}) as Record<string, J>;
    for (const [name, img] of Object.entries(images)) {
      const tag = ((img.tags ?? []) as J[]).find((t) =>
        (t.ownerReferences ?? []).some((r: J) => r.uid === uid),
      );
      if (!tag) continue;
      synced++;
      const st = (ni.status as J | undefined)?.imageStatuses?.[name] as J | undefined;
      if (!st) {
        inFlight.push(ni.metadata.name ?? '');
        break;
      }
      const s = ((st.tags ?? []) as J[]).find((x) => x.tag === tag.tag);
      if (!s) break; // §4.3 quirk: in no bucket
      if (s.version !== tag.version || (s.phase !== 'Succeeded' && s.phase !== 'Failed'))
        inFlight.push(ni.metadata.name ?? '');
      break;
    }
  }
  return { synced, inFlight };
}

/** Judges every ImagePullJob's parallelism at each settle. */
export class ImagePullParallelism {
  private readonly synced = new Map<string, number>();

  /** One verdict per ImagePullJob (a failing one only when the job just added a node). */
  check(store: Store): Verdict[] {
    const jobs = store.list('apps.kruise.io/v1alpha1', 'ImagePullJob');
    if (jobs.length === 0) return [];
    const nodeImages = store.list('apps.kruise.io/v1alpha1', 'NodeImage');
    const out: Verdict[] = [];
    for (const job of jobs) {
      const key = displayName(job);
      const { synced, inFlight } = countNodes(job, nodeImages);
      const v: Verdict = {
        invariant: 'parallelism',
        kind: 'ImagePullJob',
        namespace: job.metadata.namespace ?? 'default',
        name: job.metadata.name ?? '',
        object: key,
      };
      const added = synced > (this.synced.get(key) ?? 0);
      this.synced.set(key, synced);
      const p = pullParallelism(job);
      if (added && inFlight.length > p) {
        v.message = `${inFlight.length} NodeImages are pulling for the job (${inFlight.join(', ')}), more than parallelism ${p}`;
        v.pods = inFlight.map((n) => `NodeImage/${n}`);
      }
      out.push(v);
    }
    return out;
  }
}
