// Test helpers: loading the upstream JSON cases, the check language of their README
// (paths, ops), the pod factories, and small builders for pods and SidecarSets.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SidecarSet } from '@kruise-ts/api';
import type { Pod } from 'kubernetes-types/core/v1';
import { expect } from 'vitest';

/** Loads `testdata/upstream/sidecarset/<file>`. */
export function loadCases(file: string): any {
  return JSON.parse(
    readFileSync(
      fileURLToPath(new URL(`../../../testdata/upstream/sidecarset/${file}`, import.meta.url)),
      'utf8',
    ),
  );
}

type Seg =
  | { k: 'key'; v: string }
  | { k: 'idx'; v: number }
  | { k: 'find'; field: string; v: string }
  | { k: 'json' };

/** Parses a check path: `a.b`, `[n]`, `["key"]`, `{name=x}`, `.@json`. */
export function parsePath(path: string): Seg[] {
  const segs: Seg[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      i++;
      continue;
    }
    if (path.startsWith('@json', i)) {
      segs.push({ k: 'json' });
      i += 5;
    } else if (c === '[' && path[i + 1] === '"') {
      const end = path.indexOf('"]', i + 2);
      segs.push({ k: 'key', v: JSON.parse(path.slice(i + 1, end + 1)) });
      i = end + 2;
    } else if (c === '[') {
      const end = path.indexOf(']', i);
      segs.push({ k: 'idx', v: Number(path.slice(i + 1, end)) });
      i = end + 1;
    } else if (c === '{') {
      const end = path.indexOf('}', i);
      const [field, v] = path.slice(i + 1, end).split('=');
      segs.push({ k: 'find', field, v });
      i = end + 1;
    } else {
      let j = i;
      while (j < path.length && !'.[{'.includes(path[j])) j++;
      segs.push({ k: 'key', v: path.slice(i, j) });
      i = j;
    }
  }
  return segs;
}

/** Resolves a check path; `undefined` = missing. */
export function resolvePath(root: unknown, path: string): unknown {
  let cur: any = root;
  for (const s of parsePath(path)) {
    if (cur === undefined || cur === null) return undefined;
    if (s.k === 'json') {
      if (typeof cur !== 'string') return undefined;
      try {
        cur = JSON.parse(cur);
      } catch {
        return undefined;
      }
    } else if (s.k === 'key') cur = typeof cur === 'object' ? cur[s.v] : undefined;
    else if (s.k === 'idx') cur = Array.isArray(cur) ? cur[s.v] : undefined;
    else cur = Array.isArray(cur) ? cur.find((e: any) => e?.[s.field] === s.v) : undefined;
  }
  return cur;
}

/** Assigns `value` at a simple path (keys and indexes), creating objects on the way. */
export function setPath(root: any, path: string, value: unknown): void {
  const segs = parsePath(path);
  let cur = root;
  segs.forEach((s, n) => {
    const key = s.k === 'key' || s.k === 'idx' ? s.v : undefined;
    if (key === undefined) throw new Error(`unsupported set path ${path}`);
    if (n === segs.length - 1) cur[key] = value;
    else {
      cur[key] ??= segs[n + 1].k === 'idx' ? [] : {};
      cur = cur[key];
    }
  });
}

function stripKeys(v: unknown, keys: readonly string[]): unknown {
  if (Array.isArray(v)) return v.map((x) => stripKeys(x, keys));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (!keys.includes(k)) out[k] = stripKeys(x, keys);
    return out;
  }
  return v;
}

/** Evaluates one check of the README's check language against `root`. */
export function runCheck(root: unknown, check: any): void {
  const actual = resolvePath(root, check.path);
  const msg = `${check.path} ${check.op}`;
  switch (check.op) {
    case 'eq':
      expect(stripKeys(actual, check.ignoreKeys ?? []), msg).toEqual(check.value);
      break;
    case 'len':
      expect(Array.isArray(actual) ? actual.length : 0, msg).toBe(check.value);
      break;
    case 'names':
      expect(
        ((actual as any[]) ?? []).map((e) => e.name),
        msg,
      ).toEqual(check.value);
      break;
    case 'includes': {
      const got = ((actual as any[]) ?? []).map((e) => e[check.key]);
      for (const v of check.value) expect(got, msg).toContain(v);
      break;
    }
    case 'keys':
      expect(Object.keys((actual as object) ?? {}).sort(), msg).toEqual([...check.value].sort());
      break;
    case 'present':
      expect(actual === undefined || actual === null, msg).toBe(false);
      break;
    case 'absent':
      expect(actual === undefined || actual === null, msg).toBe(true);
      break;
    case 'containerTotal': {
      const spec = (actual as any)?.spec ?? {};
      expect((spec.containers ?? []).length + (spec.initContainers ?? []).length, msg).toBe(check.value);
      break;
    }
    case 'parsesAsUpgradeSpecMap': {
      const parsed = JSON.parse(actual as string);
      expect(
        Object.values(parsed).every((x) => x && typeof x === 'object'),
        msg,
      ).toBe(true);
      break;
    }
    default:
      throw new Error(`unknown op ${check.op}`);
  }
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v));
}

/** Expands `{factory: ...}` pod lists of the case files (README "Pod factories"). */
export function expandPods(spec: any, factories: any): Pod[] {
  if (Array.isArray(spec)) return clone(spec);
  const base = Date.parse('2025-01-01T00:00:00Z');
  const pods: any[] = [];
  if (spec.factory === 'strategyPods') {
    const t = factories.strategyPods.templates;
    for (let i = 0; i < spec.count; i++) {
      const tpl =
        i < spec.upgradedAndReady ? t.upgradedReady : i < spec.upgraded ? t.upgradedNotReady : t.notUpgraded;
      const p = clone(tpl);
      p.metadata.name = p.metadata.name.replace('{i}', String(i));
      p.metadata.creationTimestamp = new Date(base + i * 1000).toISOString().replace('.000Z', 'Z');
      pods.push(p);
    }
  } else if (spec.factory === 'copies') {
    for (let i = 0; i < spec.count; i++) {
      const p = clone(spec.template);
      p.metadata.name = p.metadata.name.replace('{i}', String(i));
      pods.push(p);
    }
  } else throw new Error(`unknown factory ${spec.factory}`);
  for (const o of spec.overrides ?? []) {
    const idx: number[] =
      o.index !== undefined
        ? [o.index]
        : Array.from({ length: o.toIndex - o.fromIndex }, (_, k) => o.fromIndex + k);
    for (const i of idx) {
      const p = pods[i];
      if (o.mergeLabels) p.metadata.labels = { ...(p.metadata.labels ?? {}), ...o.mergeLabels };
      if (o.mergeAnnotations)
        p.metadata.annotations = { ...(p.metadata.annotations ?? {}), ...o.mergeAnnotations };
      for (const [path, v] of Object.entries(o.set ?? {})) setPath(p, path, v);
    }
  }
  return pods;
}

/** A SidecarSet with the given name and spec. */
export function sidecarSet(
  name: string,
  spec: SidecarSet['spec'],
  extra: Partial<SidecarSet['metadata']> = {},
): SidecarSet {
  return { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name, ...extra }, spec };
}

/** A pod with the given name, namespace, labels and spec. */
export function pod(name: string, namespace: string, labels: Record<string, string>, spec: Pod['spec']): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, labels }, spec } as Pod;
}

/** Container names of a list. */
export function names(list: readonly { name: string }[] | undefined): string[] {
  return (list ?? []).map((c) => c.name);
}
