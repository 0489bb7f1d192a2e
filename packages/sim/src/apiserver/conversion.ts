// CRD version conversion, as kube-apiserver's apiextensions server does it: an object of a
// multi-version CRD is stored in the CRD's storage version (`versions[].storage: true`) and
// served in the version the request names. How a CRD converts:
// - `spec.conversion.strategy: None` (or no stanza): only `apiVersion` is rewritten;
// - `Webhook` with a `conversion.webhook.clientConfig` (url or service): a ConversionReview
//   (v1 or v1beta1, the first the CRD's `conversionReviewVersions` lists) is POSTed over HTTPS
//   trusting its caBundle; the answer is checked (uid, count, apiVersion, kind) and only labels
//   and annotations are taken from the returned metadata; any failure is a 500 Status
//   `Internal error occurred: conversion webhook for <gvk> failed: <why>`;
// - `Webhook` without a clientConfig, and every CRD with an in-process converter when the server
//   runs its own controllers (no external webhooks): the registered converter
//   (statefulsets.apps.kruise.io: convertStatefulSet).
// Built-in kinds have one version each; their objects are served as stored.
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '@kruise-ts/api';
import { isKind } from '@kruise-ts/core';
import {
  ADVANCED_STATEFULSET_KIND,
  convertStatefulSet,
  isStatefulSetApiVersion,
} from '@kruise-ts/statefulset';
import type { Simulation } from '../simulation';
import type { ResourceInfo } from './registry';
import { internalError, type StatusObject } from './status';
import { type ClientConfig, postJson } from './webhookClient';

/** Converts one object to `toApiVersion` (same group and kind); pure, never throws. */
export type InProcessConverter = (obj: KubeObject, toApiVersion: string) => KubeObject;

/** `strategy: None`: the object with only its apiVersion changed. */
export function rewriteApiVersion(obj: KubeObject, toApiVersion: string): KubeObject {
  return obj.apiVersion === toApiVersion ? obj : { ...obj, apiVersion: toApiVersion };
}

/**
 * The converters the server runs in process, by `<group>/<Kind>`: Advanced StatefulSet
 * (v1alpha1 <-> v1beta1, docs/reference/statefulset.md §2.3). AdvancedCronJob has none (its CRD's strategy
 * is None: only apiVersion changes).
 */
export const IN_PROCESS_CONVERTERS: ReadonlyMap<string, InProcessConverter> = new Map([
  [
    'apps.kruise.io/StatefulSet',
    (obj: KubeObject, to: string) =>
      // registered for the group's StatefulSets, so the kind check holds for every object given
      isStatefulSetApiVersion(to) && isKind(obj, ADVANCED_STATEFULSET_KIND)
        ? convertStatefulSet(obj, to)
        : rewriteApiVersion(obj, to),
  ],
]);

/** The outcome of converting a batch. */
export type Converted = { ok: true; objects: KubeObject[] } | { ok: false; status: StatusObject };

type Plan =
  | { how: 'rewrite' }
  | { how: 'in-process'; convert: InProcessConverter }
  | { how: 'webhook'; clientConfig: ClientConfig; reviewVersion: 'v1' | 'v1beta1' }
  | { how: 'fail'; message: string };

type Json = Record<string, any>;

/** How long the server waits for a conversion webhook (kube-apiserver: 30 s). */
const WEBHOOK_TIMEOUT_MS = 30_000;

const gvkString = (o: KubeObject) => `${o.apiVersion}, Kind=${o.kind}`;

/** Options of the conversion runner. */
export interface ConversionOptions {
  /**
   * True when the server runs its own controllers (no external webhooks): registered
   * converters are used whatever the CRD's strategy.
   */
  inProcess: boolean;
  /** The in-process converters (default IN_PROCESS_CONVERTERS). */
  converters?: ReadonlyMap<string, InProcessConverter>;
}

/** Converts objects of multi-version CRDs between their versions (reads CRDs from the store). */
export class ConversionRunner {
  private readonly converters: ReadonlyMap<string, InProcessConverter>;

  constructor(
    private readonly sim: Simulation,
    private readonly opts: ConversionOptions,
  ) {
    this.converters = opts.converters ?? IN_PROCESS_CONVERTERS;
  }

  private crd(res: ResourceInfo): Json | undefined {
    if (!res.custom) return undefined;
    return this.sim.store.get(
      'apiextensions.k8s.io/v1',
      'CustomResourceDefinition',
      undefined,
      `${res.plural}.${res.group}`,
    ) as Json | undefined;
  }

  /** The apiVersion objects of `res` are stored in (the CRD's storage version; else `res`'s own). */
  storageApiVersion(res: ResourceInfo): string {
    const versions = this.crd(res)?.spec?.versions;
    if (Array.isArray(versions)) {
      const v = versions.find((x: Json) => x?.storage === true && typeof x.name === 'string');
      if (v) return `${res.group}/${v.name}`;
    }
    return res.apiVersion;
  }

  private plan(res: ResourceInfo): Plan {
    const crd = this.crd(res);
    if (!crd) return { how: 'rewrite' };
    const registered = this.converters.get(`${res.group}/${res.kind}`);
    if (registered && this.opts.inProcess) return { how: 'in-process', convert: registered };
    const conversion = (crd.spec?.conversion ?? {}) as Json;
    if (conversion.strategy !== 'Webhook') return { how: 'rewrite' };
    const webhook = (conversion.webhook ?? {}) as Json;
    const cc = webhook.clientConfig as ClientConfig | undefined;
    if (!cc || (!cc.url && !cc.service))
      return registered ? { how: 'in-process', convert: registered } : { how: 'rewrite' };
    const listed: unknown[] = Array.isArray(webhook.conversionReviewVersions)
      ? webhook.conversionReviewVersions
      : [];
    const reviewVersion = listed.find((v) => v === 'v1' || v === 'v1beta1') as 'v1' | 'v1beta1' | undefined;
    if (!reviewVersion)
      return {
        how: 'fail',
        message: `no supported conversionReviewVersions (v1, v1beta1) in ${JSON.stringify(listed)}`,
      };
    return { how: 'webhook', clientConfig: cc, reviewVersion };
  }

  /**
   * Converts without I/O when the CRD allows it (apiVersion rewrite or an in-process converter);
   * undefined when a webhook call is needed.
   */
  convertSync(
    objs: readonly KubeObject[],
    res: ResourceInfo,
    toApiVersion: string,
  ): KubeObject[] | undefined {
    if (objs.every((o) => o.apiVersion === toApiVersion)) return objs as KubeObject[];
    const plan = this.plan(res);
    if (plan.how === 'rewrite') return objs.map((o) => rewriteApiVersion(o, toApiVersion));
    if (plan.how === 'in-process')
      return objs.map((o) => (o.apiVersion === toApiVersion ? o : plan.convert(o, toApiVersion)));
    return undefined;
  }

  /** Converts every object to `toApiVersion` (one ConversionReview for all that need it). */
  async convert(objs: readonly KubeObject[], res: ResourceInfo, toApiVersion: string): Promise<Converted> {
    const sync = this.convertSync(objs, res, toApiVersion);
    if (sync) return { ok: true, objects: sync };
    const plan = this.plan(res);
    const need = objs.filter((o) => o.apiVersion !== toApiVersion);
    const failed = (message: string): Converted => ({
      ok: false,
      status: internalError(`conversion webhook for ${gvkString(need[0])} failed: ${message}`),
    });
    if (plan.how === 'fail') return failed(plan.message);
    if (plan.how !== 'webhook') return { ok: true, objects: [...objs] };
    const uid = randomUUID();
    const apiVersion = `apiextensions.k8s.io/${plan.reviewVersion}`;
    const review = {
      apiVersion,
      kind: 'ConversionReview',
      request: { uid, desiredAPIVersion: toApiVersion, objects: need },
    };
    let reply: Json;
    try {
      reply = (await postJson(
        plan.clientConfig,
        JSON.stringify(review),
        WEBHOOK_TIMEOUT_MS,
        '?timeout=30s',
      )) as Json;
    } catch (e) {
      return failed((e as Error).message);
    }
    const checked = checkReview(reply, apiVersion, uid, need, toApiVersion);
    if (typeof checked === 'string') return failed(checked);
    let i = 0;
    return { ok: true, objects: objs.map((o) => (o.apiVersion === toApiVersion ? o : checked[i++])) };
  }
}

/** Validates a ConversionReview answer; the converted objects, or why it is unusable. */
function checkReview(
  reply: Json,
  apiVersion: string,
  uid: string,
  sent: readonly KubeObject[],
  toApiVersion: string,
): KubeObject[] | string {
  if (
    !reply ||
    typeof reply !== 'object' ||
    reply.kind !== 'ConversionReview' ||
    reply.apiVersion !== apiVersion
  )
    return `expected webhook response of ${apiVersion}, Kind=ConversionReview, got ${reply?.apiVersion}, Kind=${reply?.kind}`;
  const resp = reply.response as Json | undefined;
  if (!resp || typeof resp !== 'object') return 'no response provided';
  if (resp.uid !== uid) return `expected response.uid="${uid}", got "${resp.uid}"`;
  const result = (resp.result ?? {}) as Json;
  if (result.status !== 'Success') return String(result.message ?? 'conversion failed without a message');
  const converted = resp.convertedObjects;
  if (!Array.isArray(converted) || converted.length !== sent.length)
    return `returned ${Array.isArray(converted) ? converted.length : 0} objects, expected ${sent.length}`;
  const out: KubeObject[] = [];
  for (let i = 0; i < sent.length; i++) {
    const c = converted[i] as Json;
    const o = sent[i];
    if (!c || typeof c !== 'object' || Array.isArray(c)) return `invalid converted object at index ${i}`;
    if (c.apiVersion !== toApiVersion)
      return `invalid converted object at index ${i}: invalid apiVersion "${c.apiVersion}", expected "${toApiVersion}"`;
    if (c.kind !== o.kind)
      return `invalid converted object at index ${i}: invalid kind "${c.kind}", expected "${o.kind}"`;
    const meta = restoreObjectMeta(o, c);
    if (typeof meta === 'string') return `invalid converted object at index ${i}: ${meta}`;
    out.push({ ...(c as KubeObject), metadata: meta });
  }
  return out;
}

/** kube-apiserver keeps the original metadata and takes only labels and annotations from the webhook. */
function restoreObjectMeta(original: KubeObject, converted: Json): KubeObject['metadata'] | string {
  const m = converted.metadata;
  if (!m || typeof m !== 'object' || Array.isArray(m)) return 'missing metadata in converted object';
  const meta: Json = { ...original.metadata };
  for (const f of ['labels', 'annotations'] as const) {
    const v = (m as Json)[f];
    if (v === undefined || v === null) {
      delete meta[f];
      continue;
    }
    if (typeof v !== 'object' || Array.isArray(v))
      return `invalid metadata.${f} of type ${Array.isArray(v) ? 'array' : typeof v} in converted object`;
    for (const [k, x] of Object.entries(v))
      if (typeof x !== 'string') return `metadata.${f}[${k}] must be a string, but is ${typeof x}`;
    meta[f] = v;
  }
  return meta as KubeObject['metadata'];
}

/** What the handlers need: the runner, or nothing (apiVersion rewrite only). */
export interface HasConversion {
  conversion?: ConversionRunner;
}

/** Objects as served at `res`'s version (`toApiVersion` defaults to `res.apiVersion`). */
export function viewsOf(
  ctx: HasConversion,
  objs: readonly KubeObject[],
  res: ResourceInfo,
  toApiVersion = res.apiVersion,
): Promise<Converted> {
  if (!ctx.conversion)
    return Promise.resolve({ ok: true, objects: objs.map((o) => rewriteApiVersion(o, toApiVersion)) });
  return ctx.conversion.convert(objs, res, toApiVersion);
}

/** One object as served at `res`'s version (or at `toApiVersion`). */
export async function viewOf(
  ctx: HasConversion,
  obj: KubeObject,
  res: ResourceInfo,
  toApiVersion = res.apiVersion,
): Promise<{ ok: true; object: KubeObject } | { ok: false; status: StatusObject }> {
  const c = await viewsOf(ctx, [obj], res, toApiVersion);
  return c.ok ? { ok: true, object: c.objects[0] } : c;
}

/** The object in the storage version of its resource (what is written to the store). */
export function toStorage(
  ctx: HasConversion,
  obj: KubeObject,
  res: ResourceInfo,
): Promise<{ ok: true; object: KubeObject } | { ok: false; status: StatusObject }> {
  if (!ctx.conversion) return Promise.resolve({ ok: true, object: obj });
  return viewOf(ctx, obj, res, ctx.conversion.storageApiVersion(res));
}

/** Synchronous view when no webhook is needed (watch fan-out fast path); undefined otherwise. */
export function viewSync(ctx: HasConversion, obj: KubeObject, res: ResourceInfo): KubeObject | undefined {
  if (obj.apiVersion === res.apiVersion) return obj;
  if (!ctx.conversion) return rewriteApiVersion(obj, res.apiVersion);
  return ctx.conversion.convertSync([obj], res, res.apiVersion)?.[0];
}
