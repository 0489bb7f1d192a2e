// The scenario file format: its typed form and its schema. A scenario file is
// multi-document YAML: one `kind: Scenario` document (cluster, timings, seed,
// steps, invariants) and the manifests a user would `kubectl apply`, applied at
// time 0 in file order.
import type { KubeObject } from '@kruise-ts/api';
import type { NodeConfig, Timings } from '@kruise-ts/cluster';
import type { FeatureGates } from '@kruise-ts/core';
import type { ScheduledFailure } from '../failures';
import { INVARIANT_NAMES, type InvariantConfig } from '../invariantTypes';
import type { Schema } from './schema';

/** apiVersion of the Scenario document. */
export const SCENARIO_API_VERSION = 'sim.kruise-ts.io/v1alpha1';

/** A reference to an object in a step. */
export interface StepTarget {
  kind: string;
  name: string;
  namespace?: string;
  apiVersion: string;
}

/** A wait condition. */
export interface WaitCondition extends StepTarget {
  /** `Ready`, `RolledOut`, `Available`, `Exists`, `Deleted`, or undefined with `fields`. */
  condition?: string;
  /** Dotted paths that must equal the values (`status.updatedReplicas: 5`). */
  fields?: Record<string, unknown>;
  timeoutMs: number;
}

/** One step, after parsing. */
export type Step = { name?: string; atMs?: number; line?: number; index: number } & (
  | { action: 'apply'; objects: KubeObject[] }
  | { action: 'patch'; target: StepTarget; patchType: 'merge' | 'json' | 'strategic'; patch: unknown }
  | { action: 'scale'; target: StepTarget; replicas: number }
  | { action: 'setImage'; target: StepTarget; container?: string; image: string }
  | { action: 'deletePod'; namespace: string; podName?: string; selector?: string; count: number }
  | {
      action: 'crashPod';
      namespace: string;
      podName?: string;
      selector?: string;
      count: number;
      container?: string;
    }
  | {
      action: 'failReadiness';
      namespace: string;
      podName?: string;
      selector?: string;
      count: number;
      container?: string;
      durationMs: number;
    }
  | { action: 'failNode'; node: string }
  | { action: 'recoverNode'; node: string }
  | { action: 'wait'; durationMs: number }
  | { action: 'waitFor'; until: WaitCondition }
  | { action: 'delete'; target: StepTarget }
);

/** A parsed scenario. */
export interface Scenario {
  name: string;
  description?: string;
  seed: number;
  startTime?: string;
  nodes: NodeConfig[];
  timings: Partial<Timings>;
  featureGates: Partial<FeatureGates>;
  resolutionMs?: number;
  failures: ScheduledFailure[];
  invariants: InvariantConfig[];
  /** Manifests applied at time 0, with where they came from. */
  manifests: { object: KubeObject; document?: number; line?: number; file?: string }[];
  steps: Step[];
  /** Stop the run after this much simulated time (default 2h). */
  maxDurationMs: number;
}

const str: Schema = { type: 'string' };
const num: Schema = { type: 'number' };
const int: Schema = { type: 'integer' };
const dur: Schema = { type: 'duration' };
const any: Schema = { type: 'any' };
const strMap: Schema = { type: 'map', values: { type: 'any' } };

const target = { kind: str, name: str, namespace: str, apiVersion: str };
const podPick = { name: str, selector: str, count: int, namespace: str, container: str };

const nodeSchema: Schema = {
  type: 'object',
  fields: {
    name: str,
    namePrefix: str,
    count: int,
    capacity: strMap,
    labels: strMap,
    taints: { type: 'array', items: any },
    unschedulable: { type: 'boolean' },
    images: { type: 'array', items: str },
  },
};

const timingsSchema: Schema = {
  type: 'object',
  fields: {
    imagePull: {
      type: 'oneOf',
      options: [dur, { type: 'object', fields: { default: dur, images: { type: 'map', values: dur } } }],
    },
    containerStart: dur,
    readinessDelay: dur,
    termination: dur,
    jitter: num,
    crashProbability: num,
    crashWithin: dur,
    crashBackoff: dur,
    readinessFailureProbability: num,
    readinessFailure: dur,
    nodeMonitorGracePeriod: dur,
    podEvictionTimeout: dur,
  },
};

const failureSchema: Schema = {
  type: 'step',
  actions: {
    crash: { type: 'object', fields: podPick },
    unready: { type: 'object', fields: { ...podPick, duration: dur } },
    deletePod: { type: 'object', fields: podPick },
    failNode: {
      type: 'oneOf',
      options: [str, { type: 'object', fields: { name: str }, required: ['name'] }],
    },
    recoverNode: {
      type: 'oneOf',
      options: [str, { type: 'object', fields: { name: str }, required: ['name'] }],
    },
  },
  common: { at: dur },
};

const invariantSchema: Schema = {
  type: 'oneOf',
  options: [
    { type: 'string', enum: [...INVARIANT_NAMES] },
    {
      type: 'object',
      fields: {
        name: { type: 'string', enum: [...INVARIANT_NAMES] },
        objectName: str,
        namespace: str,
        kind: {
          type: 'string',
          enum: ['CloneSet', 'StatefulSet', 'DaemonSet', 'SidecarSet', 'UnitedDeployment', 'ImagePullJob'],
        },
      },
      required: ['name'],
    },
  ],
};

const nodeRef: Schema = {
  type: 'oneOf',
  options: [str, { type: 'object', fields: { name: str }, required: ['name'] }],
};

/** The schema of a step. */
export const stepSchema: Schema = {
  type: 'step',
  actions: {
    apply: { type: 'object', fields: { file: str, manifest: any, manifests: { type: 'array', items: any } } },
    patch: {
      type: 'object',
      fields: { ...target, type: { type: 'string', enum: ['merge', 'json', 'strategic'] }, patch: any },
      required: ['kind', 'name', 'patch'],
    },
    scale: { type: 'object', fields: { ...target, replicas: int }, required: ['kind', 'name', 'replicas'] },
    setImage: {
      type: 'object',
      fields: { ...target, container: str, image: str },
      required: ['kind', 'name', 'image'],
    },
    delete: { type: 'object', fields: target, required: ['kind', 'name'] },
    deletePod: { type: 'object', fields: podPick },
    crashPod: { type: 'object', fields: podPick },
    failReadiness: { type: 'object', fields: { ...podPick, duration: dur } },
    failNode: nodeRef,
    recoverNode: nodeRef,
    wait: dur,
    waitFor: {
      type: 'object',
      fields: {
        ...target,
        condition: { type: 'string', enum: ['Ready', 'RolledOut', 'Available', 'Exists', 'Deleted'] },
        fields: strMap,
        timeout: dur,
      },
      required: ['kind', 'name'],
    },
  },
  common: { name: str, at: dur },
};

/** The schema of the Scenario document. */
export const scenarioSchema: Schema = {
  type: 'object',
  required: ['apiVersion', 'kind'],
  fields: {
    apiVersion: { type: 'string', enum: [SCENARIO_API_VERSION] },
    kind: { type: 'string', enum: ['Scenario'] },
    metadata: { type: 'object', fields: { name: str, annotations: strMap, labels: strMap } },
    description: str,
    spec: {
      type: 'object',
      fields: {
        seed: int,
        startTime: str,
        maxDuration: dur,
        cluster: {
          type: 'object',
          fields: {
            nodes: { type: 'array', items: nodeSchema },
            timings: timingsSchema,
            featureGates: { type: 'map', values: { type: 'boolean' } },
            resolution: dur,
            failures: { type: 'array', items: failureSchema },
          },
        },
        invariants: { type: 'array', items: invariantSchema },
        manifests: { type: 'array', items: any },
        manifestFiles: { type: 'array', items: str },
        steps: { type: 'array', items: stepSchema },
      },
    },
  },
};
