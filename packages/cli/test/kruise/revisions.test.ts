// The pure parts of `rollout history` and `rollout undo`: which revisions a workload owns and in
// what order, the REVISION/CHANGE-CAUSE table, and the revision undo goes back to.
import { describe, expect, it } from 'vitest';
import {
  chooseUndo,
  describeTemplate,
  historyTable,
  ownedRevisions,
  sameTemplate,
} from '../../src/commands/kruise/revisions';

const template = (image: string) => ({
  metadata: { labels: { app: 'sample' } },
  spec: { containers: [{ name: 'nginx', image }] },
});

function rev(name: string, revision: number, image: string, extra: Record<string, unknown> = {}) {
  return {
    metadata: {
      name,
      creationTimestamp: '2024-05-01T10:00:00Z',
      ownerReferences: [{ controller: true, uid: 'u1' }],
      ...extra,
    },
    revision,
    data: { spec: { template: { ...template(image), $patch: 'replace' } } },
  };
}

describe('ownedRevisions and historyTable', () => {
  it('keeps the revisions the workload controls, ordered by number, time, name', () => {
    const other = {
      ...rev('other', 1, 'x'),
      metadata: { name: 'other', ownerReferences: [{ controller: true, uid: 'u2' }] },
    };
    const owned = ownedRevisions([rev('b', 2, 'b'), other, rev('a', 1, 'a'), rev('c', 2, 'c')], 'u1');
    expect(owned.map((r) => r.metadata.name)).toEqual(['a', 'b', 'c']);
  });
  it('prints REVISION and CHANGE-CAUSE (the kubernetes.io/change-cause annotation) and a blank line', () => {
    const revs = [
      rev('a', 1, 'a'),
      rev('b', 12, 'b', { annotations: { 'kubernetes.io/change-cause': 'nginx 1.25' } }),
    ];
    expect(historyTable(revs)).toBe('REVISION  CHANGE-CAUSE\n1         <none>\n12        nginx 1.25\n\n');
  });
});

describe('chooseUndo', () => {
  const revs = [rev('a', 1, 'nginx:alpine'), rev('b', 2, 'nginx:1.25'), rev('c', 3, 'nginx:1.26')];
  it('goes back to the revision before the latest by default', () => {
    expect(chooseUndo(revs, template('nginx:1.26'), 0, 'cloneset "sample"')).toEqual({
      rollback: { revision: 2, template: template('nginx:1.25') },
    });
  });
  it('goes to --to-revision, or skips when the template already matches it', () => {
    expect(chooseUndo(revs, template('nginx:1.26'), 1, 'x')).toEqual({
      rollback: { revision: 1, template: template('nginx:alpine') },
    });
    expect(chooseUndo(revs, template('nginx:1.26'), 3, 'x')).toEqual({ skip: { revision: 3 } });
  });
  it("answers kubectl's errors", () => {
    expect(chooseUndo(revs, template('x'), 7, 'x')).toEqual({
      error: 'unable to find specified revision 7 in history',
    });
    expect(chooseUndo(revs.slice(0, 1), template('x'), 0, 'x')).toEqual({
      error: 'no last revision to roll back to',
    });
    expect(chooseUndo([], template('x'), 0, 'cloneset "sample"')).toEqual({
      error: 'no rollout history found for cloneset "sample"',
    });
    expect(chooseUndo(revs, template('x'), -1, 'x')).toMatchObject({
      error: expect.stringContaining('non-negative'),
    });
  });
  it('compares templates by content, not key order', () => {
    expect(
      sameTemplate({ a: 1, b: { c: [1, { d: 2, e: 3 }] } }, { b: { c: [1, { e: 3, d: 2 }] }, a: 1 }),
    ).toBe(true);
    expect(sameTemplate({ a: 1 }, { a: 2 })).toBe(false);
  });
});

describe('describeTemplate', () => {
  it('prints labels, annotations and each container', () => {
    expect(
      describeTemplate({
        ...template('nginx:1.25'),
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] },
      }),
    ).toBe(
      [
        'Pod Template:',
        '  Labels:       app=sample',
        '  Annotations:  <none>',
        '  Containers:',
        '   nginx:',
        '    Image:        nginx:1.25',
        '    Port:         80/TCP',
        '    Environment:  <none>',
        '',
      ].join('\n'),
    );
  });
});
