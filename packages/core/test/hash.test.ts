import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  canonicalJSON,
  computeHash,
  fnv32,
  fnv32a,
  hashVolumeClaimTemplates,
  safeEncodeString,
} from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { PersistentVolumeClaim } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  canVolumeClaimTemplatesUpdateInPlace,
  getVolumeClaimTemplatesHash,
  SAFE_ALPHABET,
} from '../src/kube/hash';

const vctCases = JSON.parse(
  readFileSync(
    fileURLToPath(new URL('../../../testdata/upstream/core/vct_hash.json', import.meta.url)),
    'utf8',
  ),
);

describe('FNV-32', () => {
  it('FNV-1a reference vectors', () => {
    expect(fnv32a('')).toBe(0x811c9dc5);
    expect(fnv32a('a')).toBe(0xe40c292c);
    expect(fnv32a('foobar')).toBe(0xbf9cf968);
  });
  it('FNV-1 reference vectors', () => {
    expect(fnv32('')).toBe(0x811c9dc5);
    expect(fnv32('a')).toBe(0x050c5d7e);
    expect(fnv32('foobar')).toBe(0x31f0b262);
  });
  it('hashes UTF-8 bytes and can continue from a previous value', () => {
    expect(fnv32a('é')).toBe(fnv32a(new Uint8Array([0xc3, 0xa9])));
    expect(fnv32a('bar', fnv32a('foo'))).toBe(fnv32a('foobar'));
  });
});

describe('safeEncodeString', () => {
  it('maps each character to alphabet[code % 27]', () => {
    expect(safeEncodeString('123')).toBe('567');
    expect(safeEncodeString('1129974074')).toBe('556ffc84c8');
    expect(SAFE_ALPHABET).toBe('bcdfghjklmnpqrstvwxz2456789');
  });
});

describe('canonicalJSON and computeHash', () => {
  it('key order does not matter; undefined members are dropped', () => {
    expect(canonicalJSON({ b: 1, a: [{ d: 2, c: 3 }], u: undefined })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
  });
  it('equal values give equal hashes whatever the key order', () => {
    const t1 = {
      metadata: { labels: { a: '1', b: '2' } },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    };
    const t2 = {
      spec: { containers: [{ image: 'x', name: 'c' }] },
      metadata: { labels: { b: '2', a: '1' } },
    };
    expect(computeHash(t1)).toBe(computeHash(t2));
    expect(computeHash(t1, 3)).toBe(computeHash(t2, 3));
  });
  it('the collision count changes the hash; the hash uses only the safe alphabet', () => {
    const t = deepFreeze({ spec: { containers: [{ name: 'c', image: 'x' }] } });
    const hashes = new Set([computeHash(t), computeHash(t, 0), computeHash(t, 1), computeHash(t, 2)]);
    expect(hashes.size).toBe(4);
    for (const h of hashes) expect(h).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
  });
  it('is FNV-1a of the canonical JSON, then of the decimal collision count, safe-encoded', () => {
    const v = { a: 1 };
    expect(computeHash(v)).toBe(safeEncodeString(String(fnv32a('{"a":1}'))));
    expect(computeHash(v, 7)).toBe(safeEncodeString(String(fnv32a('{"a":1}7'))));
  });
  it('different content gives a different hash', () => {
    expect(computeHash({ image: 'nginx:1.25' })).not.toBe(computeHash({ image: 'nginx:1.26' }));
  });
});

describe('hashVolumeClaimTemplates (R1.3; Go values are spew-based, so properties are tested)', () => {
  const pvc = (
    name: string,
    storage: string,
    extra: Partial<PersistentVolumeClaim> = {},
  ): PersistentVolumeClaim => ({
    metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
    ...extra,
  });
  it('no templates → ""', () => {
    expect(hashVolumeClaimTemplates(undefined)).toBe('');
    expect(hashVolumeClaimTemplates([])).toBe('');
  });
  it('equal templates give equal hashes; order of the list does not matter', () => {
    const a = [pvc('data', '1Gi'), pvc('logs', '2Gi')];
    const b = [pvc('logs', '2Gi'), pvc('data', '1Gi')];
    expect(hashVolumeClaimTemplates(a)).toBe(hashVolumeClaimTemplates(b));
    expect(hashVolumeClaimTemplates(a)).toMatch(/^\d+$/);
  });
  it('the spec and the name matter; status and server-set metadata do not', () => {
    const base = hashVolumeClaimTemplates([pvc('data', '1Gi')]);
    expect(hashVolumeClaimTemplates([pvc('data', '2Gi')])).not.toBe(base);
    expect(hashVolumeClaimTemplates([pvc('data2', '1Gi')])).not.toBe(base);
    expect(hashVolumeClaimTemplates([pvc('data', '1Gi', { status: { phase: 'Bound' } })])).toBe(base);
    expect(
      hashVolumeClaimTemplates([
        { ...pvc('data', '1Gi'), metadata: { name: 'data', uid: 'u', resourceVersion: '9' } },
      ]),
    ).toBe(base);
  });
});

describe('upstream core/vct_hash.json', () => {
  for (const c of vctCases.cases) {
    it(c.id, () => {
      if (c.function === 'getVCTemplatesHash') {
        expect(getVolumeClaimTemplatesHash(c.input.revision)).toEqual(c.expected);
      } else if (c.function === 'canVCTemplateInplaceUpdate') {
        expect(canVolumeClaimTemplatesUpdateInPlace(c.input.oldRevision, c.input.newRevision)).toBe(
          c.expected.result,
        );
      } else {
        throw new Error(`unknown function ${c.function}`);
      }
    });
  }
  it('R1.3: an empty annotation map means the hash does not exist', () => {
    expect(getVolumeClaimTemplatesHash({ metadata: { annotations: {} } })).toEqual({
      hash: '',
      exists: false,
    });
    expect(
      canVolumeClaimTemplatesUpdateInPlace(
        { metadata: { annotations: { 'kruise.io/cloneset-volumeclaimtemplate-hash': '1' } } },
        { metadata: { annotations: { 'kruise.io/cloneset-volumeclaimtemplate-hash': '1' } } },
      ),
    ).toBe(true);
  });
});
