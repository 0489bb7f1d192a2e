// The package's own SHA-256 (pure TypeScript, so it runs in a browser) gives the very digests
// Node's crypto module gives, which is what the SidecarSet hashes were computed with before: the
// hashes written on existing objects stay the same. Node's crypto is used here, in the test only,
// as the reference.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sidecarSetHash, sidecarSetHashWithoutImage } from '../src/hash';
import { sha256Hex, sha256HexOfBytes, utf8Bytes } from '../src/sha256';

const nodeSha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('sha256Hex', () => {
  it('matches the FIPS 180-4 examples', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  // Lengths around the block and padding boundaries (55/56 bytes: the length field moves to a
  // second block; 64: a whole block), non-ASCII text of every UTF-8 width, and lone surrogates.
  const fixed = [
    ...[0, 1, 54, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000].map((n) => 'x'.repeat(n)),
    'sidecarset',
    'é',
    '日本語のテキスト',
    '😀 emoji and 𝄞',
    '\u0000\u007f\u0080\u07ff\u0800\uffff',
    'lone high \ud800 surrogate',
    'lone low \udc00 surrogate',
    'ends on a high surrogate \udbff',
    '{"containers":[{"name":"container1","image":"test-image","resources":{},"upgradeStrategy":{},"shareVolumePolicy":{}}]}',
    'a'.repeat(100_003),
  ];
  it.each(fixed.map((t) => [t.length > 40 ? `${t.slice(0, 40)}… (${t.length})` : t, t]))(
    'equals node:crypto for %j',
    (_label, text) => {
      expect(sha256Hex(text)).toBe(nodeSha256(text));
    },
  );

  it('equals node:crypto for any string (fast-check, fixed seed)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 300 }),
        (text) => sha256Hex(text) === nodeSha256(text),
      ),
      { seed: 24, numRuns: 500 },
    );
  });

  it('encodes UTF-8 as Node does, lone surrogates included', () => {
    for (const t of ['a\ud800b', '\udfff', '😀', 'ß€']) {
      expect([...utf8Bytes(t)]).toEqual([...Buffer.from(t, 'utf8')]);
    }
  });

  it('hashes raw bytes', () => {
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) & 0xff);
    expect(sha256HexOfBytes(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
  });
});

describe('the SidecarSet hashes are unchanged', () => {
  // docs/reference/sidecarset.md SS-2.5: the worked example's hash, as the Node-based version gave it.
  it('keeps the worked example of SS-2.5', () => {
    const ss = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'SidecarSet',
      metadata: { name: 'test' },
      spec: { containers: [{ name: 'container1', image: 'test-image' }] },
    } as const;
    expect(sidecarSetHash(ss as never)).toBe(
      'w26c4x8fz245642fdv499b464248f974xddx4x55z5dw55bc6x66464fxz77dc78',
    );
    const other = { ...ss, spec: { containers: [{ name: 'container1', image: 'other-image' }] } };
    expect(sidecarSetHashWithoutImage(other as never)).toBe(sidecarSetHashWithoutImage(ss as never));
  });
});
