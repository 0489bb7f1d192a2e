// Object metadata as kube-apiserver validates it on a write (apimachinery's ValidateObjectMeta on
// create, ValidateObjectMetaUpdate on update, and so on the object a PATCH produces), before
// admission webhooks and the store see the object: the name by the kind's rule, the namespace,
// label keys and values, annotation keys and their total size. The syntax checks are core's
// (isDNS1123Subdomain, validateLabels, validateAnnotations, ...); this file picks the rule per kind
// and first checks JSON types, which Go's typed decoding does in kube-apiserver: a body with
// `metadata.labels: "x"` or a label value `null` must not reach code that expects strings.
import type { KubeObject } from '@kruise-ts/api';
import {
  type FieldError,
  forbidden,
  invalid,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  required,
  validateAnnotations,
  validateLabels,
} from '@kruise-ts/core';
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { ResourceInfo } from './registry';

/** A name rule: the messages Kubernetes gives for a bad name (empty = valid). */
type NameRule = (value: string) => string[];

/**
 * The name rule of a resource, as kube-apiserver 1.32 has it: a Namespace's name is a DNS-1123
 * label (`team-a`, at most 63 characters), a Service's a DNS-1035 label (also starting with a
 * letter: `web`, not `2web`), every other kind's, custom resources included, a DNS-1123
 * subdomain (`sample`, `web.v2`, at most 253 characters).
 */
export function nameRuleOf(res: ResourceInfo): NameRule {
  if (res.group === '' && res.kind === 'Namespace') return isDNS1123Label;
  if (res.group === '' && res.kind === 'Service') return isDNS1035Label;
  return isDNS1123Subdomain;
}

/**
 * core/v1 Events skip ObjectMeta validation in kube-apiserver ("for backwards compatibility",
 * only events.k8s.io/v1 validates it), so a recorder's `generateName: web-0.` is accepted there
 * and here; their metadata types are still checked.
 */
function skipsMetaValidation(res: ResourceInfo): boolean {
  return res.group === '' && res.kind === 'Event';
}

/**
 * A CustomResourceDefinition must be named `<spec.names.plural>.<spec.group>`
 * (`clonesets.apps.kruise.io`), as apiextensions-apiserver requires.
 */
function crdNameErrors(res: ResourceInfo, obj: KubeObject, name: string): string[] {
  if (res.group !== 'apiextensions.k8s.io' || res.kind !== 'CustomResourceDefinition') return [];
  const spec = (obj as { spec?: { group?: unknown; names?: { plural?: unknown } } }).spec;
  return name === `${spec?.names?.plural}.${spec?.group}` ? [] : ['must be spec.names.plural+"."+spec.group'];
}

/** The JSON type of a value as an OpenAPI schema names it: `string`, `null`, `object`, ... */
function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

const mustBe = (field: string, v: unknown, type: string): FieldError =>
  invalid(field, jsonType(v), `must be of type ${type}`);

/**
 * A string field of metadata: undefined when absent (or `null`, which Go decodes to ""), the
 * string, or a type error.
 */
function stringField(
  meta: ObjectMeta,
  key: 'name' | 'generateName' | 'namespace',
  errs: FieldError[],
): string | undefined {
  // read as unknown: a request body's metadata may hold any JSON where the type says string
  const v: unknown = meta[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  errs.push(mustBe(`metadata.${key}`, v, 'string'));
  return undefined;
}

/**
 * A map of strings (labels, annotations): its string entries, with a type error for the map
 * (`metadata.labels: "x"`) or for each entry that is not a string (`metadata.labels[app]: null`).
 * `null` for the whole map is an absent map.
 */
function stringMap(
  meta: ObjectMeta,
  key: 'labels' | 'annotations',
  errs: FieldError[],
): Record<string, string> {
  const v: unknown = meta[key];
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) {
    errs.push(mustBe(`metadata.${key}`, v, 'object'));
    return {};
  }
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    if (typeof value === 'string') out[k] = value;
    else errs.push(mustBe(`metadata.${key}[${k}]`, value, 'string'));
  }
  return out;
}

/**
 * Kubernetes' `maskTrailingDash`: a generateName such as `web-` is checked as `wea`, since the
 * random suffix follows the dash.
 */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

/**
 * Validates the metadata of an object the API server is about to admit, as kube-apiserver does
 * (field errors at `metadata.<field>`; empty = valid). The object has been normalized: its
 * namespace comes from the URL (set for a namespaced kind, absent otherwise).
 *
 * - `create`: `name` (or `generateName`, checked with its trailing dash masked) by the kind's
 *   rule ({@link nameRuleOf}), `name or generateName is required` when both are missing; the
 *   namespace a DNS-1123 label;
 * - both: label keys qualified names and values label values (at most 63 characters), annotation
 *   keys qualified names and annotations at most 256 KiB in all (keys and values);
 * - both: `name`, `generateName` and `namespace` strings, `labels` and `annotations` objects of
 *   strings.
 *
 * On update the name is not checked again: it is immutable, and the URL already names it. A
 * CustomResourceDefinition's name must also be `<plural>.<group>`; a core/v1 Event's metadata
 * is checked for types only, as kube-apiserver skips ObjectMeta validation for it.
 * Example: a ConfigMap named `UpperCase` → `metadata.name: Invalid value: "UpperCase": a lowercase
 * RFC 1123 subdomain must consist of ...`.
 */
export function validateWriteMetadata(
  res: ResourceInfo,
  obj: KubeObject,
  operation: 'create' | 'update',
): FieldError[] {
  const errs: FieldError[] = [];
  const meta = obj.metadata;
  const name = stringField(meta, 'name', errs);
  const generateName = stringField(meta, 'generateName', errs);
  const namespace = stringField(meta, 'namespace', errs);
  const labels = stringMap(meta, 'labels', errs);
  const annotations = stringMap(meta, 'annotations', errs);
  if (skipsMetaValidation(res)) return errs;
  if (operation === 'create') {
    const rule = nameRuleOf(res);
    if (generateName)
      for (const msg of rule(maskTrailingDash(generateName)))
        errs.push(invalid('metadata.generateName', generateName, msg));
    if (!name) {
      if (!generateName && !errs.some((e) => e.field === 'metadata.name'))
        errs.push(required('metadata.name', 'name or generateName is required'));
    } else
      for (const msg of [...rule(name), ...crdNameErrors(res, obj, name)])
        errs.push(invalid('metadata.name', name, msg));
    if (res.namespaced) {
      if (!namespace) errs.push(required('metadata.namespace', ''));
      else
        for (const msg of isDNS1123Label(namespace)) errs.push(invalid('metadata.namespace', namespace, msg));
    } else if (namespace) errs.push(forbidden('metadata.namespace', 'not allowed on this type'));
  }
  errs.push(...validateLabels(labels, 'metadata.labels'));
  errs.push(...validateAnnotations(annotations, 'metadata.annotations'));
  return errs;
}
