import { describe, expect, it } from 'vitest';
import {
  findImage,
  imageContains,
  imageNameTag,
  isDigestTag,
  normalizeImage,
  pullReference,
  registryOf,
} from '../src/index';

const DIGEST = `sha256:${'a'.repeat(64)}`;

describe('§2 image references', () => {
  it('§2.1: normalize adds docker.io/library and latest, keeps the digest and drops the tag', () => {
    expect(normalizeImage('nginx')?.full).toBe('docker.io/library/nginx:latest');
    expect(normalizeImage('foo/bar:1')?.full).toBe('docker.io/foo/bar:1');
    expect(normalizeImage(`a/b:t@${DIGEST}`)?.full).toBe(`docker.io/a/b@${DIGEST}`);
    expect(normalizeImage('127.0.0.1:5000/a/b:v1')?.repository).toBe('127.0.0.1:5000/a/b');
  });

  it('§2.1: an unparsable reference is an error (undefined)', () => {
    expect(normalizeImage('')).toBeUndefined();
    expect(normalizeImage('Nginx')).toBeUndefined();
    expect(normalizeImage('a/b:bad:tag')).toBeUndefined();
    expect(imageNameTag('bad ref')).toBeUndefined();
  });

  it.each([
    ['nginx', 'nginx', 'latest'],
    ['docker.io/library/nginx:1.25', 'nginx', '1.25'],
    ['reg:5000/x/y', 'reg:5000/x/y', 'latest'],
    [`a/b:t@${DIGEST}`, 'a/b', DIGEST],
    ['docker.io/foo/bar:2', 'foo/bar', '2'],
  ])('§2.2: nameTag(%s) = (%s, %s)', (ref, name, tag) => {
    expect(imageNameTag(ref)).toEqual({ name, tag });
  });

  it('§2.4: registryOf is the text before the first slash, or the whole name', () => {
    expect(registryOf('reg:5000/x/y')).toBe('reg:5000');
    expect(registryOf('nginx')).toBe('nginx');
  });

  it('§2.5: an image contains (name, tag) when any repoTag normalises to it', () => {
    const img = {
      id: 'sha256:1',
      repoTags: ['docker.io/library/nginx:1.25', '127.0.0.1:5000/x:v1'],
      repoDigests: [],
    };
    expect(imageContains(img, 'nginx', '1.25')).toBe(true);
    expect(imageContains(img, '127.0.0.1:5000/x', 'v1')).toBe(true);
    expect(imageContains(img, 'nginx', 'latest')).toBe(false);
    expect(findImage([img], 'x', 'v1')).toBeUndefined();
  });

  it('§2.6 (conscious fix): a digest tag is pulled as name@digest and matched through repoDigests', () => {
    expect(isDigestTag(DIGEST)).toBe(true);
    expect(isDigestTag('v1')).toBe(false);
    expect(pullReference('a/b', DIGEST)).toBe(`a/b@${DIGEST}`);
    expect(pullReference('nginx', '1.25')).toBe('nginx:1.25');
    const img = { id: 'sha256:2', repoTags: [], repoDigests: [`docker.io/a/b@${DIGEST}`] };
    expect(imageContains(img, 'a/b', DIGEST)).toBe(true);
  });
});
