// Shared validation helpers returning Kubernetes-style FieldErrors, used by every kind's
// validate* function: int-or-percent fields, non-negative numbers, workload selectors,
// object metadata, pod template basics, immutable fields, and Kruise's update priority
// and scatter strategies (docs/reference/core.md R4.1, docs/reference/cloneset.md §2.2).
// `validateLabelSelector` lives in ../kube/selectors, the name syntax checks in ../kube/nameValidation.
import type { IntOrString, UpdatePriorityStrategy, UpdateScatterStrategy } from '@kruise-ts/api';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import type { LabelSelector, ObjectMeta } from 'kubernetes-types/meta/v1.js';
import { jsonEqual } from '../json/jsonPatch';
import {
  kruiseScaledValueFromIntOrPercent,
  legacyValueFromIntOrPercent,
  scaledValueFromIntOrPercent,
} from '../kube/intstr';
import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPortName,
} from '../kube/nameValidation';
import { matchesLabelSelector } from '../kube/selectorMatcher';
import { validateLabelSelector } from '../kube/selectors';
import { duplicate, type FieldError, forbidden, invalid, notSupported, required, tooLong } from './errors';

/** Kubernetes' message for a negative value. */
export const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0';
/** Kubernetes' message for a changed immutable field. */
export const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable';
const PERCENT_MSG =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** Options of {@link validateIntOrPercent}. */
export interface IntOrPercentOptions {
  /** Accept the string form (default true). */
  allowPercent?: boolean;
  /** Reject percentages above 100 % (default false). */
  maxPercent100?: boolean;
  /**
   * How strings are checked: `'regex'` (default, Kubernetes' `IsValidPercent`: `^[0-9]+%$`),
   * or the helper the field is later resolved with (docs/reference/core.md §6.1): `'scaled'` (a),
   * `'legacy'` (b), `'kruise'` (c, fractions allowed).
   */
  helper?: 'regex' | 'scaled' | 'legacy' | 'kruise';
}

/**
 * Validates an int-or-percent field: integers must be >= 0; strings must be a valid
 * percentage for the chosen helper, not negative, and (with `maxPercent100`) at most 100 %.
 *
 * Example: `validateIntOrPercent("120%", "spec.updateStrategy.maxUnavailable", {maxPercent100: true})`
 * → `Invalid value: "120%": must not be greater than 100%`; `-1` → `must be greater than or equal to 0`.
 */
export function validateIntOrPercent(
  value: IntOrString | null | undefined,
  field: string,
  opts: IntOrPercentOptions = {},
): FieldError[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'number') {
    if (!Number.isInteger(value))
      return [invalid(field, value, "must be an integer or percentage (e.g '5%')")];
    return value < 0 ? [invalid(field, value, IS_NEGATIVE_ERROR_MSG)] : [];
  }
  if (typeof value !== 'string')
    return [invalid(field, value, "must be an integer or percentage (e.g '5%')")];
  if (opts.allowPercent === false) return [invalid(field, value, 'must be an integer')];
  const helper = opts.helper ?? 'regex';
  let percent: number;
  if (helper === 'regex') {
    if (!/^[0-9]+%$/.test(value)) return [invalid(field, value, PERCENT_MSG)];
    percent = Number(value.slice(0, -1));
  } else {
    try {
      // Scaling over a total of 100 gives back the percentage (rounded for 'kruise').
      const fn =
        helper === 'scaled'
          ? scaledValueFromIntOrPercent
          : helper === 'legacy'
            ? legacyValueFromIntOrPercent
            : kruiseScaledValueFromIntOrPercent;
      percent = fn(value, 100, true);
    } catch (e) {
      return [invalid(field, value, (e as Error).message)];
    }
    if (percent < 0) return [invalid(field, value, IS_NEGATIVE_ERROR_MSG)];
  }
  if (opts.maxPercent100 && percent > 100) return [invalid(field, value, 'must not be greater than 100%')];
  return [];
}

/** `ValidateNonnegativeField`: `value >= 0`. */
export function validateNonNegative(value: number | null | undefined, field: string): FieldError[] {
  if (value === null || value === undefined) return [];
  return value < 0 ? [invalid(field, value, IS_NEGATIVE_ERROR_MSG)] : [];
}

/**
 * A workload's selector (`spec.selector`): required, not empty, and a valid label selector.
 * Example: `{}` for a CloneSet → `spec.selector: Invalid value: {}: empty selector is invalid for cloneset`.
 */
export function validateWorkloadSelector(
  selector: LabelSelector | null | undefined,
  field: string,
  kind: string,
): FieldError[] {
  if (selector === null || selector === undefined) return [required(field, '')];
  if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    return [invalid(field, selector, `empty selector is invalid for ${kind.toLowerCase()}`)];
  }
  return validateLabelSelector(selector, field);
}

/**
 * The selector must select the template's labels (Kubernetes' workload rule). Reported at
 * `field` (e.g. `spec.template.metadata.labels`) with the template labels as bad value.
 * An invalid selector is not reported here ({@link validateWorkloadSelector} does that).
 */
export function validateSelectorMatchesTemplate(
  selector: LabelSelector | null | undefined,
  templateLabels: Readonly<Record<string, string>> | null | undefined,
  field: string,
): FieldError[] {
  if (selector === null || selector === undefined) return [];
  if (validateLabelSelector(selector, 'selector').length > 0) return [];
  if (matchesLabelSelector(selector, templateLabels ?? {})) return [];
  return [invalid(field, templateLabels ?? {}, '`selector` does not match template `labels`')];
}

/** `ValidateLabels`: every key a qualified name, every value a valid label value (sorted by key). */
export function validateLabels(
  labels: Readonly<Record<string, string>> | null | undefined,
  field: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const m = labels ?? {};
  for (const k of Object.keys(m).sort()) {
    for (const msg of isQualifiedName(k)) errs.push(invalid(field, k, msg));
    for (const msg of isValidLabelValue(m[k])) errs.push(invalid(field, m[k], msg));
  }
  return errs;
}

/** Kubernetes' limit on the total size of an object's annotations. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** `ValidateAnnotations`: qualified-name keys (checked lower-cased) and at most 256 KiB in total. */
export function validateAnnotations(
  annotations: Readonly<Record<string, string>> | null | undefined,
  field: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const m = annotations ?? {};
  let size = 0;
  for (const k of Object.keys(m).sort()) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(field, k, msg));
    size += new TextEncoder().encode(k).length + new TextEncoder().encode(m[k] ?? '').length;
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(tooLong(field, '', TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

/** `validateDNS1123Label` as FieldErrors (e.g. container names). */
export function validateDNS1123Label(value: string, field: string): FieldError[] {
  return isDNS1123Label(value).map((m) => invalid(field, value, m));
}

/** `validateDNS1123Subdomain` as FieldErrors (e.g. object names). */
export function validateDNS1123Subdomain(value: string, field: string): FieldError[] {
  return isDNS1123Subdomain(value).map((m) => invalid(field, value, m));
}

/** `ValidateQualifiedName` as FieldErrors (label keys). */
export function validateQualifiedName(value: string, field: string): FieldError[] {
  return isQualifiedName(value).map((m) => invalid(field, value, m));
}

/** A label value as FieldErrors. */
export function validateLabelValue(value: string, field: string): FieldError[] {
  return isValidLabelValue(value).map((m) => invalid(field, value, m));
}

/**
 * `ValidateObjectMeta` basics at `field` (usually `metadata`): `name` (or `generateName`) is
 * required and a DNS-1123 subdomain (or label, with `nameIsLabel`); `namespace` required and
 * a DNS-1123 label when `namespaced` (default true), forbidden otherwise; labels and
 * annotations valid.
 */
export function validateObjectMeta(
  meta: ObjectMeta | null | undefined,
  field: string,
  opts: { namespaced?: boolean; nameIsLabel?: boolean } = {},
): FieldError[] {
  const errs: FieldError[] = [];
  const m = meta ?? {};
  const nameCheck = opts.nameIsLabel ? isDNS1123Label : isDNS1123Subdomain;
  if (m.generateName) {
    const masked = m.generateName.replace(/-$/, 'a');
    for (const msg of nameCheck(masked)) errs.push(invalid(`${field}.generateName`, m.generateName, msg));
  }
  if (!m.name) {
    // The API server fills `name` from `generateName` before validating.
    if (!m.generateName) errs.push(required(`${field}.name`, 'name or generateName is required'));
  } else for (const msg of nameCheck(m.name)) errs.push(invalid(`${field}.name`, m.name, msg));
  if (opts.namespaced !== false) {
    if (!m.namespace) errs.push(required(`${field}.namespace`, ''));
    else
      for (const msg of isDNS1123Label(m.namespace))
        errs.push(invalid(`${field}.namespace`, m.namespace, msg));
  } else if (m.namespace) {
    errs.push(forbidden(`${field}.namespace`, 'not allowed on this type'));
  }
  errs.push(...validateLabels(m.labels, `${field}.labels`));
  errs.push(...validateAnnotations(m.annotations, `${field}.annotations`));
  return errs;
}

const PROTOCOLS: readonly string[] = ['SCTP', 'TCP', 'UDP'];

/**
 * Pod template checks shared by the workloads, at `field` (e.g. `spec.template`):
 * containers required; container names required, DNS-1123 labels and unique (init
 * containers included); image required; ports 1–65535 with protocol TCP/UDP/SCTP (empty =
 * TCP) and unique names per container; volume names required, DNS-1123 labels and unique;
 * volumeMounts must name an existing volume — a template volume or, for the workloads that
 * have them (CloneSet, Advanced StatefulSet), a `volumeClaimTemplates` entry, since each claim
 * template becomes a volume of that name in every pod (docs/reference/cloneset.md §7.2,
 * docs/reference/statefulset.md §R3.15); restartPolicy `Always` (or empty) unless
 * `allowAnyRestartPolicy`; `activeDeadlineSeconds` forbidden when `forbidActiveDeadlineSecondsFor`
 * names the kind.
 *
 * Example: two containers named `main` → `spec.template.spec.containers[1].name: Duplicate value: "main"`;
 * a mount of `data` with a claim template `data` and no volume `data` → no error.
 */
export function validatePodTemplateBasics(
  template: PodTemplateSpec | null | undefined,
  field: string,
  opts: {
    allowAnyRestartPolicy?: boolean;
    forbidActiveDeadlineSecondsFor?: string;
    /** The workload's `volumeClaimTemplates`: their names count as volumes of the template. */
    volumeClaimTemplates?: readonly { metadata?: { name?: string } }[] | null;
  } = {},
): FieldError[] {
  const errs: FieldError[] = [];
  const spec = template?.spec;
  const sp = `${field}.spec`;
  if (!spec) return [required(sp, '')];
  const volumes = new Set<string>();
  const claimVolumes = new Set<string>();
  if (Array.isArray(opts.volumeClaimTemplates)) {
    for (const t of opts.volumeClaimTemplates) {
      const name = t?.metadata?.name;
      if (typeof name === 'string' && name !== '') claimVolumes.add(name);
    }
  }
  (spec.volumes ?? []).forEach((v, i) => {
    const p = `${sp}.volumes[${i}].name`;
    if (!v.name) errs.push(required(p, ''));
    else {
      errs.push(...validateDNS1123Label(v.name, p));
      if (volumes.has(v.name)) errs.push(duplicate(p, v.name));
      volumes.add(v.name);
    }
  });
  const names = new Set<string>();
  const checkContainers = (
    list: typeof spec.containers | undefined,
    kind: 'initContainers' | 'containers',
  ) => {
    (list ?? []).forEach((c, i) => {
      const p = `${sp}.${kind}[${i}]`;
      if (!c.name) errs.push(required(`${p}.name`, ''));
      else {
        errs.push(...validateDNS1123Label(c.name, `${p}.name`));
        if (names.has(c.name)) errs.push(duplicate(`${p}.name`, c.name));
        names.add(c.name);
      }
      if (!c.image) errs.push(required(`${p}.image`, ''));
      else if (c.image.trim() !== c.image) {
        errs.push(invalid(`${p}.image`, c.image, 'must not have leading or trailing whitespace'));
      }
      const portNames = new Set<string>();
      (c.ports ?? []).forEach((port, j) => {
        const pp = `${p}.ports[${j}]`;
        if (port.name) {
          for (const msg of isValidPortName(port.name)) errs.push(invalid(`${pp}.name`, port.name, msg));
          if (portNames.has(port.name)) errs.push(duplicate(`${pp}.name`, port.name));
          portNames.add(port.name);
        }
        if (
          !(Number.isInteger(port.containerPort) && port.containerPort >= 1 && port.containerPort <= 65535)
        ) {
          errs.push(
            invalid(`${pp}.containerPort`, port.containerPort, 'must be between 1 and 65535, inclusive'),
          );
        }
        const hp = port.hostPort ?? 0;
        if (hp !== 0 && !(Number.isInteger(hp) && hp >= 1 && hp <= 65535)) {
          errs.push(invalid(`${pp}.hostPort`, hp, 'must be between 1 and 65535, inclusive'));
        }
        const proto = port.protocol ?? 'TCP';
        if (!PROTOCOLS.includes(proto)) errs.push(notSupported(`${pp}.protocol`, proto, PROTOCOLS));
      });
      (c.volumeMounts ?? []).forEach((m, j) => {
        const mp = `${p}.volumeMounts[${j}]`;
        if (!m.name) errs.push(required(`${mp}.name`, ''));
        else if (!volumes.has(m.name) && !claimVolumes.has(m.name))
          errs.push(invalid(`${mp}.name`, m.name, 'not found'));
        if (!m.mountPath) errs.push(required(`${mp}.mountPath`, ''));
      });
    });
  };
  checkContainers(spec.initContainers, 'initContainers');
  if ((spec.containers ?? []).length === 0) errs.push(required(`${sp}.containers`, ''));
  checkContainers(spec.containers, 'containers');
  const rp = spec.restartPolicy ?? '';
  if (!opts.allowAnyRestartPolicy && rp !== '' && rp !== 'Always') {
    errs.push(notSupported(`${sp}.restartPolicy`, rp, ['Always']));
  }
  if (
    opts.forbidActiveDeadlineSecondsFor &&
    spec.activeDeadlineSeconds !== undefined &&
    spec.activeDeadlineSeconds !== null
  ) {
    errs.push(
      forbidden(
        `${sp}.activeDeadlineSeconds`,
        `activeDeadlineSeconds in ${opts.forbidActiveDeadlineSecondsFor} is not Supported`,
      ),
    );
  }
  return errs;
}

/** `ValidateImmutableField`: `Invalid value: <new>: field is immutable` unless deep-equal. */
export function validateImmutableField(newVal: unknown, oldVal: unknown, field: string): FieldError[] {
  return jsonEqual(newVal ?? null, oldVal ?? null) ? [] : [invalid(field, newVal, FIELD_IMMUTABLE_ERROR_MSG)];
}

/**
 * R4.1 (docs/reference/cloneset.md §2.2): only one of `weightPriority` / `orderPriority`; weights in
 * [0, 100] (the message says 1-100 but 0 is accepted); every weight term needs a non-empty,
 * valid `matchSelector`; every order term a non-empty `orderedKey`. Errors are reported at
 * `field` (e.g. `spec.updateStrategy.priorityStrategy`) as Required with the message as detail.
 */
export function validateUpdatePriorityStrategy(
  strategy: UpdatePriorityStrategy | null | undefined,
  field: string,
): FieldError[] {
  if (!strategy) return [];
  const weights = strategy.weightPriority ?? [];
  const orders = strategy.orderPriority ?? [];
  if (weights.length > 0 && orders.length > 0) {
    return [required(field, 'only one of weightPriority and orderPriority can be used')];
  }
  const errs: FieldError[] = [];
  for (const w of weights) {
    if (!(Number.isInteger(w.weight) && w.weight >= 0 && w.weight <= 100)) {
      errs.push(required(field, 'weight must be valid number in the range 1-100'));
    }
    const sel = w.matchSelector;
    if (!sel || Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
      errs.push(required(field, 'selector can not be empty'));
    } else {
      const selErrs = validateLabelSelector(sel, `${field}.weightPriority.matchSelector`);
      if (selErrs.length > 0)
        errs.push(required(field, `invalid selector ${selErrs.map((e) => e.detail).join('; ')}`));
    }
  }
  for (const o of orders) {
    if (!o.orderedKey) errs.push(required(field, 'order key can not be empty'));
  }
  return errs;
}

/**
 * docs/reference/cloneset.md §2.2: every scatter term needs a non-empty key and `key:value` pairs must
 * be unique (an empty value is allowed).
 * Example: two terms `{key: 'key-1', value: 'value-1'}` → `Invalid value: …: duplicated key=key-1 value=value-1`.
 */
export function validateScatterStrategy(
  scatter: UpdateScatterStrategy | null | undefined,
  field: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const term of scatter ?? []) {
    if (!term.key) {
      errs.push(invalid(field, scatter, 'key should not be empty'));
      continue;
    }
    const id = `${term.key}:${term.value ?? ''}`;
    if (seen.has(id))
      errs.push(invalid(field, scatter, `duplicated key=${term.key} value=${term.value ?? ''}`));
    seen.add(id);
  }
  return errs;
}
