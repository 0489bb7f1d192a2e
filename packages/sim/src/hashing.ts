// Deterministic fake digests for the kubelet model (image IDs, container IDs):
// FNV-1a 32-bit rounds expanded to the requested number of hex digits.

/**
 * `len` hex digits derived from `text` (FNV-1a over the text and a round
 * counter). Example: `fnvHex('nginx:alpine', 8)` is always the same 8 digits.
 */
export function fnvHex(text: string, len: number): string {
  let out = '';
  for (let round = 0; out.length < len; round++) {
    let h = 0x811c9dc5 ^ round;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, len);
}
