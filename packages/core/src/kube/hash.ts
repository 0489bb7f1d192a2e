// Deterministic hashing: FNV-32 (1 and 1a), Kubernetes' SafeEncodeString, the revision-name
// hash (over ../json/canonicalJson) `computeHash(value, collisionCount)`, and the CloneSet
// volumeClaimTemplates hash annotation (docs/reference/core.md R1.3, docs/reference/cloneset.md §12).
//
// These hashes are stable across runs and platforms but are NOT byte-compatible with
// Go's: Kubernetes hashes Go's JSON encoding (struct field order) or a spew dump of the
// object; kruise-ts hashes canonical JSON (sorted keys). Only "equal input ⇒ equal hash"
// (and, in practice, "different input ⇒ different hash") is relied upon.
import { ANNOTATION_CLONESET_VCT_HASH } from '@kruise-ts/api';
import type { PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import { canonicalJSON } from '../json/canonicalJson';

const FNV32_OFFSET = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;
const encoder = new TextEncoder();

function toBytes(input: string | Uint8Array): Uint8Array {
  return typeof input === 'string' ? encoder.encode(input) : input;
}

/**
 * FNV-1a, 32 bit, over the UTF-8 bytes of `input` (xor, then multiply). Optionally
 * continues from a previous hash value.
 *
 * Example: `fnv32a('')` = 0x811c9dc5 = 2166136261; `fnv32a('a')` = 0xe40c292c = 3826002220.
 */
export function fnv32a(input: string | Uint8Array, seed: number = FNV32_OFFSET): number {
  let h = seed >>> 0;
  for (const b of toBytes(input)) {
    h ^= b;
    h = Math.imul(h, FNV32_PRIME) >>> 0;
  }
  return h >>> 0;
}

/**
 * FNV-1, 32 bit (multiply, then xor) — Go's `fnv.New32()`, which Kubernetes' controller
 * history uses for revision names.
 *
 * Example: `fnv32('a')` = 0x050c5d7e = 84696446.
 */
export function fnv32(input: string | Uint8Array, seed: number = FNV32_OFFSET): number {
  let h = seed >>> 0;
  for (const b of toBytes(input)) {
    h = Math.imul(h, FNV32_PRIME) >>> 0;
    h ^= b;
  }
  return h >>> 0;
}

/** The alphabet of Kubernetes' `rand.String` / `SafeEncodeString`: no vowels, no 0/1/3. */
export const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * Kubernetes' `rand.SafeEncodeString`: maps every character to
 * `SAFE_ALPHABET[codePoint % 27]`, so hashes cannot spell words.
 *
 * Example: `"123"` → code points 49, 50, 51 → indexes 22, 23, 24 → `"567"`.
 */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const ch of s) out += SAFE_ALPHABET[(ch.codePointAt(0) as number) % SAFE_ALPHABET.length];
  return out;
}

/**
 * The hash kruise-ts uses in revision names: FNV-1a over the canonical JSON of `value`,
 * then — when `collisionCount` is given — over its decimal text, as Kubernetes' history
 * hash appends the collision count; rendered as `safeEncodeString` of the decimal uint32.
 *
 * Example: if the FNV-1a value is 1129974074, the decimal text `"1129974074"` is mapped
 * character by character (`'1'` = 49, 49 % 27 = 22 → `'5'`, …) to `"556ffc84c8"`.
 * `computeHash(t, 1)` differs from `computeHash(t, 0)` and from `computeHash(t)`.
 *
 * The value differs from Go's (which hashes Go's JSON bytes or a spew dump); names are
 * stable within kruise-ts only.
 */
export function computeHash(value: unknown, collisionCount?: number | null): string {
  let h = fnv32a(canonicalJSON(value));
  if (collisionCount !== undefined && collisionCount !== null) h = fnv32a(String(collisionCount), h);
  return safeEncodeString(String(h));
}

/**
 * The value of the ControllerRevision annotation `kruise.io/cloneset-volumeclaimtemplate-hash`
 * (docs/reference/core.md R1.3, docs/reference/cloneset.md §12): `""` when there are no templates, otherwise the
 * decimal FNV-1a hash of the canonical JSON of the templates sorted by name, each reduced to
 * what defines the claims (`metadata.name`, `metadata.labels`, `metadata.annotations`, `spec`;
 * `status` and server-set metadata are ignored).
 *
 * Differs from Go's value (a spew-based hash); only equality of two hashes is ever compared.
 */
export function hashVolumeClaimTemplates(
  templates: readonly PersistentVolumeClaim[] | null | undefined,
): string {
  if (!templates || templates.length === 0) return '';
  const reduced = templates
    .map((t) => ({
      metadata: {
        name: t.metadata?.name ?? '',
        labels: t.metadata?.labels ?? {},
        annotations: t.metadata?.annotations ?? {},
      },
      spec: t.spec ?? {},
    }))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  return String(fnv32a(canonicalJSON(reduced)));
}

/** Anything with (optional) metadata annotations, e.g. a ControllerRevision. */
interface Annotated {
  metadata?: { annotations?: Readonly<Record<string, string>> | null } | null;
}

/**
 * Reads the VCT-hash annotation of a revision. It "exists" when the revision has a
 * non-empty annotation map containing the key; an empty value counts as existing (R1.3).
 * Example: no annotations → `{hash: '', exists: false}`; `{"…-hash": ""}` → `{hash: '', exists: true}`.
 */
export function getVolumeClaimTemplatesHash(revision: Annotated | null | undefined): {
  hash: string;
  exists: boolean;
} {
  const ann = revision?.metadata?.annotations;
  if (!ann || Object.keys(ann).length === 0 || !Object.hasOwn(ann, ANNOTATION_CLONESET_VCT_HASH)) {
    return { hash: '', exists: false };
  }
  return { hash: ann[ANNOTATION_CLONESET_VCT_HASH], exists: true };
}

/**
 * R1.3: may a pod move between these revisions in place as far as volumeClaimTemplates are
 * concerned? False only when both revisions carry the hash and the values differ.
 * Example: old `"11"`, new `""` → false; old absent, new `"1129974074"` → true.
 */
export function canVolumeClaimTemplatesUpdateInPlace(
  oldRevision: Annotated | null | undefined,
  newRevision: Annotated | null | undefined,
): boolean {
  const o = getVolumeClaimTemplatesHash(oldRevision);
  const n = getVolumeClaimTemplatesHash(newRevision);
  return !(o.exists && n.exists && o.hash !== n.hash);
}
