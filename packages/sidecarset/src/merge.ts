// Merging injected containers, volumes and image pull secrets into a pod
// (docs/reference/sidecarset.md SS-4.6.1 … SS-4.6.5).
import { compareStringsBytewise } from '@kruise-ts/core';
import type { Container, LocalObjectReference, Volume } from 'kubernetes-types/core/v1.js';
import type { InjectedContainer } from './buildContainers';

/**
 * SS-4.6.2 `merge(origins, injected)`: an injected container whose name equals an original
 * one replaces it **in place**; otherwise `BeforeAppContainer` ones go before the originals
 * and all others (`AfterAppContainer`, empty, anything else) after them, each group in
 * injection order. Result: `before ++ origins ++ after`.
 *
 * Example (upstream `TestMergeSidecarContainers`): origins `[app-container]`, injected
 * `[sidecar-1 After, sidecar-2 After, new-sidecar-1 Before]` →
 * `[new-sidecar-1, app-container, sidecar-1, sidecar-2]`.
 */
export function mergeSidecarContainers(
  origins: readonly Container[] | null | undefined,
  injected: readonly InjectedContainer[],
): Container[] {
  const base = origins ? origins.slice() : [];
  const before: Container[] = [];
  const after: Container[] = [];
  for (const inj of injected) {
    const name = inj.container.name;
    let i = -1;
    for (let j = 0; j < base.length; j++) {
      if ((origins as Container[])[j].name === name) {
        i = j;
        break;
      }
    }
    if (i >= 0) base[i] = inj.container;
    else if (inj.policy === 'BeforeAppContainer') before.push(inj.container);
    else after.push(inj.container);
  }
  return [...before, ...base, ...after];
}

/**
 * SS-4.6.1: init containers are stable-sorted by name before the merge.
 *
 * Example (spec §4.8 C): pod init `[init-0]`, injected `[init-2, init-1]` (no policy) →
 * `[init-0, init-1, init-2]`.
 */
export function sortByNameThenMergeSidecarContainers(
  origins: readonly Container[] | null | undefined,
  injected: readonly InjectedContainer[],
): Container[] {
  const sorted = [...injected].sort((a, b) => compareStringsBytewise(a.container.name, b.container.name));
  return mergeSidecarContainers(origins, sorted);
}

/**
 * SS-4.6.4: the pod's volumes, then each pooled SidecarSet volume whose name is not present yet
 * (the pod's own names win; the first pooled occurrence wins).
 *
 * Example (spec §4.8 A): pod `[data]`, pool `[log-config]` → `[data, log-config]`.
 */
export function mergeVolumes(
  podVolumes: readonly Volume[] | null | undefined,
  pool: readonly Volume[],
): Volume[] {
  const out = [...(podVolumes ?? [])];
  const names = new Set(out.map((v) => v.name));
  for (const v of pool) {
    if (names.has(v.name)) continue;
    names.add(v.name);
    out.push(v);
  }
  return out;
}

/**
 * SS-4.6.5: the pod's secrets de-duplicated by name, then the SidecarSets' secrets in pool
 * order, skipping names already present.
 *
 * Example (upstream `TestMergeSidecarSecrets`): pod `[s3, s4, s5]`, SidecarSet `[s0, s1, s2]` →
 * `[s3, s4, s5, s0, s1, s2]`.
 */
export function mergeImagePullSecrets(
  podSecrets: readonly LocalObjectReference[] | null | undefined,
  pool: readonly LocalObjectReference[],
): LocalObjectReference[] {
  const out: LocalObjectReference[] = [];
  const names = new Set<string>();
  for (const s of [...(podSecrets ?? []), ...pool]) {
    const n = s.name ?? '';
    if (names.has(n)) continue;
    names.add(n);
    out.push(s);
  }
  return out;
}
