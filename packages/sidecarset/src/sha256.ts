// SHA-256 of a string as lowercase hex, for the SidecarSet hashes (docs/reference/sidecarset.md SS-1.2.8).
// Node's built-in crypto does the hashing: deterministic and free of I/O, so it keeps the
// package pure.
import { createHash } from 'node:crypto';

/**
 * SHA-256 of the UTF-8 bytes of `text`, as 64 lowercase hex digits.
 *
 * Example: `sha256Hex('abc')` =
 * `ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad`.
 */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
