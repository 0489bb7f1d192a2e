// The pod annotations SidecarSets read and write, with their exact JSON shapes
// (docs/reference/sidecarset.md SS-4.7, SS-5.7.3, SS-5.7.4, SS-4.5.3, SS-5.8.1): the hash maps
// (current and legacy format), the injected list, the working hot-upgrade container map
// and the SidecarSet in-place update state.
import {
  ANNOTATION_SIDECARSET_HASH,
  ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE,
  ANNOTATION_SIDECARSET_INJECTED_LIST,
  ANNOTATION_SIDECARSET_INPLACE_UPDATE_STATE,
  ANNOTATION_SIDECARSET_WORKING_HOTUPGRADE_CONTAINER,
} from '@kruise-ts/api';
import { compareStringsBytewise, goJsonStringify, parseTime, toRFC3339 } from '@kruise-ts/core';
import { jsonString, jsonStringList } from './json';

type Annotations = Readonly<Record<string, string>> | null | undefined;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** "Sorted set of names": unique strings in ascending bytewise order. */
export function sortedSet(names: Iterable<string>): string[] {
  const out = Array.isArray(names) ? names.slice() : [...names];
  if (out.length <= 1) return out;
  out.sort(compareStringsBytewise);
  let w = 1;
  for (let i = 1; i < out.length; i++) if (out[i] !== out[w - 1]) out[w++] = out[i];
  out.length = w;
  return out;
}

// ---- SS-4.7.1 / SS-4.7.2: kruise.io/sidecarset-hash(-without-image) -------------------

/** One SidecarSet's entry in a pod's hash annotation (`SidecarSetUpgradeSpec`). */
export interface SidecarSetUpgradeSpec {
  /** RFC 3339 (seconds, UTC) or `null` for a zero time. */
  updateTimestamp: string | null;
  hash: string;
  sidecarSetName: string;
  /** Sorted names, `null` when empty. */
  sidecarList: string[] | null;
  /** Omitted when empty. */
  controllerRevision?: string;
}

/** The parsed annotation: name → entry; `legacy` when it was the `{"<ss>":"<hash>"}` format. */
export interface UpgradeSpecMap {
  entries: Record<string, SidecarSetUpgradeSpec>;
  legacy: boolean;
}

/** A JSON field Go decodes into a `string`: absent, `null` or a string. */
function okStr(x: unknown): boolean {
  return x === undefined || x === null || typeof x === 'string';
}

/** A string field of a decoded object: `''` when absent or null, `undefined` when not a string. */
function strField(v: Record<string, unknown>, k: string): string | undefined {
  const x = v[k];
  if (x === undefined || x === null) return '';
  return typeof x === 'string' ? x : undefined;
}

/** True when `v` decodes as a `SidecarSetUpgradeSpec` (field types only; the values are not read). */
function isUpgradeSpecShape(v: unknown): v is Record<string, unknown> {
  if (v === null) return true;
  if (!isObject(v)) return false;
  if (
    !okStr(v.hash) ||
    !okStr(v.sidecarSetName) ||
    !okStr(v.controllerRevision) ||
    !okStr(v.updateTimestamp)
  ) {
    return false;
  }
  const list = v.sidecarList;
  return (
    list === undefined || list === null || (Array.isArray(list) && list.every((x) => typeof x === 'string'))
  );
}

function asUpgradeSpec(v: unknown): SidecarSetUpgradeSpec | undefined {
  if (!isObject(v)) return undefined;
  const hash = strField(v, 'hash');
  const name = strField(v, 'sidecarSetName');
  const rev = strField(v, 'controllerRevision');
  const ts = v.updateTimestamp;
  if (hash === undefined || name === undefined || rev === undefined) return undefined;
  if (ts !== undefined && ts !== null && typeof ts !== 'string') return undefined;
  const list = v.sidecarList;
  if (
    list !== undefined &&
    list !== null &&
    !(Array.isArray(list) && list.every((s) => typeof s === 'string'))
  ) {
    return undefined;
  }
  const out: SidecarSetUpgradeSpec = {
    updateTimestamp: typeof ts === 'string' && parseTime(ts) ? toRFC3339(ts) : null,
    hash,
    sidecarSetName: name,
    sidecarList: Array.isArray(list) ? [...(list as string[])] : null,
  };
  if (rev !== '') out.controllerRevision = rev;
  return out;
}

/**
 * Parses a pod hash annotation value: the object format `{"<ss>": {updateTimestamp, hash,
 * sidecarSetName, sidecarList, controllerRevision}}`, or the legacy `{"<ss>": "<hash>"}`, which
 * converts to `{hash, sidecarSetName: <key>}` (SS-4.7.1). `undefined` when it parses in neither.
 *
 * Example: `{"test-sidecarset": "aaa"}` → entries `{test-sidecarset: {updateTimestamp: null,
 * hash: 'aaa', sidecarSetName: 'test-sidecarset', sidecarList: null}}`, legacy.
 */
export function parseUpgradeSpecMap(text: string): UpgradeSpecMap | undefined {
  const parsed = parseJson(text);
  if (!parsed.ok || !isObject(parsed.value))
    return parsed.ok && parsed.value === null ? emptyMap() : undefined;
  const obj = parsed.value;
  const entries: Record<string, SidecarSetUpgradeSpec> = {};
  let asObjects = true;
  for (const [k, v] of Object.entries(obj)) {
    const spec = v === null ? asUpgradeSpec({}) : asUpgradeSpec(v);
    if (!spec) {
      asObjects = false;
      break;
    }
    entries[k] = spec;
  }
  if (asObjects) return { entries, legacy: false };
  const legacy: Record<string, SidecarSetUpgradeSpec> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v !== 'string' && v !== null) return undefined;
    legacy[k] = { updateTimestamp: null, hash: v ?? '', sidecarSetName: k, sidecarList: null };
  }
  return { entries: legacy, legacy: true };
}

function emptyMap(): UpgradeSpecMap {
  return { entries: {}, legacy: false };
}

/** Reads one of the two hash annotations of a pod; absent → empty map, unparsable → `undefined`. */
export function readUpgradeSpecMap(annotations: Annotations, key: string): UpgradeSpecMap | undefined {
  const text = annotations?.[key];
  if (text === undefined || text === '') return emptyMap();
  return parseUpgradeSpecMap(text);
}

/**
 * Encodes entries as Go does: outer keys sorted; each entry's fields in the order
 * `updateTimestamp, hash, sidecarSetName, sidecarList, controllerRevision` (the last omitted
 * when empty).
 */
export function encodeUpgradeSpecMap(entries: Readonly<Record<string, SidecarSetUpgradeSpec>>): string {
  const keys = Object.keys(entries).sort(compareStringsBytewise);
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const e = entries[keys[i]];
    out += `${i > 0 ? ',' : ''}${jsonString(keys[i])}:{"updateTimestamp":${e.updateTimestamp === null ? 'null' : jsonString(e.updateTimestamp)}`;
    out += `,"hash":${jsonString(e.hash)},"sidecarSetName":${jsonString(e.sidecarSetName)}`;
    out += `,"sidecarList":${jsonStringList(e.sidecarList)}`;
    if (e.controllerRevision) out += `,"controllerRevision":${jsonString(e.controllerRevision)}`;
    out += '}';
  }
  return `${out}}`;
}

/**
 * SS-4.7.2 lookup: the `hash` of SidecarSet `name` in a pod's hash annotation (object or legacy
 * format), or `""` when the annotation, the key or a parse is missing.
 *
 * Example (upstream `TestGetPodSidecarSetRevision`): `{"test-sidecarset":{"hash":"aaa"}}` → `aaa`;
 * `failed-sidecarset-hash` → `""`.
 */
export function getPodSidecarSetRevision(
  annotations: Annotations,
  name: string,
  withoutImage = false,
  cache?: { hashes(text: string): ReadonlyMap<string, string> },
): string {
  const text =
    annotations?.[withoutImage ? ANNOTATION_SIDECARSET_HASH_WITHOUT_IMAGE : ANNOTATION_SIDECARSET_HASH];
  if (!text) return '';
  return (cache ? cache.hashes(text) : hashesOfAnnotation(text)).get(name) ?? '';
}

/**
 * SS-4.7.2 for every SidecarSet of one hash-annotation text at once: name → `hash` (object or
 * legacy format). A SidecarSet without a string hash is left out (its lookup answers `""`); an
 * unparsable text, or a legacy map with a non-string value, gives an empty table.
 */
export function hashesOfAnnotation(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const p = parseJson(text);
  if (!p.ok || !isObject(p.value)) return out;
  const obj = p.value;
  let objects = true;
  for (const k in obj) {
    if (!isUpgradeSpecShape(obj[k])) {
      objects = false;
      break;
    }
  }
  if (objects) {
    for (const k in obj) {
      const e = obj[k] as Record<string, unknown> | null;
      if (typeof e?.hash === 'string') out.set(k, e.hash);
    }
    return out;
  }
  for (const k in obj) if (typeof obj[k] !== 'string' && obj[k] !== null) return out;
  for (const k in obj) if (typeof obj[k] === 'string') out.set(k, obj[k] as string);
  return out;
}

/** The `controllerRevision` recorded for SidecarSet `name` in the pod's hash annotation, or `""`. */
export function getPodSidecarSetControllerRevision(annotations: Annotations, name: string): string {
  return readUpgradeSpecMap(annotations, ANNOTATION_SIDECARSET_HASH)?.entries[name]?.controllerRevision ?? '';
}

// ---- SS-4.7.3: kruise.io/sidecarset-injected-list ---------------------------------------

/** The names in a pod's injected list (comma-separated; empty items dropped). */
export function getInjectedList(annotations: Annotations): string[] {
  const v = annotations?.[ANNOTATION_SIDECARSET_INJECTED_LIST] ?? '';
  return v === '' ? [] : v.split(',').filter((s) => s !== '');
}

/**
 * Whether `name` is one of the names in a pod's injected list: the same answer as
 * `getInjectedList(annotations).includes(name)`, read from the comma-separated text in place
 * (the controller asks it of every pod it lists).
 */
export function isInInjectedList(annotations: Annotations, name: string): boolean {
  const text = annotations?.[ANNOTATION_SIDECARSET_INJECTED_LIST];
  // an item never holds a comma, and empty items are dropped
  if (!text || name === '' || name.includes(',')) return false;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const end = at + name.length;
    if ((at === 0 || text[at - 1] === ',') && (end === text.length || text[end] === ',')) return true;
  }
  return false;
}

/** SS-4.7.3: the union of the existing list and `names`, sorted, comma-joined. */
export function mergeInjectedList(annotations: Annotations, names: readonly string[]): string {
  return sortedSet([...getInjectedList(annotations), ...names]).join(',');
}

// ---- SS-4.5.3 / SS-5.8.1: kruise.io/sidecarset-working-hotupgrade-container -------------

/** The working-container map (base name → container name); `{}` when absent or unparsable. */
export function getWorkingHotUpgradeContainers(annotations: Annotations): Record<string, string> {
  const text = annotations?.[ANNOTATION_SIDECARSET_WORKING_HOTUPGRADE_CONTAINER];
  if (!text) return {};
  const p = parseJson(text);
  if (!p.ok || !isObject(p.value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.value)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** The pair of a HotUpgrade sidecar `X`: `X-1`, `X-2` (SS-4.5.1). */
export function hotUpgradeContainerNames(base: string): [string, string] {
  return [`${base}-1`, `${base}-2`];
}

/**
 * SS-5.8.1: the working and the other (empty) container of sidecar `X`. Only an annotation
 * entry `X → X-1` makes `X-1` the working one; in every other case (missing annotation, key,
 * or any other value) the working container is `X-2` (quirk §7.10).
 */
export function findWorkingHotUpgradeContainer(
  annotations: Annotations,
  base: string,
): { working: string; other: string } {
  const [c1, c2] = hotUpgradeContainerNames(base);
  return getWorkingHotUpgradeContainers(annotations)[base] === c1
    ? { working: c1, other: c2 }
    : { working: c2, other: c1 };
}

// ---- SS-5.7.4: kruise.io/sidecarset-inplace-update-state ---------------------------------

/** One SidecarSet's in-place update state on a pod. */
export interface SidecarSetUpdateState {
  revision: string;
  updateTimestamp: string | null;
  /** Container name → `{imageID}` (the imageID before the switch; `imageID` omitted when empty). */
  lastContainerStatuses: Record<string, { imageID?: string }> | null;
}

/** The whole state map, or `undefined` when the annotation is absent; `'invalid'` when unparsable. */
export function readSidecarSetUpdateStates(
  annotations: Annotations,
): Record<string, SidecarSetUpdateState> | undefined | 'invalid' {
  const text = annotations?.[ANNOTATION_SIDECARSET_INPLACE_UPDATE_STATE];
  if (text === undefined) return undefined;
  const p = parseJson(text);
  if (!p.ok || (p.value !== null && !isObject(p.value))) return 'invalid';
  const out: Record<string, SidecarSetUpdateState> = {};
  for (const [k, v] of Object.entries((p.value as Record<string, unknown> | null) ?? {})) {
    if (v !== null && !isObject(v)) return 'invalid';
    const e = (v ?? {}) as Record<string, unknown>;
    const lcs = e.lastContainerStatuses;
    const statuses: Record<string, { imageID?: string }> = {};
    if (isObject(lcs)) {
      for (const [c, s] of Object.entries(lcs)) {
        const id = isObject(s) && typeof s.imageID === 'string' ? s.imageID : '';
        statuses[c] = id ? { imageID: id } : {};
      }
    }
    out[k] = {
      revision: typeof e.revision === 'string' ? e.revision : '',
      updateTimestamp: typeof e.updateTimestamp === 'string' ? e.updateTimestamp : null,
      lastContainerStatuses: isObject(lcs) ? statuses : null,
    };
  }
  return out;
}

/** Encodes the state map: outer keys sorted, fields `revision, updateTimestamp, lastContainerStatuses`. */
export function encodeSidecarSetUpdateStates(
  states: Readonly<Record<string, SidecarSetUpdateState>>,
): string {
  const keys = Object.keys(states).sort(compareStringsBytewise);
  return `{${keys
    .map((k) => {
      const s = states[k];
      const ts = s.updateTimestamp === null ? 'null' : goJsonStringify(s.updateTimestamp);
      const lcs = s.lastContainerStatuses === null ? 'null' : goJsonStringify(s.lastContainerStatuses);
      return `${goJsonStringify(k)}:{"revision":${goJsonStringify(s.revision)},"updateTimestamp":${ts},"lastContainerStatuses":${lcs}}`;
    })
    .join(',')}}`;
}
