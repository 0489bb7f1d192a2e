// A tiny RFC 6902 applier (add / remove / replace) for the jsonDiff property tests.
import type { JsonPatchOperation } from '../src/json/jsonDiff';
import { unescapeJsonPointer } from '../src/json/jsonDiff';

export function applyJsonPatch(doc: unknown, ops: JsonPatchOperation[]): unknown {
  let root: unknown = structuredClone(doc);
  for (const op of ops) {
    if (op.path === '') {
      if (op.op === 'remove') root = undefined;
      else root = structuredClone(op.value);
      continue;
    }
    const parts = op.path.slice(1).split('/').map(unescapeJsonPointer);
    const last = parts.pop()!;
    let parent: any = root;
    for (const p of parts) parent = Array.isArray(parent) ? parent[Number(p)] : parent[p];
    if (Array.isArray(parent)) {
      const i = Number(last);
      if (op.op === 'add') parent.splice(i, 0, structuredClone(op.value));
      else if (op.op === 'remove') parent.splice(i, 1);
      else parent[i] = structuredClone(op.value);
    } else if (op.op === 'remove') {
      delete parent[last];
    } else {
      parent[last] = structuredClone(op.value);
    }
  }
  return root;
}
