// Admission handlers (docs/reference/operator.md §1, §2.2): the pod mutating webhook (SidecarSet
// injection through injectSidecars), defaulting and validation of the workload kinds through
// their descriptors' admission hooks (@kruise-ts/registry, the same hooks the simulator's
// admission chain runs), of the node-side kinds through setDefaults* and validate*, and deletion
// protection. Each
// handler maps an AdmissionReview request to a response; the objects it needs beyond the
// request come from the informer cache. Pure apart from the cache reads.
// Node-side kinds: ContainerRecreateRequest has only a mutating webhook, which checks (daemon.md §8.2–8.3
// of docs/reference/daemon.md) and then fills in from the pod; AdvancedCronJob follows
// docs/reference/advancedcronjob.md AC1.3/AC2.1 (v1alpha1 and v1beta1, a v1alpha1 object handled as
// v1beta1 without imageListPullJobTemplate, AC1.2); ImagePullJob / ImageListPullJob validation
// refuses everything with 403 while `KruiseDaemon` or `ImagePullJobGate` is off (§3.4).
import {
  type AdvancedCronJob,
  type KubeObject,
  type StructureCache,
  setDefaultsAdvancedCronJob,
  setDefaultsContainerRecreateRequest,
  setDefaultsImageListPullJob,
  setDefaultsImagePullJob,
  setDefaultsNodeImage,
} from '@kruise-ts/api';
import {
  type AdmissionEnv,
  type AnyControllerDescriptor,
  asKind,
  driverOf,
  type FeatureGates,
  type FieldError,
  formatFieldError,
  jsonEqual,
} from '@kruise-ts/core';
import {
  ADVANCED_CRON_JOB_KIND,
  CRR_KIND,
  imagePullGateError,
  validateAdvancedCronJob,
  validateContainerRecreateRequest,
  validateImageListPullJob,
  validateImagePullJob,
  validateNodeImage,
} from '@kruise-ts/nodeops';
import { descriptorNamed } from '@kruise-ts/registry';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { CacheReader } from '../controllers/index';
import { CacheObjectReader, POD, PVC } from '../controllers/index';
import { checkDeletionProtection, type ProtectedKind, type ProtectionDecision } from './deletionProtection';

/** The `request` of an AdmissionReview. */
export interface AdmissionRequest {
  uid: string;
  kind?: { group: string; version: string; kind: string };
  subResource?: string;
  name?: string;
  namespace?: string;
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  userInfo?: { username?: string };
  object?: KubeObject;
  oldObject?: KubeObject;
}

/** The `response` of an AdmissionReview. */
export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: { code: number; message: string };
  patchType?: 'JSONPatch';
  patch?: string;
}

/** What handlers read. */
export interface HandlerContext {
  cache: CacheReader;
  featureGates: FeatureGates;
  kruiseNamespace: string;
  now(): Date;
  /** Lists CRs for CRD Cascading protection (D1.9), straight from the API server. */
  listCRs?(group: string, version: string, listKind: string): Promise<KubeObject[]>;
  /** A denial happened (metrics + protection log, D1.12). */
  onProtectionDenied?(kind: string, obj: KubeObject, username: string): void;
  /** The webhook server's structure cache, kept for its life (AdmissionEnv.structureCache). */
  structureCache?: StructureCache;
}

type Handler = (req: AdmissionRequest, ctx: HandlerContext) => Promise<AdmissionResponse> | AdmissionResponse;

const allow = (uid: string): AdmissionResponse => ({
  uid,
  allowed: true,
  status: { code: 200, message: '' },
});
const deny = (uid: string, code: number, message: string): AdmissionResponse => ({
  uid,
  allowed: false,
  status: { code, message },
});

/** A JSONPatch replacing the changed top-level members (add = replace-or-add, RFC 6902). */
export function topLevelPatch(before: object, after: object): string | undefined {
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  const ops: unknown[] = [];
  for (const k of Object.keys(a)) {
    if (!(k in b) || !jsonEqual(b[k] as any, a[k] as any))
      ops.push({ op: 'add', path: `/${k}`, value: a[k] });
  }
  for (const k of Object.keys(b)) if (!(k in a)) ops.push({ op: 'remove', path: `/${k}` });
  return ops.length ? Buffer.from(JSON.stringify(ops)).toString('base64') : undefined;
}

function mutated(uid: string, before: object, after: object): AdmissionResponse {
  const patch = topLevelPatch(before, after);
  return patch ? { uid, allowed: true, patchType: 'JSONPatch', patch } : allow(uid);
}

function fieldErrors(uid: string, errs: FieldError[]): AdmissionResponse {
  return errs.length === 0 ? allow(uid) : deny(uid, 422, errs.map(formatFieldError).join(', '));
}

/** `/mutate-pod`: SidecarSet injection on CREATE (SS-4.1), the SidecarSet descriptor's pod hook. */
const mutatePod: Handler = (req, ctx) => {
  const inject = hooksOf(descriptorNamed('sidecarset'))?.mutatePod;
  if (req.operation !== 'CREATE' || !req.object || !inject) return allow(req.uid);
  // The webhook is registered for pods only (W2.1): another kind is a request it does not serve.
  const pod = asKind(req.object, POD);
  if (!pod) return allow(req.uid);
  const r = inject(pod, admissionEnv<Pod>(req, ctx, undefined));
  if (r.errors.length > 0) return deny(req.uid, 403, r.errors.map(formatFieldError).join(', '));
  return mutated(req.uid, pod, r.pod);
};

/** What a workload descriptor's admission hook gets from a request (`old`: the stored object on UPDATE). */
function admissionEnv<Obj>(
  req: AdmissionRequest,
  ctx: HandlerContext,
  old: Obj | undefined,
): AdmissionEnv<Obj> {
  return {
    operation: req.operation === 'UPDATE' ? 'UPDATE' : 'CREATE',
    ...(old ? { old } : {}),
    featureGates: ctx.featureGates,
    reader: new CacheObjectReader(ctx.cache),
    now: ctx.now().toISOString(),
    kruiseNamespace: ctx.kruiseNamespace,
    ...(req.namespace ? { requestNamespace: req.namespace } : {}),
    ...(ctx.structureCache ? { structureCache: ctx.structureCache } : {}),
  };
}

/** The admission hooks of a descriptor, as core's driver calls them on any request object. */
function hooksOf(d: AnyControllerDescriptor | undefined) {
  return d === undefined ? undefined : driverOf(d).admission;
}

/** `/mutate-<kind>` of a workload kind: its descriptor's defaults (the registry's admission hooks). */
function descriptorDefaulter(d: AnyControllerDescriptor | undefined): Handler {
  const defaults = hooksOf(d)?.default;
  return (req, ctx) => {
    if (!defaults || !req.object || !isCreateOrUpdate(req)) return allow(req.uid);
    return mutated(req.uid, req.object, defaults(req.object, admissionEnv(req, ctx, oldOf(req))));
  };
}

/**
 * `/validate-<kind>` of a workload kind: its descriptor's validation on CREATE/UPDATE, and with
 * `deletable` the DELETE protection of workloads.
 */
function descriptorValidator(d: AnyControllerDescriptor | undefined, deletable = false): Handler {
  const validate = hooksOf(d)?.validate;
  return (req, ctx) => {
    if (req.operation === 'DELETE') return deletable ? protection('Workload', req, ctx) : allow(req.uid);
    if (!validate || !req.object || !isCreateOrUpdate(req)) return allow(req.uid);
    return fieldErrors(req.uid, validate(req.object, admissionEnv(req, ctx, oldOf(req))));
  };
}

/** `/mutate-<kind>`: the kind's defaulting (the mutating webhook of each Kruise kind). */
function defaulter(fn: (obj: never, opts: never) => KubeObject): Handler {
  return (req, ctx) => {
    if (!req.object || (req.operation !== 'CREATE' && req.operation !== 'UPDATE')) return allow(req.uid);
    const out = fn(req.object as never, { featureGates: ctx.featureGates, old: req.oldObject } as never);
    return mutated(req.uid, req.object, out);
  };
}

const isCreateOrUpdate = (req: AdmissionRequest) => req.operation === 'CREATE' || req.operation === 'UPDATE';
const oldOf = (req: AdmissionRequest) =>
  req.operation === 'UPDATE' ? (req.oldObject ?? undefined) : undefined;

/** `/mutate-apps-kruise-io-v1alpha1-nodeimage`: §5.1 item 2, `createdAt` from the webhook's clock. */
const mutateNodeImage: Handler = (req, ctx) => {
  if (!req.object || !isCreateOrUpdate(req)) return allow(req.uid);
  const out = setDefaultsNodeImage(req.object as never, { old: oldOf(req), now: ctx.now() });
  return mutated(req.uid, req.object, out);
};

/** `/validate-…-imagepulljob` and `-imagelistpulljob`: the gate refusal (403), then the field rules (422). */
function imagePullValidator(fn: (obj: never, old: never) => FieldError[]): Handler {
  return (req, ctx) => {
    if (!req.object || !isCreateOrUpdate(req)) return allow(req.uid);
    const gate = imagePullGateError(ctx.featureGates);
    if (gate) return deny(req.uid, 403, formatFieldError(gate));
    return fieldErrors(req.uid, fn(req.object as never, oldOf(req) as never));
  };
}

const ACJ_V1ALPHA1 = 'apps.kruise.io/v1alpha1';

/**
 * AC1.2 as the webhooks see a v1alpha1 AdvancedCronJob: decoded into the v1alpha1 shape (which
 * has no `imageListPullJobTemplate`, so that member is dropped), then handled as v1beta1.
 * `undefined` for an object of another kind.
 */
export function advancedCronJobAsV1beta1(obj: KubeObject): AdvancedCronJob | undefined {
  const acj = asKind(obj, ADVANCED_CRON_JOB_KIND);
  if (!acj || obj.apiVersion !== ACJ_V1ALPHA1) return acj;
  const template = acj.spec?.template;
  if (!template || !('imageListPullJobTemplate' in template)) return acj;
  const { imageListPullJobTemplate: _dropped, ...rest } = template;
  return { ...acj, spec: { ...acj.spec, template: rest } };
}

/**
 * `/mutate-apps-kruise-io-advancedcronjob` (AC1.3): setDefaultsAdvancedCronJob on the object as
 * v1beta1; a v1alpha1 request's patch is built against its own version (and removes an
 * `imageListPullJobTemplate`, which v1alpha1 does not have).
 */
const mutateAdvancedCronJob: Handler = (req, ctx) => {
  if (!req.object || !isCreateOrUpdate(req)) return allow(req.uid);
  const acj = advancedCronJobAsV1beta1(req.object);
  if (!acj) return notOfKind(req, ADVANCED_CRON_JOB_KIND.kind);
  const old = oldOf(req);
  const out = setDefaultsAdvancedCronJob(acj, {
    featureGates: { ...ctx.featureGates },
    old: old ? advancedCronJobAsV1beta1(old) : undefined,
  });
  return mutated(req.uid, req.object, out);
};

/** `/validate-apps-kruise-io-advancedcronjob` (AC2.1): both objects as v1beta1, then AC2.2–AC2.4 (422). */
const validateAdvancedCronJobRequest: Handler = (req) => {
  if (!req.object || !isCreateOrUpdate(req)) return allow(req.uid);
  const acj = advancedCronJobAsV1beta1(req.object);
  if (!acj) return notOfKind(req, ADVANCED_CRON_JOB_KIND.kind);
  const old = oldOf(req);
  return fieldErrors(req.uid, validateAdvancedCronJob(acj, old ? advancedCronJobAsV1beta1(old) : undefined));
};

/** The answer to a request whose object is not of the webhook's kind (400, as a decode error). */
function notOfKind(req: AdmissionRequest, kind: string): AdmissionResponse {
  return deny(req.uid, 400, `the object is a ${req.object?.kind}, not a ${kind}`);
}

/**
 * `/mutate-apps-kruise-io-v1alpha1-containerrecreaterequest` (docs/reference/daemon.md §8.2–§8.3; the kind
 * has no validating webhook): on UPDATE the immutability checks; on CREATE the checks against
 * the target pod (from the cache), then the fill-in from that pod (labels, preStop, ports,
 * statusContext, grace period).
 */
const mutateContainerRecreateRequest: Handler = (req, ctx) => {
  if (!req.object || !isCreateOrUpdate(req)) return allow(req.uid);
  const crr = asKind(req.object, CRR_KIND);
  if (!crr) return notOfKind(req, CRR_KIND.kind);
  const stored = oldOf(req);
  const old = stored ? asKind(stored, CRR_KIND) : undefined;
  if (old) return fieldErrors(req.uid, validateContainerRecreateRequest(crr, old));
  const ns = req.object.metadata?.namespace ?? req.namespace;
  const podName = crr.spec?.podName;
  const pod = podName ? new CacheObjectReader(ctx.cache).get(POD, ns, podName) : undefined;
  const errs = validateContainerRecreateRequest(crr, undefined, { pod });
  if (errs.length > 0) return fieldErrors(req.uid, errs);
  return mutated(req.uid, req.object, setDefaultsContainerRecreateRequest(crr, { pod }));
};

/** Deletion protection for a DELETE (D1.3–D1.6). */
async function protection(
  kind: ProtectedKind,
  req: AdmissionRequest,
  ctx: HandlerContext,
): Promise<AdmissionResponse> {
  if (req.operation !== 'DELETE' || req.subResource) return allow(req.uid);
  const old = req.oldObject;
  if (!old) return allow(req.uid); // D1.4
  let crs: KubeObject[] | Error | undefined;
  if (
    kind === 'CustomResourceDefinition' &&
    ctx.featureGates.DeletionProtectionForCRDCascadingGate &&
    ctx.listCRs
  ) {
    const spec = (
      old as {
        spec?: {
          group?: string;
          versions?: Array<{ name: string; storage?: boolean }>;
          names?: { listKind?: string };
        };
      }
    ).spec;
    const v = spec?.versions?.find((x) => x.storage);
    if (v)
      crs = await ctx.listCRs(spec?.group ?? '', v.name, spec?.names?.listKind ?? '').catch((e: Error) => e);
  }
  const d: ProtectionDecision = checkDeletionProtection(kind, old, {
    enabled: ctx.featureGates.ResourcesDeletionProtection,
    crdCascading: ctx.featureGates.DeletionProtectionForCRDCascadingGate,
    listPods: (ns) => ctx.cache.list(POD, ns),
    listPVCs: (ns) => ctx.cache.list(PVC, ns),
    listCRs: () => {
      if (crs instanceof Error) throw crs;
      return crs ?? [];
    },
  });
  if (d.allowed) return allow(req.uid);
  if (kind !== 'Service' && kind !== 'Ingress')
    ctx.onProtectionDenied?.(req.kind?.kind ?? old.kind, old, req.userInfo?.username ?? '');
  return deny(req.uid, d.code, d.message);
}

/** `/validate-<kind>`: CREATE/UPDATE validation, and for workloads DELETE protection. */
function validator(fn: (obj: never, old: never, ctx: never) => FieldError[], deletable = false): Handler {
  return (req, ctx) => {
    if (req.operation === 'DELETE') return deletable ? protection('Workload', req, ctx) : allow(req.uid);
    if (!req.object || (req.operation !== 'CREATE' && req.operation !== 'UPDATE')) return allow(req.uid);
    const ns = req.object.metadata?.namespace ?? req.namespace;
    return fieldErrors(
      req.uid,
      fn(
        req.object as never,
        (req.operation === 'UPDATE' ? req.oldObject : undefined) as never,
        {
          featureGates: ctx.featureGates,
          pods: ns ? ctx.cache.list(POD, ns) : [],
          sidecarSets: ctx.cache.list({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet' }),
        } as never,
      ),
    );
  };
}

/** Every served admission path → handler. */
export const handlers: Readonly<Record<string, Handler>> = {
  '/mutate-pod': mutatePod,
  '/mutate-apps-kruise-io-v1alpha1-cloneset': descriptorDefaulter(descriptorNamed('cloneset')),
  '/mutate-apps-kruise-io-v1alpha1-daemonset': descriptorDefaulter(descriptorNamed('daemonset')),
  '/mutate-apps-kruise-io-v1alpha1-sidecarset': descriptorDefaulter(descriptorNamed('sidecarset')),
  '/mutate-apps-kruise-io-statefulset': descriptorDefaulter(descriptorNamed('statefulset')),
  '/mutate-apps-kruise-io-v1alpha1-uniteddeployment': descriptorDefaulter(
    descriptorNamed('uniteddeployment'),
  ),
  '/mutate-apps-kruise-io-v1alpha1-imagepulljob': defaulter(setDefaultsImagePullJob as never),
  '/mutate-apps-kruise-io-v1alpha1-imagelistpulljob': defaulter(setDefaultsImageListPullJob as never),
  '/mutate-apps-kruise-io-v1alpha1-nodeimage': mutateNodeImage,
  '/mutate-apps-kruise-io-v1alpha1-containerrecreaterequest': mutateContainerRecreateRequest,
  '/mutate-apps-kruise-io-advancedcronjob': mutateAdvancedCronJob,
  // the v1.8.2 path (operator.md §2.3), served too so a configuration written for it still works
  '/mutate-apps-kruise-io-v1alpha1-advancedcronjob': mutateAdvancedCronJob,
  '/validate-apps-kruise-io-v1alpha1-cloneset': descriptorValidator(descriptorNamed('cloneset'), true),
  '/validate-apps-kruise-io-statefulset': descriptorValidator(descriptorNamed('statefulset'), true),
  '/validate-apps-kruise-io-v1alpha1-uniteddeployment': descriptorValidator(
    descriptorNamed('uniteddeployment'),
    true,
  ),
  '/validate-apps-kruise-io-v1alpha1-daemonset': descriptorValidator(descriptorNamed('daemonset')),
  '/validate-apps-kruise-io-v1alpha1-sidecarset': descriptorValidator(descriptorNamed('sidecarset')),
  '/validate-apps-kruise-io-advancedcronjob': validateAdvancedCronJobRequest,
  '/validate-apps-kruise-io-v1alpha1-advancedcronjob': validateAdvancedCronJobRequest,
  '/validate-apps-kruise-io-v1alpha1-imagepulljob': imagePullValidator(validateImagePullJob as never),
  '/validate-apps-kruise-io-v1alpha1-imagelistpulljob': imagePullValidator(validateImageListPullJob as never),
  '/validate-apps-kruise-io-v1alpha1-nodeimage': validator(validateNodeImage as never),
  '/validate-apps-deployment': (r, c) => protection('Workload', r, c),
  '/validate-apps-replicaset': (r, c) => protection('Workload', r, c),
  '/validate-apps-statefulset': (r, c) => protection('Workload', r, c),
  '/validate-namespace': (r, c) => protection('Namespace', r, c),
  '/validate-customresourcedefinition': (r, c) => protection('CustomResourceDefinition', r, c),
  '/validate-service': (r, c) => protection('Service', r, c),
  '/validate-ingress': (r, c) => protection('Ingress', r, c),
};

/**
 * W2.1: the paths served under the gates: `/mutate-pod` needs `PodWebhook`; Service and Ingress
 * protection need `ResourcesDeletionProtection`; every other path is always served.
 */
export function activePaths(gates: FeatureGates): Set<string> {
  const out = new Set(Object.keys(handlers));
  if (!gates.PodWebhook) out.delete('/mutate-pod');
  if (!gates.ResourcesDeletionProtection) {
    out.delete('/validate-service');
    out.delete('/validate-ingress');
  }
  return out;
}

/** Runs the handler of `path` for one AdmissionReview body; returns the response review. */
export async function review(path: string, body: unknown, ctx: HandlerContext): Promise<unknown> {
  const b = body as { apiVersion?: string; request?: AdmissionRequest };
  const req = b?.request;
  const apiVersion = b?.apiVersion ?? 'admission.k8s.io/v1';
  if (!req?.uid)
    return { apiVersion, kind: 'AdmissionReview', response: deny('', 400, 'no request in AdmissionReview') };
  const h = handlers[path];
  let response: AdmissionResponse;
  try {
    response = h ? await h(req, ctx) : allow(req.uid);
  } catch (err) {
    response = deny(req.uid, 500, (err as Error).message);
  }
  return { apiVersion, kind: 'AdmissionReview', response };
}
