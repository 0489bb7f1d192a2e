// PATCH bodies (guide §E): JSON merge patch, JSON patch, strategic merge
// (built-in kinds only: custom resources answer 415, as kube-apiserver does),
// and server-side apply approximated as a merge of the applied object plus a
// `managedFields` entry (guide §K; no field ownership, no conflicts).
import type { KubeObject } from '@kruise-ts/api';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from '@kruise-ts/core';
import { parseYamlBody } from './bodies';

/** The patch kinds of the Content-Type header. */
export type PatchKind = 'merge' | 'json' | 'strategic' | 'apply';

/** Accepted patch media types of a custom resource. */
export const CR_PATCH_TYPES =
  'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml';

/**
 * The patch kind of a Content-Type, or undefined when it is not one of kube-apiserver's four
 * patch types (parameters such as `; charset=utf-8` are ignored).
 */
export function patchKind(contentType: string | undefined): PatchKind | undefined {
  const ct = (contentType ?? '').split(';')[0].trim().toLowerCase();
  switch (ct) {
    case 'application/merge-patch+json':
      return 'merge';
    case 'application/json-patch+json':
      return 'json';
    case 'application/strategic-merge-patch+json':
      return 'strategic';
    case 'application/apply-patch+yaml':
      return 'apply';
    default:
      return undefined;
  }
}

/** Parses a patch body (JSON; YAML for apply patches); throws on malformed input. */
export function parsePatchBody(kind: PatchKind, text: string): unknown {
  if (kind === 'apply') {
    try {
      return JSON.parse(text);
    } catch {
      return parseYamlBody(text);
    }
  }
  return JSON.parse(text);
}

/**
 * Applies a patch to `current`; throws (KruiseError or Error) when the patch
 * cannot be applied. For `apply`, `manager` names the field manager and `now`
 * stamps the managedFields entry. A merge or JSON patch may remove what makes
 * the result an object with metadata: the caller checks that before using it.
 */
export function applyPatch(
  current: KubeObject,
  kind: PatchKind,
  patch: unknown,
  opts: { manager?: string; now?: string } = {},
): KubeObject {
  switch (kind) {
    case 'merge':
      if (patch === null || typeof patch !== 'object' || Array.isArray(patch))
        throw new Error('a merge patch must be a JSON object');
      return asPatched(applyMergePatch(current, patch));
    case 'json':
      return asPatched(applyJsonPatch(current, patch));
    case 'strategic':
      return applyStrategicMergePatch(current, patch);
    case 'apply': {
      if (patch === null || typeof patch !== 'object' || Array.isArray(patch))
        throw new Error('an apply patch must be an object');
      const merged = asPatched(applyMergePatch(current, patch));
      return withManagedField(merged, opts.manager ?? '', 'Apply', opts.now);
    }
  }
}

/** Sets (replaces) the managedFields entry of `manager` + `operation`. */
export function withManagedField(
  obj: KubeObject,
  manager: string,
  operation: 'Apply' | 'Update',
  now?: string,
): KubeObject {
  const entries = (
    (obj.metadata as { managedFields?: { manager?: string; operation?: string }[] }).managedFields ?? []
  ).filter((e) => !(e.manager === manager && e.operation === operation));
  entries.push({
    manager,
    operation,
    apiVersion: obj.apiVersion,
    time: now,
    fieldsType: 'FieldsV1',
    fieldsV1: {},
  } as { manager: string; operation: string });
  return { ...obj, metadata: { ...obj.metadata, managedFields: entries } as KubeObject['metadata'] };
}

/**
 * A patched object, typed as the object it was patched from. Not checked here: the write path
 * (writes.ts) answers 422 when the result is not an object with metadata.
 */
function asPatched(patched: unknown): KubeObject {
  return patched as KubeObject;
}
