// The kubelet model's fake digests: FNV-1a rounds over the text's UTF-8 bytes (core's fnv32a),
// the same digits the model has always given for ASCII text (image references are ASCII), so
// simulated image and container IDs stay as they were.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fnvHex } from '../src/hashing';
import { imageSize } from '../src/kubeEvents';
import { nodeObject } from '../src/nodes';

/** FNV-1a over UTF-16 code units, one round per 8 digits: the ASCII reference. */
function referenceHex(text: string, len: number): string {
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

describe('fnvHex', () => {
  it('gives the reference digits for non-empty ASCII text, at any length', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 64 }),
        (t, n) => {
          expect(fnvHex(t, n)).toBe(referenceHex(t, n));
        },
      ),
      { seed: 31, numRuns: 300 },
    );
  });

  it('is stable and exactly len hex digits, for empty text too (the reference gave a minus sign there)', () => {
    expect(fnvHex('', 12)).toMatch(/^[0-9a-f]{12}$/);
    expect(fnvHex('nginx:alpine', 12)).toMatch(/^[0-9a-f]{12}$/);
    expect(fnvHex('nginx:alpine', 64)).toBe(fnvHex('nginx:alpine', 64));
    expect(fnvHex('nginx:alpine', 8)).not.toBe(fnvHex('nginx:1.25', 8));
  });
});

describe('the other ids and sizes the models derive from names', () => {
  it("a node's machineID, systemUUID and bootID are fnvHex(…, 32) of its name", () => {
    const info = nodeObject({ name: 'node-1' }, '2024-01-01T00:00:00Z').status as {
      nodeInfo: { machineID: string; systemUUID: string; bootID: string };
    };
    const uuid = (hex: string) => hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
    expect(info.nodeInfo.machineID).toBe(referenceHex('node-1', 32));
    expect(info.nodeInfo.systemUUID).toBe(uuid(referenceHex('uuid:node-1', 32)));
    expect(info.nodeInfo.bootID).toBe(uuid(referenceHex('boot:node-1', 32)));
  });

  it('imageSize is 10 MB plus the first FNV-1a round modulo 80 MB, as it has always been for ASCII', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 }), (image) => {
        expect(imageSize(image)).toBe(
          10_000_000 + (Number.parseInt(referenceHex(image, 8), 16) % 80_000_000),
        );
      }),
      { seed: 37, numRuns: 300 },
    );
    expect(imageSize('')).toBe(10_000_000 + (0x811c9dc5 % 80_000_000));
  });
});
