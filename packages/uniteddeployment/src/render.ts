// Rendering a subset workload from the UnitedDeployment template (docs/reference/uniteddeployment.md §7.4,
// ApplySubsetTemplate): labels, annotations, generateName, owner reference, spec with selector,
// replicas and partition, then node affinity (§7.5), tolerations (§7.6) and the subset patch (§7.7).
import type { KubeObject } from '@kruise-ts/api';
import type { NodeSelectorTerm, PodTemplateSpec, Toleration } from 'kubernetes-types/core/v1.js';
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import { canonicalJson } from './json';
import { applyPodTemplatePatch } from './strategicPatch';
import type { UDSubset, UnitedDeploymentObject } from './types';
import {
  ANNOTATION_SUBSET_PATCH,
  LABEL_SUBSET_NAME,
  LABEL_UD_REVISION,
  type SubsetKind,
  templateOf,
  UD_API_VERSION,
  UD_KIND,
  WORKLOAD_TYPE,
  writePartition,
} from './workloads';

/** What to render: the subset, its revision, replicas and partition. */
export interface RenderRequest {
  kind: SubsetKind;
  subsetName: string;
  revision: string;
  replicas: number;
  partition: number;
}

/**
 * The raw patch text of a subset (§7.4 step 10): a string patch is kept byte for byte; an object
 * patch is written as Go's JSON encoder writes the stored object (keys sorted, no spaces);
 * no patch is `""`.
 */
export function subsetPatchText(subset: UDSubset | undefined): string {
  const patch = subset?.patch;
  if (patch == null) return '';
  if (typeof patch === 'string') return patch;
  return canonicalJson(patch);
}

/** The controller owner reference to the UnitedDeployment (§7.4 step 6). */
export function udOwnerReference(ud: UnitedDeploymentObject): OwnerReference {
  return {
    apiVersion: UD_API_VERSION,
    kind: UD_KIND,
    name: ud.metadata.name ?? '',
    uid: ud.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * §7.4 step 5: `"<udName>-<s>-"`, unless that prefix fails the generate-name check (DNS-1123
 * subdomain of at most 253 characters after the trailing dash is masked: the last two characters
 * become `a`), then `"<udName>-"`. Example: `web` + `zone-a` → `web-zone-a-`.
 */
export function subsetGenerateName(udName: string, subsetName: string): string {
  const prefix = `${udName}-${subsetName}-`;
  const masked = prefix.length > 1 ? `${prefix.slice(0, -2)}a` : prefix;
  return masked.length <= 253 && DNS1123_SUBDOMAIN.test(masked) ? prefix : `${udName}-`;
}

/**
 * §7.5 (returns a new template): appends every subset match-expression to every required node-selector term (adding one
 * empty term when there is none); `matchFields` of the subset term are ignored. Example: terms
 * `[test Exists, region In [x]]` OR `[test DoesNotExist]` with subset `node-name In [node-b]` →
 * `[test Exists, region In [x], node-name In [node-b]]` OR `[test DoesNotExist, node-name In [node-b]]`.
 */
export function attachNodeAffinity(
  template: PodTemplateSpec,
  term: NodeSelectorTerm | null | undefined,
): PodTemplateSpec {
  const exprs = term?.matchExpressions ?? [];
  if (exprs.length === 0) return template;
  const spec = template.spec ?? { containers: [] };
  const nodeAffinity = spec.affinity?.nodeAffinity ?? {};
  const required = nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution ?? { nodeSelectorTerms: [] };
  const terms = required.nodeSelectorTerms?.length ? required.nodeSelectorTerms : [{}];
  const nodeSelectorTerms = terms.map((t) => ({
    ...t,
    matchExpressions: [...(t.matchExpressions ?? []), ...structuredClone(exprs)],
  }));
  return {
    ...template,
    spec: {
      ...spec,
      affinity: {
        ...spec.affinity,
        nodeAffinity: {
          ...nodeAffinity,
          requiredDuringSchedulingIgnoredDuringExecution: { ...required, nodeSelectorTerms },
        },
      },
    },
  };
}

/** §7.6: template tolerations followed by the subset's (plain append); nil subset tolerations: nothing. */
export function attachTolerations(
  template: PodTemplateSpec,
  tolerations: Toleration[] | null | undefined,
): PodTemplateSpec {
  if (tolerations == null) return template;
  const spec = template.spec ?? { containers: [] };
  return {
    ...template,
    spec: { ...spec, tolerations: [...(spec.tolerations ?? []), ...structuredClone(tolerations)] },
  };
}

/** Result of {@link applySubsetTemplate}. */
export type RenderResult = { object: KubeObject } | { error: string };

/**
 * Renders subset `s` (§7.4) on top of `existing` (the fetched workload for an update; omitted for a
 * create), never changing its inputs. Errors (unknown subset, a patch that does not apply) are
 * returned.
 *
 * Labels: existing ← template labels ← UD `selector.matchLabels` ← revision and subset name. The
 * spec is the template spec replaced wholesale, with `selector` = UD selector plus
 * `subset-name: s`, `replicas`, and the kind's partition. The pod template gains the subset-name and
 * revision labels, the node affinity, the tolerations, and finally the subset patch, which wins.
 */
export function applySubsetTemplate(
  ud: UnitedDeploymentObject,
  req: RenderRequest,
  existing?: KubeObject,
): RenderResult {
  const subset = (ud.spec.topology?.subsets ?? []).find((s) => s.name === req.subsetName);
  if (!subset) return { error: `subset ${req.subsetName} is not found in topology` };
  const template = templateOf(ud.spec.template, req.kind);
  const type = WORKLOAD_TYPE[req.kind];
  const meta = structuredClone(existing?.metadata ?? {});
  if (ud.metadata.namespace !== undefined) meta.namespace = ud.metadata.namespace;
  meta.labels = {
    ...(meta.labels ?? {}),
    ...(template.metadata?.labels ?? {}),
    ...(ud.spec.selector?.matchLabels ?? {}),
    [LABEL_UD_REVISION]: req.revision,
    [LABEL_SUBSET_NAME]: req.subsetName,
  };
  meta.annotations = { ...(meta.annotations ?? {}), ...(template.metadata?.annotations ?? {}) };
  meta.generateName = subsetGenerateName(ud.metadata.name ?? '', req.subsetName);
  const owner = udOwnerReference(ud);
  meta.ownerReferences = [
    ...(meta.ownerReferences ?? []).filter(
      (r) => !r.controller && !(r.uid === owner.uid && r.kind === owner.kind && r.name === owner.name),
    ),
    owner,
  ];

  const spec: Record<string, any> = structuredClone(template.spec ?? {});
  const selector = structuredClone(ud.spec.selector ?? {});
  selector.matchLabels = { ...(selector.matchLabels ?? {}), [LABEL_SUBSET_NAME]: req.subsetName };
  spec.selector = selector;
  spec.replicas = req.replicas;
  writePartition(req.kind, spec, req.partition);

  let pod: PodTemplateSpec = spec.template ?? {};
  pod.metadata = pod.metadata ?? {};
  pod.metadata.labels = {
    ...(pod.metadata.labels ?? {}),
    [LABEL_SUBSET_NAME]: req.subsetName,
    [LABEL_UD_REVISION]: req.revision,
  };
  pod = attachNodeAffinity(pod, subset.nodeSelectorTerm);
  pod = attachTolerations(pod, subset.tolerations);
  const patchText = subsetPatchText(subset);
  if (subset.patch != null) {
    try {
      pod = applyPodTemplatePatch(pod, subset.patch);
    } catch (e) {
      return { error: `failed to apply the patch of subset ${req.subsetName}: ${(e as Error).message}` };
    }
  }
  spec.template = pod;
  meta.annotations[ANNOTATION_SUBSET_PATCH] = patchText;

  const base = existing ? structuredClone(existing) : ({} as KubeObject);
  return { object: { ...base, apiVersion: type.apiVersion, kind: type.kind, metadata: meta, spec } };
}
