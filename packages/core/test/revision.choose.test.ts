// chooseUpdateRevision: the update-revision rule CloneSet (cloneset.md §12) and Advanced StatefulSet (R4.4) share.
import { chooseUpdateRevision, newControllerRevision } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';

const parent = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', uid: 'u1' },
};
const tpl = (image: string): PodTemplateSpec => ({
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image }] },
});
const rev = (image: string, revision: number, collisionCount = 0): ControllerRevision =>
  newControllerRevision({ parent, template: tpl(image), revision, collisionCount });

describe('chooseUpdateRevision', () => {
  it('the newest revision equals the template: latest, nothing to write', () => {
    const history = deepFreeze([rev('a', 1), rev('b', 2)]);
    const c = chooseUpdateRevision(history, (n) => rev('b', 3, n), 0);
    expect(c).toEqual({ kind: 'latest', revision: history[1], collisionCount: 0 });
  });
  it('an older revision equals the template (rollback): reuse it', () => {
    const history = deepFreeze([rev('a', 1), rev('b', 2)]);
    const c = chooseUpdateRevision(history, (n) => rev('a', 3, n), 0);
    expect(c).toEqual({ kind: 'reuse', old: history[0], collisionCount: 0 });
  });
  it('a new template: create the candidate', () => {
    const history = deepFreeze([rev('a', 1)]);
    const c = chooseUpdateRevision(history, (n) => rev('c', 2, n), 0);
    expect(c.kind).toBe('create');
    expect(c.collisionCount).toBe(0);
    if (c.kind === 'create') expect(c.revision.metadata?.name).toBe(rev('c', 2).metadata?.name);
  });
  it('a name taken by a revision with other data raises the collision count until the name is free', () => {
    // A revision named like the candidate for template "c" but holding template "a".
    const clash = { ...rev('a', 1), metadata: { ...rev('a', 1).metadata, name: rev('c', 2).metadata?.name } };
    const c = chooseUpdateRevision(deepFreeze([clash]), (n) => rev('c', 2, n), 0);
    expect(c.kind).toBe('create');
    expect(c.collisionCount).toBe(1);
    if (c.kind === 'create') expect(c.revision.metadata?.name).toBe(rev('c', 2, 1).metadata?.name);
  });
});
