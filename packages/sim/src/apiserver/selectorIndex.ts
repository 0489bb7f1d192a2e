// An index of label values and a few field values per kind, kept up to date from the store's
// change notifications, so a list or delete-collection with an equality selector
// (`app=sample`, `app in (a,b)`, `spec.nodeName=node-1`, `involvedObject.uid=…`) looks only at the
// objects that carry the value instead of filtering every object of the kind. The answer is the
// same as filtering: the candidates still go through the full selector (`matchesFilter`), so
// set-based and inequality requirements next to an equality one are honoured.
//
// Why these fields: they are the field selectors clients send in everyday flows (kubectl describe
// lists a pod's events by `involvedObject.*`; kubelets and schedulers select pods by
// `spec.nodeName` and `status.phase`; `kubectl get --field-selector metadata.name=`). Other field
// paths are filtered without an index.
import type { KubeObject } from '@kruise-ts/api';
import { type Change, objectKey, type Store } from '@kruise-ts/cluster';
import { fieldValue, matchesFilter, type ObjectFilter } from './filters';
import { gkOf } from './watch';

/** The field paths kept in the index (dotted, as a field selector names them). */
export const INDEXED_FIELDS = [
  'metadata.name',
  'spec.nodeName',
  'status.phase',
  'involvedObject.uid',
  'involvedObject.name',
] as const;

const FIELD_PATHS: readonly (readonly string[])[] = INDEXED_FIELDS.map((f) => f.split('.'));

/** value → store keys. */
type Postings = Map<string, Set<string>>;

/** The index of one `group/Kind`: label key → postings, field path → postings. */
interface KindIndex {
  labels: Map<string, Postings>;
  fields: Map<string, Postings>;
  /** Objects of the kind. */
  count: number;
}

/** Label and field postings per kind, following the store. */
export class SelectorIndex {
  private kinds = new Map<string, KindIndex>();
  private readonly unsubscribe: () => void;
  /** Objects looked at by the last {@link select} (tests and the benchmark read it). */
  lastVisited = 0;

  constructor(private readonly store: Store) {
    for (const o of store.all()) this.add(o);
    this.unsubscribe = store.watch((c) => this.onChange(c));
  }

  /** Stops following the store. */
  close(): void {
    this.unsubscribe();
  }

  private onChange(c: Change): void {
    if (c.type === 'added') this.add(c.object);
    else if (c.type === 'deleted') this.drop(c.old ?? c.object);
    else if (c.old) this.move(c.old, c.object);
  }

  private kindIndex(obj: KubeObject): KindIndex {
    const gk = gkOf(obj.apiVersion, obj.kind);
    let k = this.kinds.get(gk);
    if (!k) {
      k = { labels: new Map(), fields: new Map(), count: 0 };
      this.kinds.set(gk, k);
    }
    return k;
  }

  private add(obj: KubeObject): void {
    const k = this.kindIndex(obj);
    const key = objectKey(obj);
    k.count++;
    for (const [l, v] of Object.entries(obj.metadata.labels ?? {})) post(k.labels, l, v, key);
    INDEXED_FIELDS.forEach((f, i) => {
      post(k.fields, f, fieldValue(obj, FIELD_PATHS[i]), key);
    });
  }

  private drop(obj: KubeObject): void {
    const k = this.kindIndex(obj);
    const key = objectKey(obj);
    k.count--;
    for (const [l, v] of Object.entries(obj.metadata.labels ?? {})) unpost(k.labels, l, v, key);
    INDEXED_FIELDS.forEach((f, i) => {
      unpost(k.fields, f, fieldValue(obj, FIELD_PATHS[i]), key);
    });
  }

  /** A modification: only what changed is moved (most writes change neither labels nor these fields). */
  private move(old: KubeObject, next: KubeObject): void {
    const k = this.kindIndex(next);
    const key = objectKey(next);
    const ol = old.metadata.labels ?? {};
    const nl = next.metadata.labels ?? {};
    if (ol !== nl) {
      for (const [l, v] of Object.entries(ol)) if (nl[l] !== v) unpost(k.labels, l, v, key);
      for (const [l, v] of Object.entries(nl)) if (ol[l] !== v) post(k.labels, l, v, key);
    }
    if (old.spec === next.spec && old.status === next.status) return;
    INDEXED_FIELDS.forEach((f, i) => {
      const a = fieldValue(old, FIELD_PATHS[i]);
      const b = fieldValue(next, FIELD_PATHS[i]);
      if (a !== b) {
        unpost(k.fields, f, a, key);
        post(k.fields, f, b, key);
      }
    });
  }

  /**
   * The objects of `apiVersion`/`kind` (in `namespace` when given) that pass `filter`, sorted by
   * store key (namespace, then name), or undefined when no requirement of the filter can use the
   * index, or when the best one still names more than a quarter of the kind (then the caller's
   * filter over the kind's sorted list is cheaper than sorting the candidates). Among the usable
   * requirements the one with the fewest candidates is used.
   *
   * Example: 10,000 pods of which 3 carry `app=web` → `select(…, {labels: [app=web]})` looks at 3.
   */
  select(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    filter: ObjectFilter,
  ): KubeObject[] | undefined {
    const k = this.kinds.get(gkOf(apiVersion, kind));
    let best: string[] | undefined;
    const consider = (keys: Iterable<string>, size: number) => {
      if (best === undefined || size < best.length) best = [...keys];
    };
    for (const r of filter.labels) {
      if (r.operator !== '=' && r.operator !== '==' && r.operator !== 'in') continue;
      const postings = k?.labels.get(r.key);
      const sets = r.values.map((v) => postings?.get(v)).filter((s): s is Set<string> => s !== undefined);
      const size = sets.reduce((n, s) => n + s.size, 0);
      if (best === undefined || size < best.length) consider(unionOf(sets), size);
    }
    for (const r of filter.fields) {
      if (r.op !== '=') continue;
      const path = r.path.join('.');
      if (!(INDEXED_FIELDS as readonly string[]).includes(path)) continue;
      const set = k?.fields.get(path)?.get(r.value);
      const size = set?.size ?? 0;
      if (best === undefined || size < best.length) consider(set ?? [], size);
    }
    if (best === undefined) return undefined;
    const chosen: string[] = best;
    if (chosen.length * 4 > (k?.count ?? 0) && chosen.length > 64) return undefined;
    chosen.sort();
    this.lastVisited = chosen.length;
    const out: KubeObject[] = [];
    for (const key of chosen) {
      const o = this.store.getByKey(key);
      if (!o) continue;
      if (namespace !== undefined && (o.metadata.namespace ?? '') !== namespace) continue;
      if (matchesFilter(o, filter)) out.push(o);
    }
    return out;
  }
}

function* unionOf(sets: Set<string>[]): Generator<string> {
  if (sets.length === 1) {
    yield* sets[0];
    return;
  }
  const seen = new Set<string>();
  for (const s of sets)
    for (const k of s)
      if (!seen.has(k)) {
        seen.add(k);
        yield k;
      }
}

function post(index: Map<string, Postings>, name: string, value: string, key: string): void {
  let p = index.get(name);
  if (!p) {
    p = new Map();
    index.set(name, p);
  }
  let s = p.get(value);
  if (!s) {
    s = new Set();
    p.set(value, s);
  }
  s.add(key);
}

function unpost(index: Map<string, Postings>, name: string, value: string, key: string): void {
  const p = index.get(name);
  const s = p?.get(value);
  if (!s) return;
  s.delete(key);
  if (s.size === 0) p!.delete(value);
}
