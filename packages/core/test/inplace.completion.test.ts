// docs/reference/core.md 2.2 (needsBeUnready), 2.6 (completion checks) and R1.11 (resource ops):
// upstream cases inplace_check_completed.json and inplace_vertical.json plus rule tests.
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { quantityEquals } from '../src/kube/quantity';
import { applyResourcePatchOp } from '../src/rollout/inplace/calculate';
import {
  checkPodUpdateCompleted,
  containersUpdateCompleted,
  isContainerResourcesUpdateCompleted,
  needsBeUnready,
} from '../src/rollout/inplace/completion';
import { deepFreeze } from '../src/testing';
import { loadCases } from './inplaceHelpers';

describe('checkPodUpdateCompleted: upstream cases (inplace_check_completed.json)', () => {
  const cases = loadCases('inplace_check_completed.json');
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const r = checkPodUpdateCompleted(deepFreeze(c.input.pod), { featureGates: c.featureGates });
    expect(r.completed).toBe(c.expected.completed);
  });
});

describe('inplace_vertical.json', () => {
  const cases = loadCases('inplace_vertical.json');
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const input = deepFreeze(c.input);
    switch (c.function) {
      case 'applyResourcePatchOp': {
        const r = applyResourcePatchOp(input.op, input.oldTemplate, input.containerResources);
        expect(r.error !== undefined).toBe(c.expected.error);
        for (const [name, res] of Object.entries<any>(c.expected.containerResourcesInclude ?? {})) {
          for (const kind of ['limits', 'requests'] as const) {
            for (const [k, q] of Object.entries(res[kind] ?? {})) {
              expect(quantityEquals((r.containerResources[name] as any)?.[kind]?.[k], q)).toBe(true);
            }
          }
        }
        break;
      }
      case 'isContainerResourcesUpdateCompleted':
        expect(isContainerResourcesUpdateCompleted(input.container, input.containerStatus)).toBe(
          c.expected.completed,
        );
        break;
      case 'checkPodNeedsBeUnready':
        expect(
          needsBeUnready(
            input.pod,
            { containerImages: {}, updateEnvFromMetadata: false, ...input.spec },
            c.featureGates,
          ),
        ).toBe(c.expected.needsUnready);
        break;
      default:
        throw new Error(`unknown function ${c.function}`);
    }
  });
});

const STATE = 'apps.kruise.io/inplace-update-state';

function pod(
  annotations: Record<string, string>,
  statuses: Array<{ name: string; imageID?: string; image?: string }>,
): Pod {
  return deepFreeze({
    metadata: { annotations },
    spec: { containers: [{ name: 'main', image: 'nginx' }] },
    status: { containerStatuses: statuses },
  } as Pod);
}

describe('R2.6 completion rules', () => {
  const state = JSON.stringify({ revision: 'r', lastContainerStatuses: { main: { imageID: 'id-1' } } });

  it('R2.6.1.1: a grace annotation (either key, any value) → not completed', () => {
    expect(checkPodUpdateCompleted(pod({ 'apps.kruise.io/inplace-update-grace': '' }, [])).completed).toBe(
      false,
    );
    expect(checkPodUpdateCompleted(pod({ 'inplace-update-grace': 'x' }, [])).completed).toBe(false);
  });

  it('R2.6.1.3: an unparsable state → not completed; the legacy key is read', () => {
    expect(checkPodUpdateCompleted(pod({ [STATE]: '{oops' }, [])).completed).toBe(false);
    expect(
      checkPodUpdateCompleted(pod({ 'inplace-update-state': state }, [{ name: 'main', imageID: 'id-1' }]))
        .completed,
    ).toBe(false);
  });

  it('R2.6.1.4: a pending next batch → not completed', () => {
    const s = JSON.stringify({ revision: 'r', nextContainerImages: { other: 'x' } });
    expect(checkPodUpdateCompleted(pod({ [STATE]: s }, [])).completed).toBe(false);
  });

  it('R2.6.2.5: done when the imageID changed, or when the status image equals the spec image (nginx → nginx:latest)', () => {
    expect(
      checkPodUpdateCompleted(pod({ [STATE]: state }, [{ name: 'main', imageID: 'id-2' }])).completed,
    ).toBe(true);
    expect(
      checkPodUpdateCompleted(
        pod({ [STATE]: state }, [{ name: 'main', imageID: 'id-1', image: 'nginx:latest' }]),
      ).completed,
    ).toBe(true);
    expect(
      checkPodUpdateCompleted(
        pod({ [STATE]: state }, [{ name: 'main', imageID: 'id-1', image: 'nginx:1.0' }]),
      ).completed,
    ).toBe(false);
  });

  it('R2.6.2.5: a recorded container without a status → not completed', () => {
    expect(checkPodUpdateCompleted(pod({ [STATE]: state }, [])).completed).toBe(false);
  });

  it('R2.6.2.1: an unparsable runtime-containers-meta → not completed', () => {
    const p = pod({ [STATE]: state, 'apps.kruise.io/runtime-containers-meta': 'nope' }, [
      { name: 'main', imageID: 'id-2' },
    ]);
    expect(checkPodUpdateCompleted(p).completed).toBe(false);
  });

  it('R2.6.2.2/R2.6.3: env-from-metadata needs the injected hash predicate when meta exists; no meta = not applicable unless strict', () => {
    const s = {
      revision: 'r',
      updateTimestamp: null,
      lastContainerStatuses: null,
      updateEnvFromMetadata: true,
    };
    const meta = JSON.stringify({
      containers: [{ name: 'main', containerID: 'c1', restartCount: 0, hashes: {} }],
    });
    const withMeta = pod({ 'apps.kruise.io/runtime-containers-meta': meta }, [{ name: 'main' }]);
    expect(containersUpdateCompleted(withMeta, s).completed).toBe(false);
    expect(
      containersUpdateCompleted(withMeta, s, { hashConsistent: (_p, _m, kind) => kind === 'envFromMetadata' })
        .completed,
    ).toBe(true);
    const noMeta = pod({}, [{ name: 'main' }]);
    expect(containersUpdateCompleted(noMeta, s).completed).toBe(true);
    expect(containersUpdateCompleted(noMeta, s, { strictEnvFromMetadata: true }).completed).toBe(false);
  });

  it('R2.6.2.4: meta present and plain-hash consistent → completed even with an unchanged imageID', () => {
    const meta = JSON.stringify({
      containers: [{ name: 'main', containerID: 'c1', restartCount: 0, hashes: {} }],
    });
    const p = pod({ [STATE]: state, 'apps.kruise.io/runtime-containers-meta': meta }, [
      { name: 'main', imageID: 'id-1' },
    ]);
    expect(checkPodUpdateCompleted(p).completed).toBe(false);
    expect(checkPodUpdateCompleted(p, { hashConsistent: (_p, _m, kind) => kind === 'plain' }).completed).toBe(
      true,
    );
  });

  it('R2.6.4: status resources compare by value; absent vs present (even empty) maps differ', () => {
    const c = { name: 'main', resources: { limits: { cpu: '100m' } } };
    expect(
      isContainerResourcesUpdateCompleted(c, { name: 'main', resources: { limits: { cpu: '0.1' } } } as any),
    ).toBe(true);
    expect(
      isContainerResourcesUpdateCompleted(c, {
        name: 'main',
        resources: { limits: { cpu: '0.1' }, requests: {} },
      } as any),
    ).toBe(false);
    expect(isContainerResourcesUpdateCompleted(c, undefined)).toBe(false);
  });
});

describe('2.2 needsBeUnready', () => {
  const gate = {
    spec: { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }], containers: [{ name: 'c' }] },
  } as Pod;
  it('R2.2.1: without the readiness gate → false; with it and an image change → true', () => {
    const spec = { containerImages: { c: 'x' }, containerResources: {}, updateEnvFromMetadata: false };
    expect(needsBeUnready({ spec: { containers: [] } } as Pod, spec)).toBe(false);
    expect(needsBeUnready(gate, spec)).toBe(true);
  });
  it('R2.2.2: with the vertical gate, images plus resources is not "vertical only" → true', () => {
    const spec = {
      containerImages: { c: 'x' },
      containerResources: { c: { requests: { cpu: '1' } } },
      updateEnvFromMetadata: false,
    };
    expect(needsBeUnready(gate, spec, { InPlaceWorkloadVerticalScaling: true })).toBe(true);
  });
  it('R2.2.3: a RestartContainer policy for a changed resource keeps the gate behaviour', () => {
    const p = {
      spec: {
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
        containers: [
          { name: 'c', resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] },
        ],
      },
    } as Pod;
    const spec = {
      containerImages: {},
      containerResources: { c: { limits: { memory: '1Gi' } } },
      updateEnvFromMetadata: false,
    };
    expect(needsBeUnready(p, spec, { InPlaceWorkloadVerticalScaling: true })).toBe(true);
    const cpuOnly = { ...spec, containerResources: { c: { limits: { cpu: '1' } } } };
    expect(needsBeUnready(p, cpuOnly, { InPlaceWorkloadVerticalScaling: true })).toBe(false);
  });
});
