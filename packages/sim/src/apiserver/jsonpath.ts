// The small JSONPath subset CRD printer columns use (kube-apiserver's
// tableconvertor runs `{<jsonPath>}` through client-go's jsonpath): field
// steps `.a.b`, escaped dots `.metadata.labels.crr\.apps\.kruise\.io/node-name`,
// quoted keys `['a.b']`, wildcards `[*]` and indexes `[0]`, `[-1]`.

type Step = { key: string } | { index: number } | { all: true };

/** Parses a printer-column path into steps; undefined when it is malformed. */
export function parseJsonPath(path: string): Step[] | undefined {
  let p = path.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1);
  if (p.startsWith('$')) p = p.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < p.length) {
    const c = p[i];
    if (c === '.') {
      i++;
      let key = '';
      while (i < p.length && p[i] !== '.' && p[i] !== '[') {
        if (p[i] === '\\' && i + 1 < p.length) {
          key += p[i + 1];
          i += 2;
        } else key += p[i++];
      }
      if (key === '') {
        if (i >= p.length) break;
        continue;
      }
      steps.push(key === '*' ? { all: true } : { key });
    } else if (c === '[') {
      const end = p.indexOf(']', i);
      if (end < 0) return undefined;
      const inner = p.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === '*') steps.push({ all: true });
      else if (/^-?\d+$/.test(inner)) steps.push({ index: Number(inner) });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ key: inner.slice(1, -1) });
      else return undefined;
    } else return undefined;
  }
  return steps;
}

/**
 * Evaluates a printer-column path against an object; returns every match.
 *
 * Example: `.spec.template.spec.containers[*].name` on a pod template with
 * containers `nginx` and `sidecar` gives `['nginx', 'sidecar']`.
 */
export function evalJsonPath(obj: unknown, path: string): unknown[] {
  const steps = parseJsonPath(path);
  if (!steps) return [];
  let cur: unknown[] = [obj];
  for (const s of steps) {
    const next: unknown[] = [];
    for (const v of cur) {
      if (v === null || v === undefined) continue;
      if ('key' in s) {
        if (typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, s.key))
          next.push((v as Record<string, unknown>)[s.key]);
      } else if ('index' in s) {
        if (Array.isArray(v)) {
          const idx = s.index < 0 ? v.length + s.index : s.index;
          if (idx >= 0 && idx < v.length) next.push(v[idx]);
        }
      } else if (Array.isArray(v)) next.push(...v);
      else if (typeof v === 'object') next.push(...Object.values(v));
    }
    cur = next;
  }
  return cur.filter((v) => v !== undefined);
}
