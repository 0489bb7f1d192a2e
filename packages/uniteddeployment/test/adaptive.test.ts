// §5.2–§5.5 of docs/reference/uniteddeployment.md: the pending-timeout rule and the unschedulable-status step,
// plus the upstream vectors of unschedulable-status.json.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  adaptiveSettings,
  BOUNDARY_REQUEUE_SECONDS,
  manageUnschedulableStatus,
  pendingTimeout,
  type SubsetStatusEntry,
} from '../src/index';

const NOW = '2024-01-01T00:10:00Z';
const at = (offsetSeconds: number) =>
  new Date(Date.parse(NOW) + offsetSeconds * 1000).toISOString().replace('.000', '');

function pendingPod(
  createdOffset: number,
  opts: { scheduled?: boolean; nodeName?: string; phase?: string } = {},
): Pod {
  return deepFreeze({
    metadata: { name: `p${createdOffset}`, creationTimestamp: at(createdOffset) },
    spec: { containers: [], ...(opts.nodeName ? { nodeName: opts.nodeName } : {}) },
    status: {
      phase: opts.phase ?? 'Pending',
      conditions: [
        opts.scheduled
          ? { type: 'PodScheduled', status: 'True' }
          : { type: 'PodScheduled', status: 'False', reason: 'Unschedulable' },
      ],
    },
  }) as Pod;
}

function entry(status: 'True' | 'False', offset: number | null): SubsetStatusEntry {
  return deepFreeze({
    name: 'subset-1',
    conditions: [
      { type: 'Schedulable', status, ...(offset === null ? {} : { lastTransitionTime: at(offset) }) },
    ],
  });
}

const settings = adaptiveSettings(undefined);
const min = (xs: number[]) => (xs.length ? Math.min(...xs) : 0);

describe('§5.3 pending-timeout rule (RC 30)', () => {
  it('created 15 s ago → waiting 15 s', () => {
    expect(pendingTimeout(pendingPod(-15), 30, NOW)).toEqual({ kind: 'waiting', delaySeconds: 15 });
  });
  it('created 31 s ago → timed out', () => {
    expect(pendingTimeout(pendingPod(-31), 30, NOW)).toEqual({ kind: 'timedOut' });
  });
  it('not applicable: bound to a node, not Pending, scheduled, or deleting', () => {
    expect(pendingTimeout(pendingPod(-100, { nodeName: 'n1' }), 30, NOW).kind).toBe('notApplicable');
    expect(pendingTimeout(pendingPod(-100, { phase: 'Running' }), 30, NOW).kind).toBe('notApplicable');
    expect(pendingTimeout(pendingPod(-100, { scheduled: true }), 30, NOW).kind).toBe('notApplicable');
    const deleting = {
      ...pendingPod(-100),
      metadata: { name: 'x', creationTimestamp: at(-100), deletionTimestamp: NOW },
    };
    expect(pendingTimeout(deleting, 30, NOW).kind).toBe('notApplicable');
  });
  it('exactly at creation + RC the pod is not yet timed out (strictly before)', () => {
    expect(pendingTimeout(pendingPod(-30), 30, NOW)).toEqual({ kind: 'waiting', delaySeconds: 0 });
  });
});

describe('§5.5 TestUnschedulableStatusManagement (defaults RC 30 / UL 300)', () => {
  it('Not timeouted yet: cond True, 1/0, pod pending 15 s → pendingPods 0, schedulable, requeue 15 s', () => {
    const r = manageUnschedulableStatus({
      subsetStatus: entry('True', null),
      workloadStatus: { replicas: 1, readyReplicas: 0 },
      pods: [pendingPod(-15)],
      now: NOW,
      settings,
    });
    expect(r.unschedulableStatus).toEqual({ unschedulable: false, pendingPods: 0 });
    expect(min(r.requeueAfterSeconds)).toBe(15);
  });
  it('Timeouted: pod pending 31 s → pendingPods 1, unschedulable, condition False/reschedule, requeue 300 s', () => {
    const r = manageUnschedulableStatus({
      subsetStatus: entry('True', null),
      workloadStatus: { replicas: 1, readyReplicas: 0 },
      pods: [pendingPod(-31)],
      now: NOW,
      settings,
    });
    expect(r.unschedulableStatus).toEqual({ unschedulable: true, pendingPods: 1 });
    expect(min(r.requeueAfterSeconds)).toBe(300);
    expect(r.subsetStatus?.conditions).toEqual([
      {
        type: 'Schedulable',
        status: 'False',
        reason: 'reschedule',
        message: 'timeout pending pods found',
        lastTransitionTime: NOW,
      },
    ]);
  });
  it('During unschedulable status: cond False 60 s ago, 1/1 → unschedulable, requeue 240 s', () => {
    const r = manageUnschedulableStatus({
      subsetStatus: entry('False', -60),
      workloadStatus: { replicas: 1, readyReplicas: 1 },
      pods: [pendingPod(-15)],
      now: NOW,
      settings,
    });
    expect(r.unschedulableStatus).toEqual({ unschedulable: true, pendingPods: 0 });
    expect(min(r.requeueAfterSeconds)).toBe(240);
  });
  it('After status reset: cond False 360 s ago, pod scheduled → schedulable, condition True/recover, no requeue', () => {
    const r = manageUnschedulableStatus({
      subsetStatus: entry('False', -360),
      workloadStatus: { replicas: 1, readyReplicas: 0 },
      pods: [pendingPod(-400, { scheduled: true })],
      now: NOW,
      settings,
    });
    expect(r.unschedulableStatus).toEqual({ unschedulable: false, pendingPods: 0 });
    expect(r.requeueAfterSeconds).toEqual([]);
    expect(r.subsetStatus?.conditions?.[0]).toMatchObject({
      status: 'True',
      reason: 'recover',
      lastTransitionTime: NOW,
    });
  });
  it('A0: a subset without a status entry is skipped', () => {
    const r = manageUnschedulableStatus({
      subsetStatus: undefined,
      workloadStatus: { replicas: 1, readyReplicas: 0 },
      pods: [pendingPod(-100)],
      now: NOW,
      settings,
    });
    expect(r).toEqual({
      unschedulableStatus: { unschedulable: false, pendingPods: 0 },
      subsetStatus: undefined,
      requeueAfterSeconds: [],
    });
  });
  it('A1+A2: recovered and pods still timing out in the same reconcile → False again with a new lastTransitionTime', () => {
    const r = manageUnschedulableStatus({
      subsetStatus: entry('False', -360),
      workloadStatus: { replicas: 2, readyReplicas: 0 },
      pods: [pendingPod(-100)],
      now: NOW,
      settings,
    });
    expect(r.unschedulableStatus).toEqual({ unschedulable: true, pendingPods: 1 });
    expect(r.subsetStatus?.conditions?.[0]).toMatchObject({
      status: 'False',
      reason: 'reschedule',
      lastTransitionTime: NOW,
    });
  });
  it('A2 runs only while readyReplicas < replicas', () => {
    const r = manageUnschedulableStatus({
      subsetStatus: entry('True', null),
      workloadStatus: { replicas: 1, readyReplicas: 1 },
      pods: [pendingPod(-100)],
      now: NOW,
      settings,
    });
    expect(r.unschedulableStatus).toEqual({ unschedulable: false, pendingPods: 0 });
  });
  it('a pod exactly at its timeout asks for a boundary requeue (virtual clock)', () => {
    const r = manageUnschedulableStatus({
      subsetStatus: entry('True', null),
      workloadStatus: { replicas: 1, readyReplicas: 0 },
      pods: [pendingPod(-30)],
      now: NOW,
      settings,
    });
    expect(r.requeueAfterSeconds).toEqual([BOUNDARY_REQUEUE_SECONDS]);
  });
  it('custom durations: RC 10 / UL 60', () => {
    const r = manageUnschedulableStatus({
      subsetStatus: entry('True', null),
      workloadStatus: { replicas: 1, readyReplicas: 0 },
      pods: [pendingPod(-11)],
      now: NOW,
      settings: adaptiveSettings({ rescheduleCriticalSeconds: 10, unschedulableLastSeconds: 60 }),
    });
    expect(r.unschedulableStatus.pendingPods).toBe(1);
    expect(min(r.requeueAfterSeconds)).toBe(60);
  });
});

const file = JSON.parse(
  readFileSync(
    fileURLToPath(
      new URL('../../../testdata/upstream/uniteddeployment/unschedulable-status.json', import.meta.url),
    ),
    'utf8',
  ),
);

describe('upstream unschedulable-status.json', () => {
  it.each((file.vectors as any[]).map((v) => [v.id as string, v] as [string, any]))('%s', (_id, v) => {
    const conditions = v.input.subsetStatusConditions.map((c: any) => ({
      type: c.type,
      status: c.status,
      ...(c.lastTransitionOffsetSeconds === null
        ? {}
        : { lastTransitionTime: at(c.lastTransitionOffsetSeconds) }),
    }));
    const pods = v.input.subset.pods.map((p: any, i: number) => ({
      metadata: {
        name: `pod-${i}`,
        creationTimestamp: at(p.creationOffsetSeconds),
        ...(p.deletionTimestamp ? { deletionTimestamp: NOW } : {}),
      },
      spec: { containers: [], ...(p.nodeName ? { nodeName: p.nodeName } : {}) },
      status: { phase: p.phase, conditions: p.conditions },
    }));
    const r = manageUnschedulableStatus(
      deepFreeze({
        subsetStatus: { name: v.input.subsetName, conditions },
        workloadStatus: v.input.subset.status,
        pods,
        now: NOW,
        settings: adaptiveSettings(v.input.scheduleStrategy.adaptive),
      }),
    );
    expect(r.unschedulableStatus.pendingPods).toBe(v.expected.pendingPods);
    expect(r.unschedulableStatus.unschedulable).toBe(v.expected.unschedulable);
    const delay = min(r.requeueAfterSeconds);
    expect(delay).toBeGreaterThanOrEqual(v.expected.requeueAfterSeconds.min);
    expect(delay).toBeLessThanOrEqual(v.expected.requeueAfterSeconds.max);
  });
});
