// docs/reference/daemonset.md §12 revisions.
import type { DaemonSet } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import { describe, expect, it } from 'vitest';
import { cleanupHistory, constructHistory, newDaemonSetRevision, reconcileDaemonSet } from '../src';
import { iso, makeDaemonSet, makePod } from './helpers';

const withImage = (image: string, extra: Partial<Parameters<typeof makeDaemonSet>[0]> = {}) =>
  makeDaemonSet({ image, ...extra });

function rev(ds: DaemonSet, revision: number, collision = 0): ControllerRevision {
  return newDaemonSetRevision(ds, collision, revision);
}

describe('§12 revisions', () => {
  it('12.1/12.3: none matching → create <ds>-<hash> with revision max(old)+1, labels and annotations', () => {
    const v1 = withImage('a');
    const v2 = withImage('b', { annotations: { note: 'x' } });
    const plan = constructHistory(deepFreeze(v2), deepFreeze([rev(v1, 4)]), []);
    const created = plan.actions.find((a) => a.verb === 'create') as any;
    expect(created.reason).toBe('CreateRevision');
    expect(created.object.metadata.name).toBe(`foo-${plan.hash}`);
    expect(created.object.revision).toBe(5);
    expect(created.object.metadata.labels).toEqual({ app: 'foo', 'controller-revision-hash': plan.hash });
    expect(created.object.metadata.annotations).toEqual({ note: 'x' });
    expect(created.object.data).toEqual({ spec: { template: { ...v2.spec.template, $patch: 'replace' } } });
    expect(plan.old).toHaveLength(1);
  });

  it('12.4: equal template ⇒ equal hash; strategy / minReadySeconds changes create no revision', () => {
    const a = withImage('a');
    const b = {
      ...withImage('a', { minReadySeconds: 30 }),
      spec: { ...withImage('a').spec, updateStrategy: { type: 'OnDelete' as const } },
    };
    const plan = constructHistory(b, [rev(a, 1)], []);
    expect(plan.actions).toEqual([]);
    expect(plan.hash).toBe(constructHistory(a, [], []).hash);
  });

  it('12.2: a revision without the hash label gets it set to its name', () => {
    const ds = withImage('a');
    const r = rev(ds, 1);
    const { 'controller-revision-hash': _, ...labels } = r.metadata!.labels!;
    const unlabelled = { ...r, metadata: { ...r.metadata, labels } };
    const plan = constructHistory(ds, [unlabelled], []);
    expect(plan.hash).toBe(r.metadata!.name);
    expect(plan.actions[0]).toMatchObject({
      verb: 'patch',
      patch: { metadata: { labels: { 'controller-revision-hash': r.metadata!.name } } },
    });
  });

  it('12.3: several matching → keep the highest revision, relabel pods of the others, delete the others', () => {
    const ds = withImage('a');
    const keep = rev(ds, 3);
    const dup = { ...rev(ds, 2, 9), data: keep.data };
    const pod = makePod(ds, 'p', 'n1', dup.metadata!.labels!['controller-revision-hash']);
    const plan = constructHistory(ds, [dup, keep], [pod]);
    expect(plan.hash).toBe(keep.metadata!.labels!['controller-revision-hash']);
    expect(plan.actions.map((a) => `${a.verb}:${a.reason}`)).toEqual([
      'patch:RelabelPod',
      'delete:DeleteRevision',
    ]);
    expect(plan.relabelled.get('p')).toBe(plan.hash);
  });

  it('12.3 rollback: the kept matching revision is renumbered to max(old)+1', () => {
    const a = withImage('a');
    const b = withImage('b');
    const plan = constructHistory(a, [rev(a, 1), rev(b, 2)], []);
    expect(plan.actions).toEqual([
      expect.objectContaining({ verb: 'patch', patch: { revision: 3 }, reason: 'UpdateRevision' }),
    ]);
    expect(plan.current.revision).toBe(3);
  });

  it('12.3 collision: a name taken by different data bumps collisionCount', () => {
    const ds = withImage('a');
    const squatter = {
      ...rev(ds, 1),
      data: { spec: { template: { other: true } } } as any,
      metadata: { ...rev(ds, 1).metadata, ownerReferences: [] },
    };
    const plan = constructHistory(ds, [squatter], []);
    expect(plan.collisionCount).toBe(1);
    expect(plan.hash).not.toBe(squatter.metadata!.labels!['controller-revision-hash']);
    const r = reconcileDaemonSet({ daemonSet: ds, nodes: [], pods: [], revisions: [squatter], now: iso(1) });
    expect(r.status.collisionCount).toBe(1);
  });

  it('12.5 cleanup: limit 2, old revisions 1..5, a pod still on revision 2 → delete 1, 3, 4', () => {
    const ds = withImage('cur', { revisionHistoryLimit: 2 });
    const old = [1, 2, 3, 4, 5].map((i) => rev(withImage(`img${i}`), i));
    const pod = makePod(ds, 'p', 'n', old[1].metadata!.labels!['controller-revision-hash']);
    const deleted = cleanupHistory(ds, old, [pod]).map((a: any) => a.target.name);
    expect(deleted).toEqual([old[0], old[2], old[3]].map((r) => r.metadata!.name));
  });

  it('12.5: the default limit is 10', () => {
    const ds = withImage('cur');
    const old = Array.from({ length: 11 }, (_, i) => rev(withImage(`img${i}`), i + 1));
    expect(cleanupHistory(ds, old, [])).toHaveLength(1);
  });

  it('revisions owned by another controller or not matching the selector are not claimed', () => {
    const ds = withImage('a');
    const foreign = {
      ...rev(ds, 1),
      metadata: {
        ...rev(ds, 1).metadata,
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'x', uid: 'other', controller: true },
        ],
      },
    };
    expect(constructHistory(ds, [foreign], []).old).toEqual([]);
  });
});
