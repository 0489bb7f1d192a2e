// The webhook configurations (docs/reference/operator.md §2.3–§2.5, §2.9): every entry of §2.3/§2.4, with
// the ones the operator does not serve marked and explained (kinds kruise-ts does not implement),
// the two configuration objects of the served entries (deploy/webhooks.yaml is generated from
// them by scripts/gen-webhooks.ts; with --install-webhooks they are created at start-up), and
// W2.13's patch: keep a `template` annotation, set every entry's
// caBundle, drop entries whose path is not served, point them at the Service (or at
// https://WEBHOOK_HOST:port when set), and UPDATE only when something changed.
import type { KubeObject } from '@kruise-ts/api';
import { ensureOk, type KubeClient } from '../kube/client';
import { collectionPath, objectPath, resourceFor } from '../kube/resources';

export const MUTATING_CONFIG = 'kruise-mutating-webhook-configuration';
export const VALIDATING_CONFIG = 'kruise-validating-webhook-configuration';

/** One webhook entry before rendering. */
export interface EntryDef {
  name: string;
  path: string;
  groups: string[];
  versions: string[];
  resources: string[];
  operations: string[];
  /** Pod entries (§2.5) take the configurable failure policy. */
  pod?: boolean;
  /** Deletion-protection-only entries (D1.14): objectSelector on the label. */
  protection?: boolean;
  /**
   * Why the operator does not serve this entry (a kind kruise-ts does not implement). Such
   * entries are never written, and W2.13 drops them from an existing configuration (their path
   * is not active), the way §2.2 drops the paths of inactive handlers.
   */
  unserved?: string;
}

const K = 'apps.kruise.io';
const kruiseEntry = (
  prefix: 'm' | 'v',
  kind: string,
  versions = ['v1alpha1'],
  ops = ['CREATE', 'UPDATE'],
  path?: string,
): EntryDef => ({
  name: `${prefix}${kind}.kb.io`,
  path: path ?? `/${prefix === 'm' ? 'mutate' : 'validate'}-apps-kruise-io-v1alpha1-${kind}`,
  groups: [K],
  versions,
  resources: [`${kind}s`],
  operations: ops,
});
const unserved = (e: EntryDef, why: string): EntryDef => ({ ...e, unserved: why });

const NO_BROADCASTJOB =
  'BroadcastJob: kruise-ts has its types and defaults (packages/api) but no controller and no validation';
const NO_PUB =
  'PodUnavailableBudget is not implemented (W2.1 serves /validate-pod only when discovery finds that kind)';
const notImplemented = (kind: string) => `${kind} is not implemented in kruise-ts`;

/**
 * AdvancedCronJob follows v1.9.0 (docs/reference/advancedcronjob.md AC1.1, AC1.3, AC2.1): stored at
 * v1beta1, so its entries name both versions and use the v1.9.0 paths (no version in the path).
 * The v1.8.2 paths of operator.md §2.3/§2.4 are served as well (handlers.ts).
 */
const ACJ_VERSIONS = ['v1alpha1', 'v1beta1'];

/** Every §2.3 entry (12), with the AdvancedCronJob entry at its v1.9.0 path and versions. */
export const mutatingTable: readonly EntryDef[] = [
  {
    name: 'mpod.kb.io',
    path: '/mutate-pod',
    groups: [''],
    versions: ['v1'],
    resources: ['pods'],
    operations: ['CREATE'],
    pod: true,
  },
  kruiseEntry('m', 'advancedcronjob', ACJ_VERSIONS, undefined, '/mutate-apps-kruise-io-advancedcronjob'),
  unserved(kruiseEntry('m', 'broadcastjob'), NO_BROADCASTJOB),
  kruiseEntry('m', 'cloneset'),
  kruiseEntry('m', 'containerrecreaterequest'),
  kruiseEntry('m', 'daemonset'),
  kruiseEntry('m', 'imagelistpulljob'),
  kruiseEntry('m', 'imagepulljob'),
  kruiseEntry('m', 'nodeimage'),
  kruiseEntry('m', 'sidecarset'),
  kruiseEntry('m', 'statefulset', ['v1alpha1', 'v1beta1'], undefined, '/mutate-apps-kruise-io-statefulset'),
  kruiseEntry('m', 'uniteddeployment'),
];

const protect = (
  name: string,
  path: string,
  group: string,
  versions: string[],
  resource: string,
): EntryDef => ({
  name,
  path,
  groups: [group],
  versions,
  resources: [resource],
  operations: ['DELETE'],
  protection: true,
});

/** Every §2.4 entry (25), with the AdvancedCronJob entry at its v1.9.0 path and versions. */
export const validatingTable: readonly EntryDef[] = [
  protect('vbuiltindeployment.kb.io', '/validate-apps-deployment', 'apps', ['v1'], 'deployments'),
  protect('vbuiltinreplicaset.kb.io', '/validate-apps-replicaset', 'apps', ['v1'], 'replicasets'),
  protect('vbuiltinstatefulset.kb.io', '/validate-apps-statefulset', 'apps', ['v1'], 'statefulsets'),
  protect(
    'vcustomresourcedefinition.kb.io',
    '/validate-customresourcedefinition',
    'apiextensions.k8s.io',
    ['v1', 'v1beta1'],
    'customresourcedefinitions',
  ),
  protect('vnamespace.kb.io', '/validate-namespace', '', ['v1'], 'namespaces'),
  protect('vservice.kb.io', '/validate-service', '', ['v1'], 'services'),
  protect('vingress.kb.io', '/validate-ingress', 'networking.k8s.io', ['v1', 'v1beta1'], 'ingresses'),
  unserved(
    {
      name: 'vpod.kb.io',
      path: '/validate-pod',
      groups: [''],
      versions: ['v1'],
      resources: ['pods'],
      operations: ['UPDATE', 'DELETE'],
      pod: true,
    },
    NO_PUB,
  ),
  unserved(
    {
      name: 'vpodeviction.kb.io',
      path: '/validate-pod',
      groups: [''],
      versions: ['v1'],
      resources: ['pods/eviction'],
      operations: ['CREATE'],
      pod: true,
    },
    NO_PUB,
  ),
  unserved(kruiseEntry('v', 'resourcedistribution'), notImplemented('ResourceDistribution')),
  unserved(kruiseEntry('v', 'workloadspread'), notImplemented('WorkloadSpread')),
  kruiseEntry('v', 'advancedcronjob', ACJ_VERSIONS, undefined, '/validate-apps-kruise-io-advancedcronjob'),
  unserved(kruiseEntry('v', 'broadcastjob'), NO_BROADCASTJOB),
  kruiseEntry('v', 'cloneset', ['v1alpha1'], ['CREATE', 'UPDATE', 'DELETE']),
  kruiseEntry('v', 'daemonset'),
  unserved(
    { ...kruiseEntry('v', 'ephemeraljob'), name: 'vephemeraljobs.kb.io' },
    notImplemented('EphemeralJob'),
  ),
  kruiseEntry('v', 'imagelistpulljob'),
  kruiseEntry('v', 'imagepulljob'),
  kruiseEntry('v', 'nodeimage'),
  unserved(
    kruiseEntry(
      'v',
      'persistentpodstate',
      undefined,
      undefined,
      '/validate-apps-kruise-io-persistentpodstate',
    ),
    notImplemented('PersistentPodState'),
  ),
  unserved(
    kruiseEntry('v', 'podprobemarker', undefined, undefined, '/validate-apps-kruise-io-podprobemarker'),
    notImplemented('PodProbeMarker'),
  ),
  unserved(
    {
      ...kruiseEntry('v', 'podunavailablebudget'),
      path: '/validate-policy-kruise-io-podunavailablebudget',
      groups: ['policy.kruise.io'],
    },
    notImplemented('PodUnavailableBudget'),
  ),
  kruiseEntry('v', 'sidecarset'),
  kruiseEntry(
    'v',
    'statefulset',
    ['v1alpha1', 'v1beta1'],
    ['CREATE', 'UPDATE', 'DELETE'],
    '/validate-apps-kruise-io-statefulset',
  ),
  kruiseEntry('v', 'uniteddeployment', ['v1alpha1'], ['CREATE', 'UPDATE', 'DELETE']),
];

/** §2.3 entries the operator serves. */
export const mutatingEntries: readonly EntryDef[] = mutatingTable.filter((e) => !e.unserved);
/** §2.4 entries the operator serves. */
export const validatingEntries: readonly EntryDef[] = validatingTable.filter((e) => !e.unserved);
/** The entries the operator never writes and drops from existing configurations, with the reason. */
export const unservedEntries: readonly EntryDef[] = [...mutatingTable, ...validatingTable].filter(
  (e) => e.unserved,
);

/** How entries are rendered. */
export interface RenderOptions {
  namespace: string;
  serviceName: string;
  /** `WEBHOOK_HOST`: entries use `url: https://<host>:<port><path>` instead of the Service. */
  host?: string;
  port: number;
  /** Pod webhook failure policy (default Fail; `Ignore` keeps pods creatable while the operator is down). */
  podFailurePolicy: 'Fail' | 'Ignore';
  /** Deletion-protection entries' failure policy (chart: Ignore, D1.14). */
  protectionFailurePolicy: 'Fail' | 'Ignore';
  caBundle?: string;
}

/** Every entry excludes kube-system and namespaces labelled `control-plane: openkruise` (§2.5, chart). */
export const EXCLUDE_NAMESPACES = {
  matchExpressions: [
    { key: 'control-plane', operator: 'NotIn', values: ['openkruise'] },
    { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] },
  ],
};

function clientConfig(path: string, o: RenderOptions): Record<string, unknown> {
  const base = o.host
    ? { url: `https://${o.host}:${o.port}${path}` }
    : { service: { name: o.serviceName, namespace: o.namespace, path } };
  return o.caBundle ? { ...base, caBundle: Buffer.from(o.caBundle).toString('base64') } : base;
}

/** One rendered entry (§2.1 common fields). */
export function renderEntry(e: EntryDef, o: RenderOptions): Record<string, unknown> {
  return {
    name: e.name,
    admissionReviewVersions: ['v1', 'v1beta1'],
    sideEffects: 'None',
    failurePolicy: e.pod ? o.podFailurePolicy : e.protection ? o.protectionFailurePolicy : 'Fail',
    timeoutSeconds: 30,
    clientConfig: clientConfig(e.path, o),
    namespaceSelector: EXCLUDE_NAMESPACES,
    ...(e.protection
      ? {
          objectSelector: {
            matchExpressions: [{ key: 'policy.kruise.io/delete-protection', operator: 'Exists' }],
          },
        }
      : {}),
    rules: [
      {
        apiGroups: e.groups,
        apiVersions: e.versions,
        resources: e.resources,
        operations: e.operations,
        scope: '*',
      },
    ],
  };
}

/**
 * The two configuration objects (deploy manifests, or created by --install-webhooks): the
 * entries the operator serves, or with `which: 'all'` every entry of §2.3/§2.4 (what a kruise
 * install ships; tests use it to check that W2.13 drops the unserved ones).
 */
export function webhookConfigurations(o: RenderOptions, which: 'served' | 'all' = 'served'): KubeObject[] {
  const pick = (t: readonly EntryDef[]) => (which === 'all' ? t : t.filter((e) => !e.unserved));
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: MUTATING_CONFIG, annotations: { template: '' } },
      webhooks: pick(mutatingTable).map((e) => renderEntry(e, o)),
    } as KubeObject,
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: VALIDATING_CONFIG, annotations: { template: '' } },
      webhooks: pick(validatingTable).map((e) => renderEntry(e, o)),
    } as KubeObject,
  ];
}

interface Entry {
  name: string;
  clientConfig?: {
    url?: string;
    service?: { name?: string; namespace?: string; path?: string; port?: number };
    caBundle?: string;
  };
}

/**
 * W2.13 on one configuration object (pure): returns the patched object. `active` is the set of
 * served paths. Throws on an entry without a path (a sync error).
 */
export function patchConfiguration(
  obj: KubeObject,
  caPem: string,
  active: ReadonlySet<string>,
  o: RenderOptions,
): KubeObject {
  const annotations = { ...(obj.metadata.annotations ?? {}) };
  const current = ((obj as { webhooks?: Entry[] }).webhooks ?? []) as Entry[];
  let template: Entry[];
  if (annotations.template) template = JSON.parse(annotations.template) as Entry[];
  else {
    template = current;
    annotations.template = JSON.stringify(current);
  }
  const ca = Buffer.from(caPem).toString('base64');
  const out: Entry[] = [];
  for (const e of template) {
    const cc = { ...(e.clientConfig ?? {}) };
    const path = cc.service?.path ?? (cc.url ? new URL(cc.url).pathname : undefined);
    if (!path) throw new Error(`webhook ${e.name} has no path`);
    if (!active.has(path)) continue;
    if (o.host) {
      delete cc.service;
      cc.url = `https://${o.host}:${o.port}${path}`;
    } else if (cc.service) cc.service = { ...cc.service, namespace: o.namespace, name: o.serviceName };
    cc.caBundle = ca;
    out.push({ ...e, clientConfig: cc });
  }
  return { ...obj, metadata: { ...obj.metadata, annotations }, webhooks: out } as KubeObject;
}

/** W2.13: GET both configurations (creating them first when `install`), patch, UPDATE when changed. */
export async function syncWebhookConfigurations(
  client: KubeClient,
  caPem: string,
  active: ReadonlySet<string>,
  o: RenderOptions & { install?: boolean },
): Promise<void> {
  for (const desired of webhookConfigurations(o)) {
    const res0 = resourceFor(desired.apiVersion, desired.kind);
    const path = objectPath(res0, undefined, desired.metadata.name ?? '');
    let got = await client.request('GET', path);
    if (got.status === 404 && o.install) {
      const created = await client.request('POST', collectionPath(res0), { body: desired });
      if (created.status !== 409) ensureOk(created, `create ${desired.kind}`);
      got = await client.request('GET', path);
    }
    if (got.status === 404) throw new Error(`not found ${desired.kind} ${desired.metadata.name}`);
    const current = ensureOk(got, `get ${desired.kind}`) as KubeObject;
    const next = patchConfiguration(current, caPem, active, o);
    if (JSON.stringify(next) === JSON.stringify(current)) continue;
    ensureOk(await client.request('PUT', path, { body: next }), `update ${desired.kind}`);
  }
}
