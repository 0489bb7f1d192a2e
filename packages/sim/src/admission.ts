// The admission chain the store runs on every create and update (not on
// status writes or deletes): defaulters, then mutating hooks, then validators,
// per kind — like an API server's mutating and validating webhooks. A rejected
// object is reported as the API server's 422:
// `The CloneSet "sample" is invalid: spec.replicas: Invalid value: -1: ...`.
import type { KubeObject } from '@kruise-ts/api';
import { type FeatureGates, type FieldError, formatFieldError } from '@kruise-ts/core';
import { groupOf } from './keys';

/** What a hook sees besides the object. */
export interface AdmissionContext {
  operation: 'CREATE' | 'UPDATE';
  /** The stored object on UPDATE. */
  old?: KubeObject;
  /** Current simulated time (RFC 3339). */
  now: string;
  featureGates: Partial<FeatureGates>;
  /** Read access to the store (e.g. pods for CloneSet's podsToDelete check, SidecarSets for injection). */
  list(apiVersion: string, kind: string, namespace?: string): KubeObject[];
  get(apiVersion: string, kind: string, namespace: string | undefined, name: string): KubeObject | undefined;
}

/** Returns the object with defaults set (a new object; never mutate the input). */
export type Defaulter = (obj: KubeObject, ctx: AdmissionContext) => KubeObject;
/** A mutating hook (e.g. SidecarSet injection on pods). */
export type Mutator = (obj: KubeObject, ctx: AdmissionContext) => KubeObject;
/** Returns the field errors that reject the object (empty = admitted). */
export type Validator = (obj: KubeObject, ctx: AdmissionContext) => FieldError[];

/** The hooks of one kind. */
export interface AdmissionHooks {
  defaulters?: Defaulter[];
  mutators?: Mutator[];
  validators?: Validator[];
}

/** The outcome of admission. */
export type AdmissionResult =
  | { allowed: true; object: KubeObject }
  | { allowed: false; errors: FieldError[]; message: string };

/**
 * The per-kind chain. Kinds are keyed by API group and kind (`apps.kruise.io/CloneSet`),
 * so v1alpha1 and v1beta1 objects share hooks.
 */
export class AdmissionChain {
  private hooks = new Map<string, Required<AdmissionHooks>>();

  /** Adds hooks for a kind (appended after hooks registered earlier). */
  register(apiVersion: string, kind: string, hooks: AdmissionHooks): this {
    const key = `${groupOf(apiVersion)}/${kind}`;
    const cur = this.hooks.get(key) ?? { defaulters: [], mutators: [], validators: [] };
    cur.defaulters.push(...(hooks.defaulters ?? []));
    cur.mutators.push(...(hooks.mutators ?? []));
    cur.validators.push(...(hooks.validators ?? []));
    this.hooks.set(key, cur);
    return this;
  }

  /** True when any hook is registered for the kind. */
  handles(apiVersion: string, kind: string): boolean {
    return this.hooks.has(`${groupOf(apiVersion)}/${kind}`);
  }

  /** A copy of this chain (the simulation owns its copy; registering later does not leak). */
  clone(): AdmissionChain {
    const c = new AdmissionChain();
    for (const [k, h] of this.hooks)
      c.hooks.set(k, {
        defaulters: [...h.defaulters],
        mutators: [...h.mutators],
        validators: [...h.validators],
      });
    return c;
  }

  /**
   * Runs defaulters, mutators and validators. Hooks that throw are reported as
   * an internal error (the object is rejected) rather than crashing the run.
   */
  admit(obj: KubeObject, ctx: AdmissionContext): AdmissionResult {
    const h = this.hooks.get(`${groupOf(obj.apiVersion)}/${obj.kind}`);
    if (!h) return { allowed: true, object: obj };
    let cur = obj;
    try {
      for (const d of h.defaulters) cur = d(cur, ctx);
      for (const m of h.mutators) cur = m(cur, ctx);
      const errors: FieldError[] = [];
      for (const v of h.validators) errors.push(...v(cur, ctx));
      if (errors.length > 0) return { allowed: false, errors, message: invalidMessage(cur, errors) };
    } catch (e) {
      const message = `Internal error occurred: admission of ${obj.kind} "${obj.metadata.name ?? ''}" failed: ${
        e instanceof Error ? e.message : String(e)
      }`;
      return { allowed: false, errors: [], message };
    }
    return { allowed: true, object: cur };
  }
}

/**
 * The API server's 422 message: `The <Kind> "<name>" is invalid: <error>`, or
 * with several errors `The <Kind> "<name>" is invalid: [<e1>, <e2>]`.
 *
 * Example: `The CloneSet "sample" is invalid: spec.replicas: Invalid value: -1: replicas must be >= 0`.
 */
export function invalidMessage(obj: KubeObject, errors: FieldError[]): string {
  const parts = errors.map(formatFieldError);
  const body = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  return `The ${obj.kind} "${obj.metadata.name ?? obj.metadata.generateName ?? ''}" is invalid: ${body}`;
}
