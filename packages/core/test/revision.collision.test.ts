// resolveRevisionNameCollision and chooseUpdateRevision's `taken` / `equal` options: the name
// step shared by CloneSet (cloneset.md §12), ASTS (statefulset.md §R4.4), DaemonSet (daemonset.md §12.3), SidecarSet (SS-5.3.2) and
// UnitedDeployment (uniteddeployment.md §9.6, §Q8).
import {
  chooseUpdateRevision,
  getRevisionData,
  newControllerRevision,
  resolveRevisionNameCollision,
} from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';

const parent = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'UnitedDeployment',
  metadata: { name: 'web', namespace: 'ns', uid: 'u1' },
};
const tpl = (image: string): PodTemplateSpec => ({
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image }] },
});
const rev = (image: string, revision: number, collisionCount = 0): ControllerRevision =>
  newControllerRevision({ parent, template: tpl(image), revision, collisionCount });
/** `r` renamed to `name` (a revision occupying another one's name). */
const named = (r: ControllerRevision, name: string | undefined): ControllerRevision => ({
  ...r,
  metadata: { ...r.metadata, name },
});
const dataOnly = (a: ControllerRevision, b: ControllerRevision) =>
  JSON.stringify(getRevisionData(a)) === JSON.stringify(getRevisionData(b));

describe('resolveRevisionNameCollision', () => {
  it('a free name: create the candidate at the given collision count', () => {
    const taken = deepFreeze([rev('a', 1)]);
    const c = resolveRevisionNameCollision(taken, (n) => rev('c', 2, n), 3);
    expect(c).toEqual({ kind: 'create', revision: rev('c', 2, 3), collisionCount: 3 });
  });

  it('a name taken by other data: the count goes up until the name is free (0 → 1)', () => {
    const clash = named(rev('a', 1), rev('c', 2, 0).metadata?.name);
    const c = resolveRevisionNameCollision(deepFreeze([clash]), (n) => rev('c', 2, n), 0);
    expect(c.kind).toBe('create');
    expect(c.collisionCount).toBe(1);
    expect(c.revision.metadata?.name).toBe(rev('c', 2, 1).metadata?.name);
    expect(c.revision.metadata?.name).not.toBe(clash.metadata?.name);
  });

  it('two names in a row taken: the count goes up twice (0 → 2)', () => {
    const taken = deepFreeze([
      named(rev('a', 1), rev('c', 3, 0).metadata?.name),
      named(rev('b', 2), rev('c', 3, 1).metadata?.name),
    ]);
    const c = resolveRevisionNameCollision(taken, (n) => rev('c', 3, n), 0);
    expect(c).toEqual({ kind: 'create', revision: rev('c', 3, 2), collisionCount: 2 });
  });

  it('a name taken by equal data: that revision is used as is (existing), the count unchanged', () => {
    const existing = deepFreeze({ ...rev('c', 7), metadata: { ...rev('c', 7).metadata, uid: 'x' } });
    const c = resolveRevisionNameCollision([existing], (n) => rev('c', 2, n), 0);
    expect(c).toEqual({ kind: 'existing', revision: existing, collisionCount: 0 });
  });
});

describe('chooseUpdateRevision options', () => {
  it('uniteddeployment.md §9.6/Q8: a revision the selector did not list, with equal data and the same name → existing', () => {
    // The UD lists nothing (cloneSetTemplate revisions carry no labels), but the namespace has it.
    const unlisted = deepFreeze(rev('a', 1));
    const c = chooseUpdateRevision([], (n) => rev('a', 1, n), 0, { taken: [unlisted] });
    expect(c).toEqual({ kind: 'existing', revision: unlisted, collisionCount: 0 });
  });

  it('taken: an unlisted revision with other data still blocks the name (count 0 → 1)', () => {
    const listed = deepFreeze([rev('a', 1)]);
    const other = deepFreeze(named(rev('z', 1), rev('c', 2, 0).metadata?.name));
    const c = chooseUpdateRevision(listed, (n) => rev('c', 2, n), 0, { taken: [...listed, other] });
    expect(c).toEqual({ kind: 'create', revision: rev('c', 2, 1), collisionCount: 1 });
    // Without `taken`, only the listed revisions block names.
    expect(chooseUpdateRevision(listed, (n) => rev('c', 2, n), 0)).toEqual({
      kind: 'create',
      revision: rev('c', 2, 0),
      collisionCount: 0,
    });
  });

  it('equal: data-only equality ignores differing integer hash labels (UD §9.5 "identical data bytes")', () => {
    const withLabel = (r: ControllerRevision, h: string) =>
      ({
        ...r,
        metadata: { ...r.metadata, labels: { 'controller.kubernetes.io/hash': h } },
      }) as ControllerRevision;
    const history = deepFreeze([withLabel(rev('a', 1), '111'), rev('b', 2)]);
    const candidateFor = (n: number) => withLabel(rev('a', 3, n), '222');
    // Default equality: both labels are integers and differ → not equal → a new revision.
    expect(chooseUpdateRevision(history, candidateFor, 0).kind).toBe('create');
    // Data-only equality: revision #1 is equal → rollback.
    expect(chooseUpdateRevision(history, candidateFor, 0, { equal: dataOnly })).toEqual({
      kind: 'reuse',
      old: history[0],
      collisionCount: 0,
    });
  });

  it('the given order is history order: the last equal one in it is reused', () => {
    const a1 = rev('a', 1);
    const a2 = { ...rev('a', 2), metadata: { ...rev('a', 2).metadata, name: 'web-a-copy' } };
    const history = deepFreeze([a1, a2, rev('b', 3)]);
    const c = chooseUpdateRevision(history, (n) => rev('a', 4, n), 0, { equal: dataOnly });
    expect(c).toEqual({ kind: 'reuse', old: history[1], collisionCount: 0 });
  });

  it('without taken a clash never yields existing: the count goes up as before', () => {
    // A contrived candidateFor whose count-1 candidate equals the clashing revision.
    const r = rev('a', 1);
    const name = r.metadata?.name;
    const candidateFor = (n: number) => (n === 0 ? named(rev('c', 2), name) : n === 1 ? r : rev('c', 2, n));
    const history = deepFreeze([r]);
    const c = chooseUpdateRevision(history, candidateFor, 0, { equal: dataOnly });
    expect(c).toEqual({ kind: 'create', revision: rev('c', 2, 2), collisionCount: 2 });
    const withTaken = chooseUpdateRevision(history, candidateFor, 0, { equal: dataOnly, taken: history });
    expect(withTaken).toEqual({ kind: 'existing', revision: r, collisionCount: 1 });
  });
});
