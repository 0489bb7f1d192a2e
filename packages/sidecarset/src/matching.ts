// Which pods a SidecarSet matches (docs/reference/sidecarset.md §3 and SS-5.2): active pods, the
// pod's namespace, the namespace index and candidate order of the webhook, the webhook's
// match rule, the controller's matched pods and pod/SidecarSet consistency.
import { LABEL_NAMESPACE_NAME, type SidecarSet } from '@kruise-ts/api';
import {
  compareStringsBytewise,
  isPodActive,
  type LabelRequirement,
  labelSelectorAsRequirements,
  matchesLabelSelector,
  requirementMatches,
} from '@kruise-ts/core';
import type { Namespace, Pod } from 'kubernetes-types/core/v1.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import {
  getWorkingHotUpgradeContainers,
  hotUpgradeContainerNames,
  isInInjectedList,
  sortedSet,
} from './annotations';

/** The index key of SidecarSets that apply to every namespace (SS-3.4). */
export const CLUSTER_SCOPE_INDEX = 'clusterScope';

/** SS-3.1: phase neither Succeeded nor Failed, and no `deletionTimestamp`. */
export function isActivePod(pod: Pod | null | undefined): boolean {
  return isPodActive(pod);
}

/** SS-3.2: `metadata.namespace`, else the admission request's namespace, else `"default"`. */
export function podNamespace(pod: Pod, requestNamespace?: string): string {
  return pod.metadata?.namespace || requestNamespace || 'default';
}

/** True when a selector has no matchLabels and no matchExpressions. */
export function isEmptySelector(selector: LabelSelector): boolean {
  return Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0;
}

/**
 * SS-3.4: the namespace index keys of a SidecarSet: `[spec.namespace]`; else the value of a
 * `namespaceSelector.matchLabels["kubernetes.io/metadata.name"]`; else the values of an `In`
 * expression on that key; else `["clusterScope"]`. `null` for no object.
 *
 * Example (upstream `TestIndexSidecarSet`): namespaceSelector
 * `{matchLabels: {"kubernetes.io/metadata.name": default}}` → `["default"]`; `{}` → `["clusterScope"]`.
 */
export function sidecarSetNamespaceIndex(sidecarSet: SidecarSet | null | undefined): string[] | null {
  if (!sidecarSet) return null;
  const spec = sidecarSet.spec ?? {};
  if (spec.namespace) return [spec.namespace];
  const sel = spec.namespaceSelector;
  if (sel) {
    const byLabel = sel.matchLabels?.[LABEL_NAMESPACE_NAME];
    if (byLabel !== undefined) return [byLabel];
    for (const e of sel.matchExpressions ?? []) {
      if (e.key === LABEL_NAMESPACE_NAME && e.operator === 'In') return [...(e.values ?? [])];
    }
  }
  return [CLUSTER_SCOPE_INDEX];
}

const byName = (a: SidecarSet, b: SidecarSet) =>
  compareStringsBytewise(a.metadata?.name ?? '', b.metadata?.name ?? '');

/**
 * SS-3.4 candidate order for a pod in namespace `ns`: the SidecarSets indexed under `ns`, then
 * those indexed under `clusterScope`, each group sorted by name (the kruise-ts rule). SidecarSets
 * indexed only under other namespaces are never candidates.
 *
 * Example (spec §4.8 B): `z-audit` (namespace `shop`), `a-logging`, `b-mesh` (cluster scope) →
 * `[z-audit, a-logging, b-mesh]` for a pod in `shop`.
 */
export function candidateSidecarSets(sidecarSets: readonly SidecarSet[], ns: string): SidecarSet[] {
  const own: SidecarSet[] = [];
  const cluster: SidecarSet[] = [];
  for (const ss of sidecarSets) {
    const spec = ss.spec ?? {};
    if (!spec.namespace && !spec.namespaceSelector) {
      cluster.push(ss);
      continue;
    }
    const keys = sidecarSetNamespaceIndex(ss) ?? [];
    if (keys.includes(ns)) own.push(ss);
    else if (keys.includes(CLUSTER_SCOPE_INDEX)) cluster.push(ss);
  }
  if (own.length > 1) own.sort(byName);
  if (cluster.length > 1) cluster.sort(byName);
  if (own.length === 0) return cluster;
  for (const ss of cluster) own.push(ss);
  return own;
}

/** The outcome of the webhook's match rule: matched or not, or an error that rejects the pod. */
export type MatchResult = { matched: boolean; error?: undefined } | { matched: false; error: string };

/**
 * SS-3.3 `matches(pod, SS)` (the webhook's rule):
 * 1. `spec.namespace` empty or equal to the pod namespace;
 * 2. `spec.namespaceSelector` nil, or the pod's Namespace exists and its labels match (an
 *    unknown namespace or an invalid selector: no match);
 * 3. `spec.selector` non-nil, **non-empty**, and matching the pod labels. A selector that does
 *    not convert (unknown operator, invalid value) is an error: the webhook rejects the pod.
 *
 * `namespaces` is the list to find the pod's Namespace in (only needed for namespaceSelector).
 *
 * Example (upstream `TestPodMatchedSidecarSet/test4`): pod `app=nginx` in `app1`, namespaceSelector
 * `app=app1` and Namespace `app1` labelled `app=app1` → matched.
 */
export function podMatchedSidecarSet(
  pod: Pod,
  sidecarSet: SidecarSet,
  namespaces: readonly Namespace[] = [],
  requestNamespace?: string,
): MatchResult {
  const spec = sidecarSet.spec ?? {};
  const ns = podNamespace(pod, requestNamespace);
  if (spec.namespace && spec.namespace !== ns) return { matched: false };
  if (spec.namespaceSelector) {
    const nsObj = namespaces.find((n) => n.metadata?.name === ns);
    if (!nsObj || !matchesLabelSelector(spec.namespaceSelector, nsObj.metadata?.labels ?? {})) {
      return { matched: false };
    }
  }
  const sel = spec.selector;
  if (!sel || isEmptySelector(sel)) return { matched: false };
  const labels = pod.metadata?.labels ?? {};
  const fast = matchLabelsFastPath(sel, labels);
  if (fast !== undefined) return { matched: fast };
  let reqs: ReturnType<typeof labelSelectorAsRequirements>;
  try {
    reqs = labelSelectorAsRequirements(sel);
  } catch (e) {
    return { matched: false, error: (e as Error).message };
  }
  return { matched: (reqs ?? []).every((r) => requirementMatches(r, labels)) };
}

/** A label key that is certainly a valid qualified name (optional DNS-1123 subdomain prefix). */
const SAFE_KEY =
  /^(?:[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
/** A label value that is certainly valid. */
const SAFE_VALUE = /^(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/**
 * The common case of SS-3.3 without building requirements: a matchLabels-only selector whose
 * keys and values are plainly valid matches by equality. `undefined` when the full conversion
 * is needed (expressions, or anything the quick check cannot vouch for).
 */
function matchLabelsFastPath(
  sel: LabelSelector,
  labels: Readonly<Record<string, string>>,
): boolean | undefined {
  if ((sel.matchExpressions ?? []).length > 0) return undefined;
  const ml = sel.matchLabels ?? {};
  let matched = true;
  for (const k in ml) {
    const v = ml[k];
    const slash = k.indexOf('/');
    if (k.length > 317 || (slash >= 0 && slash > 253) || k.length - slash - 1 > 63 || v.length > 63)
      return undefined;
    if (!SAFE_KEY.test(k) || !SAFE_VALUE.test(v)) return undefined;
    if (matched && !(Object.hasOwn(labels, k) && labels[k] === v)) matched = false;
  }
  return matched;
}

/**
 * The sidecar container names of a SidecarSet as the controller sees them (SS-5.5.2): its
 * `spec.containers` names, a HotUpgrade sidecar `X` contributing `X-1` and `X-2`; sorted.
 */
export function sidecarContainerNames(sidecarSet: SidecarSet): string[] {
  const names: string[] = [];
  for (const c of sidecarSet.spec?.containers ?? []) {
    if (c.upgradeStrategy?.upgradeType === 'HotUpgrade') names.push(...hotUpgradeContainerNames(c.name));
    else names.push(c.name);
  }
  return sortedSet(names);
}

/**
 * SS-5.2.2 *consistent with S*: every `spec.containers[i]` of S exists in the pod (init or
 * regular containers, by name); a HotUpgrade container `X` instead needs `X-1` and `X-2` and an
 * entry for `X` in the working-container annotation.
 */
export function isPodConsistentWithSidecarSet(pod: Pod, sidecarSet: SidecarSet): boolean {
  let working: Record<string, string> | undefined;
  for (const c of sidecarSet.spec?.containers ?? []) {
    if (c.upgradeStrategy?.upgradeType === 'HotUpgrade') {
      const [a, b] = hotUpgradeContainerNames(c.name);
      if (!podHasContainer(pod, a) || !podHasContainer(pod, b)) return false;
      working ??= getWorkingHotUpgradeContainers(pod.metadata?.annotations);
      if (!Object.hasOwn(working, c.name)) return false;
    } else if (!podHasContainer(pod, c.name)) return false;
  }
  return true;
}

/** Whether the pod has an init container or a container named `name`. */
function podHasContainer(pod: Pod, name: string): boolean {
  for (const c of pod.spec?.initContainers ?? []) if (c.name === name) return true;
  for (const c of pod.spec?.containers ?? []) if (c.name === name) return true;
  return false;
}

/**
 * SS-5.2.1 scope: the namespaces whose pods the controller lists — `[spec.namespace]`, the
 * Namespaces matching `namespaceSelector` (`{}` = all), or `undefined` for the whole cluster.
 */
export function scopeNamespaces(
  sidecarSet: SidecarSet,
  namespaces: readonly Namespace[] | undefined,
): Set<string> | undefined {
  const spec = sidecarSet.spec ?? {};
  if (spec.namespace) return new Set([spec.namespace]);
  if (spec.namespaceSelector) {
    const sel = spec.namespaceSelector;
    const out = new Set<string>();
    for (const n of namespaces ?? []) {
      if (matchesLabelSelector(sel, n.metadata?.labels ?? {})) out.add(n.metadata?.name ?? '');
    }
    return out;
  }
  return undefined;
}

/**
 * SS-5.2: the controller's matched pods, in the caller's order: in scope (SS-5.2.1), labels
 * matching `spec.selector` (nil matches none, `{}` all, an invalid selector none), active,
 * listed in `kruise.io/sidecarset-injected-list`, and consistent with S (SS-5.2.2).
 */
export function getMatchingPods(
  sidecarSet: SidecarSet,
  pods: readonly Pod[],
  namespaces?: readonly Namespace[],
): Pod[] {
  const sel = sidecarSet.spec?.selector;
  if (!sel) return [];
  const scope = scopeNamespaces(sidecarSet, namespaces);
  let reqs: ReturnType<typeof labelSelectorAsRequirements>;
  try {
    reqs = labelSelectorAsRequirements(sel) ?? [];
  } catch {
    return [];
  }
  const name = sidecarSet.metadata?.name ?? '';
  const out: Pod[] = [];
  for (const pod of pods) {
    if (scope && !scope.has(pod.metadata?.namespace || 'default')) continue;
    if (!matchesAll(reqs, pod.metadata?.labels ?? {})) continue;
    if (!isActivePod(pod)) continue;
    if (!isInInjectedList(pod.metadata?.annotations, name)) continue;
    if (!isPodConsistentWithSidecarSet(pod, sidecarSet)) continue;
    out.push(pod);
  }
  return out;
}

/** Whether `labels` satisfy every requirement of a converted selector. */
function matchesAll(reqs: readonly LabelRequirement[], labels: Readonly<Record<string, string>>): boolean {
  for (const r of reqs) if (!requirementMatches(r, labels)) return false;
  return true;
}
