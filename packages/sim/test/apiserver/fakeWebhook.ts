// Shared fake HTTPS webhook of the API server tests (admission and CRD conversion webhooks): a
// server on a random loopback port with a throwaway self-signed openssl certificate, whose base64
// PEM is the caBundle the stored configurations trust. It records every review it receives and
// answers with whatever the test's handler returns (a handler that throws gives an HTTP 500).
// openssl is needed: tests skip themselves with a message where it is missing (`haveOpenssl`).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { missingFile, skipWithoutRealTool } from '../../../../test/support/realTools';

const OPENSSL = '/usr/bin/openssl';

/** The collection paths of the admission webhook configurations. */
export const MUTATING_CONFIGS = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
export const VALIDATING_CONFIGS = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';

/** Whether openssl is there; warns (naming `what` is skipped) where it is not. */
export function haveOpenssl(what: string): boolean {
  return !skipWithoutRealTool(what, missingFile(OPENSSL, existsSync));
}

/** One review the fake webhook received: the request path (with its query) and the parsed body. */
export interface ReceivedReview {
  path: string;
  review: any;
}

/**
 * Answers one review (AdmissionReview or ConversionReview) sent to `path`: the returned value (or
 * what the returned promise resolves to) is sent back as JSON with status 200; a throw gives 500.
 */
export type WebhookHandler = (review: any, path: string) => unknown;

export interface FakeWebhook {
  /** The certificate as a caBundle (base64 PEM). */
  readonly ca: string;
  readonly port: number;
  /** Every review received, oldest first (tests may empty it with `received.length = 0`). */
  readonly received: ReceivedReview[];
  /** `https://127.0.0.1:<port><path>`. */
  url(path: string): string;
  /** An admissionregistration.k8s.io/v1 webhook entry calling `path` of this server. */
  webhook(
    name: string,
    path: string,
    rules: unknown[],
    extra?: Record<string, unknown>,
  ): Record<string, unknown>;
  close(): Promise<void>;
}

/** Starts the fake webhook; its key and certificate are written to `dir`. */
export async function startFakeWebhook(dir: string, handle: WebhookHandler): Promise<FakeWebhook> {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    OPENSSL,
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  const ca = Buffer.from(readFileSync(cert)).toString('base64');
  const received: ReceivedReview[] = [];
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const path = req.url ?? '';
      void (async () => {
        try {
          const review = JSON.parse(body);
          received.push({ path, review });
          const answer = await handle(review, path);
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify(answer));
        } catch (e) {
          res.writeHead(500).end(String((e as Error)?.message ?? e));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = (path: string) => `https://127.0.0.1:${port}${path}`;
  return {
    ca,
    port,
    received,
    url,
    webhook: (name, path, rules, extra = {}) => ({
      name,
      clientConfig: { url: url(path), caBundle: ca },
      rules,
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      ...extra,
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An AdmissionReview v1 answer carrying `response`. */
export function admissionReview(response: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response };
}

/** The `patchType`/`patch` fields of an admission response applying the JSON Patch `ops`. */
export function jsonPatch(ops: unknown[]): { patchType: 'JSONPatch'; patch: string } {
  return { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') };
}
