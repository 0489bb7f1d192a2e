// Shapes shared by every Kubernetes object kruise-ts handles: the generic
// KubeObject envelope and the int-or-string value used across Kruise specs.
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';

/** An int-or-string field exactly as written in YAML: `3` or `"20%"`. */
export type IntOrString = number | string;

/** Any Kubernetes object: the envelope every kind shares. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec?: unknown;
  status?: unknown;
  [key: string]: unknown;
}

/** A typed Kubernetes object with spec and status. */
export interface TypedObject<Spec, Status> extends KubeObject {
  spec: Spec;
  status?: Status;
}
