import { describe, expect, it } from 'vitest';
import { imageNameTag, imageParseError, normalizeImage, registryOf } from '../src/imageRef';

const DIGEST = `sha256:${'a'.repeat(64)}`;

describe('spec/daemon.md §2 image references', () => {
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
    expect(imageParseError('Nginx')).toBe('invalid reference format: repository name must be lowercase');
    expect(imageParseError('a b')).toBe('invalid reference format');
    expect(imageParseError('nginx')).toBeUndefined();
  });

  it.each([
    ['nginx', 'nginx', 'latest'],
    ['docker.io/library/nginx:1.25', 'nginx', '1.25'],
    ['reg:5000/x/y', 'reg:5000/x/y', 'latest'],
    [`a/b:t@${DIGEST}`, 'a/b', DIGEST],
    ['docker.io/foo/bar:2', 'foo/bar', '2'],
  ])('2.2 nameTag(%s) = (%s, %s)', (ref, name, tag) => {
    expect(imageNameTag(ref)).toEqual({ name, tag });
  });

  it('2.4 registryOf: text before the first "/", or the whole name', () => {
    expect(registryOf('reg:5000/x/y')).toBe('reg:5000');
    expect(registryOf('nginx')).toBe('nginx');
  });
});
