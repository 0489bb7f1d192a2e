// What ContainerRecreateRequest admission rejects (docs/reference/daemon.md §8.2, §8.3): on update the
// immutable spec, labels and not-ready annotation; on create the target pod and containers.
import {
  ANNOTATION_CRR_UNREADY_ACQUIRED,
  type ContainerRecreateRequest,
  checkStructure,
  LABEL_CRR_NODE_NAME,
  LABEL_CRR_POD_UID,
  setDefaultsContainerRecreateRequest,
} from '@kruise-ts/api';
import { type FieldError, forbidden, invalid, isPodActive, notSupported, required } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { sameJSON } from '../util';

/** `ctx` of {@link validateContainerRecreateRequest}. */
export interface ContainerRecreateRequestValidationContext {
  /** The target pod (`spec.podName` in the CRR's namespace); absent = not found. */
  pod?: Pod;
}

/** The pod condition that lets a terminated-sidecar pod still be targeted (§8.3). */
export const CONDITION_SIDECAR_TERMINATED = 'SidecarTerminated';
/** §8.3: the smallest accepted `activeDeadlineSeconds`. */
export const MIN_CRR_ACTIVE_DEADLINE_SECONDS = 3;

const isSet = (v: unknown) => v !== undefined && v !== null;

/** §8.2: updates may not change `spec`, the pod-uid / node-name labels, or a set `unready-acquired`. */
function validateUpdate(obj: ContainerRecreateRequest, old: ContainerRecreateRequest): FieldError[] {
  if (!sameJSON(obj.spec, old.spec)) return [forbidden('spec', 'spec is immutable')];
  for (const key of [LABEL_CRR_POD_UID, LABEL_CRR_NODE_NAME]) {
    if (obj.metadata.labels?.[key] !== old.metadata.labels?.[key])
      return [forbidden(`metadata.labels[${key}]`, `label ${key} is immutable`)];
  }
  const was = old.metadata.annotations?.[ANNOTATION_CRR_UNREADY_ACQUIRED];
  if (was && obj.metadata.annotations?.[ANNOTATION_CRR_UNREADY_ACQUIRED] !== was)
    return [
      forbidden(
        `metadata.annotations[${ANNOTATION_CRR_UNREADY_ACQUIRED}]`,
        `annotation ${ANNOTATION_CRR_UNREADY_ACQUIRED} is immutable`,
      ),
    ];
  return [];
}

/**
 * ContainerRecreateRequest admission (docs/reference/daemon.md §8.2–§8.3), first failure reported.
 *
 * Update (`old` given): `spec`, the `pod-uid` / `node-name` labels and a set `unready-acquired`
 * annotation are immutable. Create: `podName` set; `containers` non-empty with unique names;
 * `activeDeadlineSeconds ≥ 3`; grace periods ≥ 0; `failurePolicy` `Fail` / `Ignore` / empty;
 * `ctx.pod` exists, is active (or has the `SidecarTerminated` condition) and is scheduled;
 * `preStop`, `ports` and `statusContext` are either unset or exactly what the mutating webhook
 * fills in from the pod (so the check holds before and after defaulting); every container exists
 * in the pod spec and in its statuses with a `containerID`.
 *
 * Example: container `sidecar` not in the pod → `spec.containers[0].name: Invalid value:
 * "sidecar": not found container sidecar in pod`.
 */
export function validateContainerRecreateRequest(
  obj: ContainerRecreateRequest,
  old?: ContainerRecreateRequest,
  ctx: ContainerRecreateRequestValidationContext = {},
): FieldError[] {
  // The shape first (@kruise-ts/api checkStructure, as the webhook receives the object): every
  // rule below may rely on each field having its schema's type, e.g. a label value being a string.
  const shape = checkStructure('ContainerRecreateRequest', obj, { admission: true });
  if (shape.length > 0) return shape;
  if (old) return validateUpdate(obj, old);
  const spec = obj?.spec;
  if (!spec?.podName) return [required('spec.podName', 'podName can not be empty')];
  const containers = spec.containers ?? [];
  if (containers.length === 0) return [required('spec.containers', 'containers can not be empty')];
  if (
    isSet(spec.activeDeadlineSeconds) &&
    (spec.activeDeadlineSeconds as number) < MIN_CRR_ACTIVE_DEADLINE_SECONDS
  )
    return [
      invalid(
        'spec.activeDeadlineSeconds',
        spec.activeDeadlineSeconds,
        `must be at least ${MIN_CRR_ACTIVE_DEADLINE_SECONDS}`,
      ),
    ];
  const st = spec.strategy ?? {};
  for (const f of ['terminationGracePeriodSeconds', 'unreadyGracePeriodSeconds'] as const) {
    if (isSet(st[f]) && (st[f] as number) < 0)
      return [invalid(`spec.strategy.${f}`, st[f], 'must be greater than or equal to 0')];
  }
  if (isSet(st.failurePolicy) && !['', 'Fail', 'Ignore'].includes(st.failurePolicy as string))
    return [notSupported('spec.strategy.failurePolicy', st.failurePolicy, ['Fail', 'Ignore'])];
  const pod = ctx.pod;
  if (!pod) return [invalid('spec.podName', spec.podName, `not found pod ${spec.podName}`)];
  const sidecarTerminated = (pod.status?.conditions ?? []).some(
    (c) => c.type === CONDITION_SIDECAR_TERMINATED,
  );
  if (!isPodActive(pod) && !sidecarTerminated)
    return [invalid('spec.podName', spec.podName, 'not allowed to recreate containers in an inactive Pod')];
  if (!pod.spec?.nodeName)
    return [invalid('spec.podName', spec.podName, 'not allowed to recreate containers in a pending Pod')];
  const filled = setDefaultsContainerRecreateRequest(
    { ...obj, spec: { ...spec, containers: containers.map((c) => ({ name: c.name })) } },
    { pod },
  ).spec.containers;
  const podContainers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  const seen = new Set<string>();
  for (let i = 0; i < containers.length; i++) {
    const c = containers[i];
    const p = `spec.containers[${i}]`;
    if (seen.has(c.name)) return [invalid(`${p}.name`, c.name, `duplicated container ${c.name}`)];
    seen.add(c.name);
    for (const f of ['preStop', 'ports', 'statusContext'] as const) {
      if (isSet(c[f]) && !sameJSON(c[f], filled[i]?.[f]))
        return [forbidden(`${p}.${f}`, `${f} can not be set by user`)];
    }
    if (!podContainers.some((pc) => pc.name === c.name))
      return [invalid(`${p}.name`, c.name, `not found container ${c.name} in pod`)];
    const cs = statuses.find((s) => s.name === c.name);
    if (!cs?.containerID)
      return [invalid(`${p}.name`, c.name, `not found containerID in pod status for ${c.name}`)];
  }
  return [];
}
