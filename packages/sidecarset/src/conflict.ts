// Cross-SidecarSet checks of the validating webhook (docs/reference/sidecarset.md §6 V9 whitelist,
// V11 conflicts, SS-6.1 namespace overlap, SS-6.2 selector overlap heuristic).
import type { SidecarSet } from '@kruise-ts/api';
import {
  type FeatureGates,
  type FieldError,
  invalid,
  jsonEqual,
  matchesLabelSelector,
  resolveFeatureGates,
} from '@kruise-ts/core';
import type { ConfigMap, Namespace } from 'kubernetes-types/core/v1.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';

/** Key of the patchPodMetadata whitelist in ConfigMap `<kruise ns>/kruise-configuration` (V9). */
export const PATCH_POD_METADATA_WHITELIST_KEY = 'SidecarSet_PatchPodMetadata_WhiteList';
/** Name of the Kruise configuration ConfigMap. */
export const KRUISE_CONFIGURATION_NAME = 'kruise-configuration';

const ALL = Symbol('all');

function valuesOf(sel: LabelSelector): Map<string, Set<string> | typeof ALL> {
  const values = new Map<string, Set<string> | typeof ALL>();
  const add = (k: string, vs: readonly string[]) => {
    const cur = values.get(k);
    if (cur === ALL) return;
    const set = cur ?? new Set<string>();
    for (const v of vs) set.add(v);
    values.set(k, set);
  };
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) add(k, [v]);
  for (const e of sel.matchExpressions ?? []) {
    if (e.operator === 'In') add(e.key, e.values ?? []);
    else if (e.operator === 'Exists') values.set(e.key, ALL);
  }
  return values;
}

/** SS-6.2 `disjoint(s1, s2)`: s2 contradicts something s1 requires. */
function disjoint(s1: LabelSelector, s2: LabelSelector): boolean {
  const values = valuesOf(s1);
  for (const [k, v] of Object.entries(s2.matchLabels ?? {})) {
    const known = values.get(k);
    if (known !== undefined && known !== ALL && !known.has(v)) return true;
  }
  for (const e of s2.matchExpressions ?? []) {
    const known = values.get(e.key);
    const list = e.values ?? [];
    switch (e.operator) {
      case 'In':
        if (known !== undefined && known !== ALL && !list.some((v) => known.has(v))) return true;
        break;
      case 'NotIn':
        if (known !== undefined && known !== ALL && [...known].every((v) => list.includes(v))) return true;
        break;
      case 'Exists':
        if (known === undefined) return true;
        break;
      case 'DoesNotExist':
        if (known !== undefined) return true;
        break;
    }
  }
  return false;
}

/**
 * SS-6.2: two selectors overlap unless either direction is disjoint. A heuristic: `values` of s1
 * come from matchLabels, `In` and `Exists` (all values); s2 is disjoint when a matchLabels value
 * or an `In` list misses them, a `NotIn` covers them, an `Exists` names an unknown key, or a
 * `DoesNotExist` names a known key.
 *
 * Examples (upstream `TestSelectorConflict`): `a=h` vs `b=i` overlap; `a NotIn [h,i]` vs `a=h` do
 * not; `a DoesNotExist` vs `a=h` do not; `a=h` vs `a In [h,i,j]` overlap.
 */
export function isSelectorOverlapping(
  s1: LabelSelector | null | undefined,
  s2: LabelSelector | null | undefined,
): boolean {
  const a = s1 ?? {};
  const b = s2 ?? {};
  return !disjoint(a, b) && !disjoint(b, a);
}

/**
 * SS-6.1: do A (being validated) and B apply to overlapping namespaces? False when both
 * `namespace`s are set and differ; when both namespaceSelectors are set and do not overlap; when
 * A.namespace is set, B has a namespaceSelector and A's Namespace is missing or not selected; and
 * (v1.8.2 bug, kept) when B.namespace is set and A has a namespaceSelector. Otherwise true.
 */
export function isNamespaceOverlapping(
  a: SidecarSet,
  b: SidecarSet,
  namespaces: readonly Namespace[] = [],
): boolean {
  const sa = a.spec ?? {};
  const sb = b.spec ?? {};
  if (sa.namespace && sb.namespace && sa.namespace !== sb.namespace) return false;
  if (
    sa.namespaceSelector &&
    sb.namespaceSelector &&
    !isSelectorOverlapping(sa.namespaceSelector, sb.namespaceSelector)
  ) {
    return false;
  }
  if (sa.namespace && sb.namespaceSelector) {
    const ns = namespaces.find((n) => n.metadata?.name === sa.namespace);
    if (!ns || !matchesLabelSelector(sb.namespaceSelector, ns.metadata?.labels ?? {})) return false;
  }
  if (sb.namespace && sa.namespaceSelector) return false;
  return true;
}

/**
 * V11: conflicts with the other SidecarSets whose namespaces (SS-6.1) and selectors (SS-6.2)
 * overlap; the object itself is skipped by name. Init containers are compared with init
 * containers and containers with containers; a shared volume name must have an identical
 * definition; an annotation key patched by both, where neither side is `Retain` and at least one
 * side is `Overwrite`, conflicts.
 *
 * Example (upstream `TestSidecarSetNameConflict/test2`): two SidecarSets with the same
 * namespaceSelector and selector both declaring `container-name` → one error.
 */
export function validateSidecarConflict(
  sidecarSet: SidecarSet,
  others: readonly SidecarSet[],
  namespaces: readonly Namespace[] = [],
): FieldError[] {
  const errs: FieldError[] = [];
  const name = sidecarSet.metadata?.name ?? '';
  const spec = sidecarSet.spec ?? {};
  const patchOf = (ss: SidecarSet) => {
    const m = new Map<string, string>();
    for (const p of ss.spec?.patchPodMetadata ?? []) {
      for (const k of Object.keys(p.annotations ?? {})) m.set(k, p.patchPolicy || 'Retain');
    }
    return m;
  };
  const mine = patchOf(sidecarSet);
  for (const other of others) {
    const otherName = other.metadata?.name ?? '';
    if (otherName === name) continue;
    if (!isNamespaceOverlapping(sidecarSet, other, namespaces)) continue;
    if (!isSelectorOverlapping(spec.selector, other.spec?.selector)) continue;
    const os = other.spec ?? {};
    const otherInit = new Set((os.initContainers ?? []).map((c) => c.name));
    const otherMain = new Set((os.containers ?? []).map((c) => c.name));
    for (const c of spec.initContainers ?? []) {
      if (otherInit.has(c.name)) {
        errs.push(invalid('spec.containers', c.name, `container ${c.name} already exist in ${otherName}`));
      }
    }
    for (const c of spec.containers ?? []) {
      if (otherMain.has(c.name)) {
        errs.push(invalid('spec.containers', c.name, `container ${c.name} already exist in ${otherName}`));
      }
    }
    for (const v of spec.volumes ?? []) {
      const ov = (os.volumes ?? []).find((x) => x.name === v.name);
      if (ov && !jsonEqual(ov, v)) {
        errs.push(
          invalid('spec.volumes', v.name, `volume ${v.name} is in conflict with sidecarset ${otherName}`),
        );
      }
    }
    const theirs = patchOf(other);
    for (const [k, policy] of mine) {
      const op = theirs.get(k);
      if (op === undefined || policy === 'Retain' || op === 'Retain') continue;
      if (policy === 'Overwrite' || op === 'Overwrite') {
        errs.push(
          invalid('spec.patchPodMetadata', k, `annotation ${k} is in conflict with sidecarset ${otherName}`),
        );
      }
    }
  }
  return errs;
}

interface WhitelistRule {
  selector?: LabelSelector;
  allowedAnnotationKeyExprs?: string[];
}

/**
 * V9 whitelist: when the SidecarSet patches pod annotations, ConfigMap
 * `kruise-configuration` key `SidecarSet_PatchPodMetadata_WhiteList` (`{"rules": [{selector?,
 * allowedAnnotationKeyExprs: [regex…]}]}`) must have a rule whose selector matches the
 * SidecarSet's labels (nil = all), and every patched key must match one of those rules'
 * expressions (unanchored). Without a ConfigMap, key or matching rule it is an error unless the
 * gate `SidecarSetPatchPodMetadataDefaultsAllowed` is on. Returns the message, or `undefined`.
 *
 * Example (upstream `TestValidateSidecarSetPatchMetadataWhitelist/success-2`): rule selector
 * `app=sidecar`, expression `key.*`, SidecarSet labelled `app=sidecar` patching `key1` → ok.
 */
export function validateSidecarSetPatchMetadataWhitelist(
  sidecarSet: SidecarSet,
  configMap: ConfigMap | null | undefined,
  featureGates?: Partial<FeatureGates>,
): string | undefined {
  const patches = sidecarSet.spec?.patchPodMetadata ?? [];
  if (patches.length === 0) return undefined;
  const allowedByDefault = resolveFeatureGates(featureGates).SidecarSetPatchPodMetadataDefaultsAllowed;
  const text = configMap?.data?.[PATCH_POD_METADATA_WHITELIST_KEY];
  if (text === undefined) {
    return allowedByDefault ? undefined : 'SidecarSet patch metadata whitelist not found';
  }
  let rules: WhitelistRule[];
  try {
    const parsed = JSON.parse(text) as { rules?: WhitelistRule[] };
    rules = Array.isArray(parsed?.rules) ? parsed.rules : [];
  } catch (e) {
    return `failed to parse the whitelist: ${(e as Error).message}`;
  }
  const labels = sidecarSet.metadata?.labels ?? {};
  const matching = rules.filter((r) => !r.selector || matchesLabelSelector(r.selector, labels));
  if (matching.length === 0) {
    return allowedByDefault ? undefined : 'SidecarSet patch metadata whitelist not found';
  }
  const exprs: RegExp[] = [];
  for (const r of matching) {
    for (const e of r.allowedAnnotationKeyExprs ?? []) {
      try {
        exprs.push(new RegExp(e));
      } catch {
        return `invalid annotation key expression ${e}`;
      }
    }
  }
  for (const p of patches) {
    for (const k of Object.keys(p.annotations ?? {})) {
      if (!exprs.some((re) => re.test(k))) return `annotation ${k} is not allowed by the whitelist`;
    }
  }
  return undefined;
}
