import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '@kruise-ts/api';
import {
  computeHash,
  equalRevision,
  getPodRevision,
  getRevisionData,
  isPodAtRevision,
  isPodUpdate,
  makeRevisionData,
  newControllerRevision,
  nextRevisionNumber,
  revisionObject,
  revisionsToTruncate,
  revisionTemplate,
  shortHash,
  sortControllerRevisions,
} from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { Pod, PodTemplateSpec } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { controllerRevisionName, findEqualRevisions } from '../src/rollout/revision';

function load(area: string, file: string): any {
  return JSON.parse(
    readFileSync(
      fileURLToPath(new URL(`../../../testdata/upstream/${area}/${file}`, import.meta.url)),
      'utf8',
    ),
  );
}

const parent: KubeObject = deepFreeze({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'sample', namespace: 'default', uid: 'uid-1', annotations: { note: 'x' } },
});
const template: PodTemplateSpec = deepFreeze({
  metadata: { labels: { app: 'sample' } },
  spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] },
});

function rev(name: string, revision: number, extra: Partial<ControllerRevision> = {}): ControllerRevision {
  return { metadata: { name }, revision, data: makeRevisionData(template), ...extra };
}

describe('§1.1 revision data and newControllerRevision', () => {
  it('data is {"spec":{"template":{...template,"$patch":"replace"}}}', () => {
    expect(makeRevisionData(template)).toEqual({ spec: { template: { ...template, $patch: 'replace' } } });
  });
  it('builds name <parent>-<hash>, template labels + hash label, owner reference, number', () => {
    const r = newControllerRevision({
      parent,
      template,
      revision: 3,
      collisionCount: 0,
      annotations: { note: 'x' },
    });
    const hash = computeHash(makeRevisionData(template), 0);
    expect(r).toEqual({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: `sample-${hash}`,
        namespace: 'default',
        labels: { app: 'sample', 'controller.kubernetes.io/hash': hash },
        annotations: { note: 'x' },
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'CloneSet',
            name: 'sample',
            uid: 'uid-1',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      data: makeRevisionData(template),
      revision: 3,
    });
  });
  it('same template → same name; a different collisionCount or template → a different name', () => {
    const a = newControllerRevision({ parent, template, revision: 1, collisionCount: 0 });
    const b = newControllerRevision({ parent, template, revision: 2, collisionCount: 0 });
    const c = newControllerRevision({ parent, template, revision: 1, collisionCount: 1 });
    const d = newControllerRevision({
      parent,
      template: { ...template, spec: { containers: [{ name: 'main', image: 'nginx:1.26' }] } },
      revision: 1,
    });
    expect(a.metadata?.name).toBe(b.metadata?.name);
    expect(c.metadata?.name).not.toBe(a.metadata?.name);
    expect(d.metadata?.name).not.toBe(a.metadata?.name);
  });
  it('DaemonSet style: hash label controller-revision-hash, explicit labels, name prefix cut to 223', () => {
    const r = newControllerRevision({
      parent,
      template,
      revision: 1,
      hashLabelKey: 'controller-revision-hash',
      labels: { x: 'y' },
      namePrefix: 'p'.repeat(300),
    });
    expect(Object.keys(r.metadata?.labels ?? {})).toEqual(['x', 'controller-revision-hash']);
    expect(r.metadata?.name?.startsWith(`${'p'.repeat(223)}-`)).toBe(true);
    expect(controllerRevisionName('ab', 'h')).toBe('ab-h');
    const none = newControllerRevision({ parent, template, revision: 1, hashLabelKey: null });
    expect(none.metadata?.labels).toEqual({ app: 'sample' });
  });
  it('getRevisionData accepts the object or raw JSON text; revisionTemplate strips $patch', () => {
    const text: ControllerRevision = {
      revision: 1,
      data: JSON.stringify(makeRevisionData(template)) as unknown as object,
    };
    expect(getRevisionData(text)).toEqual(makeRevisionData(template));
    expect(revisionTemplate(text)).toEqual(template);
    expect(revisionTemplate(rev('a', 1))).toEqual(template);
    expect(getRevisionData({ revision: 1, data: 'not json' as unknown as object })).toBeUndefined();
    expect(getRevisionData({ revision: 1 })).toBeUndefined();
    expect(revisionTemplate({ revision: 1, data: { spec: {} } })).toBeUndefined();
  });
});

describe('history (docs/reference/cloneset.md §12, docs/reference/statefulset.md R4.3–R4.6)', () => {
  it('nextRevisionNumber = max + 1, or 1', () => {
    expect(nextRevisionNumber([])).toBe(1);
    expect(nextRevisionNumber([rev('a', 3), rev('b', 7), rev('c', 2)])).toBe(8);
  });
  it('sorts by revision, then older creationTimestamp, then name', () => {
    const sorted = sortControllerRevisions([
      rev('d', 2, { metadata: { name: 'd', creationTimestamp: '2024-01-02T00:00:00Z' } }),
      rev('c', 2, { metadata: { name: 'c', creationTimestamp: '2024-01-03T00:00:00Z' } }),
      rev('b', 2, { metadata: { name: 'b', creationTimestamp: '2024-01-02T00:00:00Z' } }),
      rev('a', 5),
      rev('z', 1),
    ]);
    expect(sorted.map((r) => r.metadata?.name)).toEqual(['z', 'b', 'd', 'c', 'a']);
  });
  it('equalRevision compares data semantically, and integer hash labels when both have one', () => {
    const a = rev('a', 1);
    const textual = rev('b', 2, { data: JSON.stringify(makeRevisionData(template)) as unknown as object });
    expect(equalRevision(a, textual)).toBe(true);
    const other = rev('c', 3, {
      data: makeRevisionData({ ...template, metadata: { labels: { app: 'other' } } }),
    });
    expect(equalRevision(a, other)).toBe(false);
    const h1 = rev('d', 1, { metadata: { name: 'd', labels: { 'controller.kubernetes.io/hash': '1' } } });
    const h2 = rev('e', 1, { metadata: { name: 'e', labels: { 'controller.kubernetes.io/hash': '2' } } });
    const hx = rev('f', 1, { metadata: { name: 'f', labels: { 'controller.kubernetes.io/hash': 'abc' } } });
    expect(equalRevision(h1, h2)).toBe(false);
    expect(equalRevision(h1, hx)).toBe(true);
    expect(equalRevision(undefined, undefined)).toBe(true);
    expect(equalRevision(a, null)).toBe(false);
  });
  it('findEqualRevisions returns the equal ones oldest first (rollback candidate is the last)', () => {
    const other = rev('o', 2, { data: makeRevisionData({ metadata: { labels: { app: 'o' } } }) });
    const found = findEqualRevisions([rev('r3', 3), other, rev('r1', 1)], rev('candidate', 4));
    expect(found.map((r) => r.metadata?.name)).toEqual(['r1', 'r3']);
  });
  it('truncation: non-live revisions beyond the limit are deleted oldest first', () => {
    const revs = [1, 2, 3, 4, 5, 6].map((n) => rev(`r${n}`, n));
    const del = revisionsToTruncate(revs, new Set(['r6', 'r2']), 2);
    expect(del.map((r) => r.metadata?.name)).toEqual(['r1', 'r3']);
    expect(revisionsToTruncate(revs, new Set(), 10)).toEqual([]);
    expect(revisionsToTruncate(revs, new Set(), 0)).toHaveLength(6);
  });
});

describe('§2.9 / R3.9 revision membership', () => {
  const pod = (label?: string, state?: string): Pod => ({
    metadata: {
      labels: {
        ...(label !== undefined ? { 'controller-revision-hash': label } : {}),
        ...(state !== undefined ? { 'lifecycle.apps.kruise.io/state': state } : {}),
      },
    },
  });
  it('shortHash is the text after the last "-"', () => {
    expect(shortHash('app-name-new')).toBe('new');
    expect(shortHash('abc')).toBe('abc');
    expect(shortHash('')).toBe('');
  });
  it('isPodAtRevision: exact, or the same last segment when short-hash aware (foo-abc matches bar-abc)', () => {
    expect(isPodAtRevision(pod('foo-abc'), 'foo-abc')).toBe(true);
    expect(isPodAtRevision(pod('foo-abc'), 'bar-abc')).toBe(false);
    expect(isPodAtRevision(pod('foo-abc'), 'bar-abc', { shortHashAware: true })).toBe(true);
    expect(isPodAtRevision(pod('app-name-new'), 'new', { shortHashAware: true })).toBe(true);
    expect(isPodAtRevision(pod(), 'x', { shortHashAware: true })).toBe(false);
  });
  it('getPodRevision reads controller-revision-hash', () => {
    expect(getPodRevision(pod('r1'))).toBe('r1');
    expect(getPodRevision(pod())).toBe('');
  });
  it('R3.9: PreparingUpdate counts as updated only with the PreparingUpdateAsUpdate gate', () => {
    const p = pod('app-name-old', 'PreparingUpdate');
    expect(isPodUpdate(p, 'app-name-new')).toBe(false);
    expect(isPodUpdate(p, 'app-name-new', { PreparingUpdateAsUpdate: true })).toBe(true);
    expect(isPodUpdate(pod('app-name-new', 'Normal'), 'new')).toBe(true);
  });
});

describe('upstream core/revision.json', () => {
  for (const c of load('core', 'revision.json').cases) {
    it(c.id, () => {
      expect(isPodUpdate(deepFreeze(c.input.pod), c.input.updateRevision, c.featureGates)).toBe(
        c.expected.updated,
      );
    });
  }
});

describe('upstream cloneset/revision_match.json', () => {
  for (const c of load('cloneset', 'revision_match.json').cases) {
    it(`${c.id} (${c.goCase})`, () => {
      const labels: Record<string, string> = {};
      if (c.pod.revision !== null) labels['controller-revision-hash'] = c.pod.revision;
      if (c.pod.lifecycleState !== null) labels['lifecycle.apps.kruise.io/state'] = c.pod.lifecycleState;
      expect(isPodUpdate({ metadata: { labels } }, c.updateRevision, c.featureGates)).toBe(
        c.expected.isUpdated,
      );
    });
  }
});

describe('revisionObject: a revision as an action writes it', () => {
  it('keeps a complete revision as it is, members in their order', () => {
    const rev: ControllerRevision = deepFreeze({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'web-abc', namespace: 'default' },
      data: { spec: {} },
      revision: 3,
    });
    const obj = revisionObject(rev);
    expect(JSON.stringify(obj)).toBe(JSON.stringify(rev));
    expect(obj).not.toBe(rev);
  });

  it('fills a missing apiVersion, kind or metadata', () => {
    const obj = revisionObject(deepFreeze({ revision: 1 }));
    expect(obj).toEqual({ revision: 1, apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: {} });
  });
});
