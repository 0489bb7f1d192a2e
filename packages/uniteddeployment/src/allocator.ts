// Replica allocation (docs/reference/uniteddeployment.md §4): which allocator runs (§4.1), the "specific"
// allocator for fixed counts, percentages and remainder sharing (§4.2, rules S1–S5) and the
// min/max "elastic" allocator with its Adaptive caps (§4.3, rules E1–E6). Errors are returned.
import type { IntOrString } from '@kruise-ts/api';
import { MAXINT32, parseSubsetReplicas } from './parse';

/** The subset fields the allocator reads (a `UnitedDeployment` subset is assignable to it). */
export interface AllocatableSubset {
  name: string;
  replicas?: IntOrString | null;
  minReplicas?: IntOrString | null;
  maxReplicas?: IntOrString | null;
}

/** The UnitedDeployment fields the allocator reads (a `UnitedDeployment` is assignable to it). */
export interface AllocatableUnitedDeployment {
  spec: {
    replicas?: number | null;
    topology?: {
      subsets?: AllocatableSubset[] | null;
      scheduleStrategy?: { type?: string | null } | null;
    } | null;
  };
}

/** The adaptive step's verdict on one existing subset (§5.2): default `{ unschedulable: false, pendingPods: 0 }`. */
export interface UnschedulableStatus {
  unschedulable: boolean;
  pendingPods: number;
}

/** What the allocator knows about one existing subset workload (docs/architecture.md). */
export interface ExistingSubset {
  /** The workload's `spec.replicas` (the specific allocator's `cur(s)`). */
  specReplicas: number;
  status?: {
    replicas?: number;
    readyReplicas?: number;
    unschedulableStatus?: UnschedulableStatus;
  };
}

/** Existing subsets by subset name; an absent name (or a null map) means "no workload yet". */
export type ExistingSubsets = Record<string, ExistingSubset> | null | undefined;

/** The allocation: subset name → next workload `spec.replicas`, one entry per topology subset. */
export type AllocationResult = { replicas: Record<string, number> } | { error: string };

/** §4.1: the elastic allocator runs when any topology subset sets `minReplicas` or `maxReplicas`. */
export function usesElasticAllocator(ud: AllocatableUnitedDeployment): boolean {
  return subsetsOf(ud).some((s) => s.minReplicas != null || s.maxReplicas != null);
}

/** Whether `topology.scheduleStrategy.type` is `Adaptive` (`""` and `Fixed` both mean Fixed, §1.1). */
export function isAdaptive(ud: AllocatableUnitedDeployment): boolean {
  return ud.spec.topology?.scheduleStrategy?.type === 'Adaptive';
}

function subsetsOf(ud: AllocatableUnitedDeployment): AllocatableSubset[] {
  return ud.spec.topology?.subsets ?? [];
}

/**
 * Allocates `spec.replicas` over the topology subsets (§4): the elastic allocator when any subset
 * sets min/max (§4.1), else the specific one. Never throws and never changes its inputs; an
 * allocation error (S3, E3) comes back as `{ error }` and the reconcile then changes nothing.
 *
 * Example (specific, §4.2): T 5, current t1:1 t2:4 t3:2 t4:2, nothing specified → avg 1, rem 1;
 * the remainder goes to the subset with the most current replicas → `{t1:1, t2:2, t3:1, t4:1}`.
 * Example (elastic, §4.3): T 5, `a[min 2, max 4]`, `b[min 2]` → pass 1 a:2 b:2, pass 2 a:+1 →
 * `{a:3, b:2}`.
 */
export function allocateSubsetReplicas(
  unitedDeployment: AllocatableUnitedDeployment,
  existingSubsets?: ExistingSubsets,
): AllocationResult {
  // The boundary (docs/reference/core.md §10.1): a UnitedDeployment whose fields read here have the
  // wrong type has no allocation (the reconcile has validated it by now; a direct caller may not
  // have), and an existing subset that is not `{specReplicas: <integer>}` is no workload yet.
  const shape = allocatableShapeError(unitedDeployment);
  if (shape !== undefined) return { error: shape };
  const existing = wellFormedExisting(existingSubsets);
  if (usesElasticAllocator(unitedDeployment)) return allocateElastic(unitedDeployment, existing);
  return allocateSpecific(unitedDeployment, existing);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null;
const isIntOrString = (v: unknown) => typeof v === 'string' || Number.isSafeInteger(v);
const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const mustBe = (field: string, type: string, v: unknown) =>
  `${field}: Invalid value: "${typeOf(v)}": ${field} in body must be of type ${type}: "${typeOf(v)}"`;

/**
 * The first field of {@link AllocatableUnitedDeployment} that has the wrong JSON type, in the API
 * server's words, or undefined. Only the fields the allocator reads are looked at: a caller may
 * hand it a partial object (the type asks for no more).
 */
function allocatableShapeError(ud: unknown): string | undefined {
  if (!isRecord(ud)) return mustBe('', 'object', ud).slice(2);
  const spec = ud.spec;
  if (!isRecord(spec)) return mustBe('spec', 'object', spec);
  if (!absent(spec.replicas) && !Number.isSafeInteger(spec.replicas))
    return mustBe('spec.replicas', 'integer', spec.replicas);
  const topology = spec.topology;
  if (absent(topology)) return undefined;
  if (!isRecord(topology)) return mustBe('spec.topology', 'object', topology);
  const strategy = topology.scheduleStrategy;
  if (!absent(strategy) && !isRecord(strategy))
    return mustBe('spec.topology.scheduleStrategy', 'object', strategy);
  if (isRecord(strategy) && !absent(strategy.type) && typeof strategy.type !== 'string')
    return mustBe('spec.topology.scheduleStrategy.type', 'string', strategy.type);
  const subsets = topology.subsets;
  if (absent(subsets)) return undefined;
  if (!Array.isArray(subsets)) return mustBe('spec.topology.subsets', 'array', subsets);
  for (let i = 0; i < subsets.length; i++) {
    const at = `spec.topology.subsets[${i}]`;
    const sub = subsets[i];
    if (!isRecord(sub)) return mustBe(at, 'object', sub);
    if (typeof sub.name !== 'string') return mustBe(`${at}.name`, 'string', sub.name);
    for (const f of ['replicas', 'minReplicas', 'maxReplicas'])
      if (!absent(sub[f]) && !isIntOrString(sub[f])) return mustBe(`${at}.${f}`, 'integer,string', sub[f]);
  }
  return undefined;
}

/**
 * The entries of `existing` that are subsets with an integer `specReplicas` and an object status
 * (the map itself when all are).
 */
function wellFormedExisting(existing: ExistingSubsets): Record<string, ExistingSubset> {
  if (existing === null || typeof existing !== 'object' || Array.isArray(existing)) return {};
  const ok = (s: unknown) => {
    if (s === null || typeof s !== 'object') return false;
    const { specReplicas, status } = s as { specReplicas?: unknown; status?: unknown };
    return (
      Number.isSafeInteger(specReplicas) &&
      (status === undefined || (status !== null && typeof status === 'object'))
    );
  };
  const names = Object.keys(existing);
  if (names.every((n) => ok(existing[n]))) return existing;
  const kept: Record<string, ExistingSubset> = {};
  for (const n of names) if (ok(existing[n])) kept[n] = existing[n];
  return kept;
}

function has(map: Record<string, ExistingSubset>, name: string): boolean {
  return Object.hasOwn(map, name) && map[name] != null;
}

/**
 * Byte-wise string order (Go's `<` on strings), used for the S2 tie-break. UTF-8 byte order is code
 * point order, so this compares code points (JavaScript's `<` compares UTF-16 units instead).
 */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
}

/**
 * The specific allocator (§4.2). `T` = `spec.replicas`, or −1 when unset.
 *
 * S1 parses each subset's `replicas` (an unparsable value counts as unset, Q10); S2 sorts by current
 * replicas ascending, ties by name; S3 rejects Σspec > T, Σspec < T with every subset specified, and
 * T unset with some subset unspecified; S4 gives specified subsets their count; S5 shares
 * `R = T − Σspec` over the `m` others: `avg = trunc(R / m)`, and walking the sorted list from the end
 * the first `R mod m` of them get `avg + 1`.
 *
 * Example: T 27, current t1:1 t2:4 t3:2 t4:2, t1 and t3 fixed at 4 → R 19 over {t4, t2}: avg 9,
 * rem 1; from the end t2 (cur 4) gets 10, t4 gets 9.
 */
export function allocateSpecific(
  ud: AllocatableUnitedDeployment,
  existing: Record<string, ExistingSubset>,
): AllocationResult {
  const total = ud.spec.replicas ?? -1;
  const subsets = subsetsOf(ud);
  // S1: specified values (parse errors are only logged upstream: the subset counts as unspecified).
  const specified = new Map<string, number>();
  for (const s of subsets) {
    if (s.replicas == null) continue;
    const parsed = parseSubsetReplicas(total, s.replicas);
    if ('value' in parsed) specified.set(s.name, parsed.value);
  }
  // S2: sort by current replicas ascending, ties by name ascending (byte-wise).
  const sorted = subsets
    .map((s) => ({ name: s.name, cur: has(existing, s.name) ? existing[s.name].specReplicas : 0 }))
    .sort((a, b) => a.cur - b.cur || compareBytes(a.name, b.name));
  // S3: validation.
  let sumSpecified = 0;
  for (const v of specified.values()) sumSpecified += v;
  const k = sorted.filter((s) => specified.has(s.name)).length;
  const n = sorted.length;
  if (total !== -1) {
    if (sumSpecified > total) {
      return {
        error: `specified subsets' replica (${sumSpecified}) is greater than UnitedDeployment replica (${total})`,
      };
    }
    if (sumSpecified < total && k === n) {
      return {
        error: `specified subsets' replica (${sumSpecified}) is less than UnitedDeployment replica (${total})`,
      };
    }
  } else if (k !== n) {
    return { error: 'all subsets must be specified when UnitedDeployment replica is unspecified' };
  }
  // S4: specified subsets get exactly their value.
  const replicas: Record<string, number> = {};
  for (const s of sorted) if (specified.has(s.name)) replicas[s.name] = specified.get(s.name)!;
  // S5: the remainder, largest current replicas first.
  const m = n - k;
  if (m > 0) {
    const rest = total - sumSpecified;
    const avg = Math.trunc(rest / m);
    let rem = rest % m;
    for (let i = sorted.length - 1; i >= 0; i--) {
      const name = sorted[i].name;
      if (specified.has(name)) continue;
      if (rem > 0) {
        replicas[name] = avg + 1;
        rem--;
      } else {
        replicas[name] = avg;
      }
    }
  }
  return { replicas };
}

/** Per-subset bounds after E1 (and E2 under Adaptive). */
export interface SubsetBounds {
  name: string;
  min: number;
  max: number;
}

/**
 * E1 + E2 of the elastic allocator: each subset's `[min, max]` (§4.3).
 *
 * E1: `min = parse(T, minReplicas)` or 0, `max = parse(T, maxReplicas)` or MAXINT32; a parse error
 * gives 0 (Q10). E2 (Adaptive only), with `running = status.replicas − pendingPods`:
 * (a) an existing unschedulable subset is capped, `min = min(running, min)`, `max = min(running, max)`;
 * (b) a schedulable subset with `running > min` keeps its running pods, `min = min(running, max)`.
 *
 * Example (§4.4 step 2): `a[2, 4]` with 4 pods of which 3 timed out pending → running 1 →
 * `a[1, 1]`; `b` unbounded with 6 running → `b[6, MAXINT32]`.
 */
export function elasticBounds(
  ud: AllocatableUnitedDeployment,
  existing: Record<string, ExistingSubset>,
): SubsetBounds[] {
  const total = ud.spec.replicas ?? 1;
  const adaptive = isAdaptive(ud);
  return subsetsOf(ud).map((s) => {
    let min = s.minReplicas != null ? parseOrZero(total, s.minReplicas) : 0;
    let max = s.maxReplicas != null ? parseOrZero(total, s.maxReplicas) : MAXINT32;
    if (adaptive) {
      const exists = has(existing, s.name);
      const status = exists ? existing[s.name].status : undefined;
      const unschedulable = status?.unschedulableStatus?.unschedulable === true;
      const running = exists ? (status?.replicas ?? 0) - (status?.unschedulableStatus?.pendingPods ?? 0) : 0;
      if (exists && unschedulable) {
        min = Math.min(running, min);
        max = Math.min(running, max);
      }
      if (!unschedulable && running > min) min = Math.min(running, max);
    }
    return { name: s.name, min, max };
  });
}

function parseOrZero(total: number, q: IntOrString): number {
  const parsed = parseSubsetReplicas(total, q);
  return 'value' in parsed ? parsed.value : 0;
}

/**
 * The elastic allocator (§4.3). `T` = `spec.replicas`, or 1 when unset; subsets in topology order.
 *
 * E3 rejects `min > max`; E4 gives each subset `max(0, min(min, T − allocated))`; E5 stops once
 * `allocated ≥ T`; E6 tops subsets up by `max(0, min(max − min, T − allocated))`.
 *
 * Example: T 14, five subsets `[2, 5]` (the last unbounded) → pass 1 gives 2 each (10); pass 2
 * gives s0 +3 (→ 5) and s1 +1 (→ 3) → `5, 3, 2, 2, 2`. With T 5 pass 1 runs out: `2, 2, 1, 0, 0`.
 */
export function allocateElastic(
  ud: AllocatableUnitedDeployment,
  existing: Record<string, ExistingSubset>,
): AllocationResult {
  const total = ud.spec.replicas ?? 1;
  const bounds = elasticBounds(ud, existing);
  for (let i = 0; i < bounds.length; i++) {
    if (bounds[i].min > bounds[i].max) {
      return { error: `subset[${i}].maxReplicas must be more than or equal to minReplicas` };
    }
  }
  const replicas: Record<string, number> = {};
  let allocated = 0;
  for (const b of bounds) {
    const give = Math.max(0, Math.min(b.min, total - allocated));
    replicas[b.name] = give;
    allocated += give;
  }
  if (allocated >= total) return { replicas };
  for (const b of bounds) {
    const give = Math.max(0, Math.min(b.max - b.min, total - allocated));
    replicas[b.name] += give;
    allocated += give;
  }
  return { replicas };
}
