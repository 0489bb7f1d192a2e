// The pure-function upstream cases of testdata/upstream/statefulset/: reserveOrdinals
// parsing, the replica range, the new pod's revision, update order, the priority comparator,
// pod helpers, PVC retention and revision selection.
import { comparePriority } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { identityMatches, storageMatches } from '../src/identity';
import {
  isMemberOf,
  parentNameAndOrdinal,
  parseReserveOrdinals,
  statefulSetReplicaRange,
} from '../src/ordinals';
import { getMinReadySeconds, isRunningAndReady, runningAndAvailable } from '../src/predicates';
import {
  claimOwnerMatchesSetAndPod,
  hasOwnerRef,
  hasStaleOwnerRef,
  podClaimIsStale,
  updateClaimOwnerRefForSetAndPod,
} from '../src/pvc';
import { isCurrentRevisionNeeded } from '../src/revisionChoice';
import { candidateRevision, getStatefulSetRevisions } from '../src/revisions';
import { sortPodsToUpdate } from '../src/updateOrder';
import { bareSet, loadCases, NOW_MS, pod } from './fixtures';

const named = (vs: any[]) => vs.map((v, i) => [`#${i} ${v.test} ${v.case}`, v] as [string, any]);

describe('upstream reserve_ordinals.json (R3.3)', () => {
  it.each(named(loadCases('reserve_ordinals.json').vectors))('%s', (_n, v) => {
    const set = parseReserveOrdinals(deepFreeze(v.input.reserveOrdinals));
    if (v.expected.invalid) expect(set).toBeUndefined();
    else expect([...(set ?? [])].sort((a, b) => a - b)).toEqual(v.expected.set);
  });
});

describe('upstream replicas_range.json, range cases (R3.4–R3.5)', () => {
  const vectors = loadCases('replicas_range.json').vectors.filter(
    (v: any) => v.expected.slotCount !== undefined,
  );
  it.each(named(vectors))('%s', (_n, v) => {
    const set = bareSet('foo', {
      replicas: v.input.replicas,
      reserveOrdinals: v.input.reserveOrdinals,
      ordinals: { start: v.input.ordinalsStart },
    });
    const r = statefulSetReplicaRange(set, {
      StatefulSetStartOrdinal: v.featureGates?.StatefulSetStartOrdinal ?? false,
    });
    expect(r.end - r.start).toBe(v.expected.slotCount);
    expect(r.reserved.size).toBe(v.expected.reserveOrdinalSetSize);
  });
});

describe('upstream is_current_revision_needed.json (R6.9)', () => {
  it.each(named(loadCases('is_current_revision_needed.json').vectors))('%s', (_n, v) => {
    const i = v.input;
    const slots = i.replicas.map((p: any) => (p ? pod({ name: p.name, revision: p.revision }) : null));
    const set = bareSet(i.setName, {
      reserveOrdinals: i.reserveOrdinals,
      ordinals: { start: i.ordinalsStart },
      updateStrategy: i.updateStrategy,
    });
    const got = isCurrentRevisionNeeded(deepFreeze(set), deepFreeze(slots), {
      ordinal: i.ordinal,
      start: i.ordinalsStart,
      statusCurrentReplicas: i.status.currentReplicas,
      updateRevision: i.updateRevision,
      featureGates: v.featureGates,
    });
    expect(got).toBe(v.expected.useCurrentRevision);
  });
});

describe('upstream sort_pods_to_update.json (R9.1–R9.4)', () => {
  it.each(named(loadCases('sort_pods_to_update.json').vectors))('%s', (_n, v) => {
    const slots = v.input.replicas.map((p: any, idx: number) =>
      p ? pod({ name: `s-${idx}`, revision: p.revision, lifecycleState: p.lifecycleState }) : null,
    );
    const got = sortPodsToUpdate(
      v.input.rollingUpdate,
      v.input.updateRevision,
      v.input.totalReplicas,
      deepFreeze(slots),
      v.featureGates,
    );
    expect(got).toEqual(v.expected.indexes);
  });
});

describe('upstream priority_compare.json (R9.5)', () => {
  it.each(named(loadCases('priority_compare.json').vectors))('%s', (_n, v) => {
    const c = comparePriority(v.input.strategy, v.input.podILabels, v.input.podJLabels);
    const iBeforeJ = c < 0 ? true : c > 0 ? false : v.input.defaultValue;
    expect(iBeforeJ).toBe(v.expected.iBeforeJ);
  });
});

function helperPod(p: any): Pod {
  const volumes = (p.volumes ?? []).map((vol: any) => {
    if (vol.pvcClaimName) return { name: vol.name, persistentVolumeClaim: { claimName: vol.pvcClaimName } };
    if (vol.hostPath) return { name: vol.name, hostPath: { path: vol.hostPath } };
    return { name: vol.name };
  });
  const out = pod({
    name: p.name ?? 'p-0',
    namespace: p.namespace ?? 'default',
    labels: p.labels,
    phase: p.phase ?? 'Running',
    ready: p.readyCondition,
    readyForSeconds: p.readyForSeconds,
    nowMs: NOW_MS,
  });
  out.spec = { ...out.spec!, volumes };
  return out;
}

describe('upstream pod_helpers.json (§1, §3)', () => {
  it.each(named(loadCases('pod_helpers.json').vectors))('%s', (_n, v) => {
    const i = v.input;
    switch (v.function) {
      case 'parentNameAndOrdinal':
        expect(parentNameAndOrdinal(i.podName)).toEqual(v.expected);
        break;
      case 'isMemberOf':
        expect(isMemberOf(i.setName, i.podName)).toBe(v.expected.member);
        break;
      case 'identityMatches':
        expect(
          identityMatches(bareSet(i.set.name, {}, { namespace: i.set.namespace }), helperPod(i.pod)),
        ).toBe(v.expected.matches);
        break;
      case 'storageMatches': {
        const templates = i.set.volumeClaimTemplates.map((n: string) => ({ metadata: { name: n } }));
        const set = bareSet(i.set.name, { volumeClaimTemplates: templates });
        expect(storageMatches(set, helperPod(i.pod))).toBe(v.expected.matches);
        break;
      }
      case 'isRunningAndReady':
        expect(isRunningAndReady(helperPod(i.pod))).toBe(v.expected.runningAndReady);
        break;
      case 'getMinReadySeconds':
        expect(
          getMinReadySeconds(
            bareSet('s', { updateStrategy: { rollingUpdate: i.rollingUpdate ?? undefined } }),
          ),
        ).toBe(v.expected.minReadySeconds);
        break;
      case 'isRunningAndAvailable': {
        const a = runningAndAvailable(helperPod(i.pod), i.minReadySeconds, NOW_MS);
        expect(a.available).toBe(v.expected.available);
        expect(a.waitSeconds).toBe(v.expected.waitSeconds);
        break;
      }
      default:
        throw new Error(`unknown function ${v.function}`);
    }
  });
});

function claimWithRefs(refs: any[]): PersistentVolumeClaim {
  return {
    metadata: {
      name: 'c',
      ownerReferences: refs.map((r) => ({
        apiVersion: 'v1',
        kind: r.kind ?? 'Pod',
        name: r.name ?? '',
        uid: r.uid,
      })),
    },
  };
}

describe('upstream pvc_retention.json (R12.2–R12.3)', () => {
  it.each(named(loadCases('pvc_retention.json').vectors))('%s', (_n, v) => {
    const i = v.input;
    if (v.test === 'TestHasStaleOwnerRef') {
      expect(
        hasStaleOwnerRef(claimWithRefs(i.targetOwnerReferences).metadata!.ownerReferences, i.owner),
      ).toBe(v.expected.hasStaleOwnerRef);
      return;
    }
    if (v.test === 'TestHasOwnerRef') {
      expect(hasOwnerRef(claimWithRefs(i.targetOwnerReferences).metadata!.ownerReferences, i.owner)).toBe(
        v.expected.hasOwnerRef,
      );
      return;
    }
    const set = bareSet(
      i.set.name,
      {
        replicas: i.set.replicas,
        persistentVolumeClaimRetentionPolicy: i.set.persistentVolumeClaimRetentionPolicy,
      },
      { uid: i.set.uid, namespace: i.set.namespace ?? 'default' },
    );
    if (v.test === 'TestPodClaimIsStale') {
      const claims = new Map<string, PersistentVolumeClaim>();
      for (const c of i.claims)
        if (c.exists)
          claims.set(c.claimName, {
            ...claimWithRefs(c.ownerReferences),
            metadata: { ...claimWithRefs(c.ownerReferences).metadata, name: c.claimName },
          });
      const p = pod({ name: i.pod.name, uid: i.pod.uid });
      expect(
        podClaimIsStale(
          i.claims.map((c: any) => c.claimName),
          (n) => claims.get(n),
          p,
        ),
      ).toBe(v.expected.stale);
      return;
    }
    // 'pod in range' uses the pod name's ordinal against [0, replicas) (start 0, nothing reserved).
    const ordinal = parentNameAndOrdinal(i.pod.name).ordinal;
    const podInRange = ordinal >= 0 && ordinal < i.set.replicas;
    const claim = claimWithRefs(i.claimOwnerReferences);
    const owner = { name: i.pod.name, uid: i.pod.uid };
    if (v.test === 'TestClaimOwnerMatchesSetAndPod') {
      expect(claimOwnerMatchesSetAndPod(deepFreeze(claim), set, owner, podInRange)).toBe(v.expected.matches);
    } else {
      const u = updateClaimOwnerRefForSetAndPod(deepFreeze(claim), set, owner, podInRange);
      expect(u.needsUpdate).toBe(v.expected.needsUpdate);
      expect(u.ownerReferences.some((r) => r.uid === i.pod.uid)).toBe(v.expected.hasPodRefAfter);
      expect(u.ownerReferences.some((r) => r.uid === i.set.uid)).toBe(v.expected.hasSetRefAfter);
    }
  });
});

describe('upstream revisions.json (R4.4–R4.5)', () => {
  const templateOf = (label: string) => {
    const image = label.includes('image foo') ? 'foo' : 'nginx';
    return { metadata: { labels: { app: 'foo' } }, spec: { containers: [{ name: 'nginx', image }] } };
  };
  it.each(named(loadCases('revisions.json').vectors))('%s', (_n, v) => {
    const i = v.input;
    const existing: ControllerRevision[] = i.existingRevisions.map((r: any) => {
      const rev = candidateRevision(
        bareSet('foo', { template: templateOf(r.template) }, { uid: 'u' }),
        r.revision,
        0,
      );
      return { ...rev, metadata: { ...rev.metadata, name: r.name } };
    });
    const set = bareSet('foo', { template: templateOf(i.setTemplate) }, { uid: 'u' });
    set.status = {
      replicas: 0,
      readyReplicas: 0,
      availableReplicas: 0,
      currentReplicas: 0,
      updatedReplicas: 0,
      currentRevision: i.statusCurrentRevision,
      collisionCount: i.collisionCount,
    };
    const plan = getStatefulSetRevisions(deepFreeze(set), deepFreeze(existing));
    // A revision created here is named by its hash; the symbolic name is rev<index of its template>.
    const symbolic = (r: ControllerRevision) =>
      existing.some((e) => e.metadata?.name === r.metadata?.name)
        ? r.metadata?.name
        : `rev${r.revision! - 1}`;
    expect(plan.revisions.length).toBe(v.expected.revisionCount);
    expect({ name: symbolic(plan.currentRevision), revision: plan.currentRevision.revision }).toEqual(
      v.expected.current,
    );
    expect({ name: symbolic(plan.updateRevision), revision: plan.updateRevision.revision }).toEqual(
      v.expected.update,
    );
  });
});
