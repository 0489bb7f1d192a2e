// Deterministic fake digests for the kubelet model (image IDs, container IDs):
// core's FNV-1a 32-bit rounds expanded to the requested number of hex digits.
import { fnv32a } from '@kruise-ts/core';

/** FNV-1a's 32-bit offset basis, which each round's seed varies. */
const FNV32_OFFSET = 0x811c9dc5;

/**
 * `len` hex digits derived from `text` (FNV-1a over the text, one round per 8 digits, each round
 * seeded with the offset basis xor the round number). Example: `fnvHex('nginx:alpine', 8)` is
 * always the same 8 digits.
 */
export function fnvHex(text: string, len: number): string {
  let out = '';
  for (let round = 0; out.length < len; round++) {
    out += fnv32a(text, FNV32_OFFSET ^ round)
      .toString(16)
      .padStart(8, '0');
  }
  return out.slice(0, len);
}
