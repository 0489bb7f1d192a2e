// The node-side descriptor tests' cluster: core's `objectReaderOf` over deep-frozen objects (a
// reconcile or hook that mutated what it read would throw), and the reconcile environment.
import type { KubeObject } from '@kruise-ts/api';
import { type AdmissionEnv, type ObjectReader, objectReaderOf, type ReconcileEnv } from '@kruise-ts/core';

/** `value`, frozen all the way down (the same object). */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A reader answering from `objects` (deep-frozen here), in their given order. */
export function memoryReader(objects: readonly object[]): ObjectReader {
  return objectReaderOf(deepFreeze([...objects]) as readonly KubeObject[]);
}

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
