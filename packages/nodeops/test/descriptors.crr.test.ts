// The ContainerRecreateRequest descriptor through an in-memory reader (daemon.md §9.1): its
// reconcile reads the target pod; a pod change enqueues the uncompleted, non-deleting CRRs
// labelled with the pod's uid, and with the change at hand only a relevant one (§9.1.1).
import { describe, expect, it } from 'vitest';
import { containerRecreateRequestDescriptor as d, reconcileContainerRecreateRequest } from '../src/index';
import { admissionEnv, asObject, deepFreeze, ENV, memoryReader } from './descriptors.support';
import { crr, crrPod, T0 } from './fixtures';

describe('containerRecreateRequestDescriptor', () => {
  const request = deepFreeze(crr());
  const pod = deepFreeze(crrPod());
  const done = deepFreeze({
    ...crr({ status: { phase: 'Completed' } }),
    metadata: { ...crr().metadata, name: 'done' },
  });
  const otherPod = deepFreeze({
    ...crr({ labels: { 'crr.apps.kruise.io/pod-uid': 'x' } }),
    metadata: { ...crr().metadata, name: 'x', labels: { 'crr.apps.kruise.io/pod-uid': 'x' } },
  });

  it('reconciles with its pod, as a hand-built input would; a missing pod is the same as none', () => {
    const got = d.reconcile(request, memoryReader([request, pod]), T0, undefined, ENV);
    expect(got).toEqual(
      reconcileContainerRecreateRequest({
        containerRecreateRequest: request,
        pod,
        now: T0,
      }),
    );
    expect(d.reconcile(request, memoryReader([request]), T0, undefined, ENV)).toEqual(
      reconcileContainerRecreateRequest({ containerRecreateRequest: request, now: T0 }),
    );
  });

  it('reads the CRR and its pod', () => {
    expect(d.readSet(request, memoryReader([request, pod])).map((o) => o.kind)).toEqual([
      'ContainerRecreateRequest',
      'Pod',
    ]);
    expect(d.readSet(request, memoryReader([request]))).toEqual([request]);
  });

  it('§9.1.1: a pod change enqueues its active CRRs (without the change: every change)', () => {
    const reader = memoryReader([request, done, otherPod, pod]);
    expect(d.enqueueFor?.(asObject(pod), reader).map((c) => c.metadata.name)).toEqual(['crr']);
    // Same container statuses, no deletion: nothing the CRR waits for.
    expect(d.enqueueFor?.(asObject(pod), reader, { type: 'modified', old: asObject(pod) })).toEqual([]);
    const restarted = deepFreeze(crrPod({ id: 'containerd://b', restartCount: 1 }));
    expect(
      d
        .enqueueFor?.(asObject(restarted), reader, { type: 'modified', old: asObject(pod) })
        .map((c) => c.metadata.name),
    ).toEqual(['crr']);
    expect(d.enqueueFor?.(asObject(pod), reader, { type: 'deleted', old: asObject(pod) })).toHaveLength(1);
    expect(d.enqueueFor?.(asObject(request), reader)).toEqual([]);
  });

  it('§3.5: needs KruiseDaemon (on by default)', () => {
    expect(d.enabled?.({})).toBe(true);
    expect(d.enabled?.({ KruiseDaemon: false })).toBe(false);
  });

  it('admission fills the CRR in from its pod and refuses one whose pod does not exist', () => {
    const bare = deepFreeze({ ...request, metadata: { name: 'crr', namespace: 'default' } });
    const defaulted = d.admission?.default?.(bare, admissionEnv([pod], T0));
    expect(defaulted?.metadata.labels?.['crr.apps.kruise.io/pod-uid']).toBe('p-uid');
    expect(d.admission?.validate?.(request, admissionEnv([], T0)).length).toBeGreaterThan(0);
  });
});
