// The two NodeImage runners through an in-memory reader (daemon.md §5): by NodeImage (spec and
// status upkeep; a Node change and a deleted ImagePullJob enqueue it) and by Node (it creates a
// missing NodeImage after the creation delay, and does nothing while the NodeImage exists).
import { describe, expect, it } from 'vitest';
import {
  nodeImageFromNodeDescriptor as byNode,
  nodeImageDescriptor as d,
  type NodeObject,
  reconcileNodeImage,
} from '../src/index';
import { admissionEnv, asObject, deepFreeze, ENV, memoryReader } from './descriptors.support';
import { at, ipj, node, nodeImage, nodeImageWithTag, T0 } from './fixtures';

describe('nodeImageDescriptor (by NodeImage)', () => {
  const n1 = deepFreeze(node('n1'));
  const ni = deepFreeze(nodeImage('n1'));
  const tagged = deepFreeze(nodeImageWithTag('n1', { owners: ['job-uid'] }));
  const job = deepFreeze(ipj());

  it('reconciles its node name with the Node and every ImagePullJob, as a hand-built input would', () => {
    const got = d.reconcile(tagged, memoryReader([n1, tagged, job]), at(60), undefined, ENV);
    expect(got).toEqual(
      reconcileNodeImage(
        { nodeName: 'n1', node: n1, nodeImage: tagged, imagePullJobs: [job], now: at(60) },
        { seed: ENV.seed },
      ),
    );
  });

  it('reads the NodeImage and its Node', () => {
    expect(d.readSet(ni, memoryReader([n1, ni])).map((o) => o.kind)).toEqual(['NodeImage', 'Node']);
    expect(d.readSet(ni, memoryReader([ni]))).toEqual([ni]);
  });

  it('§5.2: a Node change enqueues its NodeImage (by name alone when a shell queues names)', () => {
    expect(d.enqueueFor?.(asObject(n1), memoryReader([n1, ni]))).toEqual([ni]);
    expect(d.enqueueFor?.(asObject(n1), memoryReader([n1])).map((o) => o.metadata.name)).toEqual(['n1']);
    // A shell that sees changes leaves a missing NodeImage to the runner by Node.
    expect(d.enqueueFor?.(asObject(n1), memoryReader([n1]), { type: 'modified', old: asObject(n1) })).toEqual(
      [],
    );
  });

  it('§5.2 item 3: a deleted ImagePullJob enqueues the NodeImages naming it', () => {
    expect(d.enqueueFor?.(asObject(job), memoryReader([tagged]))).toEqual([tagged]);
    expect(d.enqueueFor?.(asObject(job), memoryReader([job, tagged]))).toEqual([]);
    expect(
      d.enqueueFor?.(asObject(job), memoryReader([job, tagged]), { type: 'deleted', old: asObject(job) }),
    ).toEqual([tagged]);
  });

  it('--nodeimage-creation-delay reaches the reconcile', () => {
    const reader = memoryReader([n1]);
    const late = byNode.reconcile(n1 as NodeObject, reader, at(20), undefined, {
      ...ENV,
      nodeImageCreationDelaySeconds: 10,
    });
    const early = byNode.reconcile(n1 as NodeObject, reader, at(20), undefined, ENV);
    expect(late.actions.map((a) => a.verb)).toContain('create');
    expect(early.actions.map((a) => a.verb)).not.toContain('create');
  });

  it('§3.5: needs KruiseDaemon; admission defaults and validates', () => {
    expect(d.enabled?.({})).toBe(true);
    expect(d.enabled?.({ KruiseDaemon: false })).toBe(false);
    expect(d.admission?.validate?.(ni, admissionEnv([], T0))).toEqual([]);
    expect(d.admission?.default?.(ni, admissionEnv([], T0))).not.toBe(ni);
  });
});

describe('nodeImageFromNodeDescriptor (by Node)', () => {
  const n1 = deepFreeze(node('n1'));
  const ni = deepFreeze(nodeImage('n1'));

  it('is selected as `nodeimage` and logged as NodeImage(node)', () => {
    expect(byNode.selectAs).toBe('nodeimage');
    expect(byNode.logName).toBe('NodeImage(node)');
    expect(byNode.primary).toMatchObject({ apiVersion: 'v1', kind: 'Node' });
  });

  it('§5.2 item 2: creates a missing NodeImage after 30 s Ready; does nothing while it exists', () => {
    const r = byNode.reconcile(n1 as NodeObject, memoryReader([n1]), at(60), undefined, ENV);
    expect(r.actions.map((a) => a.verb)).toContain('create');
    const idle = byNode.reconcile(n1 as NodeObject, memoryReader([n1, ni]), at(60), undefined, ENV);
    expect(idle).toStrictEqual({ actions: [], status: undefined, errors: [], controllerState: undefined });
  });

  it('a deleted NodeImage of a live node enqueues the node', () => {
    expect(byNode.enqueueFor?.(asObject(ni), memoryReader([n1]))).toEqual([n1]);
    expect(byNode.enqueueFor?.(asObject(ni), memoryReader([n1, ni]))).toEqual([]);
    expect(byNode.enqueueFor?.(asObject(ni), memoryReader([]))).toEqual([]);
    expect(
      byNode.enqueueFor?.(asObject(ni), memoryReader([n1, ni]), { type: 'deleted', old: asObject(ni) }),
    ).toEqual([n1]);
  });
});
