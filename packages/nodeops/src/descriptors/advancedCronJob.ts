// The AdvancedCronJob controller as every shell drives it (docs/reference/advancedcronjob.md
// AC4, AC6): Jobs, BroadcastJobs or ImageListPullJobs on a cron schedule. It reads the candidate
// children of its namespace. AC6.1: only create and update events of BroadcastJobs and
// ImageListPullJobs enqueue their owner; deletes and Job events do not (a finished Job is seen at
// the next scheduled requeue), so the operator does not enqueue owners by itself here.
import {
  type AdvancedCronJob,
  type AdvancedCronJobStatus,
  type KubeObject,
  setDefaultsAdvancedCronJob,
} from '@kruise-ts/api';
import {
  defineController,
  JOB,
  type KindRef,
  kindRef,
  NOTHING_TO_ENQUEUE,
  type ObjectReader,
} from '@kruise-ts/core';
import { advancedCronJobChildren, advancedCronJobForChildEvent } from '../advancedcronjob/children';
import { type AdvancedCronJobControllerState, reconcileAdvancedCronJob } from '../advancedcronjob/reconcile';
import { validateAdvancedCronJob } from '../advancedcronjob/validation';
import { ADVANCED_CRON_JOB_KIND, BROADCAST_JOB_KIND, IMAGE_LIST_PULL_JOB_KIND } from './kinds';
import { objectNamed } from './objectNamed';

/**
 * The kinds of an AdvancedCronJob's children, read as the KubeObjects AC4.2 picks among (a Job
 * of `kubernetes-types` leaves its metadata optional; a stored one has it).
 */
const CHILD_KINDS: readonly KindRef<KubeObject>[] = [JOB, BROADCAST_JOB_KIND, IMAGE_LIST_PULL_JOB_KIND].map(
  (ref) => kindRef<KubeObject>(ref.apiVersion, ref.kind),
);

/** The namespace's candidate children of an AdvancedCronJob (AC4.2 picks among them). */
function candidates(reader: ObjectReader, namespace: string | undefined): KubeObject[] {
  return CHILD_KINDS.flatMap((ref) => reader.list(ref, namespace));
}

/** `advancedcronjob-controller` (operator.md §3.5; needs only its CRD). */
export const advancedCronJobDescriptor = defineController<
  AdvancedCronJob,
  AdvancedCronJobStatus,
  AdvancedCronJobControllerState
>({
  name: 'advancedcronjob-controller',
  primary: ADVANCED_CRON_JOB_KIND,
  secondary: [JOB, BROADCAST_JOB_KIND, IMAGE_LIST_PULL_JOB_KIND],
  enqueuesOwners: false,
  enqueueFor: (changed, reader, change) => {
    if (change?.type === 'deleted') return NOTHING_TO_ENQUEUE;
    const owner = advancedCronJobForChildEvent(changed, 'modified');
    if (!owner) return NOTHING_TO_ENQUEUE;
    // Without the change, a delete shows as the child missing from the reader.
    const ref = { apiVersion: changed.apiVersion, kind: changed.kind };
    if (!change && !reader.get(ref, changed.metadata?.namespace, changed.metadata?.name ?? ''))
      return NOTHING_TO_ENQUEUE;
    return [objectNamed(reader, ADVANCED_CRON_JOB_KIND, owner.namespace, owner.name)];
  },
  readSet: (acj, reader) => [
    acj,
    ...advancedCronJobChildren(acj, candidates(reader, acj.metadata?.namespace)),
  ],
  reconcile: (advancedCronJob, reader, now, state, env) =>
    reconcileAdvancedCronJob(
      {
        advancedCronJob,
        children: candidates(reader, advancedCronJob.metadata?.namespace),
        now,
        controllerState: state,
      },
      { featureGates: env.featureGates },
    ),
  admission: {
    default: (acj, env) => setDefaultsAdvancedCronJob(acj, { featureGates: env.featureGates, old: env.old }),
    validate: (acj, env) => validateAdvancedCronJob(acj, env.old),
  },
});
