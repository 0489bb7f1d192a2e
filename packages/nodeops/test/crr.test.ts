import { type ContainerRecreateRequest, setDefaultsContainerRecreateRequest } from '@kruise-ts/api';
import type { PatchAction, UpdateStatusAction } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  containerRecreateRequestsForPodEvent,
  reconcileContainerRecreateRequest,
  syncContainerStatuses,
} from '../src/crr/reconcile';
import { validateContainerRecreateRequest } from '../src/crr/validation';
import { at, crr, crrPod, T0 } from './fixtures';

const run = (c: ContainerRecreateRequest, pod: Pod | undefined, now = at(10)) =>
  reconcileContainerRecreateRequest(deepFreeze({ containerRecreateRequest: c, pod, now }));
const reasons = (r: ReturnType<typeof run>) => r.actions.map((a) => a.reason);
const patches = (r: ReturnType<typeof run>) => r.actions.filter((a): a is PatchAction => a.verb === 'patch');
const podStatusWrites = (r: ReturnType<typeof run>) =>
  r.actions.filter((a): a is UpdateStatusAction => a.verb === 'updateStatus' && a.target.kind === 'Pod');

describe('§8 admission', () => {
  const v = (c: ContainerRecreateRequest, pod: Pod | undefined = crrPod(), old?: ContainerRecreateRequest) =>
    validateContainerRecreateRequest(deepFreeze(c), old && deepFreeze(old), { pod });
  it('8.3 a request for an existing container passes, before and after the webhook fills it in', () => {
    const raw = crr({ spec: { containers: [{ name: 'app' }] } });
    expect(v(raw)).toEqual([]);
    const filled = setDefaultsContainerRecreateRequest(raw, { pod: crrPod() });
    expect(filled.spec.containers[0]).toMatchObject({
      preStop: { exec: { command: ['sleep', '1'] } },
      statusContext: { containerID: 'containerd://a', restartCount: 0 },
    });
    expect(v(filled)).toEqual([]);
  });
  it('8.3 podName and a non-empty containers list are required', () => {
    expect(v(crr({ spec: { podName: '' } }))[0].field).toBe('spec.podName');
    expect(v(crr({ spec: { containers: [] } }))[0].field).toBe('spec.containers');
  });
  it('8.3 activeDeadlineSeconds ≥ 3; grace periods ≥ 0; failurePolicy Fail, Ignore or empty', () => {
    expect(v(crr({ spec: { activeDeadlineSeconds: 2 } }))[0].field).toBe('spec.activeDeadlineSeconds');
    expect(v(crr({ spec: { activeDeadlineSeconds: 3 } }))).toEqual([]);
    expect(v(crr({ spec: { strategy: { terminationGracePeriodSeconds: -1 } } }))[0].field).toBe(
      'spec.strategy.terminationGracePeriodSeconds',
    );
    expect(v(crr({ spec: { strategy: { unreadyGracePeriodSeconds: -1 } } }))[0].field).toBe(
      'spec.strategy.unreadyGracePeriodSeconds',
    );
    expect(v(crr({ spec: { strategy: { failurePolicy: 'Retry' as 'Fail' } } }))[0].type).toBe(
      'FieldValueNotSupported',
    );
    expect(v(crr({ spec: { strategy: { failurePolicy: 'Ignore' } } }))).toEqual([]);
  });
  it('8.3 the pod must exist, be active (or sidecar-terminated) and scheduled', () => {
    expect(validateContainerRecreateRequest(deepFreeze(crr()), undefined, {})[0].detail).toBe(
      'not found pod p',
    );
    const base = crrPod();
    const done: Pod = { ...base, status: { ...base.status, phase: 'Succeeded' } };
    expect(v(crr(), done)).toHaveLength(1);
    const terminated: Pod = {
      ...done,
      status: {
        ...done.status,
        conditions: [...(done.status?.conditions ?? []), { type: 'SidecarTerminated', status: 'True' }],
      },
    };
    expect(v(crr(), terminated)).toEqual([]);
    const pending = crrPod();
    pending.spec = { ...pending.spec, containers: pending.spec?.containers ?? [], nodeName: undefined };
    expect(v(crr(), pending)).toHaveLength(1);
  });
  it('8.3 container names are unique and exist in the pod spec and statuses with a containerID', () => {
    expect(v(crr({ spec: { containers: [{ name: 'app' }, { name: 'app' }] } }))[0].detail).toBe(
      'duplicated container app',
    );
    expect(v(crr({ spec: { containers: [{ name: 'side' }] } }))[0].detail).toBe(
      'not found container side in pod',
    );
    const noId = crrPod({ id: '' });
    expect(v(crr({ spec: { containers: [{ name: 'app' }] } }), noId)[0].detail).toBe(
      'not found containerID in pod status for app',
    );
  });
  it('8.3 the user may not set preStop, ports or statusContext', () => {
    expect(
      v(
        crr({
          spec: {
            containers: [
              { name: 'app', statusContext: { containerID: 'containerd://zzz', restartCount: 9 } },
            ],
          },
        }),
      )[0].field,
    ).toBe('spec.containers[0].statusContext');
    expect(v(crr({ spec: { containers: [{ name: 'app', ports: [{ containerPort: 80 }] }] } }))[0].field).toBe(
      'spec.containers[0].ports',
    );
  });
  it('8.2 on update the spec, the pod-uid / node-name labels and a set unready-acquired are immutable', () => {
    const old = crr({ annotations: { 'crr.apps.kruise.io/unready-acquired': T0 } });
    expect(
      v(
        crr({
          annotations: { 'crr.apps.kruise.io/unready-acquired': T0 },
          spec: { activeDeadlineSeconds: 9 },
        }),
        undefined,
        old,
      )[0].field,
    ).toBe('spec');
    const relabel = crr({
      annotations: { 'crr.apps.kruise.io/unready-acquired': T0 },
      labels: { 'crr.apps.kruise.io/pod-uid': 'other', 'crr.apps.kruise.io/node-name': 'n1' },
    });
    expect(v(relabel, undefined, old)).toHaveLength(1);
    expect(
      v(crr({ annotations: { 'crr.apps.kruise.io/unready-acquired': at(5) } }), undefined, old),
    ).toHaveLength(1);
    expect(
      v(
        crr({
          annotations: { 'crr.apps.kruise.io/unready-acquired': T0 },
          labels: { 'crr.apps.kruise.io/pod-uid': 'p-uid', 'crr.apps.kruise.io/node-name': 'n1' },
        }),
        undefined,
        old,
      ),
    ).toEqual([]);
    expect(
      v(crr({ annotations: { 'crr.apps.kruise.io/unready-acquired': at(1) } }), undefined, crr()),
    ).toEqual([]);
  });
});

describe('§9.1 controller reconcile', () => {
  const recreating = { phase: 'Recreating' as const };
  it('9.1.3 pod missing, deleting, or with another UID → complete "pod has gone"', () => {
    const gone = run(crr({ status: recreating }), undefined);
    expect(gone.status).toEqual({ phase: 'Completed', completionTime: at(10), message: 'pod has gone' });
    expect(reasons(gone)).toEqual(['Complete']);
    expect(run(crr({ status: recreating }), crrPod({ uid: 'new' })).status.message).toBe('pod has gone');
  });
  it('9.1.4 phase "" for 60 s after creation → complete; before that, requeue', () => {
    const early = run(crr(), crrPod(), at(20));
    expect(early.actions).toEqual([]);
    expect(early.requeueAfterSeconds).toBe(40);
    expect(run(crr(), crrPod(), at(60)).status.message).toBe('daemon has not responded for a long time');
  });
  it('9.1.5 activeDeadlineSeconds elapsed since creation → complete', () => {
    expect(
      run(crr({ spec: { activeDeadlineSeconds: 30 }, status: recreating }), crrPod(), at(30)).status.message,
    ).toBe('recreating has exceeded the activeDeadlineSeconds');
  });
  it('9.1.6 phase Pending → requeue at the nearest deadline, nothing else', () => {
    const r = run(
      crr({ spec: { activeDeadlineSeconds: 100 }, status: { phase: 'Pending' } }),
      crrPod(),
      at(40),
    );
    expect(r.actions).toEqual([]);
    expect(r.requeueAfterSeconds).toBe(60);
  });
  it('9.1.7 sync-container-statuses: only running containers started at or after the CRR creation', () => {
    expect(syncContainerStatuses(crr(), crrPod())).toEqual([]);
    const restarted = crrPod({ id: 'containerd://b', startedAt: at(5), restartCount: 1 });
    expect(syncContainerStatuses(crr(), restarted)).toEqual([
      { name: 'app', ready: true, restartCount: 1, containerID: 'containerd://b' },
    ]);
    const r = run(crr({ spec: { activeDeadlineSeconds: 100 }, status: recreating }), restarted, at(40));
    expect(patches(r)[0].patch).toEqual({
      metadata: {
        annotations: {
          'crr.apps.kruise.io/sync-container-statuses':
            '[{"name":"app","ready":true,"restartCount":1,"containerID":"containerd://b"}]',
        },
      },
    });
    expect(r.requeueAfterSeconds).toBe(60);
  });
  it('9.1.7 the empty list is written as [] and only when it changes', () => {
    expect(patches(run(crr({ status: recreating }), crrPod()))[0].patch).toEqual({
      metadata: { annotations: { 'crr.apps.kruise.io/sync-container-statuses': '[]' } },
    });
    const synced = crr({
      status: recreating,
      annotations: { 'crr.apps.kruise.io/sync-container-statuses': '[]' },
    });
    expect(run(synced, crrPod()).actions).toEqual([]);
  });
  it('9.1.2 completed: remove the active label first', () => {
    const r = run(crr({ status: { phase: 'Completed', completionTime: at(5) } }), crrPod());
    expect(patches(r)[0].patch).toEqual({ metadata: { labels: { 'crr.apps.kruise.io/active': null } } });
  });
  it('9.1.2 completed without the active label: TTL deletion, or requeue for the remainder; no TTL → nothing', () => {
    const labels = { 'crr.apps.kruise.io/pod-uid': 'p-uid' };
    const done = (ttl?: number) =>
      crr({
        labels,
        spec: { ttlSecondsAfterFinished: ttl },
        status: { phase: 'Completed', completionTime: at(0) },
      });
    expect(run(done(30), crrPod(), at(10)).requeueAfterSeconds).toBe(20);
    expect(reasons(run(done(10), crrPod(), at(10)))).toEqual(['TTLExpired']);
    expect(run(done(undefined), crrPod(), at(10))).toMatchObject({ actions: [] });
  });
  it('9.1.2 deleting: release not-ready if the finalizer is there, then stop', () => {
    const r = run(
      crr({
        deletionTimestamp: at(5),
        finalizers: ['crr.apps.kruise.io/unready-acquired'],
        status: recreating,
      }),
      crrPod(),
    );
    expect(reasons(r)).toEqual(['RemoveFinalizer']);
  });
});

describe('§9.1.1 triggers', () => {
  it('9.1.1 pod delete, start of deletion or a containerStatuses change enqueue the uncompleted CRRs of that pod UID', () => {
    const open = crr({ status: { phase: 'Recreating' } });
    const done = {
      ...crr({ status: { phase: 'Completed' } }),
      metadata: { ...crr().metadata, name: 'done' },
    };
    const other = {
      ...crr(),
      metadata: { ...crr().metadata, name: 'other', labels: { 'crr.apps.kruise.io/pod-uid': 'x' } },
    };
    const list = [open, done, other];
    const names = (l: ContainerRecreateRequest[]) => l.map((c) => c.metadata.name);
    expect(names(containerRecreateRequestsForPodEvent({ type: 'deleted', pod: crrPod() }, list))).toEqual([
      'crr',
    ]);
    expect(
      names(
        containerRecreateRequestsForPodEvent(
          { type: 'modified', old: crrPod(), pod: crrPod({ restartCount: 1 }) },
          list,
        ),
      ),
    ).toEqual(['crr']);
    const deleting = crrPod();
    deleting.metadata = { ...deleting.metadata, deletionTimestamp: T0 };
    expect(
      names(containerRecreateRequestsForPodEvent({ type: 'modified', old: crrPod(), pod: deleting }, list)),
    ).toEqual(['crr']);
    expect(
      containerRecreateRequestsForPodEvent({ type: 'modified', old: crrPod(), pod: crrPod() }, list),
    ).toEqual([]);
    expect(containerRecreateRequestsForPodEvent({ type: 'added', pod: crrPod() }, list)).toEqual([]);
  });
});

describe('§9.6 not-ready marking', () => {
  const grace = { strategy: { failurePolicy: 'Fail' as const, unreadyGracePeriodSeconds: 10 } };
  it('9.6.1 with the KruisePodReady gate: finalizer, pod condition False with the message, Ready recomputed, annotation = now', () => {
    const r = run(
      crr({
        spec: grace,
        status: { phase: 'Recreating' },
        annotations: { 'crr.apps.kruise.io/sync-container-statuses': '[]' },
      }),
      crrPod({ gate: true }),
    );
    expect(reasons(r)).toEqual(['AddFinalizer', 'AcquireNotReady', 'AcquireNotReady']);
    expect(patches(r)[0].patch).toEqual({
      metadata: { finalizers: ['crr.apps.kruise.io/unready-acquired'] },
    });
    const conds = podStatusWrites(r)[0].status as Pod['status'];
    expect(conds?.conditions?.find((c) => c.type === 'KruisePodReady')).toMatchObject({
      status: 'False',
      message: '[{"userAgent":"ContainerRecreateRequest","key":"default/crr"}]',
      lastTransitionTime: at(10),
    });
    expect(conds?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ReadinessGatesNotReady',
    });
    expect(patches(r)[1].patch).toEqual({
      metadata: { annotations: { 'crr.apps.kruise.io/unready-acquired': at(10) } },
    });
  });
  it('9.6.1 a missing KruisePodReady condition is appended with an empty status (quirk)', () => {
    const gated = crrPod({ gate: true });
    const pod: Pod = {
      ...gated,
      status: {
        ...gated.status,
        conditions: (gated.status?.conditions ?? []).filter((c) => c.type !== 'KruisePodReady'),
      },
    };
    const r = run(
      crr({
        spec: grace,
        status: { phase: 'Recreating' },
        annotations: { 'crr.apps.kruise.io/sync-container-statuses': '[]' },
      }),
      pod,
    );
    expect(
      (podStatusWrites(r)[0].status as Pod['status'])?.conditions?.find((c) => c.type === 'KruisePodReady')
        ?.status,
    ).toBe('');
  });
  it('9.6.1 without the gate only the annotation is written; with it already acquired nothing is', () => {
    const base = {
      spec: grace,
      status: { phase: 'Recreating' as const },
      annotations: { 'crr.apps.kruise.io/sync-container-statuses': '[]' },
    };
    expect(reasons(run(crr(base), crrPod()))).toEqual(['AcquireNotReady']);
    const acquired = crr({
      ...base,
      annotations: { ...base.annotations, 'crr.apps.kruise.io/unready-acquired': at(1) },
    });
    expect(run(acquired, crrPod({ gate: true })).actions).toEqual([]);
  });
  it('9.6.2 release on completion: the entry leaves the message, an empty list turns the condition True, then the finalizer goes', () => {
    const gated = crrPod({ gate: true });
    const pod: Pod = {
      ...gated,
      status: {
        ...gated.status,
        conditions: (gated.status?.conditions ?? []).map((c) =>
          c.type === 'KruisePodReady'
            ? {
                ...c,
                status: 'False',
                message: '[{"userAgent":"ContainerRecreateRequest","key":"default/crr"}]',
              }
            : c,
        ),
      },
    };
    const r = run(
      crr({
        finalizers: ['crr.apps.kruise.io/unready-acquired', 'other'],
        status: { phase: 'Completed', completionTime: at(5) },
      }),
      pod,
    );
    expect(reasons(r)).toEqual(['ReleaseNotReady', 'RemoveFinalizer', 'RemoveActiveLabel']);
    expect(
      (podStatusWrites(r)[0].status as Pod['status'])?.conditions?.find((c) => c.type === 'KruisePodReady'),
    ).toMatchObject({ status: 'True', message: '[]', lastTransitionTime: at(10) });
    expect(patches(r)[0].patch).toEqual({ metadata: { finalizers: ['other'] } });
  });
});
