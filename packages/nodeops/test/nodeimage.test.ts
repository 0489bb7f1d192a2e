import { type NodeImage, type NodeImageStatus, setDefaultsNodeImage } from '@kruise-ts/api';
import type { EventAction, UpdateAction, UpdateStatusAction } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { reconcileNodeImage } from '../src/nodeimage/reconcile';
import { validateNodeImage } from '../src/nodeimage/validation';
import { at, ipj, node, nodeImage, nodeImageWithTag, T0 } from './fixtures';

const job = ipj();
const run = (input: Partial<Parameters<typeof reconcileNodeImage>[0]>, now = T0, seed = 1) =>
  reconcileNodeImage(deepFreeze({ node: node('n1'), imagePullJobs: [job], now, ...input }), { seed });
const specUpdate = (r: ReturnType<typeof run>) =>
  (r.actions.find((a) => a.verb === 'update') as UpdateAction | undefined)?.object as NodeImage | undefined;
const statusWrite = (r: ReturnType<typeof run>) => {
  const a = r.actions.find((x) => x.verb === 'updateStatus') as UpdateStatusAction | undefined;
  return a && { ...a, status: a.status as NodeImageStatus };
};

describe('§5.1 NodeImage defaults and validation', () => {
  it('5.1.2 defaults: createdAt = now, pullPolicy {600, 3}, tags sorted', () => {
    const ni = nodeImage('n1');
    ni.spec = { images: { nginx: { tags: [{ tag: 'b' }, { tag: 'a' }] } } };
    const d = setDefaultsNodeImage(deepFreeze(ni), { now: T0 });
    expect(d.spec.images?.nginx.tags).toEqual([
      { tag: 'a', createdAt: T0, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } },
      { tag: 'b', createdAt: T0, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } },
    ]);
  });
  const withTag = (tag: Record<string, unknown>) => {
    const ni = nodeImage('n1');
    ni.spec = {
      images: {
        nginx: {
          tags: [
            {
              tag: '1',
              createdAt: T0,
              version: 0,
              pullPolicy: { ttlSecondsAfterFinished: 10 },
              ...tag,
            } as never,
          ],
        },
      },
    };
    return validateNodeImage(deepFreeze(ni));
  };
  it('5.1.3 a valid tag passes', () => expect(withTag({})).toEqual([]));
  it('5.1.3 more than 256 images are rejected', () => {
    const ni = nodeImage('n1');
    const images: NonNullable<NodeImage['spec']['images']> = {};
    for (let i = 0; i < 257; i++) images[`img${i}`] = { tags: [] };
    ni.spec = { images };
    expect(validateNodeImage(ni)[0].field).toBe('spec.images');
  });
  it('5.1.3 an empty image name is rejected', () => {
    const ni = nodeImage('n1');
    ni.spec = { images: { '': { tags: [] } } };
    expect(validateNodeImage(ni)).toHaveLength(1);
  });
  it('5.1.3 an empty or duplicated tag is rejected', () => {
    expect(withTag({ tag: '' })[0].field).toBe('spec.images[nginx].tags[0].tag');
    const ni = nodeImage('n1');
    const t = { tag: '1', createdAt: T0, pullPolicy: { ttlSecondsAfterFinished: 1 } };
    ni.spec = { images: { nginx: { tags: [t, { ...t }] } } };
    expect(validateNodeImage(ni)[0]).toMatchObject({
      type: 'FieldValueDuplicate',
      field: 'spec.images[nginx].tags[1].tag',
    });
  });
  it('5.1.3 a tag without createdAt, with version < 0, without pullPolicy or its TTL is rejected', () => {
    expect(withTag({ createdAt: undefined })[0].field).toMatch(/createdAt$/);
    expect(withTag({ version: -1 })[0].field).toMatch(/version$/);
    expect(withTag({ pullPolicy: undefined })[0].field).toMatch(/pullPolicy$/);
    expect(withTag({ pullPolicy: {} })[0].field).toMatch(/ttlSecondsAfterFinished$/);
  });
});

describe('§5.2 lifecycle', () => {
  it('5.2.1 node missing or deleting → delete the NodeImage', () => {
    expect(run({ node: undefined, nodeImage: nodeImage('n1') }).actions).toEqual([
      {
        verb: 'delete',
        target: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', name: 'n1' },
        reason: 'NodeGone',
      },
    ]);
    const deleting = node('n1');
    deleting.metadata = { ...deleting.metadata, deletionTimestamp: T0 };
    expect(run({ node: deleting, nodeImage: nodeImage('n1') }).actions).toHaveLength(1);
  });
  it('5.2.1 a fake NodeImage (apps.kruise.io/fake-nodeimage) is kept without its node', () => {
    expect(
      run({ node: undefined, nodeImage: nodeImage('n1', { 'apps.kruise.io/fake-nodeimage': 'true' }) })
        .actions,
    ).toEqual([]);
  });
  it('5.2.2 missing NodeImage: created once the node has been Ready for 30 s, requeue before', () => {
    const early = run({ node: node('n1', { since: at(-20) }) });
    expect(early.actions).toEqual([]);
    expect(early.requeueAfterSeconds).toBe(10);
    const r = run({ node: node('n1', { since: at(-30) }) });
    expect(r.actions).toEqual([
      {
        verb: 'create',
        object: {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'NodeImage',
          metadata: { name: 'n1' },
          spec: {},
        },
        reason: 'CreateNodeImage',
      },
    ]);
  });
  it('5.2.2 a node that is not Ready gets no NodeImage and no requeue; nor does a virtual-kubelet node', () => {
    const notReady = run({ node: node('n1', { ready: false }) });
    expect(notReady.actions).toEqual([]);
    expect(notReady.requeueAfterSeconds).toBeUndefined();
    expect(run({ node: node('n1', { labels: { type: 'virtual-kubelet' } }) }).actions).toEqual([]);
  });
});

describe('§5.3 spec maintenance', () => {
  it('5.3.1 labels are copied from the node', () => {
    const r = run({ node: node('n1', { labels: { zone: 'a' } }), nodeImage: nodeImage('n1', { old: 'x' }) });
    expect(specUpdate(r)?.metadata.labels).toEqual({ zone: 'a' });
  });
  const ni = (
    tag: Parameters<typeof nodeImageWithTag>[1],
    status?: Parameters<typeof nodeImageWithTag>[2],
  ) => {
    const n = nodeImageWithTag('n1', tag, status);
    n.metadata.labels = { 'kubernetes.io/hostname': 'n1' };
    return n;
  };
  it('5.3.2 a tag without createdAt is dropped (and then the empty image)', () => {
    expect(specUpdate(run({ nodeImage: ni({ createdAt: undefined }) }))?.spec.images).toEqual({});
  });
  it('5.3.2 owners whose job is missing or has another UID are pruned; an emptied tag is dropped', () => {
    expect(specUpdate(run({ nodeImage: ni({ owners: ['stale-uid'] }) }))?.spec.images).toEqual({});
    const two = ni({ owners: ['job-uid', 'x'] });
    two.spec!.images!.nginx.tags[0].ownerReferences![1] = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'ImagePullJob',
      name: 'gone',
      namespace: 'default',
      uid: 'x',
    };
    expect(
      specUpdate(run({ nodeImage: two }))?.spec.images?.nginx.tags[0].ownerReferences?.map((o) => o.uid),
    ).toEqual(['job-uid']);
  });
  it('5.3.2 owner references of other kinds are kept; a tag that never had owners is kept', () => {
    const other = ni({ owners: [] });
    other.spec!.images!.nginx.tags[0].ownerReferences = [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'c' },
    ];
    expect(specUpdate(run({ nodeImage: other }))).toBeUndefined();
    expect(specUpdate(run({ nodeImage: ni({ owners: [] }) }))).toBeUndefined();
  });
  it('5.3.2 without the job list, owners are left alone', () => {
    const r = reconcileNodeImage(
      deepFreeze({ node: node('n1'), nodeImage: ni({ owners: ['stale'] }), now: T0 }),
    );
    expect(specUpdate(r)).toBeUndefined();
  });
  it('5.3.2 TTL: a tag is dropped once now − completionTime (same version) ≥ ttl, else requeued', () => {
    const done = (s: number) =>
      ni({ pullPolicy: { ttlSecondsAfterFinished: 100 } }, { phase: 'Succeeded', completionTime: at(s) });
    expect(specUpdate(run({ nodeImage: done(-100) }))?.spec.images).toEqual({});
    const waiting = run({ nodeImage: done(-40) });
    expect(specUpdate(waiting)).toBeUndefined();
    expect(waiting.requeueAfterSeconds).toBe(60);
    const otherVersion = ni(
      { version: 2, pullPolicy: { ttlSecondsAfterFinished: 100 } },
      { phase: 'Succeeded', completionTime: at(-500), version: 1 },
    );
    expect(specUpdate(run({ nodeImage: otherVersion }))).toBeUndefined();
  });
  it('5.3.3 a spec change is written and the status step waits for the next reconcile', () => {
    const r = run({ nodeImage: ni({ createdAt: undefined }, { phase: 'Pulling' }) });
    expect(r.actions.map((a) => a.verb)).toEqual(['update']);
  });
});

describe('§5.4 status supervision', () => {
  const ni = (
    tag: Parameters<typeof nodeImageWithTag>[1],
    status?: Parameters<typeof nodeImageWithTag>[2],
  ) => {
    const n = nodeImageWithTag('n1', { createdAt: at(-60), ...tag }, status);
    n.metadata.labels = { 'kubernetes.io/hostname': 'n1' };
    return n;
  };
  it('5.4.1.1 no status tag of the same version: wait for 10 min after createdAt', () => {
    const r = run({ nodeImage: ni({}) });
    expect(r.actions).toEqual([]);
    expect(r.requeueAfterSeconds).toBe(540);
  });
  it('5.4.1.1 after 10 min: Failed, "node has not responded for a long time", events to owners and the NodeImage', () => {
    const r = run({
      nodeImage: ni(
        { createdAt: at(-600), version: 3 },
        { phase: 'Succeeded', version: 2, startTime: at(-900) },
      ),
    });
    expect(statusWrite(r)?.status).toEqual({
      desired: 1,
      pulling: 0,
      succeeded: 0,
      failed: 1,
      imageStatuses: {
        nginx: {
          tags: [
            {
              tag: '1.25',
              phase: 'Failed',
              completionTime: T0,
              version: 3,
              message: 'node has not responded for a long time',
            },
          ],
        },
      },
    });
    const events = r.actions.filter((a) => a.verb === 'event') as EventAction[];
    expect(events.map((e) => e.involvedObject.kind)).toEqual(['ImagePullJob', 'NodeImage']);
    expect(events[0]).toMatchObject({
      type: 'Warning',
      reason: 'PullImageFailed',
      message: 'Failed to pull image nginx:1.25 on node n1 for node has not responded for a long time',
    });
  });
  it('5.4.1.2 deadline: a tag still running at createdAt + activeDeadlineSeconds + 10 min fails', () => {
    const tag = {
      createdAt: at(-1000),
      pullPolicy: { ttlSecondsAfterFinished: 9, activeDeadlineSeconds: 300 },
    };
    const early = run({ nodeImage: ni(tag, { phase: 'Pulling', startTime: at(-990) }) }, at(-200));
    expect(early.actions).toEqual([]);
    expect(early.requeueAfterSeconds).toBe(100);
    const r = run({ nodeImage: ni(tag, { phase: 'Pulling', startTime: at(-990) }) }, at(-100));
    expect(statusWrite(r)?.status.imageStatuses?.nginx.tags[0]).toEqual({
      tag: '1.25',
      phase: 'Failed',
      startTime: at(-990),
      completionTime: at(-100),
      version: 0,
      message: 'pulling exceeds the activeDeadlineSeconds',
    });
  });
  it('5.4.2 no change → no write; a change drops status entries not in the spec and recounts', () => {
    expect(run({ nodeImage: ni({}, { phase: 'Succeeded', completionTime: at(-1) }) }).actions).toEqual([]);
    const extra = ni({ createdAt: at(-700) });
    extra.status = {
      desired: 5,
      imageStatuses: {
        gone: { tags: [{ tag: 'x', phase: 'Succeeded' }] },
        nginx: { tags: [{ tag: 'old', phase: 'Pulling' }] },
      },
    };
    const st = statusWrite(run({ nodeImage: extra }))?.status;
    expect(st?.imageStatuses).toEqual({
      nginx: { tags: [expect.objectContaining({ tag: '1.25', phase: 'Failed' })] },
    });
    expect(st).toMatchObject({ desired: 1, failed: 1, succeeded: 0, pulling: 0 });
  });
  it('5.4.3 a wait below 3 s becomes 3 s + uniform[0,2) s', () => {
    for (let seed = 0; seed < 20; seed++) {
      const r = run({ nodeImage: ni({ createdAt: at(-599) }) }, T0, seed);
      expect(r.requeueAfterSeconds).toBeGreaterThanOrEqual(3);
      expect(r.requeueAfterSeconds).toBeLessThan(5);
    }
  });
});
