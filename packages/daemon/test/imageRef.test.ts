// The daemon's image-reference helpers: §2.5 CRI image matching and the §2.6 pull reference; the
// shared parser it re-exports is tested in packages/api/test/imageRef*.test.ts.
import * as api from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import {
  familiarName,
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
  it('§2.1: normalize (the shared parser) gives the full reference and the repository', () => {
    expect(normalizeImage('nginx')?.full).toBe('docker.io/library/nginx:latest');
    expect(normalizeImage(`a/b:t@${DIGEST}`)?.full).toBe(`docker.io/a/b@${DIGEST}`);
    expect(normalizeImage('127.0.0.1:5000/a/b:v1')?.repository).toBe('127.0.0.1:5000/a/b');
    expect(normalizeImage('Nginx')).toBeUndefined();
  });

  it('§2.3: NodeImages are keyed with the same parser as the controllers: the daemon re-exports @kruise-ts/api', () => {
    expect(normalizeImage).toBe(api.normalizeImageReference);
    expect(imageNameTag).toBe(api.imageNameTag);
    expect(registryOf).toBe(api.registryOf);
    expect(isDigestTag).toBe(api.isDigestTag);
    expect(familiarName).toBe(api.familiarName);
  });

  it('§2.5 + Docker rules: a repoTag under the legacy index.docker.io matches the familiar name', () => {
    const img = { id: 'sha256:3', repoTags: ['index.docker.io/library/nginx:1.25'], repoDigests: [] };
    expect(imageContains(img, 'nginx', '1.25')).toBe(true);
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
