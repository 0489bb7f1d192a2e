// The steps of a scenario, parsed and checked: every object a step names must
// be defined by a manifest of the scenario (or an earlier apply step), every
// node must be in the cluster, selectors must parse.
import type { KubeObject } from '@kruise-ts/api';
import { apiVersionOf, isNamespaced } from '@kruise-ts/cluster';
import { parseSelectorString } from '@kruise-ts/core';
import { type BuildCtx, inlineManifests, ms, readFileManifests } from './buildContext';
import type { Step, StepTarget } from './types';

type Obj = Record<string, any>;
const DEFAULT_WAIT_TIMEOUT_MS = 600_000;

export function targetKey(kind: string, namespace: string | undefined, name: string): string {
  return `${kind}/${isNamespaced(kind) ? (namespace ?? 'default') : ''}/${name}`;
}

export function nodeName(v: string | Obj): string {
  return typeof v === 'string' ? v : v.name;
}

export function checkPodPick(p: Obj, path: (string | number)[], c: BuildCtx): void {
  if (!p.name && !p.selector) c.at(path, 'name a pod (name) or choose pods by label (selector)');
  if (p.name && p.selector) c.at(path, 'give either name or selector, not both');
  if (p.selector) {
    try {
      parseSelectorString(p.selector);
    } catch (e) {
      c.at([...path, 'selector'], `invalid label selector: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (p.count !== undefined && p.count < 1) c.at([...path, 'count'], 'must be at least 1');
}

export function buildStep(
  s: Obj,
  index: number,
  c: BuildCtx,
  defined: Map<string, string>,
  nodes: Set<string>,
): Step | undefined {
  const base = { name: s.name as string | undefined, atMs: ms(s.at), index };
  const path = ['spec', 'steps', index];
  const resolve = (action: string, t: Obj): StepTarget | undefined => {
    const key = targetKey(t.kind, t.namespace, t.name);
    const apiVersion = t.apiVersion ?? defined.get(key);
    if (!defined.has(key)) {
      const known = [...defined.keys()]
        .filter((k) => k.startsWith(`${t.kind}/`))
        .map((k) => k.split('/').pop());
      c.at(
        [...path, action, 'name'],
        `${t.kind} ${JSON.stringify(t.name)} is not defined by any manifest of this scenario${known.length ? ` (defined: ${known.join(', ')})` : ''}`,
      );
      return undefined;
    }
    return {
      kind: t.kind,
      name: t.name,
      namespace: t.namespace,
      apiVersion: apiVersion ?? apiVersionOf(t.kind),
    };
  };
  if (s.apply !== undefined) {
    const a: Obj = s.apply;
    const objects: KubeObject[] = [];
    if (a.file)
      for (const m of readFileManifests(a.file, [...path, 'apply', 'file'], c)) objects.push(m.object);
    if (a.manifest)
      for (const m of inlineManifests(a.manifest, [...path, 'apply', 'manifest'], c)) objects.push(m.object);
    (a.manifests ?? []).forEach((m: unknown, i: number) => {
      for (const x of inlineManifests(m, [...path, 'apply', 'manifests', i], c)) objects.push(x.object);
    });
    if (!a.file && !a.manifest && !a.manifests) c.at([...path, 'apply'], 'give file, manifest or manifests');
    return { ...base, action: 'apply', objects };
  }
  if (s.patch !== undefined) {
    const target = resolve('patch', s.patch);
    return (
      target && { ...base, action: 'patch', target, patchType: s.patch.type ?? 'merge', patch: s.patch.patch }
    );
  }
  if (s.scale !== undefined) {
    if (s.scale.replicas < 0) c.at([...path, 'scale', 'replicas'], 'must be >= 0');
    const target = resolve('scale', s.scale);
    return target && { ...base, action: 'scale', target, replicas: s.scale.replicas };
  }
  if (s.setImage !== undefined) {
    const target = resolve('setImage', s.setImage);
    return (
      target && {
        ...base,
        action: 'setImage',
        target,
        container: s.setImage.container,
        image: s.setImage.image,
      }
    );
  }
  if (s.delete !== undefined) {
    const target = resolve('delete', s.delete);
    return target && { ...base, action: 'delete', target };
  }
  for (const action of ['deletePod', 'crashPod', 'failReadiness'] as const) {
    const p: Obj | undefined = s[action];
    if (p === undefined) continue;
    checkPodPick(p, [...path, action], c);
    const common = {
      namespace: p.namespace ?? 'default',
      podName: p.name,
      selector: p.selector,
      count: p.count ?? 1,
    };
    if (action === 'deletePod') return { ...base, action, ...common };
    if (action === 'crashPod') return { ...base, action, ...common, container: p.container };
    return { ...base, action, ...common, container: p.container, durationMs: ms(p.duration) ?? 20_000 };
  }
  for (const action of ['failNode', 'recoverNode'] as const) {
    if (s[action] === undefined) continue;
    const node = nodeName(s[action]);
    if (!nodes.has(node))
      c.at(
        [...path, action],
        `node ${JSON.stringify(node)} is not in the cluster (nodes: ${[...nodes].join(', ')})`,
      );
    return { ...base, action, node };
  }
  if (s.wait !== undefined) return { ...base, action: 'wait', durationMs: ms(s.wait) ?? 0 };
  if (s.waitFor !== undefined) {
    const w: Obj = s.waitFor;
    if (w.condition === undefined && w.fields === undefined)
      c.at([...path, 'waitFor'], 'give a condition (Ready, RolledOut, Available, Exists, Deleted) or fields');
    const target = resolve('waitFor', w);
    if (!target) return undefined;
    return {
      ...base,
      action: 'waitFor',
      until: {
        ...target,
        condition: w.condition,
        fields: w.fields,
        timeoutMs: ms(w.timeout) ?? DEFAULT_WAIT_TIMEOUT_MS,
      },
    };
  }
  return undefined;
}
