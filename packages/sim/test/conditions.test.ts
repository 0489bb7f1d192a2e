// Built-in waitFor conditions per kind.
import type { KubeObject } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import { getPath, meetsCondition, meetsFields } from '../src/scenario/conditions';

const obj = (kind: string, spec: unknown, status: unknown, generation = 2): KubeObject => ({
  apiVersion: 'x/v1',
  kind,
  metadata: { name: 'o', generation },
  spec,
  status,
});

describe('waitFor conditions', () => {
  it('Exists / Deleted', () => {
    expect([
      meetsCondition(undefined, 'Deleted'),
      meetsCondition(undefined, 'Exists'),
      meetsCondition(obj('X', {}, {}), 'Exists'),
    ]).toEqual([true, false, true]);
  });

  it('CloneSet RolledOut: current status, replicas = ready = available = 5, updated and updatedReady ≥ expectedUpdated (R − partition = 3)', () => {
    const st = {
      observedGeneration: 2,
      replicas: 5,
      readyReplicas: 5,
      availableReplicas: 5,
      updatedReplicas: 3,
      updatedReadyReplicas: 3,
      expectedUpdatedReplicas: 3,
    };
    expect(meetsCondition(obj('CloneSet', { replicas: 5 }, st), 'RolledOut')).toBe(true);
    expect(
      meetsCondition(obj('CloneSet', { replicas: 5 }, { ...st, updatedReadyReplicas: 2 }), 'RolledOut'),
    ).toBe(false);
    expect(meetsCondition(obj('CloneSet', { replicas: 5 }, { ...st, observedGeneration: 1 }), 'Ready')).toBe(
      false,
    );
    expect(
      meetsCondition(obj('CloneSet', { replicas: 5 }, { ...st, availableReplicas: 4 }), 'Available'),
    ).toBe(false);
  });

  it('DaemonSet: numberReady / numberAvailable / updatedNumberScheduled against desiredNumberScheduled', () => {
    const st = {
      observedGeneration: 2,
      desiredNumberScheduled: 3,
      numberReady: 3,
      numberAvailable: 3,
      updatedNumberScheduled: 2,
    };
    expect(meetsCondition(obj('DaemonSet', {}, st), 'Available')).toBe(true);
    expect(meetsCondition(obj('DaemonSet', {}, st), 'RolledOut')).toBe(false);
    expect(meetsCondition(obj('DaemonSet', {}, { ...st, updatedNumberScheduled: 3 }), 'RolledOut')).toBe(
      true,
    );
  });

  it('SidecarSet: readyPods, updatedPods, updatedReadyPods against matchedPods', () => {
    const st = { observedGeneration: 2, matchedPods: 4, readyPods: 4, updatedPods: 4, updatedReadyPods: 3 };
    expect(meetsCondition(obj('SidecarSet', {}, st), 'Ready')).toBe(true);
    expect(meetsCondition(obj('SidecarSet', {}, st), 'RolledOut')).toBe(false);
  });

  it('Pods and Nodes: condition Ready=True', () => {
    const pod = obj('Pod', {}, { conditions: [{ type: 'Ready', status: 'True' }] });
    expect(meetsCondition(pod, 'Ready')).toBe(true);
    expect(
      meetsCondition(obj('Node', {}, { conditions: [{ type: 'Ready', status: 'Unknown' }] }), 'Ready'),
    ).toBe(false);
  });

  it('fields compare dotted paths as JSON', () => {
    const o = obj('CloneSet', { template: { spec: { containers: [{ image: 'a' }] } } }, { readyReplicas: 5 });
    expect(getPath(o, 'spec.template.spec.containers.0.image')).toBe('a');
    expect(meetsFields(o, { 'status.readyReplicas': 5 })).toBe(true);
    expect(meetsFields(o, { 'status.readyReplicas': '5' })).toBe(false);
  });
});
