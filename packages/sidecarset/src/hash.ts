// The two SidecarSet hashes (docs/reference/sidecarset.md §2, SS-2.1 … SS-2.6) and the defaulting
// step of the SidecarSet mutating webhook that writes them (SS-1.2.8).
import {
  ANNOTATION_SIDECARSET_HASH,
  ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE,
  checkStructure,
  type SidecarContainer,
  type SidecarSet,
  setDefaultsSidecarSet,
} from '@kruise-ts/api';
import { safeEncodeString } from '@kruise-ts/core';
import { encodeSidecarContainers } from './goEncoding';
import { sha256Hex } from './sha256';

function hasNativeSidecar(list: readonly SidecarContainer[] | undefined): boolean {
  return (list ?? []).some((c) => c.restartPolicy === 'Always');
}

/**
 * SS-2.3: the exact bytes the hashes are computed over: Go JSON of
 * `{"containers": …, "initContainers": …}` (keys sorted). `containers` is `null` when absent;
 * `initContainers` is present only when at least one init container has `restartPolicy:
 * Always`, and then holds the **whole** list (quirk §7.2).
 *
 * Example (SS-2.5): containers `[{name: container1, image: test-image}]` →
 * `{"containers":[{"name":"container1","image":"test-image","resources":{},"upgradeStrategy":{},"shareVolumePolicy":{}}]}`.
 */
export function sidecarSetHashEncoding(sidecarSet: SidecarSet, withoutImage = false): string {
  const strip = (list: SidecarContainer[] | undefined) =>
    withoutImage && list ? list.map((c) => ({ ...c, image: '' })) : list;
  const spec = sidecarSet.spec ?? {};
  let out = `{"containers":${encodeSidecarContainers(strip(spec.containers))}`;
  if (hasNativeSidecar(spec.initContainers)) {
    out += `,"initContainers":${encodeSidecarContainers(strip(spec.initContainers))}`;
  }
  return `${out}}`;
}

/**
 * SS-2.1 `hash(SS) = SafeEncode(hex(sha256(E)))`: every character `c` of the 64 lowercase
 * hex digits maps to `"bcdfghjklmnpqrstvwxz2456789"[codepoint(c) mod 27]`.
 *
 * Worked example (SS-2.5): the encoding above has SHA-256 hex `be27fc49…`; `'b'` is code
 * point 98, 98 mod 27 = 17 → `'w'`; `'e'` (101) → 20 → `'2'`; `'2'` (50) → 23 → `'6'`; … The
 * full hash is `w26c4x8fz245642fdv499b464248f974xddx4x55z5dw55bc6x66464fxz77dc78`.
 */
export function sidecarSetHash(sidecarSet: SidecarSet): string {
  return safeEncodeString(sha256Hex(sidecarSetHashEncoding(sidecarSet)));
}

/**
 * SS-2.2: the same hash computed with `image` cleared in every container and init container.
 * Two SidecarSets whose definitions differ only in images have equal values (SS-2.6), which
 * is what allows an in-place upgrade (SS-5.5.2).
 */
export function sidecarSetHashWithoutImage(sidecarSet: SidecarSet): string {
  return safeEncodeString(sha256Hex(sidecarSetHashEncoding(sidecarSet, true)));
}

/** A new SidecarSet carrying the two hash annotations of `sidecarSet` as it is (no defaulting). */
export function withSidecarSetHashes(sidecarSet: SidecarSet): SidecarSet {
  return {
    ...sidecarSet,
    metadata: {
      ...sidecarSet.metadata,
      annotations: {
        ...(sidecarSet.metadata?.annotations ?? {}),
        [ANNOTATION_SIDECARSET_HASH]: sidecarSetHash(sidecarSet),
        [ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE]: sidecarSetHashWithoutImage(sidecarSet),
      },
    },
  };
}

/**
 * The SidecarSet mutating webhook (CREATE and UPDATE): `setDefaultsSidecarSet` (§1.2), then the
 * two hash annotations of the defaulted object, overwriting previous values (SS-1.2.8).
 *
 * Example (SS-2.5, upstream `TestMutatingSidecarSetFn`): container `dns-f` / `dns:1.0` gets
 * `kruise.io/sidecarset-hash: 6wbd76bd7984x24fb4f44fv9222cw9v9bcf85x766744wddd4zwx927zzz2zb684`.
 */
export function defaultSidecarSetThenHash(sidecarSet: SidecarSet): SidecarSet {
  // The boundary (docs/reference/core.md §10.1): the API server decodes an object against its schema
  // before any webhook sees it; one of the wrong shape is left as it is, for validateSidecarSet to
  // refuse with its field errors.
  if (checkStructure('SidecarSet', sidecarSet, { admission: true }).length > 0) return sidecarSet;
  return withSidecarSetHashes(setDefaultsSidecarSet(sidecarSet));
}
