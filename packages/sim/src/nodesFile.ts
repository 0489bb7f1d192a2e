// The nodes of a simulated cluster from a nodes file (`kruise-ts serve --nodes-file nodes.yaml`)
// or the `--zones a,b,c` shortcut. A nodes file is a YAML (or JSON) object with a `nodes` list
// (or the list itself); each entry is one node (`name`) or a group (`namePrefix` and `count`:
// `<prefix>-1` … `<prefix>-<count>`), with optional `zone` (the `topology.kubernetes.io/zone`
// label), `labels`, `taints`, `capacity`, `unschedulable` and `images` (cached on the node):
//
//   nodes:
//     - {namePrefix: worker-a, count: 2, zone: zone-a, capacity: {cpu: "8", memory: 32Gi}}
//     - {name: db-1, zone: zone-b, taints: [{key: dedicated, value: db, effect: NoSchedule}]}
//
// The file is checked before anything starts: every problem is reported with its path
// (`nodes[1].taints[0].effect: Unsupported value: "Never": supported values: …`), in Kubernetes'
// field-error wording, and nothing is built when there is one.
import type { NodeConfig } from '@kruise-ts/cluster';
import {
  type FieldError,
  formatFieldError,
  invalid,
  isDNS1123Subdomain,
  notSupported,
  required,
  tryParseQuantity,
  validateLabels,
} from '@kruise-ts/core';

/** The label a zone sets. */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** Nodes one `count` may create at most (a typo of 1e9 should not take the machine down). */
const MAX_COUNT = 5000;

const NODE_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'namePrefix',
  'count',
  'zone',
  'labels',
  'taints',
  'capacity',
  'unschedulable',
  'images',
]);
const TAINT_EFFECTS: readonly string[] = ['NoExecute', 'NoSchedule', 'PreferNoSchedule'];

/** The outcome of reading a nodes file: nodes, or the problems as `path: message` lines. */
export type NodesFileResult = { ok: true; nodes: NodeConfig[] } | { ok: false; errors: string[] };

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Builds and checks the nodes a parsed nodes file describes (`doc` is the YAML document's value).
 *
 * Example: `{nodes: [{namePrefix: w, count: 2, zone: a}]}` → nodes `w-1`, `w-2` labelled
 * `topology.kubernetes.io/zone: a`; `{nodes: [{count: 2}]}` → `nodes[0]: Required value: a node
 * needs a name, or namePrefix and count`.
 */
export function nodesFromFile(doc: unknown): NodesFileResult {
  const errors: FieldError[] = [];
  const list = Array.isArray(doc) ? doc : isObject(doc) ? doc.nodes : undefined;
  const root = Array.isArray(doc) ? '' : 'nodes';
  if (isObject(doc)) {
    for (const k of Object.keys(doc))
      if (k !== 'nodes') errors.push({ type: 'FieldValueNotSupported', field: k, detail: 'unknown field' });
  }
  if (!Array.isArray(list) || list.length === 0) {
    errors.push(required(root || 'nodes', 'a list of at least one node'));
    return { ok: false, errors: errors.map(formatFieldError) };
  }
  const nodes: NodeConfig[] = [];
  list.forEach((entry, i) => {
    const at = `${root}[${i}]`;
    if (!isObject(entry)) {
      errors.push(invalid(at, entry, 'must be an object'));
      return;
    }
    for (const k of Object.keys(entry))
      if (!NODE_FIELDS.has(k))
        errors.push({ type: 'FieldValueNotSupported', field: `${at}.${k}`, detail: 'unknown field' });
    const base = nodeBase(entry, at, errors);
    const { name, namePrefix, count } = entry;
    if (
      count !== undefined &&
      (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_COUNT)
    )
      errors.push(invalid(`${at}.count`, count, `must be a whole number from 1 to ${MAX_COUNT}`));
    if (namePrefix !== undefined || count !== undefined) {
      const prefix = namePrefix ?? name;
      if (typeof prefix !== 'string' || prefix === '') {
        errors.push(required(`${at}.namePrefix`, 'a group of nodes needs a namePrefix'));
        return;
      }
      const n =
        typeof count === 'number' && Number.isInteger(count) && count >= 1 && count <= MAX_COUNT ? count : 1;
      for (let k = 1; k <= n; k++) nodes.push({ ...base, name: `${prefix}-${k}` });
      checkName(`${prefix}-${n}`, `${at}.namePrefix`, errors);
    } else if (typeof name !== 'string' || name === '') {
      errors.push(required(at, 'a node needs a name, or namePrefix and count'));
    } else {
      checkName(name, `${at}.name`, errors);
      nodes.push({ ...base, name });
    }
  });
  const seen = new Set<string>();
  for (const n of nodes) {
    if (seen.has(n.name))
      errors.push({ type: 'FieldValueDuplicate', field: root || 'nodes', badValue: n.name, detail: '' });
    seen.add(n.name);
  }
  return errors.length > 0 ? { ok: false, errors: errors.map(formatFieldError) } : { ok: true, nodes };
}

/** Everything of a node entry but its name. */
function nodeBase(
  entry: Record<string, unknown>,
  at: string,
  errors: FieldError[],
): Omit<NodeConfig, 'name'> {
  const base: Omit<NodeConfig, 'name'> = {};
  const labels: Record<string, string> = {};
  if (entry.labels !== undefined) {
    if (!isObject(entry.labels))
      errors.push(invalid(`${at}.labels`, entry.labels, 'must be a map of strings'));
    else
      for (const [k, v] of Object.entries(entry.labels)) {
        if (typeof v !== 'string') errors.push(invalid(`${at}.labels.${k}`, v, 'must be a string'));
        else labels[k] = v;
      }
  }
  if (entry.zone !== undefined) {
    if (typeof entry.zone !== 'string' || entry.zone === '')
      errors.push(invalid(`${at}.zone`, entry.zone, 'must be a non-empty string'));
    else labels[ZONE_LABEL] = entry.zone;
  }
  errors.push(...validateLabels(labels, `${at}.labels`));
  if (Object.keys(labels).length > 0) base.labels = labels;
  if (entry.capacity !== undefined) {
    if (!isObject(entry.capacity))
      errors.push(invalid(`${at}.capacity`, entry.capacity, 'must be a map of quantities'));
    else {
      const capacity: Record<string, string> = {};
      for (const [k, v] of Object.entries(entry.capacity)) {
        if ((typeof v !== 'string' && typeof v !== 'number') || tryParseQuantity(String(v)) === undefined)
          errors.push(invalid(`${at}.capacity.${k}`, v, 'must be a quantity (e.g. 4, 500m, 16Gi)'));
        else capacity[k] = String(v);
      }
      base.capacity = capacity;
    }
  }
  if (entry.taints !== undefined) {
    if (!Array.isArray(entry.taints)) errors.push(invalid(`${at}.taints`, entry.taints, 'must be a list'));
    else {
      base.taints = [];
      entry.taints.forEach((t, j) => {
        const tp = `${at}.taints[${j}]`;
        if (!isObject(t)) {
          errors.push(invalid(tp, t, 'must be an object'));
          return;
        }
        if (typeof t.key !== 'string' || t.key === '') errors.push(required(`${tp}.key`, ''));
        if (t.value !== undefined && typeof t.value !== 'string')
          errors.push(invalid(`${tp}.value`, t.value, 'must be a string'));
        if (typeof t.effect !== 'string') errors.push(required(`${tp}.effect`, ''));
        else if (!TAINT_EFFECTS.includes(t.effect))
          errors.push(notSupported(`${tp}.effect`, t.effect, TAINT_EFFECTS));
        base.taints!.push({
          key: String(t.key ?? ''),
          value: t.value as string | undefined,
          effect: String(t.effect ?? ''),
        });
      });
    }
  }
  if (entry.unschedulable !== undefined) {
    if (typeof entry.unschedulable !== 'boolean')
      errors.push(invalid(`${at}.unschedulable`, entry.unschedulable, 'must be true or false'));
    else base.unschedulable = entry.unschedulable;
  }
  if (entry.images !== undefined) {
    if (!Array.isArray(entry.images) || entry.images.some((x) => typeof x !== 'string' || x === ''))
      errors.push(invalid(`${at}.images`, entry.images, 'must be a list of image names'));
    else base.images = entry.images as string[];
  }
  return base;
}

function checkName(name: string, field: string, errors: FieldError[]): void {
  for (const m of isDNS1123Subdomain(name)) errors.push(invalid(field, name, m));
}

/**
 * `count` nodes `node-1` … spread over `zones` round-robin (node-1 in the first zone, node-2 in
 * the second, …), each labelled `topology.kubernetes.io/zone`.
 *
 * Example: `nodesInZones(4, ['a', 'b'])` → node-1 a, node-2 b, node-3 a, node-4 b.
 */
export function nodesInZones(count: number, zones: readonly string[]): NodeConfig[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `node-${i + 1}`,
    ...(zones.length > 0 ? { labels: { [ZONE_LABEL]: zones[i % zones.length] } } : {}),
  }));
}
