// docs/reference/core.md 2.3 (launch priority) and 2.4 (patchSpecToPod): upstream cases and the §2.4
// worked example carried through all three batches.
import type { InPlaceUpdateState } from '@kruise-ts/api';
import type { Container, Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { decodeInPlaceUpdateState } from '../src/rollout/inplace/annotations';
import { getContainerLaunchPriority, patchSpecToPod } from '../src/rollout/inplace/patch';
import { deepFreeze } from '../src/testing';
import { loadCases, semantic } from './inplaceHelpers';

const STATE = 'apps.kruise.io/inplace-update-state';

function withoutState(pod: Pod): Pod {
  const annotations = { ...(pod.metadata?.annotations ?? {}) };
  delete annotations[STATE];
  return { ...pod, metadata: { ...pod.metadata, annotations } };
}

describe('patchSpecToPod: upstream cases (inplace_patch_spec_to_pod.json)', () => {
  const cases = loadCases('inplace_patch_spec_to_pod.json');
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const input = deepFreeze(c.input);
    const state: InPlaceUpdateState = {
      revision: '',
      updateTimestamp: null,
      lastContainerStatuses: null,
      ...input.state,
    };
    const spec = { containerImages: {}, containerRefMetadata: {}, containerResources: {}, ...input.spec };
    const r = patchSpecToPod(input.pod, spec, state, input.now, c.featureGates);
    expect(r.error).toBeUndefined();
    expect(semantic(r.state)).toEqual(semantic({ ...c.expected.state }));
    const written = decodeInPlaceUpdateState(r.pod.metadata!.annotations![STATE]!);
    expect(written.ok && semantic(written.value)).toEqual(semantic(c.expected.state));
    expect(semantic(withoutState(r.pod))).toEqual(semantic(c.expected.pod));
  });
});

describe('2.3 launch priority', () => {
  const withKey = (key?: string): Container => ({
    name: 'c',
    env: [
      { name: 'KRUISE_CONTAINER_BARRIER', valueFrom: key === undefined ? {} : { configMapKeyRef: { key } } },
    ],
  });
  it('R2.3.1: key "p_20" → 20; unparsable → 0; no env → no priority', () => {
    expect(getContainerLaunchPriority(withKey('p_20'))).toBe(20);
    expect(getContainerLaunchPriority(withKey('p_-5'))).toBe(-5);
    expect(getContainerLaunchPriority(withKey('p_x'))).toBe(0);
    expect(getContainerLaunchPriority(withKey())).toBe(0);
    expect(getContainerLaunchPriority({ name: 'c' })).toBeUndefined();
  });
});

// ---- §2.4 worked example -----------------------------------------------------------------

const barrier = (p: number) => ({
  name: 'KRUISE_CONTAINER_BARRIER',
  valueFrom: { configMapKeyRef: { key: `p_${p}` } },
});
const reads = (label: string) => ({
  name: 'config',
  valueFrom: { fieldRef: { fieldPath: `metadata.labels['${label}']` } },
});

function examplePod(): Pod {
  return deepFreeze({
    metadata: { labels: { 'label-k1': 'foo', 'label-k2': 'foo' } },
    spec: {
      containers: [
        { name: 'c1', image: 'c1-img', env: [barrier(20), reads('label-k1')] },
        { name: 'c2', image: 'c2-img', env: [barrier(10), reads('label-k2')] },
        { name: 'c3', image: 'c3-img', env: [barrier(0), reads('label-k2')] },
        { name: 'c4', image: 'c4-img', env: [barrier(0)] },
      ],
    },
    status: {
      containerStatuses: ['c1', 'c2', 'c3', 'c4'].map((n) => ({ name: n, imageID: `id-${n}` })),
    },
  } as unknown as Pod);
}

describe('§2.4 worked example: c1 (20), c2 (10), c3 (0), c4 (0); c2 and c3 read label-k2', () => {
  const now = '2024-01-01T00:00:00Z';
  const fresh: InPlaceUpdateState = deepFreeze({
    revision: 'r2',
    updateTimestamp: now,
    lastContainerStatuses: null,
  });
  const spec = deepFreeze({
    containerImages: { c1: 'c1-new', c2: 'c2-new', c4: 'c4-new' },
    containerRefMetadata: { c2: { labels: { 'label-k2': 'bar' } }, c3: { labels: { 'label-k2': 'bar' } } },
    containerResources: {},
  });
  const b1 = patchSpecToPod(examplePod(), spec, fresh, now);
  const images = (p: Pod) => Object.fromEntries(p.spec!.containers.map((c) => [c.name, c.image]));

  it('batch 1 = {c1}; next images {c2, c4}, next metadata {c2, c3}, preCheck [c1]', () => {
    expect(images(b1.pod)).toEqual({ c1: 'c1-new', c2: 'c2-img', c3: 'c3-img', c4: 'c4-img' });
    expect(b1.state.nextContainerImages).toEqual({ c2: 'c2-new', c4: 'c4-new' });
    expect(Object.keys(b1.state.nextContainerRefMetadata ?? {})).toEqual(['c2', 'c3']);
    expect(b1.state.preCheckBeforeNext).toEqual({ containersRequiredReady: ['c1'] });
    expect(b1.pod.metadata!.labels!['label-k2']).toBe('foo');
  });

  const spec2 = {
    containerImages: b1.state.nextContainerImages ?? {},
    containerRefMetadata: b1.state.nextContainerRefMetadata ?? {},
    containerResources: {},
  };
  const b2 = patchSpecToPod(deepFreeze(b1.pod), spec2, deepFreeze(b1.state), now);

  it('batch 2 = {c2} by priority plus c3 through the shared label; label-k2 written; c4 deferred; preCheck [c2, c3]', () => {
    expect(images(b2.pod)).toEqual({ c1: 'c1-new', c2: 'c2-new', c3: 'c3-img', c4: 'c4-img' });
    expect(b2.pod.metadata!.labels!['label-k2']).toBe('bar');
    expect(b2.state.nextContainerImages).toEqual({ c4: 'c4-new' });
    expect(b2.state.nextContainerRefMetadata).toBeUndefined();
    expect(b2.state.preCheckBeforeNext).toEqual({ containersRequiredReady: ['c2', 'c3'] });
  });

  const b3 = patchSpecToPod(
    deepFreeze(b2.pod),
    { containerImages: b2.state.nextContainerImages ?? {}, containerRefMetadata: {}, containerResources: {} },
    deepFreeze(b2.state),
    now,
  );

  it('batch 3 = {c4}; nothing deferred; preCheck removed; three batch records', () => {
    expect(images(b3.pod)).toEqual({ c1: 'c1-new', c2: 'c2-new', c3: 'c3-img', c4: 'c4-new' });
    expect(b3.state.nextContainerImages).toBeUndefined();
    expect(b3.state.preCheckBeforeNext).toBeUndefined();
    expect(b3.state.containerBatchesRecord?.map((r) => r.containers)).toEqual([['c1'], ['c2', 'c3'], ['c4']]);
    expect(b3.state.lastContainerStatuses).toEqual({
      c1: { imageID: 'id-c1' },
      c2: { imageID: 'id-c2' },
      c4: { imageID: 'id-c4' },
    });
  });

  it('D.2: a recorded lastContainerStatuses entry is never overwritten by a later batch', () => {
    const pod = deepFreeze({
      ...b1.pod,
      status: { containerStatuses: [{ name: 'c1', imageID: 'id-c1-NEW' }] },
    } as Pod);
    const again = patchSpecToPod(
      pod,
      { containerImages: { c1: 'c1-newer' }, containerRefMetadata: {}, containerResources: {} },
      b1.state,
      now,
    );
    expect(again.state.lastContainerStatuses?.c1).toEqual({ imageID: 'id-c1' });
  });

  it('2.4 step 2: an invalid metaDataPatch is an error and the pod is returned unchanged', () => {
    const pod = examplePod();
    const r = patchSpecToPod(pod, { ...spec, metaDataPatch: '{not json' }, fresh, now);
    expect(r.error).toMatch(/metadata patch/);
    expect(r.pod).toBe(pod);
  });

  it('2.4 step 8: with the vertical gate off, containerResources is neither applied nor deferred', () => {
    const r = patchSpecToPod(
      examplePod(),
      {
        containerImages: {},
        containerRefMetadata: {},
        containerResources: { c4: { requests: { cpu: '2' } } },
      },
      fresh,
      now,
    );
    expect(r.pod.spec!.containers[3]!.resources).toBeUndefined();
    expect(r.state.nextContainerResources).toBeUndefined();
    expect(r.state.containerBatchesRecord).toEqual([{ timestamp: now, containers: ['c4'] }]);
  });
});
