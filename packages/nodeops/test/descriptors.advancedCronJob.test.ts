// The AdvancedCronJob descriptor through an in-memory reader (advancedcronjob.md AC4, AC6): its
// reconcile reads the namespace's candidate children; AC6.1: only create and update events of
// BroadcastJobs and ImageListPullJobs enqueue their owner, so the shells do not enqueue owners.
import { describe, expect, it } from 'vitest';
import { advancedCronJobDescriptor as d, reconcileAdvancedCronJob } from '../src/index';
import { admissionEnv, asObject, deepFreeze, ENV, memoryReader } from './descriptors.support';
import { acj, at, T0 } from './fixtures';

const owner = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'AdvancedCronJob',
  name: 'nightly',
  uid: 'acj-uid',
  controller: true,
};
const child = (kind: string, apiVersion: string, name: string) =>
  deepFreeze({ apiVersion, kind, metadata: { name, namespace: 'default', ownerReferences: [owner] } });

describe('advancedCronJobDescriptor', () => {
  const cron = deepFreeze(acj());
  const job = child('Job', 'batch/v1', 'nightly-1');
  const bcj = child('BroadcastJob', 'apps.kruise.io/v1alpha1', 'nightly-2');

  it('reconciles with the candidate children of its namespace, as a hand-built input would', () => {
    const got = d.reconcile(cron, memoryReader([cron, job, bcj]), at(300), undefined, ENV);
    expect(got).toEqual(
      reconcileAdvancedCronJob(
        { advancedCronJob: cron, children: [job, bcj], now: at(300) },
        { featureGates: ENV.featureGates },
      ),
    );
    expect(got.actions.length).toBeGreaterThan(0);
  });

  it('reads itself and its own children', () => {
    expect(d.readSet(cron, memoryReader([cron, job, bcj])).map((o) => o.metadata?.name)).toEqual([
      'nightly',
      'nightly-1',
    ]);
  });

  it('AC6.1: BroadcastJob changes enqueue the owner, deletes and Job changes do not', () => {
    expect(d.enqueuesOwners).toBe(false);
    const reader = memoryReader([cron, job, bcj]);
    expect(d.enqueueFor?.(asObject(bcj), reader)).toEqual([cron]);
    expect(d.enqueueFor?.(asObject(bcj), reader, { type: 'deleted', old: asObject(bcj) })).toEqual([]);
    expect(d.enqueueFor?.(asObject(bcj), memoryReader([cron]))).toEqual([]); // gone: a delete
    expect(d.enqueueFor?.(asObject(job), reader)).toEqual([]);
    // An owner not in the reader yet is named all the same (a shell skips a missing object).
    expect(d.enqueueFor?.(asObject(bcj), memoryReader([bcj])).map((o) => o.metadata.name)).toEqual([
      'nightly',
    ]);
  });

  it('needs only its CRD; admission defaults and validates', () => {
    expect(d.enabled).toBeUndefined();
    expect(d.admission?.validate?.(cron, admissionEnv([], T0))).toEqual([]);
    const bad = deepFreeze({ ...cron, spec: { ...cron.spec, schedule: 'not a schedule' } });
    expect(d.admission?.validate?.(bad, admissionEnv([], T0)).length).toBeGreaterThan(0);
    expect(d.admission?.default?.(cron, admissionEnv([], T0))).not.toBe(cron);
  });
});
