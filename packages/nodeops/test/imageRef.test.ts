// nodeops' image references: the string form of §2.1 normalize, and the shared parser re-exported
// from @kruise-ts/api (its own tests are packages/api/test/imageRef*.test.ts).
import * as api from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import { imageNameTag, imageParseError, normalizeImage, registryOf } from '../src/imageRef';
import * as nodeops from '../src/index';

const DIGEST = `sha256:${'a'.repeat(64)}`;

describe('docs/reference/daemon.md §2 image references (nodeops)', () => {
  it('2.1 normalize: default registry docker.io and namespace library, latest when no tag', () => {
    expect(normalizeImage('nginx')).toBe('docker.io/library/nginx:latest');
    expect(normalizeImage('foo/bar:1')).toBe('docker.io/foo/bar:1');
    expect(normalizeImage('reg:5000/x/y')).toBe('reg:5000/x/y:latest');
  });

  it('2.1 normalize: with both tag and digest the tag is dropped', () => {
    expect(normalizeImage(`a/b:t@${DIGEST}`)).toBe(`docker.io/a/b@${DIGEST}`);
  });

  it('2.1 an unparsable ref is an error', () => {
    expect(normalizeImage('Nginx')).toBeUndefined();
    expect(normalizeImage('')).toBeUndefined();
  });

  it('2.3 NodeImages are keyed with the same parser as the daemon: nodeops re-exports @kruise-ts/api', () => {
    expect(imageNameTag).toBe(api.imageNameTag);
    expect(registryOf).toBe(api.registryOf);
    expect(imageParseError).toBe(api.imageParseError);
    expect(nodeops.imageNameTag).toBe(api.imageNameTag);
    expect(nodeops.normalizeImage).toBe(normalizeImage);
  });
});
