// The server's self-signed certificate as Node's X.509 parser and TLS stack read it: names,
// validity, CA and server-auth usage, a signature by its own key, and a TLS connection that
// trusts it as CA for 127.0.0.1 and localhost.
import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../src/apiserver/certificate';

const NOW = new Date('2026-03-01T12:00:00Z');

describe('selfSignedCertificate', () => {
  it('names localhost, 127.0.0.1 and ::1, is valid from an hour before now for a year, and is its own CA', () => {
    const c = selfSignedCertificate(NOW);
    const x = new X509Certificate(c.cert);
    expect(x.subject).toBe('CN=kruise-ts-serve');
    expect(x.issuer).toBe('CN=kruise-ts-serve');
    expect(x.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(new Date(x.validFrom).toISOString()).toBe('2026-03-01T11:00:00.000Z');
    expect(new Date(x.validTo).toISOString()).toBe('2027-03-01T12:00:00.000Z');
    expect([x.checkIP('127.0.0.1'), x.checkIP('::1'), x.checkHost('localhost')]).toEqual([
      '127.0.0.1',
      '::1',
      'localhost',
    ]);
    expect(x.checkIP('10.0.0.1')).toBeUndefined();
    expect(x.ca).toBe(true);
    expect(x.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(x.verify(x.publicKey)).toBe(true);
    expect(x.checkPrivateKey(createPrivateKey(c.key))).toBe(true);
    expect(createPublicKey(c.key).asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
  });

  it('adds a bind address (IP or name) but not the wildcard addresses', () => {
    const x = new X509Certificate(
      selfSignedCertificate(NOW, ['10.1.2.3', 'dev.example', '0.0.0.0', '::', '[fe80::1]']).cert,
    );
    expect(x.subjectAltName).toBe(
      'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:10.1.2.3, DNS:dev.example, IP Address:FE80:0:0:0:0:0:0:1',
    );
  });

  it('draws a new key and serial each time', () => {
    const a = new X509Certificate(selfSignedCertificate(NOW).cert);
    const b = new X509Certificate(selfSignedCertificate(NOW).cert);
    expect(a.serialNumber).not.toBe(b.serialNumber);
    expect(a.fingerprint256).not.toBe(b.fingerprint256);
  });

  it('a TLS client trusting it as CA connects to 127.0.0.1, by address and as localhost', async () => {
    const c = selfSignedCertificate(new Date());
    const server = createServer({ key: c.key, cert: c.cert }, (_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    try {
      for (const servername of [undefined, 'localhost']) {
        const authorized = await new Promise<boolean>((resolve, reject) => {
          const sock = connect(
            { host: '127.0.0.1', port, ca: c.cert, ...(servername ? { servername } : {}) },
            () => {
              resolve(sock.authorized);
              sock.end();
            },
          );
          sock.on('error', reject);
        });
        expect(authorized, servername ?? '127.0.0.1').toBe(true);
      }
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
