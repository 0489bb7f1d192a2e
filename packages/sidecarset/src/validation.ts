// validateSidecarSet: what the SidecarSet validating webhook rejects (docs/reference/sidecarset.md §6,
// V1–V11), with the webhook's field paths.
import {
  checkStructure,
  DEFAULT_KRUISE_NAMESPACE,
  type SidecarContainer,
  type SidecarSet,
  VOLUME_SOURCE_KEYS,
} from '@kruise-ts/api';
import {
  type FieldError,
  forbidden,
  invalid,
  labelSelectorAsRequirements,
  notSupported,
  required,
  validateAnnotations,
  validateIntOrPercent,
  validateLabelSelector,
  validateLabels,
  validatePodTemplateBasics,
  validateScatterStrategy,
  validateUpdatePriorityStrategy,
} from '@kruise-ts/core';
import type { Container, PodTemplateSpec, Volume } from 'kubernetes-types/core/v1.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { convertDownwardAPIFieldLabel } from './buildContainers';
import { validateSidecarConflict, validateSidecarSetPatchMetadataWhitelist } from './conflict';
import { getHistorySidecarSet } from './history';
import type { ValidateSidecarSetContext } from './types';

const NAME_RE = /^[a-zA-Z0-9-]+$/;
const ENV_NAME_RE = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/** V1: object metadata of a cluster-scoped SidecarSet; the name matches `^[a-zA-Z0-9\-]+$`, ≤ 63. */
function validateMetadata(ss: SidecarSet): FieldError[] {
  const errs: FieldError[] = [];
  const m = ss.metadata ?? {};
  const name = m.name ?? '';
  if (!name) errs.push(required('metadata.name', 'name or generateName is required'));
  else {
    if (!NAME_RE.test(name))
      errs.push(invalid('metadata.name', name, 'must match the regex ^[a-zA-Z0-9\\-]+$'));
    if (name.length > 63) errs.push(invalid('metadata.name', name, 'must be no more than 63 characters'));
  }
  if (m.namespace) errs.push(forbidden('metadata.namespace', 'not allowed on this type'));
  errs.push(
    ...validateLabels(m.labels, 'metadata.labels'),
    ...validateAnnotations(m.annotations, 'metadata.annotations'),
  );
  return errs;
}

/**
 * V3/V4 selector rules: label-selector validation errors, an empty selector, and one more
 * `Invalid` at `<field>.selector` when it does not convert — so one bad value gives 2 errors.
 */
function validateSelector(sel: LabelSelector, field: string): FieldError[] {
  const errs = validateLabelSelector(sel, field);
  if (Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
    errs.push(invalid(field, sel, 'empty selector is not valid for sidecarset.'));
  }
  try {
    labelSelectorAsRequirements(sel);
  } catch (e) {
    errs.push(invalid(`${field}.selector`, sel, (e as Error).message));
  }
  return errs;
}

/** V6 (RollingUpdate only). */
function validateUpdateStrategy(ss: SidecarSet): FieldError[] {
  const us = ss.spec?.updateStrategy;
  if (us?.type !== 'RollingUpdate') return [];
  const errs: FieldError[] = [];
  const p = us.partition;
  const partitionSet = typeof p === 'string' || (typeof p === 'number' && p !== 0);
  if (partitionSet && us.selector) {
    errs.push(invalid('updateStrategy', us, 'Partition and Selector cannot be used together'));
  }
  if (us.selector) errs.push(...validateSelector(us.selector, 'spec.updateStrategy.selector'));
  errs.push(...validateIntOrPercent(us.partition, 'spec.updateStrategy.partition'));
  errs.push(...validateIntOrPercent(us.maxUnavailable, 'spec.updateStrategy.maxUnavailable'));
  errs.push(...validateUpdatePriorityStrategy(us.priorityStrategy, 'spec.updateStrategy.priorityStrategy'));
  errs.push(...validateScatterStrategy(us.scatterStrategy, 'spec.updateStrategy.scatterStrategy'));
  return errs;
}

/** A field of `obj` by its JSON name (the source keys are names, not keys the type lists). */
function fieldByName(obj: object, name: string): unknown {
  return Reflect.get(obj, name);
}

/** V7 (part of core pod validation): a volume needs exactly one source. */
function validateVolumeSources(volumes: readonly Volume[]): FieldError[] {
  const errs: FieldError[] = [];
  volumes.forEach((v, i) => {
    const n = VOLUME_SOURCE_KEYS.filter((k) => fieldByName(v, k) != null).length;
    if (n === 0) errs.push(required(`spec.volumes[${i}]`, 'must specify a volume type'));
    else if (n > 1) errs.push(forbidden(`spec.volumes[${i}]`, 'may not specify more than 1 volume type'));
  });
  return errs;
}

/** The container checks of core pod validation that `validatePodTemplateBasics` leaves out. */
function validateContainerFields(list: readonly Container[], kind: string): FieldError[] {
  const errs: FieldError[] = [];
  list.forEach((c, i) => {
    const p = `spec.${kind}[${i}]`;
    if (!c.imagePullPolicy) errs.push(required(`${p}.imagePullPolicy`));
    else if (!['Always', 'IfNotPresent', 'Never'].includes(c.imagePullPolicy)) {
      errs.push(notSupported(`${p}.imagePullPolicy`, c.imagePullPolicy, ['Always', 'IfNotPresent', 'Never']));
    }
    if (!c.terminationMessagePolicy) errs.push(required(`${p}.terminationMessagePolicy`));
    else if (!['File', 'FallbackToLogsOnError'].includes(c.terminationMessagePolicy)) {
      errs.push(
        notSupported(`${p}.terminationMessagePolicy`, c.terminationMessagePolicy, [
          'File',
          'FallbackToLogsOnError',
        ]),
      );
    }
    (c.env ?? []).forEach((e, j) => {
      if (!e.name) errs.push(required(`${p}.env[${j}].name`));
      else if (!ENV_NAME_RE.test(e.name)) {
        errs.push(
          invalid(
            `${p}.env[${j}].name`,
            e.name,
            "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
          ),
        );
      }
    });
  });
  return errs;
}

/** V8: the SidecarSet-only container fields, then the synthetic pod (core pod-create validation). */
function validateContainers(ss: SidecarSet): FieldError[] {
  const spec = ss.spec ?? {};
  const init = spec.initContainers ?? [];
  const main = spec.containers ?? [];
  if (init.length === 0 && main.length === 0) {
    return [required('spec', 'no initContainer or container defined for SidecarSet')];
  }
  const errs: FieldError[] = [];
  main.forEach((c: SidecarContainer, i) => {
    if (c.podInjectPolicy !== 'BeforeAppContainer' && c.podInjectPolicy !== 'AfterAppContainer') {
      errs.push(
        invalid('spec.container.podInjectPolicy', c.podInjectPolicy ?? '', 'unsupported pod inject policy'),
      );
    }
    const svp = c.shareVolumePolicy?.type;
    if (svp !== 'enabled' && svp !== 'disabled') {
      errs.push(invalid('spec.container.shareVolumePolicy', svp ?? '', 'unsupported share volume policy'));
    }
    (c.transferEnv ?? []).forEach((t, j) => {
      const ref = t.sourceContainerNameFrom?.fieldRef;
      if (!ref) return;
      const p = `spec.containers[${i}].transferEnv[${j}].sourceContainerNameFrom.fieldRef`;
      if (!ref.apiVersion) errs.push(required(`${p}.apiVersion`));
      else if (ref.apiVersion !== 'v1') errs.push(notSupported(`${p}.apiVersion`, ref.apiVersion, ['v1']));
      if (!ref.fieldPath) errs.push(required(`${p}.fieldPath`));
      else if (ref.apiVersion === 'v1') {
        const r = convertDownwardAPIFieldLabel('v1', ref.fieldPath, '');
        if ('error' in r) errs.push(invalid(`${p}.fieldPath`, ref.fieldPath, r.error));
      }
    });
  });
  const strip = (list: readonly SidecarContainer[]): Container[] =>
    list.map(
      ({ podInjectPolicy: _a, upgradeStrategy: _b, shareVolumePolicy: _c, transferEnv: _d, ...rest }) => rest,
    );
  const containers =
    main.length > 0
      ? strip(main)
      : [
          {
            name: 'test',
            image: 'busybox',
            imagePullPolicy: 'IfNotPresent',
            terminationMessagePolicy: 'File',
          },
        ];
  const template: PodTemplateSpec = {
    spec: {
      containers,
      initContainers: strip(init),
      volumes: spec.volumes ?? [],
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
    },
  };
  try {
    for (const e of validatePodTemplateBasics(template, 'pod')) {
      errs.push({ ...e, field: e.field.replace(/^pod\./, '') });
    }
  } catch (e) {
    // TODO(core): validatePodTemplateBasics throws on non-string fields (e.g. a numeric image).
    errs.push(
      invalid('spec.containers', containers, `invalid container definition: ${(e as Error).message}`),
    );
  }
  errs.push(...validateVolumeSources(spec.volumes ?? []));
  errs.push(...validateContainerFields(template.spec!.initContainers ?? [], 'initContainers'));
  errs.push(...validateContainerFields(containers, 'containers'));
  return errs;
}

/** V9 per-entry rules and duplicates within the SidecarSet (the whitelist is in ./conflict). */
function validatePatchPodMetadata(ss: SidecarSet): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const p of ss.spec?.patchPodMetadata ?? []) {
    const keys = Object.keys(p.annotations ?? {});
    if (keys.length === 0)
      errs.push(required('spec.patchPodMetadata', 'no annotations defined for SidecarSet'));
    else errs.push(...validateAnnotations(p.annotations, 'spec.patchPodMetadata.annotations'));
    if (!p.patchPolicy)
      errs.push(required('spec.patchPodMetadata', 'no patchPolicy defined for patchPodMetadata'));
    for (const k of keys) {
      if (seen.has(k)) errs.push(required('spec.patchPodMetadata', `patch annotation[${k}] already exist`));
      seen.add(k);
    }
  }
  return errs;
}

/** V10 (UPDATE): containers cannot be added, and a non-empty `upgradeType` cannot change. */
function validateUpdate(ss: SidecarSet, old: SidecarSet): FieldError[] {
  const errs: FieldError[] = [];
  const olds = new Map((old.spec?.containers ?? []).map((c) => [c.name, c] as const));
  for (const c of ss.spec?.containers ?? []) {
    const o = olds.get(c.name);
    if (!o) {
      errs.push(invalid('spec.containers', c.name, `container ${c.name} is not found`));
      continue;
    }
    const ot = o.upgradeStrategy?.upgradeType;
    if (ot && ot !== c.upgradeStrategy?.upgradeType) {
      errs.push(invalid('spec.containers', c.name, `container ${c.name} upgradeType is immutable`));
    }
  }
  return errs;
}

/**
 * V2–V10 on the spec (the part the upstream `TestValidateSidecarSet` calls): the native-sidecar
 * update rule, selector, namespace, injection revision, update strategy, volumes, containers,
 * patchPodMetadata (with its whitelist unless skipped) and the UPDATE rules.
 */
export function validateSidecarSetSpec(
  ss: SidecarSet,
  old?: SidecarSet,
  ctx: ValidateSidecarSetContext = {},
): FieldError[] {
  const errs: FieldError[] = [];
  const spec = ss.spec ?? {};
  const us = spec.updateStrategy;
  for (const c of spec.initContainers ?? []) {
    if (c.restartPolicy === 'Always' && us?.type === 'RollingUpdate') {
      errs.push(
        required('spec.updateStrategy', 'The initContainer in-place upgrade is not currently supported.'),
      );
    }
  }
  if (!spec.selector) errs.push(required('spec.selector', 'no selector defined for SidecarSet'));
  else errs.push(...validateSelector(spec.selector, 'spec.selector'));
  if (spec.namespace && spec.namespaceSelector) {
    errs.push(
      required('spec.namespace, namespaceSelector', 'namespace and namespaceSelector are mutually exclusive'),
    );
  } else if (spec.namespaceSelector) {
    errs.push(...validateSelector(spec.namespaceSelector, 'spec.namespaceSelector'));
  }
  const rev = spec.injectionStrategy?.revision;
  if (rev) {
    if (!rev.revisionName && !rev.customVersion) {
      errs.push(invalid('revision', rev, 'revisionName and customVersion cannot be empty simultaneously'));
    } else if (!ctx.skipRevisionLookup) {
      const h = getHistorySidecarSet(
        ss,
        ctx.revisions ?? [],
        ctx.kruiseNamespace ?? DEFAULT_KRUISE_NAMESPACE,
      );
      if (h.error !== undefined) {
        errs.push(invalid('revision', rev, `Cannot find specific ControllerRevision, err: ${h.error}`));
      }
    }
    if (rev.policy && rev.policy !== 'Always' && rev.policy !== 'Partial') {
      errs.push(notSupported('revision.policy', rev.policy, ['Always', 'Partial']));
    }
  }
  errs.push(...validateUpdateStrategy(ss));
  errs.push(...validateContainers(ss));
  if (!ctx.skipWhitelist) {
    const msg = validateSidecarSetPatchMetadataWhitelist(ss, ctx.kruiseConfiguration, ctx.featureGates);
    if (msg !== undefined) errs.push(required('spec.patchPodMetadata', msg));
  }
  errs.push(...validatePatchPodMetadata(ss));
  if (old) errs.push(...validateUpdate(ss, old));
  return errs;
}

/**
 * `validateSidecarSet(obj, old?, ctx?)`: everything the SidecarSet validating webhook rejects
 * (docs/reference/sidecarset.md §6) on CREATE (`old` absent) and UPDATE, run on the defaulted object:
 * V1 metadata, V2–V10 ({@link validateSidecarSetSpec}), and — only when those pass — V11
 * conflicts with `ctx.sidecarSets` (namespaces from `ctx.namespaces`).
 *
 * Example: a SidecarSet without selector → `spec.selector: Required value: no selector defined
 * for SidecarSet`; one declaring container `envoy` like an overlapping SidecarSet `mesh` →
 * `spec.containers: Invalid value: "envoy": container envoy already exist in mesh`.
 */
export function validateSidecarSet(
  obj: SidecarSet,
  old?: SidecarSet,
  ctx: ValidateSidecarSetContext = {},
): FieldError[] {
  // The shape first (@kruise-ts/api checkStructure, as the webhook receives the object): every
  // rule below may rely on each field having its schema's type, e.g. a label value being a string.
  const shape = checkStructure('SidecarSet', obj, { admission: true });
  if (shape.length > 0) return shape;
  const errs = ctx.skipMetadata ? [] : validateMetadata(obj);
  errs.push(...validateSidecarSetSpec(obj, old, ctx));
  if (errs.length > 0 || ctx.skipConflicts) return errs;
  return validateSidecarConflict(obj, ctx.sidecarSets ?? [], ctx.namespaces ?? []);
}
