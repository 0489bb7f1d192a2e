// The ImageListPullJob descriptor through an in-memory reader (daemon.md §6.2): its reconcile is
// the controller's with the namespace's ImagePullJobs, its read set the job and its children, and
// it needs KruiseDaemon and ImagePullJobGate (operator.md §3.5).
import { describe, expect, it } from 'vitest';
import { imageListPullJobDescriptor as d, reconcileImageListPullJob } from '../src/index';
import { admissionEnv, deepFreeze, ENV, memoryReader } from './descriptors.support';
import { ilpj, ipj, T0 } from './fixtures';

describe('imageListPullJobDescriptor', () => {
  const job = deepFreeze(ilpj(['nginx:1.25', 'busybox:1.36']));
  const child = deepFreeze({
    ...ipj({}, {}),
    metadata: {
      ...ipj().metadata,
      name: 'child',
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'ImageListPullJob',
          name: job.metadata.name ?? '',
          uid: job.metadata.uid ?? '',
          controller: true,
        },
      ],
    },
  });
  const other = deepFreeze({
    ...ipj(),
    metadata: { ...ipj().metadata, name: 'elsewhere', namespace: 'other' },
  });

  it('reconciles with the ImagePullJobs of its namespace, as a hand-built input would', () => {
    const reader = memoryReader([job, child, other]);
    const got = d.reconcile(job, reader, T0, undefined, ENV);
    const want = reconcileImageListPullJob({ imageListPullJob: job, imagePullJobs: [child], now: T0 });
    expect(got).toEqual(want);
    expect(got.actions.length).toBeGreaterThan(0);
  });

  it('reads the job and the children it owns; a child reaches it through its ownerReference', () => {
    expect(d.readSet(job, memoryReader([job, child, other])).map((o) => o.metadata?.name)).toEqual([
      job.metadata.name,
      'child',
    ]);
    expect(d.enqueueFor).toBeUndefined();
  });

  it('§3.5: needs KruiseDaemon and ImagePullJobGate (off by default)', () => {
    expect(d.enabled?.({})).toBe(false);
    expect(d.enabled?.({ ImagePullJobGate: true })).toBe(true);
    expect(d.enabled?.({ ImagePullJobGate: true, KruiseDaemon: false })).toBe(false);
  });

  it('admission defaults a new object and refuses one without images', () => {
    const env = admissionEnv([], T0);
    const defaulted = d.admission?.default?.(job, env);
    expect(defaulted).not.toBe(job);
    const bad = deepFreeze({ ...job, spec: { ...job.spec, images: [] } });
    expect(d.admission?.validate?.(bad, env).length).toBeGreaterThan(0);
    expect(d.admission?.validate?.(job, env)).toEqual([]);
  });
});
