// External admission (controllers: none): the server calls the webhooks of
// MutatingWebhookConfiguration and ValidatingWebhookConfiguration objects over
// HTTPS with AdmissionReview v1, trusting each webhook's `caBundle`, and
// honours `rules`, `namespaceSelector`, `objectSelector`, `failurePolicy` and
// `timeoutSeconds`, as kube-apiserver does. Mutating webhooks run first, in
// configuration-name order, their JSONPatch responses applied in turn; then
// validating webhooks. `matchPolicy` (`Equivalent` by default, or `Exact`): a
// request at a version no rule lists is still sent when a rule lists another
// version of the same group and resource — the object converted to that version
// (conversion.ts), `kind`/`resource` naming it and `requestKind`/`requestResource`
// the request's, a mutation converted back. `clientConfig.service` has no cluster
// network here: it is reached at `https://127.0.0.1:<port><path>` (an
// approximation). The HTTPS client is webhookClient.ts, shared with the CRD
// conversion webhooks (conversion.ts).
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '@kruise-ts/api';
import { applyJsonPatch, isKubeObject, matchesLabelSelector } from '@kruise-ts/core';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { Simulation } from '../simulation';
import { type HasConversion, viewsOf } from './conversion';
import type { WebhookRunner } from './objects';
import type { Registry, ResourceInfo } from './registry';
import { type StatusObject, status } from './status';
import { type ClientConfig, postJson } from './webhookClient';

interface Rule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

interface Webhook {
  name: string;
  clientConfig?: ClientConfig;
  rules?: Rule[];
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  failurePolicy?: 'Fail' | 'Ignore';
  timeoutSeconds?: number;
  /** `Equivalent` (the admissionregistration.k8s.io/v1 default) or `Exact`. */
  matchPolicy?: 'Exact' | 'Equivalent';
}

type Verdict = { ok: true; object?: KubeObject } | { ok: false; status: StatusObject };

/** One webhook call of an admission request: the request's resource, operation and objects. */
interface AdmissionCall {
  res: ResourceInfo;
  operation: string;
  object: KubeObject | undefined;
  old: KubeObject | undefined;
  sub: string | undefined;
  dryRun: boolean;
  mutating: boolean;
}

const has = (list: string[] | undefined, v: string) => (list ?? []).includes('*') || (list ?? []).includes(v);

/** Whether a rule matches a request (operations, group, version, resource[/sub], scope). */
export function ruleMatches(rule: Rule, res: ResourceInfo, op: string, sub: string | undefined): boolean {
  if (!has(rule.operations, op) || !has(rule.apiGroups, res.group) || !has(rule.apiVersions, res.version))
    return false;
  const full = sub ? `${res.plural}/${sub}` : res.plural;
  const resources = rule.resources ?? [];
  const resOk = resources.some(
    (r) =>
      r === full ||
      r === '*/*' ||
      (r === '*' && !sub) ||
      (sub !== undefined && r === `*/${sub}`) ||
      (sub !== undefined && r === `${res.plural}/*`),
  );
  if (!resOk) return false;
  const scope = rule.scope ?? '*';
  return scope === '*' || (scope === 'Namespaced') === res.namespaced;
}

/**
 * The resource a webhook is called at for a request at `res`, or undefined when it is not called:
 * `res` itself when a rule matches it; else, unless `matchPolicy` is `Exact`, the first of
 * `equivalents` (the other served versions of the same group and resource, in the order the CRD
 * lists them) that a rule matches, earlier rules first — as kube-apiserver's `ShouldCallHook`.
 *
 * Example: a rule for `apps.kruise.io/v1alpha1 imagelistpulljobs` and a CREATE at `v1beta1` →
 * the `v1alpha1` resource (with `matchPolicy: Exact` → undefined).
 */
export function webhookResource(
  w: { rules?: Rule[]; matchPolicy?: string },
  res: ResourceInfo,
  op: string,
  sub: string | undefined,
  equivalents: readonly ResourceInfo[],
): ResourceInfo | undefined {
  const rules = w.rules ?? [];
  if (rules.some((r) => ruleMatches(r, res, op, sub))) return res;
  if (w.matchPolicy === 'Exact') return undefined;
  for (const r of rules)
    for (const eq of equivalents) {
      if (eq.version === res.version) continue;
      if (ruleMatches(r, eq, op, sub)) return eq;
    }
  return undefined;
}

/** Calls the webhooks of the stored configurations. */
export class HttpWebhookRunner implements WebhookRunner {
  /**
   * `conversion` converts objects to a webhook's version under `matchPolicy: Equivalent` (without
   * it only `apiVersion` is rewritten).
   */
  constructor(
    private readonly sim: Simulation,
    private readonly registry: Registry,
    private readonly conversion: HasConversion = {},
  ) {}

  /** The served versions of `res`'s group and resource (itself included), in registry order. */
  private equivalents(res: ResourceInfo): ResourceInfo[] {
    return this.registry.all().filter((r) => r.group === res.group && r.plural === res.plural);
  }

  private hooks(kind: string): Webhook[] {
    const cfgs = this.sim.store.list('admissionregistration.k8s.io/v1', kind);
    return cfgs.flatMap((c) =>
      ((c as { webhooks?: Webhook[] }).webhooks ?? []).filter((w) => w && typeof w.name === 'string'),
    );
  }

  /** The resource `w` is called at for this request (webhookResource + selectors), or undefined. */
  private selected(
    w: Webhook,
    res: ResourceInfo,
    op: string,
    sub: string | undefined,
    obj: KubeObject | undefined,
    old: KubeObject | undefined,
  ): ResourceInfo | undefined {
    const at = webhookResource(w, res, op, sub, this.equivalents(res));
    if (!at) return undefined;
    return this.selectorsMatch(w, res, obj, old) ? at : undefined;
  }

  private selectorsMatch(
    w: Webhook,
    res: ResourceInfo,
    obj: KubeObject | undefined,
    old: KubeObject | undefined,
  ): boolean {
    const target = obj ?? old;
    if (w.objectSelector) {
      const a = obj ? matchesLabelSelector(w.objectSelector, obj.metadata.labels ?? {}) : false;
      const b = old ? matchesLabelSelector(w.objectSelector, old.metadata.labels ?? {}) : false;
      if (!a && !b) return false;
    }
    if (w.namespaceSelector && target) {
      let labels: Record<string, string> | undefined;
      if (res.kind === 'Namespace') labels = target.metadata.labels;
      else if (res.namespaced)
        labels = this.sim.store.get('v1', 'Namespace', undefined, target.metadata.namespace ?? '')?.metadata
          .labels;
      if (res.namespaced || res.kind === 'Namespace')
        if (!matchesLabelSelector(w.namespaceSelector, labels ?? {})) return false;
    }
    return true;
  }

  async admit(
    res: ResourceInfo,
    operation: 'CREATE' | 'UPDATE' | 'DELETE',
    object: KubeObject | undefined,
    old: KubeObject | undefined,
    sub: string | undefined,
    dryRun: boolean,
    afterMutation?: (object: KubeObject) => StatusObject | undefined,
  ): Promise<Verdict> {
    if (res.group === 'admissionregistration.k8s.io') return { ok: true };
    let cur = object;
    let mutated = false;
    for (const w of this.hooks('MutatingWebhookConfiguration')) {
      const at = this.selected(w, res, operation, sub, cur, old);
      if (!at) continue;
      const v = await this.callAt(w, at, { res, operation, object: cur, old, sub, dryRun, mutating: true });
      if (!v.ok) return v;
      if (v.object) {
        cur = v.object;
        mutated = true;
      }
    }
    // kube-apiserver's own validation (a custom resource's schema) runs between the two phases
    const refused = cur && afterMutation ? afterMutation(cur) : undefined;
    if (refused) return { ok: false, status: refused };
    for (const w of this.hooks('ValidatingWebhookConfiguration')) {
      const at = this.selected(w, res, operation, sub, cur, old);
      if (!at) continue;
      const v = await this.callAt(w, at, { res, operation, object: cur, old, sub, dryRun, mutating: false });
      if (!v.ok) return v;
    }
    return mutated ? { ok: true, object: cur } : { ok: true };
  }

  /**
   * Calls `w` at resource `at`: the objects (at the request's version `res`) converted to `at`'s
   * version first, a mutated object converted back. A failed conversion is a 500 whatever the
   * failure policy, as kube-apiserver's dispatcher answers.
   */
  private async callAt(w: Webhook, at: ResourceInfo, req: AdmissionCall): Promise<Verdict> {
    const { res, object, old } = req;
    if (at === res) return this.call(w, at, req);
    const objs = [object, old].filter((o): o is KubeObject => o !== undefined);
    const conv = await viewsOf(this.conversion, objs, at, at.apiVersion);
    if (!conv.ok) return conv;
    const [o2, old2] = object ? conv.objects : [undefined, conv.objects[0]];
    const v = await this.call(w, at, { ...req, object: o2, old: old2 });
    if (!v.ok || !v.object) return v;
    const back = await viewsOf(this.conversion, [v.object], res, res.apiVersion);
    return back.ok ? { ok: true, object: back.objects[0] } : back;
  }

  /** Calls `w` at resource `at` with the objects as they are (already at `at`'s version). */
  private async call(w: Webhook, at: ResourceInfo, req: AdmissionCall): Promise<Verdict> {
    const { res, operation, object, old, sub, dryRun, mutating } = req;
    const target = object ?? old;
    const gvk = { group: at.group, version: at.version, kind: at.kind };
    const gvr = { group: at.group, version: at.version, resource: at.plural };
    const uid = randomUUID();
    const review = {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid,
        kind: gvk,
        resource: gvr,
        subResource: sub,
        requestKind: { group: res.group, version: res.version, kind: res.kind },
        requestResource: { group: res.group, version: res.version, resource: res.plural },
        requestSubResource: sub,
        name: target?.metadata.name ?? '',
        namespace: target?.metadata.namespace,
        operation,
        userInfo: { username: 'kruise-ts:user', groups: ['system:authenticated'] },
        object: object ?? null,
        oldObject: old ?? null,
        dryRun,
        options: {
          kind: `${operation[0]}${operation.slice(1).toLowerCase()}Options`,
          apiVersion: 'meta.k8s.io/v1',
        },
      },
    };
    const failed = (msg: string): Verdict =>
      w.failurePolicy === 'Ignore'
        ? { ok: true }
        : {
            ok: false,
            status: status(
              500,
              'InternalError',
              `Internal error occurred: failed calling webhook "${w.name}": ${msg}`,
            ),
          };
    let reply: unknown;
    try {
      reply = await post(w, JSON.stringify(review));
    } catch (e) {
      return failed((e as Error).message);
    }
    const resp = (reply as { response?: Record<string, any> })?.response;
    if (!resp || typeof resp !== 'object') return failed('the webhook returned no response');
    if (resp.allowed !== true) {
      const st = (resp.status ?? {}) as { code?: number; message?: string; reason?: string };
      return {
        ok: false,
        status: status(
          st.code && st.code >= 400 ? st.code : 400,
          st.reason ?? '', // kept as the webhook sent it (kube-apiserver's ToStatusErr)
          `admission webhook "${w.name}" denied the request${
            st.message ? `: ${st.message}` : st.reason ? `: ${st.reason}` : ' without explanation'
          }`,
        ),
      };
    }
    if (mutating && object && typeof resp.patch === 'string' && resp.patch !== '') {
      try {
        const ops = JSON.parse(Buffer.from(resp.patch, 'base64').toString('utf8'));
        const patched = applyJsonPatch(object, ops);
        // a patch may remove what every object has; such a result is not admitted
        if (!isKubeObject(patched))
          return failed('invalid patch: the patched object has no apiVersion, kind or metadata');
        return { ok: true, object: patched };
      } catch (e) {
        return failed(`invalid patch: ${(e as Error).message}`);
      }
    }
    return { ok: true };
  }
}

function post(w: Webhook, body: string): Promise<unknown> {
  const timeoutMs = Math.min(30, Math.max(1, w.timeoutSeconds ?? 10)) * 1000;
  return postJson(w.clientConfig ?? {}, body, timeoutMs);
}
