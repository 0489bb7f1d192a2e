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

/**
 * The syntax errors of one metadata block at `field` (`metadata`, `spec.template.metadata`).
 *
 * Example: `{ labels: { 'app%': 'x' } }` → `metadata.labels: Invalid value: "app%": name part
 * must consist of alphanumeric characters, ...`; `{ name: 'Web' }` on a root → `metadata.name:
 * Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of ...`.
 */
export function checkMetadataSyntax(
  meta: unknown,
  field: string,
  opts: MetadataSyntaxOptions,
): StructureError[] {
  if (!isRecord(meta)) return [];
  const errs: StructureError[] = [];
  if (opts.root) {
    const nameCheck = opts.nameIsLabel ? isDNS1123Label : isDNS1123Subdomain;
    if (typeof meta.name === 'string' && meta.name !== '') {
      for (const m of nameCheck(meta.name)) errs.push(invalidError(`${field}.name`, meta.name, m));
    }
    if (typeof meta.namespace === 'string' && meta.namespace !== '') {
      for (const m of isDNS1123Label(meta.namespace)) {
        errs.push(invalidError(`${field}.namespace`, meta.namespace, m));
      }
    }
  }
  if (isRecord(meta.labels)) {
    const at = `${field}.labels`;
    for (const [k, v] of Object.entries(meta.labels)) {
      for (const m of isQualifiedName(k)) errs.push(invalidError(at, k, m));
      if (typeof v === 'string') for (const m of isValidLabelValue(v)) errs.push(invalidError(at, v, m));
    }
  }
  if (isRecord(meta.annotations)) {
    const at = `${field}.annotations`;
    for (const k of Object.keys(meta.annotations)) {
      for (const m of isQualifiedName(k.toLowerCase())) errs.push(invalidError(at, k, m));
    }
    if (annotationsSize(meta.annotations) > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) {
      errs.push({
        type: 'FieldValueTooLong',
        field: at,
        detail: `must have at most ${TOTAL_ANNOTATION_SIZE_LIMIT_BYTES} bytes`,
      });
    }
  }
  return errs;
}
