// The admission chain the store runs on every create and update (not on
// status writes): defaulters, then mutating hooks, then validators, per kind —
// like an API server's mutating and validating webhooks. A rejected object is
// reported as the API server's 422:
// `The CloneSet "sample" is invalid: spec.replicas: Invalid value: -1: ...`.
// DELETE has its own validators (`registerDelete` / `admitDelete`): kruise's
// deletion protection (docs/reference/operator.md §1), installed with the controllers by
// `installDeletionProtection`, answers like kube-apiserver relays a webhook
// denial (403 `admission webhook "vcloneset.kb.io" denied the request: ...`).
import type { KubeObject, StructureCache } from '@kruise-ts/api';
import {
  checkDeletionProtection,
  type FeatureGates,
  type FieldError,
  formatFieldError,
  type ProtectedKind,
} from '@kruise-ts/core';
import { groupOf } from './keys';

/** What a hook sees besides the object. */
export interface AdmissionContext {
  operation: 'CREATE' | 'UPDATE';
  /** The stored object on UPDATE. */
  old?: KubeObject;
  /** Current simulated time (RFC 3339). */
  now: string;
  featureGates: Partial<FeatureGates>;
  /** Read access to the store (e.g. pods for CloneSet's podsToDelete check, SidecarSets for injection). */
  list(apiVersion: string, kind: string, namespace?: string): KubeObject[];
  get(apiVersion: string, kind: string, namespace: string | undefined, name: string): KubeObject | undefined;
  /** The store's structure cache for admission (schemas compiled once, stored objects checked once). */
  structureCache?: StructureCache;
}

/** Returns the object with defaults set (a new object; never mutate the input). */
export type Defaulter = (obj: KubeObject, ctx: AdmissionContext) => KubeObject;
/** A mutating hook (e.g. SidecarSet injection on pods). */
export type Mutator = (obj: KubeObject, ctx: AdmissionContext) => KubeObject;
/** Returns the field errors that reject the object (empty = admitted). */
export type Validator = (obj: KubeObject, ctx: AdmissionContext) => FieldError[];

/** The hooks of one kind. */
export interface AdmissionHooks {
  defaulters?: Defaulter[];
  mutators?: Mutator[];
  validators?: Validator[];
}

/** The outcome of admission. */
export type AdmissionResult =
  | { allowed: true; object: KubeObject }
  | { allowed: false; errors: FieldError[]; message: string };

/** What a DELETE validator sees besides the object being deleted (the stored object). */
export type DeleteAdmissionContext = Pick<AdmissionContext, 'now' | 'featureGates' | 'list' | 'get'>;

/** A refused DELETE: the HTTP code, the Status reason (may be empty) and the API server's message. */
export interface DeleteDenial {
  code: number;
  reason: string;
  message: string;
}

/** A DELETE check: undefined allows, a denial refuses. */
export type DeleteValidator = (obj: KubeObject, ctx: DeleteAdmissionContext) => DeleteDenial | undefined;

/** The outcome of DELETE admission. */
export type DeleteAdmissionResult = { allowed: true } | ({ allowed: false } & DeleteDenial);

/**
 * The per-kind chain. Kinds are keyed by API group and kind (`apps.kruise.io/CloneSet`),
 * so v1alpha1 and v1beta1 objects share hooks.
 */
export class AdmissionChain {
  private hooks = new Map<string, Required<AdmissionHooks>>();
  /** DELETE validators, apart from `hooks` so `handles` (create/update fast path) is unchanged. */
  private deleteHooks = new Map<string, DeleteValidator[]>();

  /** Adds hooks for a kind (appended after hooks registered earlier). */
  register(apiVersion: string, kind: string, hooks: AdmissionHooks): this {
    const key = `${groupOf(apiVersion)}/${kind}`;
    const cur = this.hooks.get(key) ?? { defaulters: [], mutators: [], validators: [] };
    cur.defaulters.push(...(hooks.defaulters ?? []));
    cur.mutators.push(...(hooks.mutators ?? []));
    cur.validators.push(...(hooks.validators ?? []));
    this.hooks.set(key, cur);
    return this;
  }

  /** True when any hook is registered for the kind. */
  handles(apiVersion: string, kind: string): boolean {
    return this.hooks.has(`${groupOf(apiVersion)}/${kind}`);
  }

  /** A copy of this chain (the simulation owns its copy; registering later does not leak). */
  clone(): AdmissionChain {
    const c = new AdmissionChain();
    for (const [k, h] of this.hooks)
      c.hooks.set(k, {
        defaulters: [...h.defaulters],
        mutators: [...h.mutators],
        validators: [...h.validators],
      });
    for (const [k, v] of this.deleteHooks) c.deleteHooks.set(k, [...v]);
    return c;
  }

  /** Adds a DELETE validator for a kind (a validator already registered for it is not added twice). */
  registerDelete(apiVersion: string, kind: string, validator: DeleteValidator): this {
    const key = `${groupOf(apiVersion)}/${kind}`;
    const cur = this.deleteHooks.get(key) ?? [];
    if (!cur.includes(validator)) this.deleteHooks.set(key, [...cur, validator]);
    return this;
  }

  /**
   * Runs the DELETE validators of the object's kind on the stored object (the API server's
   * `oldObject`); the first denial refuses. A validator that throws refuses with a 500, as a
   * failing webhook with `failurePolicy: Fail` does.
   */
  admitDelete(obj: KubeObject, ctx: DeleteAdmissionContext): DeleteAdmissionResult {
    const vs = this.deleteHooks.get(`${groupOf(obj.apiVersion)}/${obj.kind}`);
    if (!vs) return { allowed: true };
    try {
      for (const v of vs) {
        const d = v(obj, ctx);
        if (d) return { allowed: false, ...d };
      }
    } catch (e) {
      return {
        allowed: false,
        code: 500,
        reason: 'InternalError',
        message: `Internal error occurred: admission of ${obj.kind} "${obj.metadata.name ?? ''}" failed: ${
          e instanceof Error ? e.message : String(e)
        }`,
      };
    }
    return { allowed: true };
  }

  /**
   * Runs defaulters, mutators and validators. Hooks that throw are reported as
   * an internal error (the object is rejected) rather than crashing the run.
   */
  admit(obj: KubeObject, ctx: AdmissionContext): AdmissionResult {
    const h = this.hooks.get(`${groupOf(obj.apiVersion)}/${obj.kind}`);
    if (!h) return { allowed: true, object: obj };
    let cur = obj;
    try {
      for (const d of h.defaulters) cur = d(cur, ctx);
      for (const m of h.mutators) cur = m(cur, ctx);
      const errors: FieldError[] = [];
      for (const v of h.validators) errors.push(...v(cur, ctx));
      if (errors.length > 0) return { allowed: false, errors, message: invalidMessage(cur, errors) };
    } catch (e) {
      const message = `Internal error occurred: admission of ${obj.kind} "${obj.metadata.name ?? ''}" failed: ${
        e instanceof Error ? e.message : String(e)
      }`;
      return { allowed: false, errors: [], message };
    }
    return { allowed: true, object: cur };
  }
}

/**
 * The API server's 422 message: `The <Kind> "<name>" is invalid: <error>`, or
 * with several errors `The <Kind> "<name>" is invalid: [<e1>, <e2>]`.
 *
 * Example: `The CloneSet "sample" is invalid: spec.replicas: Invalid value: -1: replicas must be >= 0`.
 */
export function invalidMessage(obj: KubeObject, errors: FieldError[]): string {
  const parts = errors.map(formatFieldError);
  const body = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  return `The ${obj.kind} "${obj.metadata.name ?? obj.metadata.generateName ?? ''}" is invalid: ${body}`;
}

/**
 * The kinds kruise protects from deletion (docs/reference/operator.md table 1.3) by `group/Kind`: the
 * check that applies and the webhook entry whose name the API server puts in the denial.
 */
export const DELETION_PROTECTED_KINDS: ReadonlyMap<string, { kind: ProtectedKind; webhook: string }> =
  new Map([
    ['/Namespace', { kind: 'Namespace', webhook: 'vnamespace.kb.io' }],
    [
      'apiextensions.k8s.io/CustomResourceDefinition',
      { kind: 'CustomResourceDefinition', webhook: 'vcustomresourcedefinition.kb.io' },
    ],
    ['apps/Deployment', { kind: 'Workload', webhook: 'vbuiltindeployment.kb.io' }],
    ['apps/ReplicaSet', { kind: 'Workload', webhook: 'vbuiltinreplicaset.kb.io' }],
    ['apps/StatefulSet', { kind: 'Workload', webhook: 'vbuiltinstatefulset.kb.io' }],
    ['apps.kruise.io/CloneSet', { kind: 'Workload', webhook: 'vcloneset.kb.io' }],
    ['apps.kruise.io/StatefulSet', { kind: 'Workload', webhook: 'vstatefulset.kb.io' }],
    ['apps.kruise.io/UnitedDeployment', { kind: 'Workload', webhook: 'vuniteddeployment.kb.io' }],
    ['/Service', { kind: 'Service', webhook: 'vservice.kb.io' }],
    ['networking.k8s.io/Ingress', { kind: 'Ingress', webhook: 'vingress.kb.io' }],
  ]);

/**
 * Kruise's deletion protection as a DELETE validator (docs/reference/operator.md §1): core's
 * `checkDeletionProtection` with the gates `ResourcesDeletionProtection` and
 * `DeletionProtectionForCRDCascadingGate` (forced off when the first is off, §3.6) and the store's
 * pods, PVCs and CRs as listers; a denial is the API server's 403 relay of the webhook's answer
 * (D1.11).
 *
 * Example: CloneSet `sample` labelled `policy.kruise.io/delete-protection: Cascading` with
 * `spec.replicas: 3`, gate on → 403 `admission webhook "vcloneset.kb.io" denied the request:
 * forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading and
 * replicas 3>0`.
 */
export const deletionProtectionValidator: DeleteValidator = (obj, ctx) => {
  const target = DELETION_PROTECTED_KINDS.get(`${groupOf(obj.apiVersion)}/${obj.kind}`);
  if (!target) return undefined;
  const enabled = ctx.featureGates.ResourcesDeletionProtection === true;
  const d = checkDeletionProtection(target.kind, obj, {
    enabled,
    crdCascading: enabled && ctx.featureGates.DeletionProtectionForCRDCascadingGate === true,
    listPods: (ns) => ctx.list('v1', 'Pod', ns),
    listPVCs: (ns) => ctx.list('v1', 'PersistentVolumeClaim', ns),
    // the store keys objects by group and kind, whatever the version
    listCRs: (group, version, listKind) => ctx.list(`${group}/${version}`, listKind.replace(/List$/, '')),
  });
  if (d.allowed) return undefined;
  // kruise answers `admission.Errored(403, err)`: a code and a message, no reason, and the API
  // server keeps it so (kubectl: `Error from server: admission webhook "…" denied the request: …`)
  return {
    code: d.code,
    reason: '',
    message: `admission webhook "${target.webhook}" denied the request: ${d.message}`,
  };
};

/** Registers `deletionProtectionValidator` for every protected kind (idempotent). */
export function installDeletionProtection(chain: AdmissionChain): AdmissionChain {
  for (const key of DELETION_PROTECTED_KINDS.keys()) {
    const i = key.indexOf('/');
    const group = key.slice(0, i);
    // registerDelete keys by group: any version of the group will do
    chain.registerDelete(group ? `${group}/v1` : 'v1', key.slice(i + 1), deletionProtectionValidator);
  }
  return chain;
}
