// The in-place update annotations (docs/reference/core.md 2.7): encoders with Go's field order and
// decoders that accept the legacy keys and unknown/missing fields.
import {
  ANNOTATION_INPLACE_UPDATE_GRACE,
  ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY,
  ANNOTATION_INPLACE_UPDATE_STATE,
  ANNOTATION_INPLACE_UPDATE_STATE_LEGACY,
  ANNOTATION_RUNTIME_CONTAINERS_META,
  type InPlaceUpdateSpec,
  type InPlaceUpdateState,
  type RuntimeContainerMetaSet,
} from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import { deepFreeze } from '../../json/deepFreeze';
import { compareStringsBytewise, goJsonStringify } from '../../json/goJson';
import { IN_PLACE_DECODE_MEMO_SIZE, type InPlaceCache } from './cache';
import { isEmptyMap } from './internal';

/** A decode result: the value, or an error message naming what is wrong. */
export type Decoded<T> = { ok: true; value: T } | { ok: false; error: string };

// ---- base64 (the grace annotation stores metaDataPatch as a Go []byte) -------------------

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 (with padding) of the UTF-8 bytes of `text`. Example: `"{}"` → `"e30="`. */
export function base64EncodeUtf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i]!;
    const b1 = bytes[i + 1];
    const b2 = bytes[i + 2];
    out += B64[b0 >> 2]! + B64[((b0 & 3) << 4) | ((b1 ?? 0) >> 4)]!;
    out += b1 === undefined ? '=' : B64[((b1 & 15) << 2) | ((b2 ?? 0) >> 6)]!;
    out += b2 === undefined ? '=' : B64[b2 & 63]!;
  }
  return out;
}

/** Decodes standard base64 (padding optional, CR/LF ignored) to UTF-8 text; undefined when malformed. */
export function base64DecodeUtf8(b64: string): string | undefined {
  const clean = b64.replace(/[\r\n]/g, '').replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(clean) || clean.length % 4 === 1) return undefined;
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const ch of clean) {
    buffer = (buffer << 6) | B64.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

// ---- 2.7.1 state --------------------------------------------------------------------------

function encodeObjectMeta(m: ObjectMeta): Record<string, unknown> {
  // Go field order of ObjectMeta for what the state carries: creationTimestamp is a struct
  // (never omitted, null when zero), then labels and annotations (omitted when empty).
  const out: Record<string, unknown> = { creationTimestamp: m.creationTimestamp ?? null };
  if (!isEmptyMap(m.labels)) out.labels = m.labels;
  if (!isEmptyMap(m.annotations)) out.annotations = m.annotations;
  return out;
}

/** A map of name → ObjectMeta with sorted names and each meta in Go's field order. */
function encodeMetaMap(m: Record<string, ObjectMeta>): string {
  const inner = Object.keys(m)
    .sort(compareStringsBytewise)
    .map((k) => {
      const fields = Object.entries(encodeObjectMeta(m[k]!)).map(([f, v]) => `"${f}":${goJsonStringify(v)}`);
      return `${goJsonStringify(k)}:{${fields.join(',')}}`;
    });
  return `{${inner.join(',')}}`;
}

function mapValues<V, W>(m: Record<string, V>, f: (v: V) => W): Record<string, W> {
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, f(v)]));
}

/**
 * JSON of an InPlaceUpdateState in Go's field order (2.7.1): `revision`, `updateTimestamp`
 * (`null` when zero), `lastContainerStatuses` (`null` when never set), the three `update*`
 * flags (omitted when false), the `next*` maps, `preCheckBeforeNext` and
 * `containerBatchesRecord` (omitted when empty). Map keys are sorted, strings escaped as Go does.
 * With a `cache` ({@link InPlaceCache}) a state equal to the last one encoded reuses its text.
 */
export function encodeInPlaceUpdateState(state: InPlaceUpdateState, cache?: InPlaceCache): string {
  if (cache === undefined) return encodeStateText(state);
  // The pods of one update wave carry equal states (same revision, timestamp, image IDs and
  // batch record): the cache keeps the last state encoded as a private snapshot, and a state
  // equal to it in every encoded field returns the same text without re-escaping it.
  const last = cache.lastEncoded;
  if (last !== undefined && sameEncodedState(last.state, state)) return last.text;
  const text = encodeStateText(state);
  if (isEmptyMap(state.nextContainerRefMetadata) && isEmptyMap(state.nextContainerResources))
    cache.lastEncoded = { state: structuredClone(state), text };
  return text;
}

/**
 * Do `a` (a memo snapshot without `nextContainerRefMetadata`/`nextContainerResources`) and `b`
 * encode to the same text? Compares exactly what {@link encodeStateText} writes: the flags by
 * truthiness, an image ID by its text (`""` and absent both give `{}`), maps by key set.
 */
function sameEncodedState(a: InPlaceUpdateState, b: InPlaceUpdateState): boolean {
  if (
    (a.revision ?? '') !== (b.revision ?? '') ||
    (a.updateTimestamp ?? null) !== (b.updateTimestamp ?? null) ||
    !a.updateEnvFromMetadata !== !b.updateEnvFromMetadata ||
    !a.updateResources !== !b.updateResources ||
    !a.updateImages !== !b.updateImages ||
    !isEmptyMap(b.nextContainerRefMetadata) ||
    !isEmptyMap(b.nextContainerResources) ||
    !sameStringMap(a.nextContainerImages, b.nextContainerImages) ||
    !a.preCheckBeforeNext !== !b.preCheckBeforeNext ||
    !sameStrings(a.preCheckBeforeNext?.containersRequiredReady, b.preCheckBeforeNext?.containersRequiredReady)
  )
    return false;
  const la = a.lastContainerStatuses;
  const lb = b.lastContainerStatuses;
  if (!la || !lb) {
    if (!la !== !lb) return false;
  } else {
    if (Object.keys(la).length !== Object.keys(lb).length) return false;
    for (const k in lb) {
      if (!Object.hasOwn(lb, k)) continue;
      if (!Object.hasOwn(la, k) || (la[k]?.imageID || '') !== (lb[k]?.imageID || '')) return false;
    }
  }
  const ra = a.containerBatchesRecord ?? [];
  const rb = b.containerBatchesRecord ?? [];
  if (ra.length !== rb.length) return false;
  for (let i = 0; i < ra.length; i++) {
    const r = rb[i];
    if (r == null || (ra[i]!.timestamp ?? null) !== (r.timestamp ?? null)) return false;
    const ca = ra[i]!.containers;
    const cb = r.containers;
    if ((ca == null) !== (cb == null) || !sameStrings(ca, cb)) return false;
  }
  return true;
}

/** Equal string lists (absent = empty). */
function sameStrings(
  a: readonly string[] | null | undefined,
  b: readonly string[] | null | undefined,
): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** Equal string maps (absent = empty; key order is irrelevant: the encoder sorts keys). */
function sameStringMap(
  a: Readonly<Record<string, string>> | null | undefined,
  b: Readonly<Record<string, string>> | null | undefined,
): boolean {
  const x = a ?? {};
  const y = b ?? {};
  if (Object.keys(x).length !== Object.keys(y).length) return false;
  for (const k in y) if (Object.hasOwn(y, k) && (!Object.hasOwn(x, k) || x[k] !== y[k])) return false;
  return true;
}

/** The JSON text of {@link encodeInPlaceUpdateState}, built without the memo. */
function encodeStateText(state: InPlaceUpdateState): string {
  const parts: string[] = [
    `"revision":${goJsonStringify(state.revision ?? '')}`,
    `"updateTimestamp":${goJsonStringify(state.updateTimestamp ?? null)}`,
    `"lastContainerStatuses":${
      state.lastContainerStatuses
        ? goJsonStringify(
            mapValues(state.lastContainerStatuses, (s) => (s.imageID ? { imageID: s.imageID } : {})),
          )
        : 'null'
    }`,
  ];
  if (state.updateEnvFromMetadata) parts.push('"updateEnvFromMetadata":true');
  if (state.updateResources) parts.push('"updateResources":true');
  if (state.updateImages) parts.push('"updateImages":true');
  if (!isEmptyMap(state.nextContainerImages))
    parts.push(`"nextContainerImages":${goJsonStringify(state.nextContainerImages)}`);
  if (!isEmptyMap(state.nextContainerRefMetadata))
    parts.push(`"nextContainerRefMetadata":${encodeMetaMap(state.nextContainerRefMetadata!)}`);
  if (!isEmptyMap(state.nextContainerResources)) {
    const res = mapValues(state.nextContainerResources!, (r) => {
      const fields: string[] = [];
      if (!isEmptyMap(r.limits)) fields.push(`"limits":${goJsonStringify(r.limits)}`);
      if (!isEmptyMap(r.requests)) fields.push(`"requests":${goJsonStringify(r.requests)}`);
      return `{${fields.join(',')}}`;
    });
    const inner = Object.keys(res)
      .sort(compareStringsBytewise)
      .map((k) => `${goJsonStringify(k)}:${res[k]}`);
    parts.push(`"nextContainerResources":{${inner.join(',')}}`);
  }
  const names = state.preCheckBeforeNext?.containersRequiredReady;
  if (state.preCheckBeforeNext) {
    parts.push(
      `"preCheckBeforeNext":${names && names.length > 0 ? `{"containersRequiredReady":${goJsonStringify(names)}}` : '{}'}`,
    );
  }
  if (state.containerBatchesRecord && state.containerBatchesRecord.length > 0) {
    const records = state.containerBatchesRecord.map(
      (r) =>
        `{"timestamp":${goJsonStringify(r.timestamp ?? null)},"containers":${goJsonStringify(r.containers ?? null)}}`,
    );
    parts.push(`"containerBatchesRecord":[${records.join(',')}]`);
  }
  return `{${parts.join(',')}}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function checkType(
  obj: Record<string, unknown>,
  key: string,
  type: 'string' | 'boolean' | 'object' | 'array',
): boolean {
  const v = obj[key];
  if (v === undefined || v === null) return true;
  if (type === 'array') return Array.isArray(v);
  if (type === 'object') return isRecord(v);
  return typeof v === type;
}

/**
 * Parses the JSON of an InPlaceUpdateState. Missing fields take their zero values and unknown
 * fields are ignored (2.7.1); a non-object or a field of the wrong type is an error, as Go's
 * decoder reports it. With a `cache` ({@link InPlaceCache}) a text parsed before returns the same
 * (deep-frozen) result.
 */
export function decodeInPlaceUpdateState(text: string, cache?: InPlaceCache): Decoded<InPlaceUpdateState> {
  if (cache === undefined) return parseInPlaceUpdateState(text);
  // Pods updated in one wave carry the same state text (same revision, timestamp and image
  // IDs), and every reconcile re-reads it: the cache keeps the parse. Results are deep-frozen,
  // so a shared result cannot be changed by one caller under another.
  const memo = cache.decodedStates;
  const hit = memo.get(text);
  if (hit !== undefined) return hit;
  const r = parseInPlaceUpdateState(text);
  if (memo.size >= IN_PLACE_DECODE_MEMO_SIZE) memo.clear();
  memo.set(text, deepFreeze(r));
  return r;
}

function parseInPlaceUpdateState(text: string): Decoded<InPlaceUpdateState> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `invalid in-place update state: ${(e as Error).message}` };
  }
  if (!isRecord(raw)) return { ok: false, error: 'invalid in-place update state: not a JSON object' };
  const types: Record<string, 'string' | 'boolean' | 'object' | 'array'> = {
    revision: 'string',
    updateTimestamp: 'string',
    lastContainerStatuses: 'object',
    updateEnvFromMetadata: 'boolean',
    updateResources: 'boolean',
    updateImages: 'boolean',
    nextContainerImages: 'object',
    nextContainerRefMetadata: 'object',
    nextContainerResources: 'object',
    preCheckBeforeNext: 'object',
    containerBatchesRecord: 'array',
  };
  for (const [k, t] of Object.entries(types)) {
    if (!checkType(raw, k, t))
      return { ok: false, error: `invalid in-place update state: field ${k} has the wrong type` };
  }
  const state: InPlaceUpdateState = {
    revision: (raw.revision as string) ?? '',
    updateTimestamp: (raw.updateTimestamp as string | null | undefined) ?? null,
    lastContainerStatuses: (raw.lastContainerStatuses as InPlaceUpdateState['lastContainerStatuses']) ?? null,
  };
  if (raw.updateEnvFromMetadata) state.updateEnvFromMetadata = true;
  if (raw.updateResources) state.updateResources = true;
  if (raw.updateImages) state.updateImages = true;
  if (!isEmptyMap(raw.nextContainerImages as object))
    state.nextContainerImages = raw.nextContainerImages as Record<string, string>;
  if (!isEmptyMap(raw.nextContainerRefMetadata as object))
    state.nextContainerRefMetadata = raw.nextContainerRefMetadata as Record<string, ObjectMeta>;
  if (!isEmptyMap(raw.nextContainerResources as object))
    state.nextContainerResources = raw.nextContainerResources as InPlaceUpdateState['nextContainerResources'];
  if (raw.preCheckBeforeNext)
    state.preCheckBeforeNext = raw.preCheckBeforeNext as InPlaceUpdateState['preCheckBeforeNext'];
  if (Array.isArray(raw.containerBatchesRecord) && raw.containerBatchesRecord.length > 0)
    state.containerBatchesRecord = raw.containerBatchesRecord as InPlaceUpdateState['containerBatchesRecord'];
  return { ok: true, value: state };
}

/** The state annotation text of a pod: the new key, else the legacy `inplace-update-state`. */
export function getInPlaceUpdateStateText(pod: Pod): string | undefined {
  const a = pod.metadata?.annotations ?? {};
  const v = a[ANNOTATION_INPLACE_UPDATE_STATE];
  if (v !== undefined && v !== '') return v;
  const legacy = a[ANNOTATION_INPLACE_UPDATE_STATE_LEGACY];
  return legacy !== undefined && legacy !== '' ? legacy : undefined;
}

/** Reads and parses the pod's state annotation; `undefined` when the pod has none. */
export function readInPlaceUpdateState(
  pod: Pod,
  cache?: InPlaceCache,
): Decoded<InPlaceUpdateState> | undefined {
  const text = getInPlaceUpdateStateText(pod);
  return text === undefined ? undefined : decodeInPlaceUpdateState(text, cache);
}

// ---- 2.7.2 grace --------------------------------------------------------------------------

/**
 * JSON of an UpdateSpec for the grace annotation (2.7.2): `revision` always; the maps,
 * `metaDataPatch` (**base64** of the patch text), `updateEnvFromMetadata` and `graceSeconds`
 * omitted when empty/false/0.
 * Example: `{"revision":"new-revision","containerImages":{"main":"img-name02"},"graceSeconds":30}`.
 */
export function encodeInPlaceUpdateGrace(spec: InPlaceUpdateSpec): string {
  const parts: string[] = [`"revision":${goJsonStringify(spec.revision ?? '')}`];
  if (!isEmptyMap(spec.containerImages))
    parts.push(`"containerImages":${goJsonStringify(spec.containerImages)}`);
  if (!isEmptyMap(spec.containerResources))
    parts.push(`"containerResources":${goJsonStringify(spec.containerResources)}`);
  if (!isEmptyMap(spec.containerRefMetadata)) {
    parts.push(`"containerRefMetadata":${encodeMetaMap(spec.containerRefMetadata)}`);
  }
  if (spec.metaDataPatch !== undefined && spec.metaDataPatch !== '')
    parts.push(`"metaDataPatch":${goJsonStringify(base64EncodeUtf8(spec.metaDataPatch))}`);
  if (spec.updateEnvFromMetadata) parts.push('"updateEnvFromMetadata":true');
  if (spec.graceSeconds) parts.push(`"graceSeconds":${spec.graceSeconds}`);
  return `{${parts.join(',')}}`;
}

/** Parses the grace annotation JSON back into an UpdateSpec (maps always present). */
export function decodeInPlaceUpdateGrace(text: string): Decoded<InPlaceUpdateSpec> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `invalid in-place update grace spec: ${(e as Error).message}` };
  }
  if (!isRecord(raw)) return { ok: false, error: 'invalid in-place update grace spec: not a JSON object' };
  for (const [k, t] of [
    ['revision', 'string'],
    ['containerImages', 'object'],
    ['containerResources', 'object'],
    ['containerRefMetadata', 'object'],
    ['metaDataPatch', 'string'],
    ['updateEnvFromMetadata', 'boolean'],
  ] as const) {
    if (!checkType(raw, k, t))
      return { ok: false, error: `invalid in-place update grace spec: field ${k} has the wrong type` };
  }
  if (raw.graceSeconds !== undefined && raw.graceSeconds !== null && !Number.isInteger(raw.graceSeconds))
    return { ok: false, error: 'invalid in-place update grace spec: graceSeconds is not an integer' };
  const spec: InPlaceUpdateSpec = {
    revision: (raw.revision as string) ?? '',
    containerImages: (raw.containerImages as Record<string, string>) ?? {},
    containerResources: (raw.containerResources as InPlaceUpdateSpec['containerResources']) ?? {},
    containerRefMetadata: (raw.containerRefMetadata as Record<string, ObjectMeta>) ?? {},
    updateEnvFromMetadata: raw.updateEnvFromMetadata === true,
    graceSeconds: (raw.graceSeconds as number | undefined) ?? 0,
  };
  if (typeof raw.metaDataPatch === 'string' && raw.metaDataPatch !== '') {
    const patch = base64DecodeUtf8(raw.metaDataPatch);
    if (patch === undefined)
      return { ok: false, error: 'invalid in-place update grace spec: metaDataPatch is not base64' };
    spec.metaDataPatch = patch;
  }
  return { ok: true, value: spec };
}

/** The grace annotation text of a pod (new key, else legacy); `undefined` when absent or empty. */
export function getInPlaceUpdateGraceText(pod: Pod): string | undefined {
  const a = pod.metadata?.annotations ?? {};
  const v = a[ANNOTATION_INPLACE_UPDATE_GRACE];
  if (v !== undefined && v !== '') return v;
  const legacy = a[ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY];
  return legacy !== undefined && legacy !== '' ? legacy : undefined;
}

/** R2.6.1 step 1: a grace annotation is present under either key (any value, even empty). */
export function hasInPlaceUpdateGrace(pod: Pod): boolean {
  const a = pod.metadata?.annotations;
  return a !== undefined && (Object.hasOwn(a, GRACE_KEY) || Object.hasOwn(a, GRACE_KEY_LEGACY));
}

// Local copies of the imported keys for this per-pod check (under vitest's module runner every
// read of an imported binding is a getter call); same values.
const GRACE_KEY = ANNOTATION_INPLACE_UPDATE_GRACE;
const GRACE_KEY_LEGACY = ANNOTATION_INPLACE_UPDATE_GRACE_LEGACY;

// ---- 2.7.3 runtime containers meta -------------------------------------------------------

/** Parses `apps.kruise.io/runtime-containers-meta` (written by kruise-daemon); undefined when absent. */
export function readRuntimeContainersMeta(pod: Pod): Decoded<RuntimeContainerMetaSet> | undefined {
  const text = pod.metadata?.annotations?.[ANNOTATION_RUNTIME_CONTAINERS_META];
  if (text === undefined) return undefined;
  try {
    const raw = JSON.parse(text) as unknown;
    if (!isRecord(raw)) return { ok: false, error: 'runtime-containers-meta is not a JSON object' };
    const containers = Array.isArray(raw.containers)
      ? (raw.containers as RuntimeContainerMetaSet['containers'])
      : [];
    return { ok: true, value: { containers } };
  } catch (e) {
    return { ok: false, error: `invalid runtime-containers-meta: ${(e as Error).message}` };
  }
}
