// The node-side descriptor tests' cluster: core's frozen reader (a
// reconcile or hook that mutated what it read would throw), and the reconcile environment.
import type { KubeObject } from '@kruise-ts/api';
import type { AdmissionEnv, ReconcileEnv } from '@kruise-ts/core';
import { deepFreeze, frozenReader as memoryReader } from '@kruise-ts/core/testing';

export { deepFreeze, memoryReader };

/** The environment a shell passes (the operator's: namespaces are modelled). */
export const ENV: ReconcileEnv = deepFreeze({
  featureGates: { KruiseDaemon: true, ImagePullJobGate: true },
  seed: 7,
  kruiseNamespace: 'kruise-system',
  scalingExcludePreparingDelete: false,
});

/** An admission environment at CREATE over `objects` (no old object: it fits every kind). */
export function admissionEnv(objects: readonly object[], now: string): AdmissionEnv<never> {
  return {
    operation: 'CREATE',
    featureGates: {},
    reader: memoryReader(objects),
    now,
    kruiseNamespace: 'kruise-system',
  };
}

/** `obj` as the KubeObject a shell hands to `enqueueFor`. */
export const asObject = (obj: object) => obj as KubeObject;
