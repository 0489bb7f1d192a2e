// The upstream scenario files: control_scenarios.json (deterministic multi-step scripts),
// convergence.json (run-to-convergence end states) and the scale-up cases of
// replicas_range.json, driven through reconcileStatefulSet by the README's harness.
import { describe, expect, it } from 'vitest';
import { expectKnownFields } from '../../../test/support/cases';
import { loadCases } from './fixtures';
import { type ModelPod, ordinal, ScenarioHarness, scenarioSet } from './scenarioHarness';

/** The assertion fields the scenario files use; each is checked below when a step carries it. */
const ASSERT_FIELDS = [
  'op',
  'podCount',
  'podOrdinals',
  'unchangedExistingPods',
  'status',
  'pods',
  'allPodsImage',
  'podImages',
];
const POD_FIELDS = ['runningAndReady', 'available', 'image', 'imageNot'];

function runAssert(h: ScenarioHarness, a: any): void {
  expectKnownFields(a, ASSERT_FIELDS, 'assert');
  const pods = h.pods();
  if (a.podCount !== undefined) expect(pods.length).toBe(a.podCount);
  if (a.podOrdinals !== undefined) expect(pods.map(ordinal)).toEqual(a.podOrdinals);
  if (a.unchangedExistingPods) {
    for (const o of a.podOrdinals) {
      const before = h.before.find((p) => ordinal(p) === o);
      expect(ScenarioHarness.fingerprint(h.podByOrdinal(o))).toEqual(ScenarioHarness.fingerprint(before));
    }
  }
  if (a.status !== undefined) expect(h.status()).toMatchObject(a.status);
  for (const [o, want] of Object.entries<any>(a.pods ?? {})) {
    expectKnownFields(want, POD_FIELDS, `pod ${o}`);
    const facts = h.podFacts(Number(o));
    if (want.runningAndReady !== undefined) expect(facts.runningAndReady).toBe(want.runningAndReady);
    if (want.available !== undefined) expect(facts.available).toBe(want.available);
    if (want.image !== undefined) expect(facts.image).toBe(want.image);
    if (want.imageNot !== undefined) expect(facts.image).not.toBe(want.imageNot);
  }
  if (a.allPodsImage !== undefined)
    for (const p of pods) expect(p.spec?.containers[0].image).toBe(a.allPodsImage);
  if (a.podImages !== undefined) {
    expect(Object.fromEntries(pods.map((p) => [String(ordinal(p)), p.spec?.containers[0].image]))).toEqual(
      a.podImages,
    );
  }
}

describe('upstream control_scenarios.json', () => {
  const { scenarios } = loadCases('control_scenarios.json');
  it.each<[string, any]>(scenarios.map((s: any) => [`${s.test}: ${s.case}`, s] as [string, any]))(
    '%s',
    (_n, s: any) => {
      const h = new ScenarioHarness(
        scenarioSet(s.set),
        s.featureGates ?? {},
        s.initialStatus,
        s.initialPods as ModelPod[],
      );
      for (const op of s.ops) {
        switch (op.op) {
          case 'reconcile':
            h.reconcile();
            break;
          case 'setPhaseWherePhaseEmpty':
            h.setPhaseWherePhaseEmpty(op.phase);
            break;
          case 'setRunning':
            h.setPhase(op.ordinals, 'Running');
            break;
          case 'setReady':
            h.setReady(op.ordinals, op.resetReadyTime === true);
            break;
          case 'advanceTime':
            h.nowMs += op.seconds * 1000;
            break;
          case 'changeTemplate':
            h.setImage(op.image);
            break;
          case 'replacePod':
            h.putPod(op.pod);
            break;
          case 'removePod':
            h.removePod(op.ordinal);
            break;
          case 'assert':
            runAssert(h, op);
            break;
          default:
            throw new Error(`unknown op ${op.op}`);
        }
      }
    },
  );
});

describe('upstream convergence.json', () => {
  const { scenarios } = loadCases('convergence.json');
  it.each<[string, any]>(scenarios.map((s: any) => [`${s.test}: ${s.case}`, s] as [string, any]))(
    '%s',
    (_n, s: any) => {
      const h = new ScenarioHarness(
        scenarioSet({ ...s.set, replicas: s.initialReplicas }),
        s.featureGates ?? {},
      );
      for (const phase of s.phases) {
        if (phase.assert) {
          runAssert(h, phase.assert);
          // Retain/Retain: no claim ever keeps a pod ownerRef (R12.2; the Go test checks it too).
          for (const c of h.pvcs())
            expect((c.metadata?.ownerReferences ?? []).some((r) => r.kind === 'Pod')).toBe(false);
          continue;
        }
        switch (phase.do) {
          case 'scaleUpUntilAvailable':
            h.scaleUpUntilAvailable();
            break;
          case 'updateUntilComplete':
            h.updateUntilComplete();
            break;
          case 'scaleDownUntilReplicas':
            h.scaleDownUntilReplicas();
            break;
          case 'changeSpec':
            h.updateSpec((spec) => {
              if (phase.replicas !== undefined) spec.replicas = phase.replicas;
              if (phase.image !== undefined) spec.template.spec.containers[0].image = phase.image;
            });
            break;
          case 'rollbackTemplateToOldestRevision':
            h.rollbackToOldestRevision();
            break;
          default:
            throw new Error(`unknown phase ${phase.do}`);
        }
      }
    },
  );
});

describe('upstream replicas_range.json, scale-up cases (R3.4–R3.5, TestStatefulSetControlWithStartOrdinal)', () => {
  const vectors = loadCases('replicas_range.json').vectors.filter(
    (v: any) => v.expected.podOrdinalsAfterScaleUp,
  );
  it.each<[string, any]>(vectors.map((v: any) => [v.case, v] as [string, any]))('%s', (_n, v: any) => {
    const set = scenarioSet({
      name: 'foo',
      namespace: 'default',
      replicas: v.input.replicas,
      podManagementPolicy: v.input.podManagementPolicy,
      selector: { matchLabels: { foo: 'bar' } },
      serviceName: 'governingsvc',
      volumeClaimTemplates: ['datadir'],
      revisionHistoryLimit: 2,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: null },
      reserveOrdinals: v.input.reserveOrdinals,
      ordinals: { start: v.input.ordinalsStart },
    });
    const h = new ScenarioHarness(set, v.featureGates);
    h.scaleUpUntilAvailable();
    expect(h.pods().map(ordinal)).toEqual(v.expected.podOrdinalsAfterScaleUp);
    expect(h.status()).toMatchObject(v.expected.status);
  });
});
