import type { ContainerRecreateRequest } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import {
  actionPass,
  applyKillResult,
  computeContainerStates,
  pickCRR,
  pickedStep,
  type RuntimeContainerStatus,
  runtimeTypeOf,
  sortNewestFirst,
  stopRpcDeadlineMs,
  stopTimeoutSeconds,
  terminationGraceSeconds,
  toRuntimeContainerStatus,
} from '../src/index';

const T0 = Date.parse('2024-01-01T00:00:10Z');

function crr(
  over: Partial<ContainerRecreateRequest['spec']> = {},
  status?: ContainerRecreateRequest['status'],
  annotations?: Record<string, string>,
): ContainerRecreateRequest {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'ContainerRecreateRequest',
    metadata: {
      namespace: 'ns',
      name: 'c1',
      creationTimestamp: '2024-01-01T00:00:10Z',
      annotations,
      labels: { 'crr.apps.kruise.io/pod-uid': 'u' },
    },
    spec: {
      podName: 'p',
      containers: [
        { name: 'a', statusContext: { containerID: 'containerd://a0', restartCount: 0 } },
        { name: 'b', statusContext: { containerID: 'containerd://b0', restartCount: 0 } },
      ],
      strategy: {},
      ...over,
    },
    status,
  };
}

function cs(name: string, id: string, over: Partial<RuntimeContainerStatus> = {}): RuntimeContainerStatus {
  return {
    id: `containerd://${id}`,
    runtimeId: id,
    name,
    restartCount: 0,
    state: 'running',
    createdAtNs: 1n,
    startedAtMs: T0 - 5_000,
    ...over,
  };
}

describe('§9.3 item 3: pod status from CRI', () => {
  it('3.3: maps labels, restartCount annotation (0 if bad), state and times; 3.4: newest first', () => {
    const base = {
      metadata: { name: 'a', attempt: 0 },
      finishedAt: '0',
      exitCode: 0,
      reason: '',
      message: '',
      annotations: {},
    };
    const a = toRuntimeContainerStatus(
      {
        ...base,
        id: 'x',
        state: 'CONTAINER_EXITED',
        createdAt: '1000000000',
        startedAt: '2000000000',
        finishedAt: '3000000000',
        exitCode: 137,
        reason: 'Error',
        labels: { 'io.kubernetes.container.name': 'a' },
        annotations: { 'io.kubernetes.container.restartCount': '2' },
      },
      'containerd',
    );
    expect(a).toEqual({
      id: 'containerd://x',
      runtimeId: 'x',
      name: 'a',
      restartCount: 2,
      state: 'exited',
      createdAtNs: 1_000_000_000n,
      startedAtMs: 2_000,
      finishedAtMs: 3_000,
      exitCode: 137,
      reason: 'Error',
    });
    const b = toRuntimeContainerStatus(
      {
        ...base,
        id: 'y',
        state: 'CONTAINER_CREATED',
        createdAt: '5000000000',
        startedAt: '0',
        labels: { 'io.kubernetes.container.name': 'a' },
        annotations: { 'io.kubernetes.container.restartCount': 'x' },
      },
      'containerd',
    );
    expect(b.restartCount).toBe(0);
    expect(b.startedAtMs).toBeUndefined();
    expect(sortNewestFirst([a, b]).map((c) => c.runtimeId)).toEqual(['y', 'x']);
  });
});

describe('§9.3 item 4: container states', () => {
  it('4.1: Succeeded/Failed are kept; 4.2: missing → Pending "not found container on Node"', () => {
    const c = crr(
      {},
      {
        containerRecreateStates: [
          { name: 'a', phase: 'Failed', message: 'm' },
          { name: 'b', phase: 'Pending', isKilled: true },
        ],
      },
    );
    expect(computeContainerStates(c, [], T0)).toEqual([
      { name: 'a', phase: 'Failed', message: 'm' },
      { name: 'b', phase: 'Pending', message: 'not found container on Node', isKilled: true },
    ]);
  });

  it('4.3: newest EXITED → Recreating; 4.6: unchanged running → Pending', () => {
    const states = computeContainerStates(crr(), [cs('a', 'a0', { state: 'exited' }), cs('b', 'b0')], T0);
    expect(states).toEqual([
      { name: 'a', phase: 'Recreating' },
      { name: 'b', phase: 'Pending' },
    ]);
  });

  it('4.4: forceRecreate and not killed → Pending even when already restarted', () => {
    const states = computeContainerStates(
      crr({ strategy: { forceRecreate: true } }),
      [cs('a', 'a1'), cs('b', 'b0')],
      T0,
    );
    expect(states.map((s) => s.phase)).toEqual(['Pending', 'Pending']);
    const killed = crr(
      { strategy: { forceRecreate: true } },
      { containerRecreateStates: [{ name: 'a', phase: 'Recreating', isKilled: true }] },
    );
    expect(computeContainerStates(killed, [cs('a', 'a1'), cs('b', 'b0')], T0)[0]).toEqual({
      name: 'a',
      phase: 'Recreating',
      isKilled: true,
    });
  });

  it('4.5: new id, higher restartCount or started after creation → Recreating', () => {
    const states = computeContainerStates(
      crr(),
      [cs('a', 'a0', { restartCount: 1 }), cs('b', 'b0', { startedAtMs: T0 + 1 })],
      T0,
    );
    expect(states.map((s) => s.phase)).toEqual(['Recreating', 'Recreating']);
  });

  it('4.5: Succeeded when the sync annotation has the same id ready and now − startedAt > minStartedSeconds', () => {
    const ann = {
      'crr.apps.kruise.io/sync-container-statuses': JSON.stringify([
        { name: 'a', ready: true, restartCount: 1, containerID: 'containerd://a1' },
        { name: 'b', ready: false, restartCount: 1, containerID: 'containerd://b1' },
      ]),
    };
    const c = crr({ strategy: { minStartedSeconds: 5 } }, undefined, ann);
    const pod = [cs('a', 'a1', { startedAtMs: T0 + 1_000 }), cs('b', 'b1', { startedAtMs: T0 + 1_000 })];
    expect(computeContainerStates(c, pod, T0 + 6_000).map((s) => s.phase)).toEqual([
      'Recreating',
      'Recreating',
    ]);
    expect(computeContainerStates(c, pod, T0 + 6_001).map((s) => s.phase)).toEqual([
      'Succeeded',
      'Recreating',
    ]);
  });
});

describe('§9.3 item 6: action pass', () => {
  it('Pending with a container → kill it; Succeeded counts as completed', () => {
    const r = actionPass(
      crr(),
      [
        { name: 'a', phase: 'Succeeded' },
        { name: 'b', phase: 'Pending' },
      ],
      [cs('b', 'b0')],
    );
    expect(r).toMatchObject({ kind: 'kill', index: 1, completed: 1 });
  });

  it('Pending without a container stops the pass', () => {
    expect(
      actionPass(
        crr(),
        [
          { name: 'a', phase: 'Pending' },
          { name: 'b', phase: 'Pending' },
        ],
        [cs('b', 'b0')],
      ).kind,
    ).toBe('done');
  });

  it('Recreating → isKilled; orderedRecreate stops the pass there', () => {
    const states = [
      { name: 'a', phase: 'Recreating' as const },
      { name: 'b', phase: 'Pending' as const },
    ];
    const unordered = actionPass(crr(), states, [cs('a', 'a0'), cs('b', 'b0')]);
    expect(unordered).toMatchObject({ kind: 'kill', index: 1 });
    expect(unordered.states[0]).toEqual({ name: 'a', phase: 'Recreating', isKilled: true });
    const ordered = actionPass(crr({ strategy: { orderedRecreate: true } }), states, [
      cs('a', 'a0'),
      cs('b', 'b0'),
    ]);
    expect(ordered.kind).toBe('done');
    expect(states[0]).toEqual({ name: 'a', phase: 'Recreating' });
  });

  it('Failed: Fail policy completes the CRR; Ignore continues', () => {
    const states = [
      { name: 'a', phase: 'Failed' as const },
      { name: 'b', phase: 'Succeeded' as const },
    ];
    expect(actionPass(crr(), states, []).kind).toBe('completeFailed');
    expect(actionPass(crr({ strategy: { failurePolicy: 'Ignore' } }), states, [])).toMatchObject({
      kind: 'done',
      completed: 2,
    });
  });

  it('kill result: success → Recreating isKilled and stop; error → Failed "kill container error: …", continue with Ignore, patch with Fail', () => {
    const states = [{ name: 'a', phase: 'Pending' as const }];
    expect(applyKillResult(crr(), states, 0, undefined)).toEqual({
      states: [{ name: 'a', phase: 'Recreating', isKilled: true }],
      next: 'stop',
    });
    expect(applyKillResult(crr(), states, 0, 'boom')).toEqual({
      states: [{ name: 'a', phase: 'Failed', message: 'kill container error: boom' }],
      next: 'patch',
    });
    expect(applyKillResult(crr({ strategy: { failurePolicy: 'Ignore' } }), states, 0, 'boom').next).toBe(
      'continue',
    );
  });
});

describe('§9.2 picking and §9.3 items 1–2, §9.4 grace math', () => {
  const mk = (name: string, phase: string | undefined, ts: string, extra: Record<string, unknown> = {}) =>
    ({
      ...crr(),
      metadata: { name, namespace: 'ns', creationTimestamp: ts, ...extra },
      status: phase ? { phase } : undefined,
    }) as ContainerRecreateRequest;

  it('3.1–3.4: sorted by phase weight then age; the first eligible is picked; others in "" go Pending', () => {
    const r = pickCRR([
      mk('c', undefined, '2024-01-01T00:00:03Z'),
      mk('b', 'Pending', '2024-01-01T00:00:02Z'),
      mk('a', 'Recreating', '2024-01-01T00:00:05Z'),
      mk('done', 'Completed', '2024-01-01T00:00:00Z'),
      mk('gone', undefined, '2024-01-01T00:00:01Z', { deletionTimestamp: '2024-01-01T00:00:09Z' }),
    ]);
    expect(r.picked?.metadata.name).toBe('a');
    expect(r.toPending.map((c) => c.metadata.name)).toEqual(['c']);
  });

  it('3.3: an unsatisfied expectation stops picking', () => {
    const r = pickCRR([mk('a', 'Recreating', '2024-01-01T00:00:05Z')], () => true);
    expect(r).toEqual({ toPending: [], waiting: true });
  });

  it('4.1–4.2: set Recreating first; then wait for unready-acquired, complete on a bad time, requeue for the remainder + 100 ms', () => {
    expect(pickedStep(crr(), T0)).toEqual({ kind: 'setRecreating' });
    const rec = (a?: string) =>
      ({
        ...crr({ strategy: { unreadyGracePeriodSeconds: 10 } }, { phase: 'Recreating' }),
        metadata: { ...crr().metadata, annotations: a ? { 'crr.apps.kruise.io/unready-acquired': a } : {} },
      }) as ContainerRecreateRequest;
    expect(pickedStep(rec(), T0)).toEqual({ kind: 'waitUnreadyAcquired' });
    expect(pickedStep(rec('yesterday'), T0)).toMatchObject({
      kind: 'complete',
      message: expect.stringMatching(/^failed to parse unready time yesterday: /),
    });
    expect(pickedStep(rec('2024-01-01T00:00:00Z'), Date.parse('2024-01-01T00:00:04Z'))).toEqual({
      kind: 'requeue',
      afterMs: 6_100,
    });
    expect(pickedStep(rec('2024-01-01T00:00:00Z'), Date.parse('2024-01-01T00:00:10Z'))).toEqual({
      kind: 'manage',
    });
  });

  it('9.3 item 1: every containerID names the same runtime type', () => {
    expect(runtimeTypeOf(crr())).toEqual({ runtime: 'containerd' });
    const mixed = crr({
      containers: [
        { name: 'a', statusContext: { containerID: 'containerd://a', restartCount: 0 } },
        { name: 'b', statusContext: { containerID: 'docker://b', restartCount: 0 } },
      ],
    });
    expect(runtimeTypeOf(mixed)).toHaveProperty('error');
    expect(runtimeTypeOf(crr({ containers: [{ name: 'a' }] }))).toHaveProperty('error');
  });

  it('9.3 item 2 / 9.4: grace = strategy or 30; stop timeout = grace − whole hook seconds, at least 2; RPC deadline 5 s more', () => {
    expect(terminationGraceSeconds(crr())).toBe(30);
    expect(terminationGraceSeconds(crr({ strategy: { terminationGracePeriodSeconds: 0 } }))).toBe(0);
    expect(stopTimeoutSeconds(30, 3_700)).toBe(27);
    expect(stopTimeoutSeconds(0)).toBe(2);
    expect(stopTimeoutSeconds(5, 5_200)).toBe(2);
    expect(stopRpcDeadlineMs(27)).toBe(32_000);
  });
});
