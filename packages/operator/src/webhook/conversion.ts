// The CRD conversion webhook (docs/reference/operator.md W2.2, W2.14): `/convert` answers ConversionReview
// v1 and v1beta1 for statefulsets.apps.kruise.io (v1alpha1 <-> v1beta1 through convertStatefulSet,
// docs/reference/statefulset.md §2.3), and the cert/config sync's CRD patching: every CRD whose conversion
// strategy is Webhook and whose (group, versions[0], kind) is a Kruise kind gets
// `conversion.webhook = {clientConfig: {caBundle, url | service}, conversionReviewVersions: [v1, v1beta1]}`
// when its clientConfig differs (a full UPDATE, nothing sent otherwise).
import { isKruiseKind, type KubeObject } from '@kruise-ts/api';
import { jsonEqual } from '@kruise-ts/core';
import { convertStatefulSet, isStatefulSetApiVersion } from '@kruise-ts/statefulset';
import { ensureOk, type KubeClient } from '../kube/client';
import { collectionPath, objectPath, resourceFor } from '../kube/resources';

/** The path of the conversion webhook (W2.2). */
export const CONVERT_PATH = '/convert';

/** The ConversionReview versions the handler speaks (and the CRDs are patched with). */
export const CONVERSION_REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;

/** The `result` of a ConversionReview response. */
export interface ConversionResult {
  status: 'Success' | 'Failure';
  message?: string;
}

/** The `response` of a ConversionReview. */
export interface ConversionResponse {
  uid: string;
  convertedObjects?: unknown[];
  result: ConversionResult;
}

type Json = Record<string, any>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Converts one object; a string is the reason it cannot be. */
function convertOne(obj: unknown, desired: string): KubeObject | string {
  if (!isObject(obj)) return 'an object to convert is not a JSON object';
  const gvk = `${obj.apiVersion}, Kind=${obj.kind}`;
  if (obj.kind !== 'StatefulSet' || !isStatefulSetApiVersion(obj.apiVersion))
    return `no conversion for ${gvk}: only apps.kruise.io StatefulSet (v1alpha1, v1beta1) is converted`;
  if (!isStatefulSetApiVersion(desired))
    return `cannot convert ${gvk} to ${desired}: StatefulSet is served at apps.kruise.io/v1alpha1 and apps.kruise.io/v1beta1`;
  return convertStatefulSet(obj as never, desired) as unknown as KubeObject;
}

/**
 * W2.2 `/convert`: answers one ConversionReview (`apiextensions.k8s.io/v1` or `/v1beta1`, echoed
 * in the answer). Every object must be an Advanced StatefulSet at v1alpha1 or v1beta1 and
 * `desiredAPIVersion` one of those two; then `result.status` is `Success` and
 * `convertedObjects` holds the conversions in request order (an object already at the desired
 * version is returned unchanged). Otherwise `result` is `{status: 'Failure', message}` and
 * nothing is converted. A body that is not a ConversionReview with a request is HTTP 400.
 *
 * Example: `{apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: {uid: 'u',
 * desiredAPIVersion: 'apps.kruise.io/v1beta1', objects: [<v1alpha1 StatefulSet>]}}` →
 * `{code: 200, body: {apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview',
 * response: {uid: 'u', result: {status: 'Success'}, convertedObjects: [<v1beta1 StatefulSet>]}}}`.
 */
export function convertReview(body: unknown): { code: number; body: unknown } {
  const apiVersion = isObject(body) ? body.apiVersion : undefined;
  if (
    !isObject(body) ||
    body.kind !== 'ConversionReview' ||
    (apiVersion !== 'apiextensions.k8s.io/v1' && apiVersion !== 'apiextensions.k8s.io/v1beta1')
  )
    return { code: 400, body: 'expected an apiextensions.k8s.io/v1 or v1beta1 ConversionReview' };
  const req = body.request;
  if (!isObject(req) || typeof req.uid !== 'string' || req.uid === '')
    return { code: 400, body: 'conversion request is missing or has no uid' };
  const answer = (response: ConversionResponse) => ({
    code: 200,
    body: { apiVersion, kind: 'ConversionReview', response },
  });
  const desired = req.desiredAPIVersion;
  const objects: unknown[] = Array.isArray(req.objects) ? req.objects : [];
  const converted: KubeObject[] = [];
  for (const o of objects) {
    const c = typeof desired === 'string' ? convertOne(o, desired) : 'desiredAPIVersion is missing';
    if (typeof c === 'string') return answer({ uid: req.uid, result: { status: 'Failure', message: c } });
    converted.push(c);
  }
  return answer({ uid: req.uid, result: { status: 'Success' }, convertedObjects: converted });
}

/** Where the conversion webhook is reached (the same inputs as the configurations' W2.13). */
export interface ConversionTarget {
  namespace: string;
  serviceName: string;
  /** `WEBHOOK_HOST`: `url: https://<host>:<port>/convert` instead of the Service. */
  host?: string;
  port: number;
}

/**
 * W2.14: the desired `conversion.webhook.clientConfig`: `caBundle` (base64 of the CA PEM) plus
 * `url: https://<host>:<port>/convert` when a host is set, else
 * `service: {namespace, name, port: 443, path: /convert}`.
 */
export function conversionClientConfig(caPem: string, t: ConversionTarget): Record<string, unknown> {
  const caBundle = Buffer.from(caPem).toString('base64');
  return t.host
    ? { url: `https://${t.host}:${t.port}${CONVERT_PATH}`, caBundle }
    : { service: { namespace: t.namespace, name: t.serviceName, port: 443, path: CONVERT_PATH }, caBundle };
}

/** W2.14's three conditions: strategy Webhook, versions non-empty, (group, versions[0], kind) a Kruise kind. */
export function isConversionCrd(crd: KubeObject): boolean {
  const spec = (crd as Json).spec;
  if (!isObject(spec) || spec.conversion?.strategy !== 'Webhook') return false;
  const versions = spec.versions;
  if (!Array.isArray(versions) || versions.length === 0 || !isObject(versions[0])) return false;
  return isKruiseKind(`${spec.group}/${versions[0].name}`, spec.names?.kind);
}

/**
 * W2.14 on one CRD (pure): the CRD with `spec.conversion.webhook` set to the desired clientConfig
 * and conversionReviewVersions [v1, v1beta1], or undefined when it is not a conversion CRD or its
 * clientConfig already equals the desired one.
 */
export function patchConversionCrd(
  crd: KubeObject,
  caPem: string,
  t: ConversionTarget,
): KubeObject | undefined {
  if (!isConversionCrd(crd)) return undefined;
  const spec = (crd as Json).spec as Json;
  const clientConfig = conversionClientConfig(caPem, t);
  const current = spec.conversion?.webhook?.clientConfig;
  if (current !== undefined && jsonEqual(current, clientConfig as never)) return undefined;
  return {
    ...crd,
    spec: {
      ...spec,
      conversion: {
        ...spec.conversion,
        webhook: { clientConfig, conversionReviewVersions: [...CONVERSION_REVIEW_VERSIONS] },
      },
    },
  } as KubeObject;
}

const CRD = resourceFor('apiextensions.k8s.io/v1', 'CustomResourceDefinition');

/**
 * W2.14: lists every CRD and UPDATEs each conversion CRD whose clientConfig differs (with the
 * resourceVersion read, so a concurrent writer makes this sync fail and retry). Returns the names
 * updated. Throws on API errors (a sync error, W2.15).
 */
export async function syncConversionCrds(
  client: KubeClient,
  caPem: string,
  t: ConversionTarget,
): Promise<string[]> {
  const list = ensureOk(
    await client.request('GET', collectionPath(CRD)),
    'list CustomResourceDefinitions',
  ) as {
    items?: KubeObject[];
  };
  const updated: string[] = [];
  for (const crd of list.items ?? []) {
    const next = patchConversionCrd({ ...crd, apiVersion: CRD.apiVersion, kind: CRD.kind }, caPem, t);
    if (!next) continue;
    const name = crd.metadata.name ?? '';
    ensureOk(
      await client.request('PUT', objectPath(CRD, undefined, name), { body: next }),
      `update CustomResourceDefinition ${name}`,
    );
    updated.push(name);
  }
  return updated;
}
