// An AdvancedCronJob's children (docs/reference/advancedcronjob.md AC4.1–AC4.6, AC4.11, §5): the
// template kind, which objects are its children, when a child is finished, the status, the
// history cleanup and the child created for a slot.
import {
  type AdvancedCronJob,
  type AdvancedCronJobStatus,
  ANNOTATION_SCHEDULED_AT,
  APPS_V1ALPHA1,
  APPS_V1BETA1,
  type KubeObject,
  type TemplateKind,
} from '@kruise-ts/api';
import { type Action, epochMsToRFC3339, refOf } from '@kruise-ts/core';
import type { ObjectReference } from 'kubernetes-types/core/v1.js';
import { byString, cloneJSON, controllerRef, timeMillis } from '../util';

/** A child's class (AC4.3). */
export type ChildClass = 'active' | 'successful' | 'failed';

/** A child with its class, as the reconcile sees it. */
export interface ClassifiedChild {
  object: KubeObject;
  class: ChildClass;
}

/** The apiVersion of children of each kind (AC4.11). */
export function childApiVersion(kind: TemplateKind): string {
  return kind === 'Job' ? 'batch/v1' : APPS_V1BETA1;
}

/**
 * AC4.1: `jobTemplate` → Job; else `imageListPullJobTemplate` → ImageListPullJob; else
 * BroadcastJob (also with no template at all, where nothing is ever created).
 */
export function templateKind(acj: AdvancedCronJob): TemplateKind {
  const t = acj.spec?.template ?? {};
  if (t.jobTemplate) return 'Job';
  if (t.imageListPullJobTemplate) return 'ImageListPullJob';
  return 'BroadcastJob';
}

/**
 * AC4.2: objects of the kind in the ACJ's namespace whose controller owner reference has kind
 * `AdvancedCronJob`, the ACJ's name, and apiVersion `apps.kruise.io/v1alpha1` or `v1beta1` for
 * Jobs, only `v1beta1` for the other kinds. The owner UID is not compared; deleting children
 * still count. Returned sorted by name.
 */
export function advancedCronJobChildren(
  acj: AdvancedCronJob,
  candidates: readonly KubeObject[],
): KubeObject[] {
  const kind = templateKind(acj);
  const versions = kind === 'Job' ? [APPS_V1ALPHA1, APPS_V1BETA1] : [APPS_V1BETA1];
  return candidates
    .filter((o) => {
      if (o.kind !== kind || o.metadata.namespace !== acj.metadata.namespace) return false;
      const ref = controllerRef(o);
      return (
        ref?.kind === 'AdvancedCronJob' && ref.name === acj.metadata.name && versions.includes(ref.apiVersion)
      );
    })
    .sort((a, b) => byString(a.metadata.name ?? '', b.metadata.name ?? ''));
}

interface Conditioned {
  status?: { conditions?: { type?: string; status?: string }[] };
}

/**
 * §5: AC5.1 / AC5.2 (Job, BroadcastJob): the first condition of type `Complete` or `Failed` with
 * status `"True"` decides, otherwise active. AC5.3 (ImageListPullJob): finished once
 * `completionTime` is set, successful iff `succeeded == desired`.
 */
export function classifyChild(kind: TemplateKind, child: KubeObject): ChildClass {
  if (kind === 'ImageListPullJob') {
    const s = child.status as { completionTime?: string; succeeded?: number; desired?: number } | undefined;
    if (!s?.completionTime) return 'active';
    return (s.succeeded ?? 0) === (s.desired ?? 0) ? 'successful' : 'failed';
  }
  for (const c of (child as Conditioned).status?.conditions ?? []) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')
      return c.type === 'Complete' ? 'successful' : 'failed';
  }
  return 'active';
}

/**
 * AC4.4: the status rebuilt from the children: `type`; `active` = references to the active
 * children (sorted by name, omitted when empty); `lastScheduleTime` = the latest parsable
 * `apps.kruise.io/scheduled-at` annotation (omitted when none).
 */
export function advancedCronJobStatus(
  kind: TemplateKind,
  children: readonly ClassifiedChild[],
): AdvancedCronJobStatus {
  const status: AdvancedCronJobStatus = { type: kind };
  const active: ObjectReference[] = children
    .filter((c) => c.class === 'active')
    .map(({ object: o }) => {
      const ref: ObjectReference = {
        kind,
        apiVersion: childApiVersion(kind),
        namespace: o.metadata.namespace,
        name: o.metadata.name,
      };
      if (o.metadata.uid !== undefined) ref.uid = o.metadata.uid;
      if (o.metadata.resourceVersion !== undefined) ref.resourceVersion = o.metadata.resourceVersion;
      return ref;
    });
  if (active.length > 0) status.active = active;
  let last: number | undefined;
  for (const c of children) {
    const t = timeMillis(c.object.metadata.annotations?.[ANNOTATION_SCHEDULED_AT]);
    if (t !== undefined && (last === undefined || t > last)) last = t;
  }
  if (last !== undefined) status.lastScheduleTime = epochMsToRFC3339(last);
  return status;
}

/**
 * AC4.6 history cleanup of one class: sort by `status.startTime` (children without one first,
 * ties by name) and delete the first `count − limit`. Example: 3 successful, limit 2 → the one
 * that started first is deleted.
 */
export function historyDeletes(children: readonly KubeObject[], limit: number | undefined | null): Action[] {
  if (limit === undefined || limit === null || children.length <= limit) return [];
  const start = (o: KubeObject) => timeMillis((o.status as { startTime?: string } | undefined)?.startTime);
  const sorted = [...children].sort((a, b) => {
    const sa = start(a);
    const sb = start(b);
    if (sa !== sb) {
      if (sa === undefined) return -1;
      if (sb === undefined) return 1;
      return sa - sb;
    }
    return byString(a.metadata.name ?? '', b.metadata.name ?? '');
  });
  return sorted
    .slice(0, children.length - Math.max(0, limit))
    .map((o) => ({ verb: 'delete', target: refOf(o), reason: 'CleanupHistory' }) as Action);
}

/**
 * AC4.11: the child for slot `slotMs`: named `<acj>-<slot in Unix seconds>`, in the ACJ's
 * namespace, with the template's labels, its annotations plus `apps.kruise.io/scheduled-at`
 * (RFC 3339, UTC), one controller owner reference to the ACJ and a copy of the template's spec.
 * `undefined` when the ACJ has no template.
 *
 * Example: `nightly` at 2025-10-10T09:05:00Z → `nightly-1760087100`.
 */
export function newChildForSlot(acj: AdvancedCronJob, slotMs: number): KubeObject | undefined {
  const kind = templateKind(acj);
  const t = acj.spec?.template ?? {};
  const tpl =
    kind === 'Job'
      ? t.jobTemplate
      : kind === 'ImageListPullJob'
        ? t.imageListPullJobTemplate
        : t.broadcastJobTemplate;
  if (!tpl) return undefined;
  const meta = tpl.metadata ?? {};
  return {
    apiVersion: childApiVersion(kind),
    kind,
    metadata: {
      name: `${acj.metadata.name}-${Math.floor(slotMs / 1000)}`,
      namespace: acj.metadata.namespace,
      labels: { ...(meta.labels ?? {}) },
      annotations: { ...(meta.annotations ?? {}), [ANNOTATION_SCHEDULED_AT]: epochMsToRFC3339(slotMs) },
      ownerReferences: [
        {
          apiVersion: APPS_V1BETA1,
          kind: 'AdvancedCronJob',
          name: acj.metadata.name ?? '',
          uid: acj.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: cloneJSON(tpl.spec ?? {}),
  };
}

/**
 * AC6.1 item 2–3: the AdvancedCronJob (namespace, name) a child event enqueues: create and
 * update events of BroadcastJobs and ImageListPullJobs whose controller owner is an
 * `apps.kruise.io` AdvancedCronJob (any version). Deletes are ignored (since v1.9.0), and Job
 * events never enqueue the owner (**quirk**).
 */
export function advancedCronJobForChildEvent(
  child: KubeObject,
  eventType: 'added' | 'modified' | 'deleted',
): { namespace?: string; name: string } | undefined {
  if (eventType === 'deleted') return undefined;
  if (child.kind !== 'BroadcastJob' && child.kind !== 'ImageListPullJob') return undefined;
  const ref = controllerRef(child);
  if (ref?.kind !== 'AdvancedCronJob' || !ref.apiVersion.startsWith('apps.kruise.io/')) return undefined;
  return { namespace: child.metadata.namespace, name: ref.name };
}
