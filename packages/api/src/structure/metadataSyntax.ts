// The syntax of an object's metadata that Kubernetes checks on every object before any kind's
// own rules (apimachinery's ValidateObjectMeta and ValidateTemplateObjectMeta): label keys and
// annotation keys are qualified names, label values valid label values, annotations at most
// 256 KiB in total; on an object itself (not a template) the name is a DNS-1123 subdomain (a
// label for a Namespace) and the namespace a DNS-1123 label. Values of the wrong JSON type are
// left to the type check, which reports them at their own path.
import { annotationsSize } from '../annotationsSize';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../nameValidation';
import { invalidError, type StructureError } from './errors';

/** Kubernetes' limit on the total size of an object's annotations: 256 KiB. */
export const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

/** How a metadata block is checked. */
export interface MetadataSyntaxOptions {
  /** The metadata of an object itself (name and namespace checked), not of a template. */
  root: boolean;
  /** The name is a DNS-1123 label (a Namespace's), not a subdomain. */
  nameIsLabel?: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether `meta[key]` is `prev`'s own `key`, by identity. */
function sameField(
  prev: Record<string, unknown> | undefined,
  meta: Record<string, unknown>,
  key: string,
): boolean {
  return prev !== undefined && prev[key] === meta[key] && Object.hasOwn(prev, key);
}

/**
 * Pushes the syntax errors of one metadata block at `field` (`metadata`,
 * `spec.template.metadata`) into `errs`, in this order: name, namespace, labels, annotations.
 * `prev` is the block at the same place in a version of the object found clean in the same walk
 * (see walk.ts): a name, namespace, label map or annotation map it shares by identity was
 * well-formed there and is not checked again.
 *
 * Example: `{ labels: { 'app%': 'x' } }` → `metadata.labels: Invalid value: "app%": name part
 * must consist of alphanumeric characters, ...`; `{ name: 'Web' }` on a root → `metadata.name:
 * Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of ...`.
 */
export function checkMetadataSyntax(
  meta: Record<string, unknown>,
  field: string,
  opts: MetadataSyntaxOptions,
  errs: StructureError[],
  prev?: Record<string, unknown>,
): void {
  if (opts.root) {
    const nameCheck = opts.nameIsLabel ? isDNS1123Label : isDNS1123Subdomain;
    if (typeof meta.name === 'string' && meta.name !== '' && !sameField(prev, meta, 'name')) {
      for (const m of nameCheck(meta.name)) errs.push(invalidError(`${field}.name`, meta.name, m));
    }
    if (typeof meta.namespace === 'string' && meta.namespace !== '' && !sameField(prev, meta, 'namespace')) {
      for (const m of isDNS1123Label(meta.namespace)) {
        errs.push(invalidError(`${field}.namespace`, meta.namespace, m));
      }
    }
  }
  const labels = meta.labels;
  if (isRecord(labels) && !sameField(prev, meta, 'labels')) {
    const at = `${field}.labels`;
    for (const [k, v] of Object.entries(labels)) {
      for (const m of isQualifiedName(k)) errs.push(invalidError(at, k, m));
      if (typeof v === 'string') for (const m of isValidLabelValue(v)) errs.push(invalidError(at, v, m));
    }
  }
  const annotations = meta.annotations;
  if (isRecord(annotations) && !sameField(prev, meta, 'annotations')) {
    const at = `${field}.annotations`;
    for (const k of Object.keys(annotations)) {
      for (const m of isQualifiedName(k.toLowerCase())) errs.push(invalidError(at, k, m));
    }
    if (annotationsSize(annotations) > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) {
      errs.push({
        type: 'FieldValueTooLong',
        field: at,
        detail: `must have at most ${TOTAL_ANNOTATION_SIZE_LIMIT_BYTES} bytes`,
      });
    }
  }
}
