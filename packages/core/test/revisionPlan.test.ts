// planControllerRevisions: the revision plan CloneSet and Advanced StatefulSet share (CloneSet:
// docs/reference/cloneset.md §12, docs/reference/statefulset.md R4.4): use the newest revision when it matches, renumber an older
// matching one (rollback), else create the candidate; the current revision is the one the status names.
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import { describe, expect, it } from 'vitest';
import { planControllerRevisions } from '../src';
import { deepFreeze } from '../src/testing';

const rev = (name: string, revision: number, image: string): ControllerRevision => ({
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  metadata: { name, namespace: 'default' },
  revision,
  data: { spec: { template: { spec: { containers: [{ name: 'main', image }] } } } },
});

/** The candidate for `image`: named after the image (and the collision count when > 0). */
const candidateOf = (image: string) => (next: number, collisions: number) =>
  rev(`web-${image.replace(/[^a-z0-9]/g, '')}${collisions > 0 ? `-${collisions}` : ''}`, next, image);

const reuse = (old: ControllerRevision, next: number) => ({
  revision: { ...old, revision: next },
  action: {
    verb: 'event' as const,
    involvedObject: { apiVersion: 'v1', kind: 'X', name: 'x' },
    type: 'Normal' as const,
    reason: 'Renumber',
    message: String(next),
  },
});

const history = deepFreeze([rev('web-a1', 1, 'a:1'), rev('web-b1', 2, 'b:1')]);

describe('planControllerRevisions', () => {
  it('the newest revision matches the template: used as is, nothing to write', () => {
    const p = planControllerRevisions(history, {
      candidateFor: candidateOf('b:1'),
      collisionCount: 0,
      reuse,
    });
    expect(p.updateRevision.metadata?.name).toBe('web-b1');
    expect(p.actions).toEqual([]);
    expect(p.currentRevision.metadata?.name).toBe('web-b1');
  });

  it('an older revision matches (rollback): the controller renumbers it to next; history re-sorted', () => {
    const p = planControllerRevisions(history, {
      candidateFor: candidateOf('a:1'),
      collisionCount: 0,
      currentRevisionName: 'web-b1',
      reuse,
    });
    expect(p.updateRevision).toMatchObject({ metadata: { name: 'web-a1' }, revision: 3 });
    expect(p.actions.map((a) => a.reason)).toEqual(['Renumber']);
    expect(p.revisions.map((r) => `${r.metadata?.name}#${r.revision}`)).toEqual(['web-b1#2', 'web-a1#3']);
    expect(p.currentRevision.metadata?.name).toBe('web-b1');
  });

  it('no revision matches: the candidate numbered next is created; current falls back to it', () => {
    const p = planControllerRevisions(history, {
      candidateFor: candidateOf('c:1'),
      collisionCount: 0,
      currentRevisionName: 'gone',
      reuse,
    });
    expect(p.actions).toEqual([{ verb: 'create', object: p.updateRevision, reason: 'CreateRevision' }]);
    expect(p.updateRevision).toMatchObject({ metadata: { name: 'web-c1' }, revision: 3 });
    expect(p.revisions).toHaveLength(3);
    expect(p.currentRevision).toBe(p.updateRevision);
  });

  it('a name clash with other data raises the collision count', () => {
    const clash = deepFreeze([rev('web-c1', 1, 'other')]);
    const p = planControllerRevisions(clash, { candidateFor: candidateOf('c:1'), collisionCount: 0, reuse });
    expect(p.collisionCount).toBe(1);
    expect(p.updateRevision.metadata?.name).toBe('web-c1-1');
  });
});
