// Property: the metadata patch generated from (old, new) applied to old gives new (B.2 + B.4).
import fc from 'fast-check';
import type { ObjectMeta } from 'kubernetes-types/meta/v1';
import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch, createMetadataStrategicPatch } from '../src/json/strategicMerge';
import { deepFreeze } from '../src/testing';

/** Kubernetes' encoding of ObjectMeta: empty strings, maps and lists are omitted (B.1). */
function normalize(meta: ObjectMeta | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[k] = v;
  }
  return out;
}

const key = fc.stringMatching(/^[a-d][a-d/.<&]{0,3}$/);
const map = fc.option(fc.dictionary(key, fc.stringMatching(/^[a-c<>&]{0,2}$/), { maxKeys: 4 }), {
  nil: undefined,
});
const meta = fc.record(
  {
    name: fc.constantFrom('', 'p1', 'p2'),
    labels: map,
    annotations: map,
    finalizers: fc.uniqueArray(fc.constantFrom('f1', 'f2', 'f3', 'f4', 'example.com/x'), { maxLength: 4 }),
  },
  { requiredKeys: [] },
);

describe('strategic merge (property)', () => {
  it('apply({metadata: old}, createMetadataStrategicPatch(old, new)).metadata ≡ new', () => {
    fc.assert(
      fc.property(meta, meta, (oldMeta, newMeta) => {
        const patch = createMetadataStrategicPatch(deepFreeze(oldMeta), deepFreeze(newMeta));
        const out = applyStrategicMergePatch({ metadata: normalize(oldMeta) }, patch);
        expect(normalize(out.metadata as ObjectMeta)).toEqual(normalize(newMeta));
        if (JSON.stringify(normalize(oldMeta)) === JSON.stringify(normalize(newMeta)))
          expect(patch).toBe('{}');
      }),
    );
  });
});
