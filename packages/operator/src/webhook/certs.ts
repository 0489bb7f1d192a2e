// Webhook serving certificates (docs/reference/operator.md §2.7–§2.8, W2.6–W2.10): a self-signed CA and a
// serving certificate for `<service>.<namespace>.svc` (plus `localhost`, and an IP SAN when the
// host is an IPv4 address), generated with node-forge (RSA keys from node:crypto for speed),
// stored in the Secret `kruise-webhook-certs` with both key aliases, reused while valid, and
// raced safely between replicas (AlreadyExists → read the winner's; update with resourceVersion).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import { ensureOk, type KubeClient } from '../kube/client';
import { collectionPath, objectPath, resourceFor } from '../kube/resources';

/** A certificate set (PEM). */
export interface CertSet {
  caKey: string;
  caCert: string;
  key: string;
  cert: string;
}

const YEAR_MS = 365 * 24 * 3600 * 1000;

function rsaKeyPair(): forge.pki.rsa.KeyPair {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'pkcs1', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  const priv = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { privateKey: priv, publicKey: forge.pki.setRsaPublicKey(priv.n, priv.e) };
}

function serial(): string {
  // random in [0, 2^63−1) (W2.8 step 3), as positive hex
  const b = randomBytes(8);
  b[0] &= 0x7f;
  return b.toString('hex');
}

const isIPv4 = (h: string) => /^(\d{1,3})(\.\d{1,3}){3}$/.test(h);

/** W2.6: the DNS name: `WEBHOOK_HOST`, else `<service>.<namespace>.svc`. */
export function webhookDnsName(o: { host?: string; serviceName: string; namespace: string }): string {
  return o.host ? o.host : `${o.serviceName}.${o.namespace}.svc`;
}

/**
 * W2.8: a new serving certificate signed by the given CA (or a new CA: RSA 2048, CN
 * `webhook-cert-ca`, 10 years). Serving cert: CN = dnsName, ServerAuth, 10 years, SANs
 * `localhost` + the name (an IP SAN when it is an IPv4 address).
 */
export function generateCerts(dnsName: string, now: Date, ca?: { caKey: string; caCert: string }): CertSet {
  let caKey: forge.pki.rsa.PrivateKey;
  let caCert: forge.pki.Certificate;
  if (ca) {
    caKey = forge.pki.privateKeyFromPem(ca.caKey) as forge.pki.rsa.PrivateKey;
    caCert = forge.pki.certificateFromPem(ca.caCert);
  } else {
    const kp = rsaKeyPair();
    caKey = kp.privateKey;
    caCert = forge.pki.createCertificate();
    caCert.publicKey = kp.publicKey;
    caCert.serialNumber = serial();
    caCert.validity.notBefore = now;
    caCert.validity.notAfter = new Date(now.getTime() + 10 * YEAR_MS);
    const subject = [{ name: 'commonName', value: 'webhook-cert-ca' }];
    caCert.setSubject(subject);
    caCert.setIssuer(subject);
    caCert.setExtensions([
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, digitalSignature: true, keyEncipherment: true, critical: true },
    ]);
    caCert.sign(caKey, forge.md.sha256.create());
  }
  const kp = rsaKeyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = kp.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = caCert.validity.notBefore;
  cert.validity.notAfter = new Date(now.getTime() + 10 * YEAR_MS);
  cert.setSubject([{ name: 'commonName', value: dnsName }]);
  cert.setIssuer(caCert.subject.attributes);
  const altNames: Array<{ type: number; value?: string; ip?: string }> = [{ type: 2, value: 'localhost' }];
  if (isIPv4(dnsName)) altNames.push({ type: 7, ip: dnsName });
  else altNames.push({ type: 2, value: dnsName });
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return {
    caKey: forge.pki.privateKeyToPem(caKey),
    caCert: forge.pki.certificateToPem(caCert),
    key: forge.pki.privateKeyToPem(kp.privateKey),
    cert: forge.pki.certificateToPem(cert),
  };
}

/**
 * W2.9: a stored set is valid when all parts are present, key and cert match, and the cert
 * verifies against the CA for `dnsName` at `now + renewBeforeMs`.
 */
export function certsValid(c: Partial<CertSet>, dnsName: string, at: Date): boolean {
  if (!c.caCert || !c.cert || !c.key || !c.caKey) return false;
  try {
    const ca = forge.pki.certificateFromPem(c.caCert);
    const cert = forge.pki.certificateFromPem(c.cert);
    const key = forge.pki.privateKeyFromPem(c.key) as forge.pki.rsa.PrivateKey;
    const pub = cert.publicKey as forge.pki.rsa.PublicKey;
    if (pub.n.compareTo(key.n) !== 0) return false;
    if (!ca.verify(cert)) return false;
    if (at < cert.validity.notBefore || at > cert.validity.notAfter) return false;
    if (at > ca.validity.notAfter) return false;
    const san = cert.getExtension('subjectAltName') as {
      altNames?: Array<{ value?: string; ip?: string }>;
    } | null;
    return (san?.altNames ?? []).some((a) => a.value === dnsName || a.ip === dnsName);
  } catch {
    return false;
  }
}

/**
 * W2.9 `CERTS_RENEW_BEFORE`, with kruise's unit bug kept: `d` = 7 h, `m` = 30 h, `y` = 365 h;
 * anything unparsable or ≤ 0 → 180 days. Example: "6m" → 6 × 30 h = 180 h.
 */
export function parseRenewBefore(v: string | undefined): number {
  const def = 180 * 24 * 3600 * 1000;
  const m = /^(-?\d+)([dmy])$/.exec(v ?? '');
  if (!m) return def;
  const hours = { d: 7, m: 30, y: 365 }[m[2] as 'd' | 'm' | 'y'];
  const ms = Number(m[1]) * hours * 3600 * 1000;
  return ms > 0 ? ms : def;
}

const SECRET = resourceFor('v1', 'Secret');
const b64 = (s: string) => Buffer.from(s).toString('base64');
const unb64 = (s: string | undefined) => (s ? Buffer.from(s, 'base64').toString('utf8') : undefined);

function secretData(c: CertSet): Record<string, string> {
  return {
    'ca-key.pem': b64(c.caKey),
    'ca-cert.pem': b64(c.caCert),
    'key.pem': b64(c.key),
    'tls.key': b64(c.key),
    'cert.pem': b64(c.cert),
    'tls.crt': b64(c.cert),
  };
}

function fromSecret(data: Record<string, string> | undefined): Partial<CertSet> {
  return {
    caKey: unb64(data?.['ca-key.pem']),
    caCert: unb64(data?.['ca-cert.pem']),
    key: unb64(data?.['key.pem']),
    cert: unb64(data?.['cert.pem']),
  };
}

/** Where the certs live and for which name. */
export interface CertStoreOptions {
  namespace: string;
  secretName: string;
  dnsName: string;
  renewBeforeMs: number;
}

/**
 * W2.10: ensure the Secret holds a valid set and return it. NotFound → generate + create
 * (AlreadyExists → another replica won: read theirs); invalid or empty → regenerate (reusing a CA
 * valid for another year, W2.8 step 1) and update with the read resourceVersion (409 throws; the
 * sync loop retries).
 */
export async function ensureCerts(
  client: KubeClient,
  o: CertStoreOptions,
  now = new Date(),
): Promise<CertSet> {
  const path = objectPath(SECRET, o.namespace, o.secretName);
  const got = await client.request('GET', path);
  const renewAt = new Date(now.getTime() + o.renewBeforeMs);
  if (got.status === 404) {
    const certs = generateCerts(o.dnsName, now);
    const res = await client.request('POST', collectionPath(SECRET, o.namespace), {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: o.secretName, namespace: o.namespace },
        type: 'Opaque',
        data: secretData(certs),
      },
    });
    if (res.status === 409) return ensureCerts(client, o, now);
    ensureOk(res, 'create webhook cert secret');
    return certs;
  }
  const secret = ensureOk(got, 'get webhook cert secret') as {
    metadata: { resourceVersion?: string };
    data?: Record<string, string>;
  };
  const stored = fromSecret(secret.data);
  if (certsValid(stored, o.dnsName, renewAt)) return stored as CertSet;
  const yearOn = new Date(now.getTime() + YEAR_MS);
  const reuseCa =
    stored.caKey && stored.caCert && caValid(stored.caKey, stored.caCert, yearOn)
      ? { caKey: stored.caKey, caCert: stored.caCert }
      : undefined;
  const certs = generateCerts(o.dnsName, now, reuseCa);
  const res = await client.request('PUT', path, {
    body: { ...secret, data: { ...(secret.data ?? {}), ...secretData(certs) } },
  });
  ensureOk(res, 'update webhook cert secret');
  return certs;
}

function caValid(caKey: string, caCert: string, at: Date): boolean {
  try {
    const cert = forge.pki.certificateFromPem(caCert);
    const key = forge.pki.privateKeyFromPem(caKey) as forge.pki.rsa.PrivateKey;
    return (
      (cert.publicKey as forge.pki.rsa.PublicKey).n.compareTo(key.n) === 0 &&
      cert.verify(cert) &&
      at >= cert.validity.notBefore &&
      at <= cert.validity.notAfter
    );
  } catch {
    return false;
  }
}
