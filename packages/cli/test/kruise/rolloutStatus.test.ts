// The pure verdict of `rollout status` for each kind: every branch's message in kubectl's wording
// and whether it ends the wait.
import { describe, expect, it } from 'vitest';
import { resolvePartition, rolloutStatus } from '../../src/commands/kruise/rolloutStatus';
import { findKind } from '../../src/commands/kruise/workloads';

const kind = (t: string) => {
  const k = findKind(t);
  if (!k) throw new Error(t);
  return k;
};

function cloneSet(spec: Record<string, unknown>, status: Record<string, unknown>, generation = 2) {
  return {
    metadata: { name: 'sample', generation },
    spec: { replicas: 5, ...spec },
    status: { observedGeneration: 2, ...status },
  };
}

describe('rolloutStatus: CloneSet', () => {
  const cs = kind('cloneset');
  it('waits for the controller to observe the spec', () => {
    expect(rolloutStatus(cs, cloneSet({}, {}, 3))).toEqual({
      message: 'Waiting for cloneset spec update to be observed...',
      done: false,
    });
    expect(rolloutStatus(cs, { metadata: { name: 'x', generation: 1 }, spec: {} })).toMatchObject({
      done: false,
    });
  });
  it('counts updated replicas, then old ones pending termination, then available ones', () => {
    expect(rolloutStatus(cs, cloneSet({}, { replicas: 5, updatedReplicas: 2 }))).toEqual({
      message:
        'Waiting for cloneset "sample" rollout to finish: 2 out of 5 new replicas have been updated...',
      done: false,
    });
    expect(rolloutStatus(cs, cloneSet({}, { replicas: 6, updatedReplicas: 5 }))).toEqual({
      message: 'Waiting for cloneset "sample" rollout to finish: 1 old replicas are pending termination...',
      done: false,
    });
    expect(
      rolloutStatus(
        cs,
        cloneSet(
          {},
          { replicas: 5, updatedReplicas: 5, updatedReadyReplicas: 4, updatedAvailableReplicas: 3 },
        ),
      ),
    ).toEqual({
      message: 'Waiting for cloneset "sample" rollout to finish: 3 of 5 updated replicas are available...',
      done: false,
    });
    expect(
      rolloutStatus(cs, cloneSet({}, { replicas: 5, updatedReplicas: 5, updatedAvailableReplicas: 5 })),
    ).toEqual({ message: 'cloneset.apps.kruise.io/sample successfully rolled out', done: true });
  });
  it('falls back to updatedReadyReplicas when updatedAvailableReplicas is absent', () => {
    expect(
      rolloutStatus(cs, cloneSet({}, { replicas: 5, updatedReplicas: 5, updatedReadyReplicas: 5 })),
    ).toMatchObject({
      done: true,
    });
  });
  it('with a partition, is done once replicas - partition pods are updated and available', () => {
    const spec = { updateStrategy: { partition: 2 } };
    expect(rolloutStatus(cs, cloneSet(spec, { replicas: 5, updatedReplicas: 1 }))).toEqual({
      message: 'Waiting for partitioned roll out to finish: 1 out of 3 new pods have been updated...',
      done: false,
    });
    expect(
      rolloutStatus(cs, cloneSet(spec, { replicas: 5, updatedReplicas: 3, updatedAvailableReplicas: 3 })),
    ).toEqual({
      message: 'partitioned roll out complete: 3 new pods have been updated...',
      done: true,
    });
  });
  it('resolves a percentage partition as cloneset.md §5.2 says (rounded up, one pod left to update)', () => {
    expect(resolvePartition('40%', 5, true, true)).toBe(2);
    expect(resolvePartition('99%', 9, true, true)).toBe(8);
    expect(resolvePartition('100%', 9, true, true)).toBe(9);
    expect(resolvePartition(10, 3, true)).toBe(3);
    expect(resolvePartition('99', 9, true)).toBe(0);
    expect(resolvePartition('50%', 5, false)).toBe(2);
  });
  it('says a paused rollout is paused and how to resume it', () => {
    const v = rolloutStatus(
      cs,
      cloneSet({ updateStrategy: { paused: true } }, { replicas: 5, updatedReplicas: 0 }),
    );
    expect(v).toMatchObject({ done: false });
    expect('message' in v && v.message).toContain(
      'the rollout is paused; resume it with kruise-ts rollout resume cloneset.apps.kruise.io/sample',
    );
  });
});

describe('rolloutStatus: the other kinds', () => {
  it('Advanced StatefulSet: rollingUpdate.partition, and OnDelete has no rollout status', () => {
    const asts = kind('asts');
    const obj = (status: object, strategy: object = {}) => ({
      metadata: { name: 'web', generation: 1 },
      spec: { replicas: 3, updateStrategy: strategy },
      status: { observedGeneration: 1, ...status },
    });
    expect(rolloutStatus(asts, obj({ replicas: 3, updatedReplicas: 1 }))).toEqual({
      message:
        'Waiting for statefulset "web" rollout to finish: 1 out of 3 new replicas have been updated...',
      done: false,
    });
    expect(
      rolloutStatus(
        asts,
        obj(
          { replicas: 3, updatedReplicas: 2, updatedAvailableReplicas: 2 },
          { rollingUpdate: { partition: 1 } },
        ),
      ),
    ).toMatchObject({
      done: true,
      message: 'partitioned roll out complete: 2 new pods have been updated...',
    });
    expect(rolloutStatus(asts, obj({}, { type: 'OnDelete' }))).toEqual({
      error: 'rollout status is only available for RollingUpdate strategy type',
    });
  });
  it('Advanced DaemonSet counts nodes: updatedNumberScheduled and numberAvailable', () => {
    const ads = kind('ads');
    const obj = (status: object) => ({
      metadata: { name: 'agent', generation: 1 },
      spec: {},
      status: { observedGeneration: 1, desiredNumberScheduled: 3, currentNumberScheduled: 3, ...status },
    });
    expect(rolloutStatus(ads, obj({ updatedNumberScheduled: 1 }))).toEqual({
      message: 'Waiting for daemon set "agent" rollout to finish: 1 out of 3 new pods have been updated...',
      done: false,
    });
    expect(rolloutStatus(ads, obj({ updatedNumberScheduled: 3, numberAvailable: 2 }))).toEqual({
      message: 'Waiting for daemon set "agent" rollout to finish: 2 of 3 updated pods are available...',
      done: false,
    });
    expect(rolloutStatus(ads, obj({ updatedNumberScheduled: 3, numberAvailable: 3 }))).toEqual({
      message: 'daemonset.apps.kruise.io/agent successfully rolled out',
      done: true,
    });
  });
  it('SidecarSet counts matched, updated and updated-ready pods', () => {
    const ss = kind('sidecarset');
    const obj = (status: object) => ({
      metadata: { name: 'log', generation: 1 },
      spec: {},
      status: { observedGeneration: 1, matchedPods: 4, ...status },
    });
    expect(rolloutStatus(ss, obj({ updatedPods: 2 }))).toMatchObject({
      message: 'Waiting for sidecarset "log" rollout to finish: 2 out of 4 new pods have been updated...',
    });
    expect(rolloutStatus(ss, obj({ updatedPods: 4, updatedReadyPods: 4 }))).toMatchObject({ done: true });
  });
  it('UnitedDeployment subtracts the manual partitions of its subsets', () => {
    const ud = kind('ud');
    const obj = {
      metadata: { name: 'app', generation: 1 },
      spec: { replicas: 6, updateStrategy: { manualUpdate: { partitions: { a: 1, b: 1 } } } },
      status: { observedGeneration: 1, replicas: 6, updatedReplicas: 4, updatedReadyReplicas: 4 },
    };
    expect(rolloutStatus(ud, obj)).toEqual({
      message: 'partitioned roll out complete: 4 new pods have been updated...',
      done: true,
    });
  });
});
