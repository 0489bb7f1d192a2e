// The harness of the upstream scenario files (control_scenarios.json, convergence.json,
// replicas_range.json): the README's pod model and rules H1–H7 on top of core's applyActions
// (create keeps phase "" until an op changes it, delete removes at once, a create for an
// existing pod is a no-op conflict, status writes are stored), and the ops and loops.
//
// It is deliberately not built on @kruise-ts/cluster (as world.ts is): it reproduces the fake
// object store of OpenKruise's unit tests step by step, and the cases assert what that store
// does. A pod stays in phase "" until the scenario moves it (the cluster's store makes it
// Pending and its scheduler and kubelet move it on), a delete removes the pod at once (the
// cluster's kubelet terminates it gracefully), a create for an existing ordinal is kept as the
// same object (the cluster answers 409), and pods become Running or Ready only when an op says
// so, at the seconds the op gives. A kubelet of its own would change what the cases count.
import type { KubeObject, StatefulSet, StatefulSetStatus } from '@kruise-ts/api';
import { createRng, type FeatureGates, type Rng, revisionTemplate } from '@kruise-ts/core';
import { applyActions } from '@kruise-ts/core/apply';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod, PodCondition } from 'kubernetes-types/core/v1';
import { getMinReadySeconds, isRunningAndAvailable, isRunningAndReady } from '../src/predicates';
import { reconcileStatefulSet } from '../src/reconcile';
import { getStatefulSetRevisions } from '../src/revisions';
import { iso } from './world';

export interface ModelPod {
  ordinal: number;
  revision: string | null;
  image: string;
  phase: string;
  ready: boolean;
  readyForSeconds: number | null;
  terminating: boolean;
  lifecycleState: string | null;
}

const T0 = Date.parse('2024-06-01T00:00:00Z');

/** Builds the Advanced StatefulSet of a scenario's `set` description. */
export function scenarioSet(s: any): StatefulSet {
  const inPlace = ['InPlaceIfPossible', 'InPlaceOnly'].includes(
    s.updateStrategy?.rollingUpdate?.podUpdatePolicy,
  );
  const spec: any = {
    replicas: s.replicas,
    podManagementPolicy: s.podManagementPolicy,
    selector: s.selector,
    serviceName: s.serviceName,
    template: {
      metadata: { labels: { ...s.selector.matchLabels } },
      // The in-place policies need the InPlaceUpdateReady gate to pass validation (§2.2 item 6);
      // the Go tests bypass the webhook. The gate does not change what the scenarios assert.
      spec: {
        containers: [{ name: 'nginx', image: 'nginx' }],
        ...(inPlace ? { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] } : {}),
      },
    },
    volumeClaimTemplates: (s.volumeClaimTemplates ?? []).map((n: string) => ({
      metadata: { name: n },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    })),
    revisionHistoryLimit: s.revisionHistoryLimit,
    updateStrategy:
      s.updateStrategy?.rollingUpdate === null ? { type: s.updateStrategy.type } : s.updateStrategy,
  };
  if (s.persistentVolumeClaimRetentionPolicy)
    spec.persistentVolumeClaimRetentionPolicy = s.persistentVolumeClaimRetentionPolicy;
  if (s.scaleStrategy) spec.scaleStrategy = s.scaleStrategy;
  if (s.reserveOrdinals) spec.reserveOrdinals = s.reserveOrdinals;
  if (s.ordinals) spec.ordinals = s.ordinals;
  const metadata: any = {
    name: s.name,
    namespace: s.namespace,
    uid: `${s.name}-uid`,
    generation: 1,
    resourceVersion: '1',
  };
  if (s.deletionTimestamp) {
    metadata.deletionTimestamp = iso(T0);
    metadata.finalizers = ['test/keep'];
  }
  return { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata, spec } as StatefulSet;
}

export class ScenarioHarness {
  objects: KubeObject[] = [];
  nowMs = T0;
  revNames: Record<string, string> = {};
  private counter = 0;
  readonly rng: Rng;
  before: Pod[] = [];

  constructor(
    set: StatefulSet,
    readonly featureGates: Partial<FeatureGates> = {},
    initialStatus: Record<string, unknown> = {},
    initialPods: ModelPod[] = [],
    seed = 7,
  ) {
    this.rng = createRng(seed);
    const r0 = getStatefulSetRevisions(set, []).updateRevision;
    this.revNames.r0 = r0.metadata!.name!;
    const status = { ...initialStatus } as unknown as StatefulSetStatus;
    if (status.currentRevision)
      status.currentRevision = this.revNames[status.currentRevision] ?? status.currentRevision;
    if (status.updateRevision)
      status.updateRevision = this.revNames[status.updateRevision] ?? status.updateRevision;
    this.objects = [
      { ...set, status } as KubeObject,
      { ...r0, metadata: { ...r0.metadata, uid: 'rev-r0', resourceVersion: '1' } } as unknown as KubeObject,
    ];
    for (const p of initialPods) this.putPod(p);
  }

  get now(): string {
    return iso(this.nowMs);
  }
  set(): StatefulSet {
    return this.objects.find((o) => o.kind === 'StatefulSet') as StatefulSet;
  }
  status(): Partial<StatefulSetStatus> {
    return this.set().status ?? {};
  }
  pods(): Pod[] {
    return (this.objects.filter((o) => o.kind === 'Pod') as unknown as Pod[]).sort(
      (a, b) => ordinal(a) - ordinal(b),
    );
  }
  revisions(): ControllerRevision[] {
    return this.objects.filter((o) => o.kind === 'ControllerRevision') as unknown as ControllerRevision[];
  }
  pvcs(): PersistentVolumeClaim[] {
    return this.objects.filter(
      (o) => o.kind === 'PersistentVolumeClaim',
    ) as unknown as PersistentVolumeClaim[];
  }
  podByOrdinal(o: number): Pod | undefined {
    return this.pods().find((p) => ordinal(p) === o);
  }

  /** A model pod as a real pod (README pod model). */
  modelToPod(m: ModelPod): Pod {
    const set = this.set();
    const name = `${set.metadata.name}-${m.ordinal}`;
    const labels: Record<string, string> = {
      ...(set.spec.selector.matchLabels ?? {}),
      'statefulset.kubernetes.io/pod-name': name,
      'apps.kubernetes.io/pod-index': String(m.ordinal),
    };
    if (m.revision) labels['controller-revision-hash'] = this.revNames[m.revision] ?? m.revision;
    if (m.lifecycleState) labels['lifecycle.apps.kruise.io/state'] = m.lifecycleState;
    const conditions: PodCondition[] = [];
    if (m.ready || m.phase === 'Running') {
      const c: PodCondition = { type: 'Ready', status: m.ready ? 'True' : 'False' };
      if (m.ready && m.readyForSeconds !== null)
        c.lastTransitionTime = iso(this.nowMs - m.readyForSeconds * 1000);
      conditions.push(c);
    }
    const volumes = (set.spec.volumeClaimTemplates ?? []).map((t) => ({
      name: t.metadata!.name!,
      persistentVolumeClaim: { claimName: `${t.metadata!.name}-${name}` },
    }));
    const metadata: Pod['metadata'] = {
      name,
      namespace: set.metadata.namespace,
      uid: `pod-${m.ordinal}-${this.counter++}`,
      resourceVersion: '1',
      labels,
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1beta1',
          kind: 'StatefulSet',
          name: set.metadata.name!,
          uid: set.metadata.uid!,
          controller: true,
        },
      ],
      ...(m.terminating ? { deletionTimestamp: this.now } : {}),
    };
    const tplSpec = set.spec.template.spec!;
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata,
      spec: { ...tplSpec, containers: [{ name: 'nginx', image: m.image }], volumes },
      status: m.phase ? { phase: m.phase, conditions } : { conditions },
    } as Pod;
  }

  putPod(m: ModelPod): void {
    const pod = this.modelToPod(m);
    this.objects = [
      ...this.objects.filter((o) => !(o.kind === 'Pod' && o.metadata.name === pod.metadata!.name)),
      pod as unknown as KubeObject,
    ];
  }

  removePod(o: number): void {
    this.objects = this.objects.filter((x) => !(x.kind === 'Pod' && ordinal(x as unknown as Pod) === o));
  }

  private replacePod(next: Pod): void {
    this.objects = this.objects.map((o) =>
      o.kind === 'Pod' && o.metadata.name === next.metadata?.name ? (next as unknown as KubeObject) : o,
    );
  }

  reconcile() {
    this.before = this.pods();
    const result = reconcileStatefulSet(
      {
        statefulSet: this.set(),
        pods: this.pods(),
        revisions: this.revisions(),
        pvcs: this.pvcs(),
        now: this.now,
      },
      { featureGates: this.featureGates },
    );
    if (result.errors.length > 0) throw new Error(`invalid set: ${JSON.stringify(result.errors)}`);
    this.objects = applyActions(
      this.objects,
      result.actions.filter((a) => a.verb !== 'event'),
      this.now,
      { seed: this.counter++ },
    );
    for (const r of this.revisions()) {
      const rev = r.revision ?? 0;
      if (!Object.values(this.revNames).includes(r.metadata!.name!))
        this.revNames[`r${rev - 1}`] = r.metadata!.name!;
    }
    return result;
  }

  setPhaseWherePhaseEmpty(phase: string): void {
    for (const p of this.pods())
      if (!p.status?.phase) this.replacePod({ ...p, status: { ...(p.status ?? {}), phase } });
  }
  setPhase(ordinals: number[], phase: string): void {
    for (const o of ordinals) {
      const p = this.podByOrdinal(o);
      if (p) this.replacePod({ ...p, status: { ...(p.status ?? {}), phase } });
    }
  }
  setReady(ordinals: number[], reset = false, backdateSeconds = 0): void {
    for (const o of ordinals) {
      const p = this.podByOrdinal(o);
      if (!p) continue;
      const conds = p.status?.conditions ?? [];
      const old = conds.find((c) => c.type === 'Ready');
      const wasReady = old?.status === 'True';
      const ready: PodCondition = { type: 'Ready', status: 'True' };
      if (!wasReady || reset) ready.lastTransitionTime = iso(this.nowMs - backdateSeconds * 1000);
      else if (old?.lastTransitionTime) ready.lastTransitionTime = old.lastTransitionTime;
      this.replacePod({
        ...p,
        status: { ...(p.status ?? {}), conditions: [...conds.filter((c) => c.type !== 'Ready'), ready] },
      });
    }
  }
  updateSpec(mutate: (spec: any) => void): void {
    const stored = structuredClone(this.set());
    mutate(stored.spec);
    const set = {
      ...stored,
      metadata: { ...stored.metadata, generation: (stored.metadata.generation ?? 1) + 1 },
    };
    this.objects = this.objects.map((o) => (o.kind === 'StatefulSet' ? (set as KubeObject) : o));
  }
  setImage(image: string): void {
    this.updateSpec((s) => {
      s.template.spec.containers[0].image = image;
    });
  }
  rollbackToOldestRevision(): void {
    const oldest = [...this.revisions()].sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0))[0];
    const tpl = revisionTemplate(oldest)!;
    this.updateSpec((s) => {
      s.template = structuredClone(tpl);
    });
  }

  /** README loop step: the lowest phase-"" pod → Pending; one random pod advances; reconcile. */
  private randomStep(): void {
    const empty = this.pods().find((p) => !p.status?.phase);
    if (empty) this.setPhase([ordinal(empty)], 'Pending');
    const pods = this.pods();
    if (pods.length > 0) {
      const p = pods[this.rng.int(pods.length)];
      if (p.status?.phase === 'Pending') this.setPhase([ordinal(p)], 'Running');
      else if (p.status?.phase === 'Running' && !isRunningAndReady(p))
        this.setReady([ordinal(p)], true, getMinReadySeconds(this.set()));
    }
    this.reconcile();
  }

  scaleUpUntilAvailable(max = 5000): void {
    for (let i = 0; (this.status().updatedAvailableReplicas ?? 0) < (this.set().spec.replicas ?? 1); i++) {
      if (i >= max) throw new Error('scaleUpUntilAvailable did not converge');
      this.randomStep();
    }
  }

  private complete(): boolean {
    const set = this.set();
    const st = this.status();
    const replicas = set.spec.replicas ?? 1;
    const pods = this.pods();
    if (pods.length !== replicas || st.readyReplicas !== replicas) return false;
    const us = set.spec.updateStrategy;
    if (us?.type === 'OnDelete') return true;
    const ru = us?.rollingUpdate;
    if (ru?.paused) return true;
    const rev = (p: Pod) => p.metadata?.labels?.['controller-revision-hash'];
    if (!ru || (ru.partition ?? 0) <= 0) {
      return (st.currentReplicas ?? 0) >= replicas && pods.every((p) => rev(p) === st.currentRevision);
    }
    return pods.every((p, i) => i < (ru.partition ?? 0) || rev(p) === st.updateRevision);
  }

  updateUntilComplete(max = 5000): void {
    this.reconcile();
    for (let i = 0; !this.complete(); i++) {
      if (i >= max) throw new Error('updateUntilComplete did not converge');
      this.randomStep();
    }
  }

  scaleDownUntilReplicas(max = 500): void {
    for (let i = 0; (this.status().replicas ?? 0) > (this.set().spec.replicas ?? 1); i++) {
      if (i >= max) throw new Error('scaleDownUntilReplicas did not converge');
      this.reconcile();
      const top = this.pods().at(-1);
      if (top) {
        this.putPod({
          ordinal: ordinal(top),
          revision: null,
          image: top.spec!.containers[0].image!,
          phase: 'Running',
          ready: true,
          readyForSeconds: 0,
          terminating: true,
          lifecycleState: null,
        });
      }
      this.reconcile();
      const top2 = this.pods().at(-1);
      if (top2) this.removePod(ordinal(top2));
      this.reconcile();
    }
  }

  /** Pod facts for the README's `pods` assertions. */
  podFacts(o: number) {
    const p = this.podByOrdinal(o);
    return {
      runningAndReady: isRunningAndReady(p),
      available: isRunningAndAvailable(p, getMinReadySeconds(this.set()), this.nowMs),
      image: p?.spec?.containers[0].image,
    };
  }

  /** Revision, image, phase, ready, terminating of a pod (for `unchangedExistingPods`). */
  static fingerprint(p: Pod | undefined) {
    return {
      revision: p?.metadata?.labels?.['controller-revision-hash'],
      image: p?.spec?.containers[0].image,
      phase: p?.status?.phase,
      ready: isRunningAndReady(p),
      terminating: !!p?.metadata?.deletionTimestamp,
    };
  }
}

export function ordinal(p: Pod): number {
  return Number((p.metadata?.name ?? '').split('-').pop());
}
