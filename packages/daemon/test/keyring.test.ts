import type { Secret } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { buildKeyring, lookupCredentials, redactCredential, registryKeyMatches } from '../src/index';

const b64 = (s: string) => Buffer.from(s).toString('base64');
function dockerConfigJson(auths: Record<string, Record<string, string>>): Secret {
  return {
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': b64(JSON.stringify({ auths })) },
  };
}

function creds(secrets: Secret[], repo: string) {
  const kr = buildKeyring(secrets);
  if ('error' in kr) throw new Error(kr.error);
  return lookupCredentials(kr.keyring, repo);
}

describe('§7.7 item 3: pull-secret keyring', () => {
  it('3.1: dockerconfigjson with auth = base64(user:pass) yields username and password', () => {
    expect(creds([dockerConfigJson({ 'reg.io': { auth: b64('u:p:x') } })], 'reg.io/a/b')).toEqual([
      { username: 'u', password: 'p:x' },
    ]);
  });

  it('3.1: dockercfg and explicit username/password count; other secret types do not', () => {
    const cfg: Secret = {
      type: 'kubernetes.io/dockercfg',
      data: { '.dockercfg': b64(JSON.stringify({ 'https://reg.io/v1/': { username: 'a', password: 'b' } })) },
    };
    const opaque: Secret = {
      type: 'Opaque',
      data: { '.dockerconfigjson': b64(JSON.stringify({ auths: { 'reg.io': { auth: b64('x:y') } } })) },
    };
    expect(creds([cfg, opaque], 'reg.io/a/b')).toEqual([{ username: 'a', password: 'b' }]);
  });

  it('3.2: host globs and path prefixes match; the most specific key comes first', () => {
    expect(registryKeyMatches('*.example.com/team', 'reg.example.com/team/app')).toBe(true);
    expect(registryKeyMatches('*.example.com', 'example.com/team/app')).toBe(false);
    expect(registryKeyMatches('reg.io:5000', 'reg.io/a')).toBe(false);
    const s = dockerConfigJson({
      '127.0.0.1:5001': { username: 'host', password: '1' },
      '127.0.0.1:5001/private': { username: 'path', password: '2' },
    });
    expect(creds([s], '127.0.0.1:5001/private/busybox').map((c) => c.username)).toEqual(['path', 'host']);
    expect(creds([s], '127.0.0.1:5001/public/busybox').map((c) => c.username)).toEqual(['host']);
  });

  it('3.2: index.docker.io credentials serve docker.io repositories', () => {
    const s = dockerConfigJson({ 'https://index.docker.io/v1/': { username: 'hub', password: 'x' } });
    expect(creds([s], 'docker.io/library/nginx').map((c) => c.username)).toEqual(['hub']);
    expect(creds([s], 'quay.io/a/b')).toEqual([]);
  });

  it('3.1: secret entries come before node-level credentials', () => {
    const kr = buildKeyring([dockerConfigJson({ 'reg.io': { username: 'secret', password: '1' } })], {
      'reg.io': { username: 'node', password: '2' },
    });
    if ('error' in kr) throw new Error(kr.error);
    expect(lookupCredentials(kr.keyring, 'reg.io/x').map((c) => c.username)).toEqual(['secret', 'node']);
  });

  it('3.6: a malformed secret is an error, not a throw', () => {
    const bad: Secret = {
      type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': b64('{not json') },
    };
    const kr = buildKeyring([bad]);
    expect('error' in kr && kr.error).toMatch(/^failed to parse pull secrets: /);
  });

  it('redactCredential keeps only the username', () => {
    expect(redactCredential({ username: 'u', password: 'p' })).toEqual({ username: 'u' });
  });
});
