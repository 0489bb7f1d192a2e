// §9 (revisions) and §10 (status helpers) of docs/reference/uniteddeployment.md.
import type { Action } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import { describe, expect, it } from 'vitest';
import {
  calculateStatus,
  hashRevision,
  LABEL_CONTROLLER_HASH,
  labelSelectorString,
  manageRevisions,
  revisionData,
  revisionDataBytes,
  revisionName,
  type SubsetKind,
  setUDCondition,
  sortRevisions,
  statusUnchanged,
  TEMPLATE_FIELD,
  type UnitedDeploymentObject,
} from '../src/index';

const NOW = '2024-01-01T00:00:00Z';

function ud(
  image: string,
  kind: SubsetKind = 'StatefulSet',
  status: any = {},
  limit = 10,
): UnitedDeploymentObject {
  return deepFreeze({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'UnitedDeployment',
    metadata: { name: 'web', namespace: 'ns', uid: 'u1' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        [TEMPLATE_FIELD[kind]]: {
          metadata: { labels: { app: 'web' } },
          spec: {
            template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } },
          },
        },
      },
      topology: { subsets: [{ name: 'a' }] },
      revisionHistoryLimit: limit,
    },
    status,
  }) as UnitedDeploymentObject;
}

function created(actions: Action[]): ControllerRevision[] {
  return actions.filter((a) => a.verb === 'create').map((a) => (a as any).object);
}

/** An independent FNV-1 (32-bit) reference with BigInt arithmetic. */
function fnv1Reference(text: string): bigint {
  let h = 2166136261n;
  for (const b of new TextEncoder().encode(text)) h = ((h * 16777619n) % 2n ** 32n) ^ BigInt(b);
  return h;
}

describe('§9.1 revision content', () => {
  it('stores only spec.template with $patch: replace', () => {
    const u = ud('nginx:1');
    expect(revisionData(u)).toEqual({ spec: { template: { ...u.spec.template, $patch: 'replace' } } });
    expect(
      revisionDataBytes(revisionData(u)).startsWith(
        '{"spec":{"template":{"$patch":"replace","statefulSetTemplate"',
      ),
    ).toBe(true);
  });
  it('replicas, topology and strategies do not change the revision; the template does', () => {
    const a = ud('nginx:1');
    const b = {
      ...a,
      spec: { ...a.spec, replicas: 9, topology: { subsets: [{ name: 'z', patch: { x: 1 } }] } },
    };
    expect(revisionDataBytes(revisionData(b))).toBe(revisionDataBytes(revisionData(a)));
    expect(revisionDataBytes(revisionData(ud('nginx:2')))).not.toBe(revisionDataBytes(revisionData(a)));
  });
  it('data given as raw JSON text equals the same data as an object', () => {
    const data = revisionData(ud('nginx:1'));
    expect(revisionDataBytes(JSON.stringify(data, null, 2))).toBe(revisionDataBytes(data));
  });
});

describe('§9.4 hash and name', () => {
  it('FNV-1 32-bit over data bytes + decimal collisionCount, safe-encoded', () => {
    const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
    for (const [data, cc] of [
      ['{"a":1}', 0],
      ['x', 7],
      ['', 12],
    ] as const) {
      const want = [...String(fnv1Reference(`${data}${cc}`))]
        .map((c) => alphabet[c.charCodeAt(0) % 27])
        .join('');
      expect(hashRevision(data, cc)).toBe(want);
    }
  });
  it('equal data ⇒ same name; another collisionCount ⇒ another name', () => {
    expect(hashRevision('d', 0)).toBe(hashRevision('d', 0));
    expect(hashRevision('d', 0)).not.toBe(hashRevision('d', 1));
  });
  it('the name prefix is cut to 223 characters', () => {
    expect(revisionName('x'.repeat(300), 'h')).toBe(`${'x'.repeat(223)}-h`);
  });
});

describe('§9.2 sort', () => {
  it('by revision, then older creationTimestamp, then name', () => {
    const r = (name: string, revision: number, t: string): ControllerRevision => ({
      metadata: { name, creationTimestamp: t },
      revision,
    });
    const list = [
      r('c', 2, '2024-01-02T00:00:00Z'),
      r('b', 2, '2024-01-01T00:00:00Z'),
      r('a', 3, '2024-01-01T00:00:00Z'),
      r('d', 2, '2024-01-01T00:00:00Z'),
    ];
    expect(sortRevisions(list).map((x) => x.metadata?.name)).toEqual(['b', 'd', 'c', 'a']);
  });
});

describe('§9.3–9.7 manageRevisions', () => {
  it('first reconcile creates revision 1 with the template labels, the hash label and an owner reference', () => {
    const out = manageRevisions(ud('nginx:1'), 'StatefulSet', []);
    const [rev] = created(out.actions);
    expect(rev.revision).toBe(1);
    expect(rev.metadata?.labels).toEqual({
      app: 'web',
      [LABEL_CONTROLLER_HASH]: rev.metadata?.name?.slice('web-'.length),
    });
    expect(rev.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'UnitedDeployment',
      name: 'web',
      controller: true,
    });
    expect(out.updatedRevision.metadata?.name).toBe(rev.metadata?.name);
    expect(out.currentRevision.metadata?.name).toBe(rev.metadata?.name);
  });
  it('an equal latest revision is used as is', () => {
    const [r1] = created(manageRevisions(ud('nginx:1'), 'StatefulSet', []).actions);
    const out = manageRevisions(ud('nginx:1'), 'StatefulSet', [r1]);
    expect(out.actions).toEqual([]);
    expect(out.updatedRevision.metadata?.name).toBe(r1.metadata?.name);
  });
  it('rollback: an equal but older revision gets the next revision number', () => {
    const [r1] = created(manageRevisions(ud('nginx:1'), 'StatefulSet', []).actions);
    const [r2] = created(manageRevisions(ud('nginx:2'), 'StatefulSet', [r1]).actions);
    expect(r2.revision).toBe(2);
    const out = manageRevisions(
      ud('nginx:1', 'StatefulSet', { currentRevision: r2.metadata?.name }),
      'StatefulSet',
      [r1, r2],
    );
    expect(out.actions).toHaveLength(1);
    expect(out.actions[0]).toMatchObject({ verb: 'update', reason: 'RollbackRevision' });
    expect((out.actions[0] as any).object.revision).toBe(3);
    expect(out.updatedRevision.metadata?.name).toBe(r1.metadata?.name);
    expect(out.currentRevision.metadata?.name).toBe(r2.metadata?.name);
  });
  it('cleanup beyond revisionHistoryLimit skips live revisions, then truncates the list (Q7)', () => {
    const revs: ControllerRevision[] = [];
    for (const img of ['v1', 'v2', 'v3', 'v4'])
      revs.push(...created(manageRevisions(ud(img), 'StatefulSet', revs).actions));
    // limit 2: exceed 2 → r1 (live: currentRevision) skipped, r2 deleted; list keeps r3, r4
    const status = {
      currentRevision: revs[0].metadata?.name,
      updateStatus: { updatedRevision: revs[3].metadata?.name },
    };
    const out = manageRevisions(ud('v4', 'StatefulSet', status, 2), 'StatefulSet', revs);
    expect(out.actions.filter((a) => a.verb === 'delete').map((a) => (a as any).target.name)).toEqual([
      revs[1].metadata?.name,
    ]);
    expect(out.updatedRevision.metadata?.name).toBe(revs[3].metadata?.name);
    // r1 was dropped from the in-memory list without being deleted: current falls back to updated
    expect(out.currentRevision.metadata?.name).toBe(revs[3].metadata?.name);
  });
  it('Q8: cloneSetTemplate revisions carry no template labels and are found by name, not listed', () => {
    const [r1] = created(manageRevisions(ud('nginx:1', 'CloneSet'), 'CloneSet', []).actions);
    expect(Object.keys(r1.metadata?.labels ?? {})).toEqual([LABEL_CONTROLLER_HASH]);
    const again = manageRevisions(ud('nginx:1', 'CloneSet'), 'CloneSet', [r1]);
    expect(again.actions).toEqual([]);
    expect(again.updatedRevision.metadata?.name).toBe(r1.metadata?.name);
  });
  it('a name collision with other data bumps the local collisionCount (not persisted, Q3)', () => {
    const [r1] = created(manageRevisions(ud('nginx:1'), 'StatefulSet', []).actions);
    const impostor = { ...r1, metadata: { ...r1.metadata, labels: {} }, data: { other: true } };
    const out = manageRevisions(ud('nginx:1'), 'StatefulSet', [impostor]);
    const [rev] = created(out.actions);
    expect(out.collisionCount).toBe(1);
    expect(rev.metadata?.name).not.toBe(r1.metadata?.name);
  });
});

describe('§10 status helpers', () => {
  it('condition: same status and reason → unchanged (message kept)', () => {
    const c = [
      {
        type: 'SubsetProvisioned',
        status: 'True',
        lastTransitionTime: '2020-01-01T00:00:00Z',
        message: 'old',
      },
    ];
    expect(setUDCondition(c, { type: 'SubsetProvisioned', status: 'True', message: 'new' }, NOW)).toEqual(c);
  });
  it('condition: same status, other reason → lastTransitionTime kept', () => {
    const c = [{ type: 'X', status: 'True', reason: 'a', lastTransitionTime: '2020-01-01T00:00:00Z' }];
    expect(setUDCondition(c, { type: 'X', status: 'True', reason: 'b' }, NOW)).toEqual([
      { type: 'X', status: 'True', reason: 'b', lastTransitionTime: '2020-01-01T00:00:00Z' },
    ]);
  });
  it('condition: new status → lastTransitionTime = now', () => {
    const c = [{ type: 'X', status: 'True', lastTransitionTime: '2020-01-01T00:00:00Z' }];
    expect(setUDCondition(c, { type: 'X', status: 'False', reason: 'Error' }, NOW)[0]).toEqual({
      type: 'X',
      status: 'False',
      reason: 'Error',
      lastTransitionTime: NOW,
    });
  });
  it('labelSelector string form', () => {
    expect(labelSelectorString({ matchLabels: { name: 'foo' } })).toBe('name=foo');
    expect(
      labelSelectorString({
        matchLabels: { z: '1' },
        matchExpressions: [
          { key: 'a', operator: 'In', values: ['y', 'x'] },
          { key: 'b', operator: 'DoesNotExist' },
        ],
      }),
    ).toBe('a in (x,y),!b,z=1');
  });
  it('currentRevision moves to the updated revision once updatedReadyReplicas ≥ replicas', () => {
    const u = ud('x', 'StatefulSet', { currentRevision: 'r1' });
    const subset = (replicas: number, updatedReady: number) =>
      ({
        status: {
          observedGeneration: 1,
          replicas,
          readyReplicas: replicas,
          updatedReplicas: updatedReady,
          updatedReadyReplicas: updatedReady,
        },
      }) as any;
    const base = { currentRevision: 'r1' };
    const args = {
      nextReplicas: { a: 5 },
      nextPartitions: { a: 0 },
      currentRevision: 'r1',
      expectedRevision: 'r2',
      conditions: [],
    };
    expect(calculateStatus(u, { base, subsets: [subset(2, 2), subset(3, 2)], ...args }).currentRevision).toBe(
      'r1',
    );
    const s = calculateStatus(u, { base, subsets: [subset(2, 2), subset(3, 3)], ...args });
    expect(s).toMatchObject({
      replicas: 5,
      readyReplicas: 5,
      updatedReplicas: 5,
      updatedReadyReplicas: 5,
      currentRevision: 'r2',
    });
    expect(s.updateStatus).toEqual({ updatedRevision: 'r2', currentPartitions: { a: 0 } });
    expect(s.labelSelector).toBe('app=web');
  });
  it('write-skip: equal status and generation == observedGeneration → unchanged; a new generation → write', () => {
    const status = { replicas: 1, observedGeneration: 3, subsetReplicas: { a: 1 } };
    const u = { ...ud('x'), metadata: { name: 'web', generation: 3 } } as UnitedDeploymentObject;
    expect(statusUnchanged(u, status, { ...status })).toBe(true);
    expect(statusUnchanged({ ...u, metadata: { name: 'web', generation: 4 } }, status, { ...status })).toBe(
      false,
    );
    expect(statusUnchanged(u, status, { ...status, subsetReplicas: { a: 2 } })).toBe(false);
  });
});
