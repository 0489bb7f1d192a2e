// Upstream cases of one Scale pass, deletePods, PVC cleanup (scale.json) and one Update pass
// (update_pod_mutations.json), run on the step functions the reconcile uses.

import type { KubeObject } from '@kruise-ts/api';
import { decodeInPlaceUpdateGrace, decodeInPlaceUpdateState } from '@kruise-ts/core';
import { applyActions } from '@kruise-ts/core/apply';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { cleanupPVCs } from '../src/ownership';
import { scaleCloneSet } from '../src/scale';
import { deletePods } from '../src/scaleDown';
import { updateCloneSet } from '../src/update';
import { cloneSetFrom, compactPod, loadCases } from './fixtures';
import { makeState, revision } from './state';

const NOW = '2024-01-01T01:00:00Z';

function pvc(name: string, labels: Record<string, string>, ownerUid = 'cs-uid'): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels,
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          name: 'foo',
          uid: ownerUid,
          controller: true,
        },
      ],
    },
  };
}

describe('upstream scale.json', () => {
  const { cases } = loadCases('scale.json');
  for (const c of cases as any[]) {
    it(`${c.id} ${c.kind} ${c.goCase}`, () => {
      if (c.kind === 'scaleOnce') {
        const cs = cloneSetFrom({ name: c.cloneSet.name, spec: c.cloneSet.spec });
        const pods = deepFreeze(c.pods.map((p: any) => compactPod(p)));
        const state = makeState({
          cs,
          pods,
          now: c.now,
          currentRevision: revision(c.currentRevision),
          updateRevision: revision(c.updateRevision),
        });
        const res = scaleCloneSet(state);
        const deleted = state.rec.actions.filter((a) => a.verb === 'delete').map((a: any) => a.target.name);
        expect(pods.length - deleted.length).toBe(c.expected.activePodsAfter);
        expect(res.modified).toBe(c.expected.modified);
        expect(deleted).toEqual(c.derivedNotAsserted.deletedPods);
        expect(res.diffs).toMatchObject(c.derivedNotAsserted.diff);
      } else if (c.kind === 'deletePods') {
        const cs = cloneSetFrom({ name: c.cloneSet.name, spec: { replicas: 0 } });
        const pods = deepFreeze(
          c.podsToDelete.map((p: any) => compactPod({ name: p.name, labels: p.labels })),
        );
        const pvcs = c.pvcs.map((p: any) => pvc(p.name, p.labels));
        const state = makeState({
          cs,
          pods,
          pvcs,
          now: NOW,
          currentRevision: revision('r'),
          updateRevision: revision('r'),
        });
        expect(deletePods(state, pods, 'ScaleDown')).toBe(c.expected.modified);
        const objects = applyActions(
          [...(pods as unknown as KubeObject[]), ...(pvcs as unknown as KubeObject[])],
          state.rec.actions.filter((a) => a.verb !== 'event'),
          NOW,
        );
        expect(objects.filter((o) => o.kind === 'Pod').length).toBe(c.expected.podsRemaining);
        const remaining = objects
          .filter((o) => o.kind === 'PersistentVolumeClaim')
          .map((o) => o.metadata.name);
        expect(remaining.length).toBe(c.expected.pvcsRemainingCount);
        expect(remaining).toEqual(c.derivedNotAsserted.pvcsRemaining);
      } else {
        const cs = cloneSetFrom({ name: c.cloneSet.name, uid: c.cloneSet.uid, spec: c.cloneSet.spec });
        const mk = (p: any, deleting: boolean): Pod => {
          const pod = compactPod({
            name: p.name,
            uid: `uid-${p.name}`,
            labels: { 'apps.kruise.io/cloneset-instance-id': p.instanceID },
          });
          return { ...pod, metadata: { ...pod.metadata, ...(deleting ? { deletionTimestamp: NOW } : {}) } };
        };
        const active = c.activePods.map((p: any) => mk(p, false));
        const inactive = c.inactivePods.map((p: any) => mk(p, true));
        const pvcs = deepFreeze(
          c.pvcs.map((p: any) =>
            pvc(p.name, { 'apps.kruise.io/cloneset-instance-id': p.instanceID }, c.cloneSet.uid),
          ),
        ) as PersistentVolumeClaim[];
        const r = cleanupPVCs(cs, pvcs, active, inactive);
        const kept = r.pvcs.map((p) => p.metadata!.name);
        for (const k of kept) expect(c.expected.returnedPVCsSubsetOf).toContain(k);
        expect(kept).toEqual(c.derivedNotAsserted.returnedPVCs);
        const after = applyActions(pvcs as unknown as KubeObject[], r.actions, NOW);
        expect(after.length).toBe(c.expected.pvcCountAfter);
        for (const o of after) {
          const ctrl = (o.metadata.ownerReferences ?? []).find((ref) => ref.controller);
          expect(ctrl?.kind).toBe(c.expected.controllerOwnerKindAfter[o.metadata.name!]);
          if (ctrl?.kind === 'Pod')
            expect(ctrl.name).toBe(c.derivedNotAsserted.newPodOwner[o.metadata.name!]);
        }
      }
    });
  }
});

function podFromCase(p: any): Pod {
  const annotations: Record<string, string> = {};
  if (p.inPlaceUpdateState)
    annotations['apps.kruise.io/inplace-update-state'] = JSON.stringify(p.inPlaceUpdateState);
  if (p.inPlaceUpdateGrace)
    annotations['apps.kruise.io/inplace-update-grace'] = JSON.stringify(p.inPlaceUpdateGrace);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name,
      namespace: 'default',
      uid: `uid-${p.name}`,
      labels: p.labels,
      annotations,
      finalizers: p.finalizers,
    },
    spec: {
      readinessGates: p.spec.readinessGates.map((t: string) => ({ conditionType: t })),
      containers: p.spec.containers,
    },
    status: p.status,
  };
}

describe('upstream update_pod_mutations.json (one Update pass)', () => {
  const { cases } = loadCases('update_pod_mutations.json');
  it.each(cases.map((c: any) => [`${c.id} ${c.goCase}`, c]))('%s', (_n, c: any) => {
    const cs = cloneSetFrom({ name: c.cloneSet.name, spec: c.cloneSet.spec });
    const pods = deepFreeze(c.pods.map(podFromCase));
    const cur = revision(c.currentRevision.name, c.currentRevision.template);
    const upd = revision(c.updateRevision.name, c.updateRevision.template);
    const revisions = [...c.revisions.map((r: any) => revision(r.name, r.template)), upd];
    const state = makeState({ cs, pods, now: c.now, currentRevision: cur, updateRevision: upd, revisions });
    const res = updateCloneSet(state);
    expect(res.error).toBeUndefined();
    const after = applyActions(
      pods as unknown as KubeObject[],
      state.rec.actions.filter((a) => a.verb !== 'event'),
      c.now,
    );
    c.expected.pods.forEach((exp: any, i: number) => {
      const got = after[i] as unknown as Pod;
      const ann = got.metadata?.annotations ?? {};
      expect(got.metadata?.labels).toEqual(exp.labels);
      expect(got.metadata?.finalizers ?? []).toEqual(exp.finalizers);
      const state = ann['apps.kruise.io/inplace-update-state'];
      if (exp.inPlaceUpdateState === null) expect(state).toBeUndefined();
      else {
        const decoded = decodeInPlaceUpdateState(state!);
        expect(decoded.ok && decoded.value).toMatchObject(exp.inPlaceUpdateState);
      }
      const grace = ann['apps.kruise.io/inplace-update-grace'];
      if (exp.inPlaceUpdateGrace === null) expect(grace).toBeUndefined();
      else {
        const decoded = decodeInPlaceUpdateGrace(grace!);
        expect(decoded.ok && decoded.value).toMatchObject(exp.inPlaceUpdateGrace);
      }
      expect((got.spec?.readinessGates ?? []).map((g) => g.conditionType)).toEqual(exp.spec.readinessGates);
      expect(got.spec?.containers).toEqual(exp.spec.containers);
      expect(got.status?.phase).toBe(exp.status.phase);
      expect(got.status?.conditions).toEqual(exp.status.conditions);
      expect(got.status?.containerStatuses).toEqual(exp.status.containerStatuses);
      expect(Object.hasOwn(ann, 'lifecycle.apps.kruise.io/timestamp')).toBe(
        c.expected.lifecycleTimestampAnnotationWritten,
      );
    });
    if (c.derivedNotAsserted?.requeueAfterSeconds !== undefined) {
      expect(state.rec.requeueAfterSeconds).toBe(c.derivedNotAsserted.requeueAfterSeconds);
    }
  });
});
