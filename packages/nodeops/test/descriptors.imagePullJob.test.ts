// The ImagePullJob descriptor through an in-memory reader (daemon.md §4): its reconcile reads
// every NodeImage, the namespace's pods, the Secrets of its namespace and of the daemon-config
// namespace and the Namespaces (skipped for a shell without them); §4.7 NodeImage, pod and Secret
// changes enqueue the jobs they concern, narrowed by the change when the shell has it.
import { describe, expect, it } from 'vitest';
import { imagePullJobDescriptor as d, reconcileImagePullJob } from '../src/index';
import { admissionEnv, asObject, deepFreeze, ENV, memoryReader } from './descriptors.support';
import { ipj, nodeImage, pod, T0 } from './fixtures';

const daemonNs = deepFreeze({
  apiVersion: 'v1' as const,
  kind: 'Namespace' as const,
  metadata: { name: 'kruise-daemon-config' },
});
const secret = (name: string, namespace: string, data: Record<string, string> = {}) =>
  deepFreeze({ apiVersion: 'v1' as const, kind: 'Secret' as const, metadata: { name, namespace }, data });

describe('imagePullJobDescriptor', () => {
  const job = deepFreeze(ipj());
  const bySelector = deepFreeze({
    ...ipj({ podSelector: { matchLabels: { app: 'web' } } }),
    metadata: { ...ipj().metadata, name: 'web', uid: 'web-uid' },
  });
  const withSecret = deepFreeze({
    ...ipj({ pullSecrets: ['regcred'] }),
    metadata: { ...ipj().metadata, name: 'secret', uid: 'secret-uid' },
  });
  const n1 = deepFreeze(nodeImage('n1'));
  const n2 = deepFreeze(nodeImage('n2'));
  const regcred = secret('regcred', 'default', { a: 'b' });

  it('reconciles with what it reads, as a hand-built input would', () => {
    const reader = memoryReader([job, n1, n2, daemonNs, regcred]);
    const got = d.reconcile(job, reader, T0, undefined, ENV);
    expect(got).toEqual(
      reconcileImagePullJob(
        {
          imagePullJob: job,
          nodeImages: [n1, n2],
          pods: [],
          secrets: [regcred],
          namespaces: [daemonNs],
          now: T0,
        },
        { featureGates: ENV.featureGates, seed: ENV.seed, daemonConfigNamespace: 'kruise-daemon-config' },
      ),
    );
    expect(got.actions.length).toBeGreaterThan(0);
  });

  it('§4.5 item 2.4: without the daemon-config namespace the secret sync fails, unless the shell has no namespaces', () => {
    const reader = memoryReader([job, n1]);
    const verbs = (r: ReturnType<typeof d.reconcile>) => r.actions.map((a) => `${a.verb}:${a.reason ?? ''}`);
    expect(verbs(d.reconcile(job, reader, T0, undefined, ENV))).toContain('event:SyncSecretsFailed');
    const sim = d.reconcile(job, reader, T0, undefined, { ...ENV, withoutNamespaces: true });
    expect(verbs(sim)).not.toContain('event:SyncSecretsFailed');
  });

  it('reads the job, every NodeImage and the copies in the daemon-config namespace', () => {
    const copy = secret('copy', 'kruise-daemon-config');
    expect(d.readSet(job, memoryReader([job, n1, copy, regcred])).map((o) => o.metadata?.name)).toEqual([
      'job',
      'n1',
      'copy',
    ]);
  });

  it('§4.7: a NodeImage change enqueues the active jobs matching it; an unchanged entry does not', () => {
    const reader = memoryReader([job, bySelector, n1, pod('w1', 'n1')]);
    expect(d.enqueueFor?.(asObject(n1), reader).map((j) => j.metadata.name)).toEqual(['job', 'web']);
    expect(d.enqueueFor?.(asObject(n1), reader, { type: 'modified', old: asObject(n1) })).toEqual([]);
    expect(d.enqueueFor?.(asObject(n1), reader, { type: 'added' }).map((j) => j.metadata.name)).toEqual([
      'job',
      'web',
    ]);
  });

  it('§4.7: a pod change enqueues the podSelector jobs matching its labels, when they or its node changed', () => {
    const reader = memoryReader([job, bySelector]);
    const w1 = deepFreeze(pod('w1', 'n1'));
    expect(d.enqueueFor?.(asObject(w1), reader).map((j) => j.metadata.name)).toEqual(['web']);
    expect(d.enqueueFor?.(asObject(w1), reader, { type: 'modified', old: asObject(w1) })).toEqual([]);
    expect(d.enqueueFor?.(asObject(pod('x', 'n1', { app: 'other' })), reader)).toEqual([]);
  });

  it('§4.5 item 4: a Secret change enqueues the jobs naming it (with the change: when its data changed)', () => {
    const reader = memoryReader([job, withSecret]);
    expect(d.enqueueFor?.(asObject(regcred), reader).map((j) => j.metadata.name)).toEqual(['secret']);
    const changed = secret('regcred', 'default', { a: 'c' });
    expect(
      d
        .enqueueFor?.(asObject(changed), reader, { type: 'modified', old: asObject(regcred) })
        .map((j) => j.metadata.name),
    ).toEqual(['secret']);
    expect(d.enqueueFor?.(asObject(regcred), reader, { type: 'modified', old: asObject(regcred) })).toEqual(
      [],
    );
  });

  it('§3.5: needs KruiseDaemon and ImagePullJobGate; admission defaults and validates', () => {
    expect(d.enabled?.({})).toBe(false);
    expect(d.enabled?.({ ImagePullJobGate: true })).toBe(true);
    expect(d.admission?.validate?.(job, admissionEnv([], T0))).toEqual([]);
    const bad = deepFreeze({ ...job, spec: { ...job.spec, image: '' } });
    expect(d.admission?.validate?.(bad, admissionEnv([], T0)).length).toBeGreaterThan(0);
    expect(d.admission?.default?.(job, admissionEnv([], T0))).not.toBe(job);
  });
});
