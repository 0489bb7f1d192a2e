// upstream lifecycle_update.json: one round (updateStatefulSet) with explicit current/update
// revisions and one pod sts-0, then the pod's state after the round's actions (§10–§11).
import type { KubeObject, StatefulSet } from '@kruise-ts/api';
import { applyActions } from '@kruise-ts/core/apply';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { expectKnownFields } from '../../../test/support/cases';
import { updateStatefulSet } from '../src/control';
import { loadCases, NOW } from './fixtures';

function revision(r: { name: string; data: string | null }, revisionNumber: number): ControllerRevision {
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: { name: r.name, namespace: 'test' },
    revision: revisionNumber,
    ...(r.data !== null ? { data: r.data as never } : {}),
  };
}

function buildPod(p: any): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name,
      namespace: p.namespace,
      labels: { ...p.labels },
      finalizers: [...p.finalizers],
    },
    spec: {
      containers: (p.containers ?? [{ name: 'c1', image: 'foo1' }]).map((c: any) => ({ ...c })),
      readinessGates: p.readinessGates.map((t: string) => ({ conditionType: t })),
    },
    status: {
      phase: p.phase,
      conditions: Object.entries(p.conditions).map(([type, status]) => ({ type, status: status as string })),
      ...(p.containerStatuses
        ? { containerStatuses: p.containerStatuses.map((cs: any) => ({ ...cs })) }
        : {}),
    },
  } as Pod;
}

describe('upstream lifecycle_update.json (§10–§11, TestUpdateWithLifecycleHook)', () => {
  const { vectors } = loadCases('lifecycle_update.json');
  it.each<[string, any]>(vectors.map((v: any, i: number) => [`#${i} ${v.case}`, v] as [string, any]))(
    '%s',
    (_n, v: any) => {
      const i = v.input;
      const set: StatefulSet = {
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'StatefulSet',
        metadata: { name: i.set.name, namespace: i.set.namespace, uid: 'sts-uid' },
        spec: {
          replicas: i.set.replicas,
          selector: i.set.selector,
          podManagementPolicy: i.set.podManagementPolicy || undefined,
          template: {
            metadata: { labels: { ...i.set.selector.matchLabels } },
            spec: { containers: [{ name: 'c1', image: 'foo1' }] },
          },
          ...(i.set.lifecycle ? { lifecycle: i.set.lifecycle } : {}),
          updateStrategy: i.set.updateStrategy,
        },
      } as StatefulSet;
      const revisions = i.revisions.map((r: any, k: number) => revision(r, k + 1));
      const updateRevision = revision(i.updateRevision, revisions.length + 1);
      const currentRevision =
        revisions.find((r: ControllerRevision) => r.metadata?.name === i.currentRevision) ?? updateRevision;
      const pods = i.pods.map(buildPod);
      const round = updateStatefulSet(
        deepFreeze({
          set,
          pods,
          currentRevision,
          updateRevision,
          revisions: [...revisions, updateRevision],
          now: NOW,
        }),
      );
      expect(round.error).toBeUndefined();
      const after = applyActions(
        pods as unknown as KubeObject[],
        round.actions.filter((a) => a.verb !== 'event'),
        NOW,
      );
      for (const [name, want] of Object.entries<any>(v.expected.pods)) {
        const got = after.find((o) => o.metadata.name === name) as unknown as Pod | undefined;
        expectKnownFields(
          want,
          [
            'exists',
            'lifecycleState',
            'revision',
            'image',
            'conditions',
            'inPlaceUpdateReadyReason',
            'inPlaceUpdateState',
          ],
          `${name}`,
        );
        expect(got !== undefined).toBe(want.exists);
        if (!got) continue;
        const labels = got.metadata?.labels ?? {};
        if (want.lifecycleState !== undefined)
          expect(labels['lifecycle.apps.kruise.io/state']).toBe(want.lifecycleState);
        if (want.revision !== undefined) expect(labels['controller-revision-hash']).toBe(want.revision);
        if (want.image !== undefined) expect(got.spec?.containers[0].image).toBe(want.image);
        if (want.conditions !== undefined) {
          const conds = Object.fromEntries((got.status?.conditions ?? []).map((c) => [c.type, c.status]));
          expect(conds).toMatchObject(want.conditions);
        }
        if (want.inPlaceUpdateReadyReason !== undefined) {
          expect(got.status?.conditions?.find((c) => c.type === 'InPlaceUpdateReady')?.reason).toBe(
            want.inPlaceUpdateReadyReason,
          );
        }
        if (want.inPlaceUpdateState !== undefined) {
          const state = JSON.parse(
            got.metadata?.annotations?.['apps.kruise.io/inplace-update-state'] ?? '{}',
          );
          const { containerBatchesRecord, ...rest } = want.inPlaceUpdateState;
          expect(state).toMatchObject(rest);
          expect(state.containerBatchesRecord.map((b: any) => ({ containers: b.containers }))).toEqual(
            containerBatchesRecord,
          );
        }
      }
    },
  );
});
