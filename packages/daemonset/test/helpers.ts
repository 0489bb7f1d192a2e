// Test builders for the DaemonSet tests: nodes, pods, DaemonSets, upstream case loading
// and a small synchronous "world" that applies reconcile actions like the Go test harness
// (creates/deletes observed immediately, no scheduler, no kubelet).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DaemonSet } from '@kruise-ts/api';
import type { Action } from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { Node, Pod, PodCondition, Taint } from 'kubernetes-types/core/v1';
import { type DaemonSetControllerState, reconcileDaemonSet } from '../src';

/** Loads `testdata/upstream/daemonset/<file>`. */
export function loadUpstream<T = any>(file: string): T {
  return JSON.parse(
    readFileSync(
      fileURLToPath(new URL(`../../../testdata/upstream/daemonset/${file}`, import.meta.url)),
      'utf8',
    ),
  );
}

/** A node with labels and taints. */
export function makeNode(name: string, labels: Record<string, string> = {}, taints: Taint[] = []): Node {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec: { taints } };
}

export interface DsOptions {
  name?: string;
  uid?: string;
  image?: string;
  updateStrategy?: DaemonSet['spec']['updateStrategy'];
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  burstReplicas?: number | string;
  annotations?: Record<string, string>;
  nodeSelector?: Record<string, string>;
  tolerations?: any[];
  lifecycle?: DaemonSet['spec']['lifecycle'];
  generation?: number;
  status?: DaemonSet['status'];
}

/** An Advanced DaemonSet `default/<name>` selecting `{app: <name>}`. */
export function makeDaemonSet(o: DsOptions = {}): DaemonSet {
  const name = o.name ?? 'foo';
  const ds: DaemonSet = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'DaemonSet',
    metadata: {
      name,
      namespace: 'default',
      uid: o.uid ?? `${name}-uid`,
      generation: o.generation ?? 1,
      ...(o.annotations ? { annotations: o.annotations } : {}),
    },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'main', image: o.image ?? 'foo/bar' }],
          ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
          ...(o.tolerations ? { tolerations: o.tolerations } : {}),
        },
      },
      updateStrategy: o.updateStrategy ?? { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      ...(o.minReadySeconds !== undefined ? { minReadySeconds: o.minReadySeconds } : {}),
      ...(o.revisionHistoryLimit !== undefined ? { revisionHistoryLimit: o.revisionHistoryLimit } : {}),
      ...(o.burstReplicas !== undefined ? { burstReplicas: o.burstReplicas } : {}),
      ...(o.lifecycle ? { lifecycle: o.lifecycle } : {}),
    },
  };
  if (o.status) ds.status = o.status;
  return ds;
}

/** Unix seconds → RFC 3339. */
export function iso(unix: number): string {
  return new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A pod of DaemonSet `ds` on `node` with revision `hash`. */
export function makePod(
  ds: DaemonSet,
  name: string,
  node: string,
  hash: string,
  o: {
    ready?: boolean;
    readySince?: number;
    created?: number;
    deleting?: boolean;
    phase?: string;
    labels?: Record<string, string>;
    finalizers?: string[];
    nodeName?: boolean;
  } = {},
): Pod {
  const conditions: PodCondition[] = [];
  if (o.ready !== undefined) {
    conditions.push({
      type: 'Ready',
      status: o.ready ? 'True' : 'False',
      ...(o.readySince !== undefined ? { lastTransitionTime: iso(o.readySince) } : {}),
    });
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: ds.metadata.namespace,
      uid: `${name}-uid`,
      labels: {
        ...(ds.spec.template.metadata?.labels ?? {}),
        'controller-revision-hash': hash,
        ...(o.labels ?? {}),
      },
      ownerReferences: [
        {
          apiVersion: ds.apiVersion,
          kind: 'DaemonSet',
          name: ds.metadata.name ?? '',
          uid: ds.metadata.uid ?? '',
          controller: true,
        },
      ],
      ...(o.created !== undefined ? { creationTimestamp: iso(o.created) } : {}),
      ...(o.deleting ? { deletionTimestamp: iso(o.created ?? 0) } : {}),
      ...(o.finalizers ? { finalizers: o.finalizers } : {}),
    },
    spec: {
      containers: [{ name: 'main', image: 'x' }],
      ...(o.nodeName ? { nodeName: node } : {}),
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
          },
        },
      },
    },
    status: { phase: (o.phase as any) ?? 'Running', conditions },
  };
}

/** Counts of pod creates/deletes among actions. */
export function podCounts(actions: readonly Action[]): { creates: number; deletes: number } {
  let creates = 0;
  let deletes = 0;
  for (const a of actions) {
    if (a.verb === 'create' && a.object.kind === 'Pod') creates++;
    if (a.verb === 'delete' && a.target.kind === 'Pod') deletes++;
  }
  return { creates, deletes };
}

function mergePatch(target: any, patch: any): any {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: any = target && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/**
 * The Go test harness as a world (testdata/upstream/daemonset/README "Scenario harness"): a
 * create adds the pod at once (no creationTimestamp until `clearExpectations`), a delete
 * removes it, revision writes and the status write are applied.
 */
export class HarnessWorld {
  pods: Pod[] = [];
  revisions: ControllerRevision[] = [];
  clock: number;
  controllerState: DaemonSetControllerState | undefined = undefined;
  events = 0;
  private uid = 0;

  constructor(
    public ds: DaemonSet,
    public nodes: Node[],
    clock = 1_000_000,
  ) {
    this.clock = clock;
  }

  sync(seed = 0): { creates: number; deletes: number; actions: Action[]; requeueAfterSeconds?: number } {
    const r = reconcileDaemonSet(
      {
        daemonSet: this.ds,
        nodes: this.nodes,
        pods: this.pods,
        revisions: this.revisions,
        now: iso(this.clock),
        controllerState: this.controllerState,
      },
      { seed },
    );
    if (r.errors.length > 0) throw new Error(`unexpected errors: ${JSON.stringify(r.errors)}`);
    this.apply(r.actions);
    this.ds = { ...this.ds, status: r.status };
    this.controllerState = r.controllerState;
    return { ...podCounts(r.actions), actions: r.actions, requeueAfterSeconds: r.requeueAfterSeconds };
  }

  apply(actions: readonly Action[]): void {
    for (const a of actions) {
      if (a.verb === 'create' && a.object.kind === 'Pod') {
        const pod = a.object as Pod;
        this.pods.push({ ...pod, metadata: { ...pod.metadata, uid: `uid-${++this.uid}` } });
      } else if (a.verb === 'create' && a.object.kind === 'ControllerRevision') {
        this.revisions.push(a.object as unknown as ControllerRevision);
      } else if (a.verb === 'delete' && a.target.kind === 'Pod') {
        this.pods = this.pods.filter((p) => p.metadata?.name !== a.target.name);
      } else if (a.verb === 'delete' && a.target.kind === 'ControllerRevision') {
        this.revisions = this.revisions.filter((r) => r.metadata?.name !== a.target.name);
      } else if (a.verb === 'patch' && a.target.kind === 'Pod') {
        this.pods = this.pods.map((p) => (p.metadata?.name === a.target.name ? mergePatch(p, a.patch) : p));
      } else if (a.verb === 'patch' && a.target.kind === 'ControllerRevision') {
        this.revisions = this.revisions.map((r) =>
          r.metadata?.name === a.target.name ? mergePatch(r, a.patch) : r,
        );
      } else if (a.verb === 'event') {
        this.events++;
      }
    }
  }

  clearExpectations(): void {
    this.pods = this.pods.map((p) =>
      p.metadata?.creationTimestamp
        ? p
        : { ...p, metadata: { ...p.metadata, creationTimestamp: iso(this.clock) } },
    );
  }

  setReady(pod: Pod, ready: boolean): Pod {
    const others = (pod.status?.conditions ?? []).filter((c) => c.type !== 'Ready');
    return {
      ...pod,
      status: {
        ...pod.status,
        conditions: [
          ...others,
          { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: iso(this.clock) },
        ],
      },
    };
  }

  isReady(pod: Pod): boolean {
    return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  }

  markAllPodsReady(): void {
    this.pods = this.pods.map((p) => (this.isReady(p) ? p : this.setReady(p, true)));
  }
}
