// Properties of the shared image-reference parser (docs/reference/daemon.md §2): normalising is idempotent,
// and the (name, tag) key survives normalisation and re-joining (so controllers and daemon agree).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { imageNameTag, isDigestTag, normalizeImageReference } from '../src/index';

const comp = fc.stringMatching(/^[a-z0-9]{1,6}(?:[._-][a-z0-9]{1,4})?$/);
const domain = fc.constantFrom(
  undefined,
  'docker.io',
  'index.docker.io',
  'reg:5000',
  'localhost',
  '127.0.0.1:5000',
);
const tag = fc.option(fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,10}$/), { nil: undefined });
const digest = fc.option(
  fc.stringMatching(/^[0-9a-f]{64}$/).map((h) => `sha256:${h}`),
  { nil: undefined },
);
const ref = fc
  .record({ domain, path: fc.array(comp, { minLength: 1, maxLength: 3 }), tag, digest })
  .map(
    (r) =>
      `${r.domain ? `${r.domain}/` : ''}${r.path.join('/')}${r.tag ? `:${r.tag}` : ''}${r.digest ? `@${r.digest}` : ''}`,
  );

describe('§2 image reference properties', () => {
  it('§2.1 normalize is idempotent and every generated reference parses', () => {
    fc.assert(
      fc.property(ref, (r) => {
        const n = normalizeImageReference(r);
        expect(n).toBeDefined();
        expect(normalizeImageReference(n?.full ?? '')?.full).toBe(n?.full);
      }),
    );
  });

  it('§2.2 nameTag is unchanged by normalisation and by re-joining name and tag', () => {
    fc.assert(
      fc.property(ref, (r) => {
        const nt = imageNameTag(r);
        expect(nt).toBeDefined();
        if (!nt) return;
        expect(imageNameTag(normalizeImageReference(r)?.full ?? '')).toEqual(nt);
        const sep = isDigestTag(nt.tag) ? '@' : ':';
        expect(imageNameTag(`${nt.name}${sep}${nt.tag}`)).toEqual(nt);
      }),
    );
  });
});
