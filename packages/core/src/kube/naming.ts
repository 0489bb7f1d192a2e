// Deterministic names and ids: a seeded PRNG (mulberry32), Kubernetes-style random
// suffixes (`sample-x7k2p`), generateName, and UUID-shaped uids derived from a seed
// and a counter. Same seed, same sequence — no Math.random().
import { SAFE_ALPHABET } from './hash';

/** A seeded pseudo-random generator. It carries internal state: each call advances it. */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n) (0 when n <= 0). */
  int(n: number): number;
  /** `n` characters of the Kubernetes alphabet `bcdfghjklmnpqrstvwxz2456789`. */
  string(n: number): string;
}

/** Mixes a 32-bit value (splitmix32 finaliser); used to derive seeds. */
export function mix32(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/**
 * A mulberry32 generator seeded with `seed` (any number; non-integers and values beyond
 * 32 bits are folded into 32 bits). Deterministic: `createRng(42).next()` is always the
 * same value.
 */
export function createRng(seed: number): Rng {
  let state = foldSeed(seed);
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => (n > 0 ? Math.floor(next() * n) : 0);
  return {
    next,
    int,
    string: (n: number) => {
      let out = '';
      for (let i = 0; i < n; i++) out += SAFE_ALPHABET[int(SAFE_ALPHABET.length)];
      return out;
    },
  };
}

/** Folds any JS number into a 32-bit seed (NaN and ±Infinity fold to fixed values). */
function foldSeed(seed: number): number {
  if (Number.isNaN(seed)) return 0x7ff8;
  if (!Number.isFinite(seed)) return seed > 0 ? 0x7ff0 : 0xfff0;
  const hi = Math.floor(seed / 4294967296);
  const lo = seed - hi * 4294967296;
  return (mix32(hi | 0) ^ (Math.floor(lo) >>> 0) ^ Math.round((lo % 1) * 0xffffffff)) >>> 0;
}

/**
 * A random suffix of `length` characters from the Kubernetes alphabet (`rand.String`), so
 * pod names look like `sample-x7k2p`. Advances `rng`.
 */
export function randomSuffix(rng: Rng, length = 5): string {
  return rng.string(length);
}

/** Kubernetes' limit for the `generateName` prefix: 63 − 5 random characters. */
export const MAX_GENERATED_NAME_PREFIX_LENGTH = 58;

/**
 * Kubernetes' `SimpleNameGenerator.GenerateName`: the prefix cut to 58 characters plus 5
 * random characters. Example: `generateName('sample-', createRng(1))` → `sample-` + 5 chars.
 */
export function generateName(prefix: string, rng: Rng): string {
  const base =
    prefix.length > MAX_GENERATED_NAME_PREFIX_LENGTH
      ? prefix.slice(0, MAX_GENERATED_NAME_PREFIX_LENGTH)
      : prefix;
  return base + randomSuffix(rng, 5);
}

/**
 * A UUID-shaped uid (version-4 layout: `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`) derived only
 * from `seed` and `counter`. `deterministicUid(7, 0)` is always the same string; for one seed,
 * counters below 2^32 never collide, because the last 8 hex digits are a bijective mix of
 * the counter.
 */
export function deterministicUid(seed: number, counter: number): string {
  const s = foldSeed(seed);
  // the first two groups depend on the seed alone
  const rng = createRng(s);
  const a = hex8(rng.next() * 4294967296);
  const b = hex8(rng.next() * 4294967296);
  const variant = ((Number.parseInt(b[4], 16) & 0x3) | 0x8).toString(16);
  const c = hex8(mix32(s ^ mix32(Math.floor(counter / 4294967296))));
  const d = hex8(mix32((counter >>> 0) ^ s));
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(0, 3)}-${c.slice(3, 7)}${d}`;
}

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}
