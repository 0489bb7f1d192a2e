// docs/reference/daemon.md §2: the shared image-reference parser (normalise, (name, tag), registry, digest
// tags, parse errors) used by @kruise-ts/nodeops and @kruise-ts/daemon alike.
import { describe, expect, it } from 'vitest';
import {
  familiarName,
  imageNameTag,
  imageParseError,
  isDigestTag,
  normalizeImageReference,
  parseImageReference,
  registryOf,
} from '../src/index';

const DIGEST = `sha256:${'a'.repeat(64)}`;

describe('docs/reference/daemon.md §2 image references', () => {
  it('§2.1 normalize: default registry docker.io and namespace library, latest when no tag', () => {
    expect(normalizeImageReference('nginx')).toEqual({
      domain: 'docker.io',
      path: 'library/nginx',
      tag: 'latest',
      full: 'docker.io/library/nginx:latest',
      repository: 'docker.io/library/nginx',
    });
    expect(normalizeImageReference('foo/bar:1')?.full).toBe('docker.io/foo/bar:1');
    expect(normalizeImageReference('reg:5000/x/y')?.full).toBe('reg:5000/x/y:latest');
    expect(normalizeImageReference('127.0.0.1:5000/a/b:v1')?.repository).toBe('127.0.0.1:5000/a/b');
  });

  it('§2.1 normalize: with both tag and digest the tag is dropped and the digest kept', () => {
    const n = normalizeImageReference(`a/b:t@${DIGEST}`);
    expect(n?.full).toBe(`docker.io/a/b@${DIGEST}`);
    expect(n?.digest).toBe(DIGEST);
    expect(n?.tag).toBeUndefined();
  });

  it('§2.1 Docker rules: the legacy registry index.docker.io is docker.io', () => {
    expect(parseImageReference('index.docker.io/nginx')).toEqual({
      name: 'index.docker.io/nginx',
      domain: 'docker.io',
      path: 'library/nginx',
    });
    expect(normalizeImageReference('index.docker.io/a/b:1')?.full).toBe('docker.io/a/b:1');
  });

  it.each(['', 'Nginx', 'a/b:bad:tag', 'bad ref', 'a'.repeat(64)])(
    '§2.1 an unparsable ref (%j) is an error (undefined)',
    (ref) => {
      expect(normalizeImageReference(ref)).toBeUndefined();
      expect(imageNameTag(ref)).toBeUndefined();
    },
  );

  it.each([
    ['nginx', 'nginx', 'latest'],
    ['docker.io/library/nginx:1.25', 'nginx', '1.25'],
    ['reg:5000/x/y', 'reg:5000/x/y', 'latest'],
    [`a/b:t@${DIGEST}`, 'a/b', DIGEST],
    ['docker.io/foo/bar:2', 'foo/bar', '2'],
    ['127.0.0.1:5000/a/b', '127.0.0.1:5000/a/b', 'latest'],
    ['index.docker.io/library/nginx:1.25', 'nginx', '1.25'],
    ['docker.io/library/a/b:3', 'library/a/b', '3'],
  ])('§2.2 nameTag(%s) = (%s, %s)', (ref, name, tag) => {
    expect(imageNameTag(ref)).toEqual({ name, tag });
  });

  it('§2.2 familiar name: docker.io/library/ stripped for one component, docker.io/ stripped, others kept', () => {
    expect(familiarName('docker.io', 'library/nginx')).toBe('nginx');
    expect(familiarName('docker.io', 'foo/bar')).toBe('foo/bar');
    expect(familiarName('docker.io', 'library/a/b')).toBe('library/a/b');
    expect(familiarName('127.0.0.1:5000', 'a/b')).toBe('127.0.0.1:5000/a/b');
  });

  it('§2.4 registryOf: text before the first "/", or the whole name', () => {
    expect(registryOf('reg:5000/x/y')).toBe('reg:5000');
    expect(registryOf('nginx')).toBe('nginx');
  });

  it('§2.2 a digest in the tag slot is recognised as a digest tag', () => {
    expect(isDigestTag(DIGEST)).toBe(true);
    expect(isDigestTag('v1')).toBe(false);
    expect(isDigestTag('sha256:abc')).toBe(false);
  });

  it('§2.1, §3 validation: the webhook parse-error text for an unparsable image (Docker reference messages)', () => {
    expect(imageParseError('Nginx')).toBe('invalid reference format: repository name must be lowercase');
    expect(imageParseError('a b')).toBe('invalid reference format');
    expect(imageParseError('')).toBe('repository name must have at least one component');
    expect(imageParseError('nginx')).toBeUndefined();
    expect(imageParseError('index.docker.io/nginx')).toBeUndefined();
  });
});
