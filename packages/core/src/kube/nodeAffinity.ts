// Node-side selection as the Kubernetes scheduler evaluates it (component-helpers
// nodeaffinity, v1 taint helpers): required node affinity terms, nodeSelector maps,
// and toleration/taint matching. Used by the DaemonSet controller and the simulator's
// scheduler. Exported by ./index.
import type {
  Node,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  Pod,
  Taint,
  Toleration,
} from 'kubernetes-types/core/v1.js';
import {
  type LabelRequirement,
  newRequirement,
  requirementMatches,
  type SelectorOperator,
} from './labelRequirements';

/** What node affinity looks at: the node's labels and its fields (only `metadata.name`). */
export interface NodeMatchInput {
  labels?: Readonly<Record<string, string>>;
  fields?: Readonly<Record<string, string>>;
}

const NODE_OPERATORS: Record<string, SelectorOperator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
  Gt: 'gt',
  Lt: 'lt',
};

function toInput(node: Node | NodeMatchInput): NodeMatchInput {
  if ('metadata' in node || 'spec' in node || 'status' in node) {
    const n = node as Node;
    return { labels: n.metadata?.labels ?? {}, fields: { 'metadata.name': n.metadata?.name ?? '' } };
  }
  return node as NodeMatchInput;
}

/** `nodeSelectorRequirementsAsSelector`; `undefined` when any requirement is invalid. */
function labelRequirements(exprs: readonly NodeSelectorRequirement[]): LabelRequirement[] | undefined {
  const out: LabelRequirement[] = [];
  for (const e of exprs) {
    const op = Object.hasOwn(NODE_OPERATORS, e.operator) ? NODE_OPERATORS[e.operator] : undefined;
    if (op === undefined) return undefined;
    try {
      out.push(newRequirement(e.key, op, e.values ?? []));
    } catch {
      return undefined;
    }
  }
  return out;
}

/** `nodeFieldSelectorAsSelector`: only `metadata.name` with In/NotIn and exactly one value. */
function fieldMatches(
  exprs: readonly NodeSelectorRequirement[],
  fields: Readonly<Record<string, string>>,
): boolean | undefined {
  let ok = true;
  for (const e of exprs) {
    if (e.key !== 'metadata.name') return undefined;
    const values = e.values ?? [];
    if ((e.operator !== 'In' && e.operator !== 'NotIn') || values.length !== 1) return undefined;
    const actual = fields[e.key];
    const equal = actual === values[0];
    if (e.operator === 'In' ? !equal : equal) ok = false;
  }
  return ok;
}

/** Does one term match? Empty terms and terms with invalid requirements match nothing. */
function termMatches(term: NodeSelectorTerm, input: NodeMatchInput): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  if (exprs.length > 0) {
    const reqs = labelRequirements(exprs);
    if (reqs === undefined) return false;
    if (!reqs.every((r) => requirementMatches(r, input.labels))) return false;
  }
  if (fields.length > 0) {
    const m = fieldMatches(fields, input.fields ?? {});
    if (m === undefined) return false;
    // Kubernetes only applies the field selector when the node has fields.
    if (Object.keys(input.fields ?? {}).length > 0 && !m) return false;
  }
  return true;
}

/**
 * Required node affinity (`nodeSelectorTerms`): the terms are ORed, the requirements inside a
 * term ANDed. Label operators: In, NotIn (true when the label is absent), Exists,
 * DoesNotExist, Gt, Lt (integer comparison of the label value; exactly one value).
 * `matchFields` supports only `metadata.name` with In/NotIn and one value. An empty term,
 * or a term with an invalid requirement, matches nothing; an empty term list matches nothing.
 *
 * Example: terms `[{matchExpressions:[{key:'cpu',operator:'Gt',values:['4']}]},
 * {matchFields:[{key:'metadata.name',operator:'In',values:['n1']}]}]` match a node labelled
 * `cpu: "8"`, and node `n1` whatever its labels.
 */
export function matchNodeSelectorTerms(
  node: Node | NodeMatchInput,
  terms: readonly NodeSelectorTerm[] | undefined,
): boolean {
  const input = toInput(node);
  return (terms ?? []).some((t) => termMatches(t, input));
}

/** `pod.spec.nodeSelector` semantics: every key must be present with an equal value. */
export function matchNodeSelector(
  nodeLabels: Readonly<Record<string, string>> | undefined,
  nodeSelector: Readonly<Record<string, string>> | undefined,
): boolean {
  const labels = nodeLabels ?? {};
  return Object.entries(nodeSelector ?? {}).every(([k, v]) => Object.hasOwn(labels, k) && labels[k] === v);
}

/**
 * Kubernetes' `GetRequiredNodeAffinity(pod).Match(node)`: the pod's `nodeSelector` map and,
 * if present, `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution` must
 * both match the node.
 */
export function matchesRequiredNodeAffinity(pod: Pod, node: Node): boolean {
  if (!matchNodeSelector(node.metadata?.labels, pod.spec?.nodeSelector)) return false;
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required === undefined || required === null) return true;
  return matchNodeSelectorTerms(node, required.nodeSelectorTerms);
}

/**
 * `Toleration.ToleratesTaint`: effect (when set) and key (when set) must be equal; operator
 * `Exists` matches any value, `Equal` or empty requires an equal value; other operators never
 * match. Example: `{operator:'Exists'}` (no key, no effect) tolerates every taint.
 */
export function tolerationToleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? '') {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** `TolerationsTolerateTaint`: some toleration tolerates the taint. */
export function tolerationsTolerateTaint(
  tolerations: readonly Toleration[] | undefined,
  taint: Taint,
): boolean {
  return (tolerations ?? []).some((t) => tolerationToleratesTaint(t, taint));
}

/**
 * `FindMatchingUntoleratedTaint`: the first taint (passing `filter`, e.g. effect
 * `NoSchedule`/`NoExecute`) that no toleration tolerates, or `undefined`.
 */
export function findMatchingUntoleratedTaint(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
  filter: (taint: Taint) => boolean = () => true,
): Taint | undefined {
  return (taints ?? []).find((t) => filter(t) && !tolerationsTolerateTaint(tolerations, t));
}
