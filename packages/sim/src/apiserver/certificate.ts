// The API server's TLS certificate: a self-signed ECDSA P-256 certificate drawn at start, for
// `localhost`, 127.0.0.1, ::1 and the bind address. kubectl (client-go) sends a kubeconfig's
// bearer token only over TLS, so a server that requires the token must speak HTTPS; the
// kubeconfig carries this certificate as its `certificate-authority-data`, so clients verify
// the server instead of skipping verification. Node can sign but not build certificates, so the
// X.509 structure (RFC 5280) is written here in DER: a handful of tag-length-value encoders.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';

/** A certificate and its private key, PEM-encoded. */
export interface ServingCertificate {
  /** `-----BEGIN CERTIFICATE-----...`: served by the server, trusted by its clients. */
  cert: string;
  /** `-----BEGIN PRIVATE KEY-----...` (PKCS #8). */
  key: string;
}

/** One DER element: tag, definite length, content. */
function tlv(tag: number, content: Buffer): Buffer {
  const n = content.length;
  let len: Buffer;
  if (n < 0x80) len = Buffer.from([n]);
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    len = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), len, content]);
}

const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const explicit = (n: number, inner: Buffer) => tlv(0xa0 + n, inner);
const octets = (b: Buffer) => tlv(0x04, b);
const bits = (b: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), b]));
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]));
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));

/** An OBJECT IDENTIFIER from its dotted form, e.g. `2.5.29.17`. */
function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const out: number[] = [arcs[0] * 40 + arcs[1]];
  for (const arc of arcs.slice(2)) {
    const groups: number[] = [];
    for (let v = arc; ; v = Math.floor(v / 128)) {
      groups.unshift(v & 0x7f);
      if (v < 128) break;
    }
    for (let i = 0; i < groups.length - 1; i++) groups[i] |= 0x80;
    out.push(...groups);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 4.1.2.5). */
function time(d: Date): Buffer {
  const iso = d.toISOString(); // 2026-01-02T03:04:05.678Z
  const digits = iso.slice(0, 19).replace(/[-:T]/g, ''); // 20260102030405
  return d.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`))
    : tlv(0x18, Buffer.from(`${digits}Z`));
}

/** A subjectAltName entry: an IP address ([7], 4 or 16 bytes) or a DNS name ([2]). */
function altName(host: string): Buffer {
  const v = isIP(host);
  if (v === 4) return tlv(0x87, Buffer.from(host.split('.').map(Number)));
  if (v === 6) {
    const [head, tail = ''] = host.includes('::') ? host.split('::') : [host, undefined];
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    const groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
    const b = Buffer.alloc(16);
    groups.forEach((g, i) => {
      b.writeUInt16BE(Number.parseInt(g, 16) || 0, i * 2);
    });
    return tlv(0x87, b);
  }
  return tlv(0x82, Buffer.from(host, 'ascii'));
}

const YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * Draws a key pair and a self-signed certificate valid from an hour before `now` for a year,
 * named `kruise-ts-serve`, for `localhost`, `127.0.0.1`, `::1` and each of `hosts` (an IPv4
 * or IPv6 literal becomes an IP name, anything else a DNS name; `0.0.0.0`/`::` add nothing).
 * It is its own CA (basicConstraints CA, keyCertSign), so a kubeconfig can trust it as
 * `certificate-authority-data`, and a server certificate (digitalSignature, serverAuth).
 */
export function selfSignedCertificate(now: Date, hosts: readonly string[] = []): ServingCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const names = ['localhost', '127.0.0.1', '::1'];
  for (const h of hosts) {
    const bare = h.replace(/^\[(.*)\]$/, '$1');
    // an IPv4-mapped IPv6 literal (`::ffff:10.0.0.1`) is left out: clients name it by its IPv4 form
    const mapped = isIP(bare) === 6 && bare.includes('.');
    if (bare !== '' && bare !== '0.0.0.0' && bare !== '::' && !mapped && !names.includes(bare))
      names.push(bare);
  }
  // a Buffer is writable, so each certificate builds its own algorithm identifier
  const ecdsaWithSha256 = seq(oid('1.2.840.10045.4.3.2'));
  const serial = randomBytes(16);
  serial[0] = (serial[0] & 0x7f) | 0x01; // positive, minimal DER INTEGER
  const name = seq(set(seq(oid('2.5.4.3'), utf8('kruise-ts-serve'))));
  const extension = (id: string, critical: boolean, value: Buffer) =>
    seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));
  const tbs = seq(
    explicit(0, tlv(0x02, Buffer.from([2]))), // version v3
    tlv(0x02, serial),
    ecdsaWithSha256,
    name,
    seq(time(new Date(now.getTime() - 3600_000)), time(new Date(now.getTime() + YEAR_MS))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(
      3,
      seq(
        extension('2.5.29.19', true, seq(bool(true))), // basicConstraints: CA
        // keyUsage: digitalSignature (bit 0) and keyCertSign (bit 5); 2 unused bits
        extension('2.5.29.15', true, tlv(0x03, Buffer.from([0x02, 0x84]))),
        extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))), // extKeyUsage: serverAuth
        extension('2.5.29.17', false, seq(...names.map(altName))), // subjectAltName
      ),
    ),
  );
  const signature = sign('sha256', tbs, privateKey); // DER ECDSA-Sig-Value
  const der = seq(tbs, ecdsaWithSha256, bits(signature));
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n');
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${b64}${b64.endsWith('\n') ? '' : '\n'}-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
