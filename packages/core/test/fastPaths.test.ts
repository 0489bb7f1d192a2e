// The per-reconcile fast paths of the in-place protocol: frozen pre-resolved feature gates and
// the UpdateSpec memo. They must give the same results as the plain calls.
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  applyFeatureGateDependencies,
  defaultFeatureGates,
  freezeFeatureGates,
  resolveFeatureGates,
} from '../src/contract/featureGates';
import {
  cachedInPlaceUpdateSpec,
  calculateInPlaceUpdateSpec,
  type InPlaceUpdateSpecCache,
} from '../src/rollout/inplace/calculate';
import { cloneSetRevisionAdapter, inPlaceUpdate } from '../src/rollout/inplace/update';
import { deepFreeze } from '../src/testing';

function revision(name: string, image: string, env?: string): ControllerRevision {
  const container = { name: 'main', image, ...(env ? { env: [{ name: 'E', value: env }] } : {}) };
  return {
    metadata: { name },
    revision: 1,
    data: { spec: { template: { $patch: 'replace', spec: { containers: [container] } } } },
  } as ControllerRevision;
}

const oldRev = deepFreeze(revision('web-aaa', 'nginx:1.25'));
const newRev = deepFreeze(revision('web-bbb', 'nginx:1.27'));
const envRev = deepFreeze(revision('web-ccc', 'nginx:1.25', 'x'));

const pod: Pod = deepFreeze({
  metadata: {
    name: 'web-1',
    labels: { 'controller-revision-hash': 'web-aaa', 'pod-template-hash': 'aaa' },
    annotations: { keep: 'me' },
  },
  spec: {
    containers: [{ name: 'main', image: 'nginx:1.25' }],
    readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
  },
  status: {
    phase: 'Running',
    conditions: [
      { type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' },
      { type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' },
    ],
    containerStatuses: [
      { name: 'main', image: 'nginx:1.25', imageID: 'sha-125', ready: true, restartCount: 0 } as never,
    ],
  },
});

describe('freezeFeatureGates: pre-resolved gates pass through resolveFeatureGates', () => {
  it('a frozen set is returned as is and equals the plain resolution', () => {
    const g = freezeFeatureGates(resolveFeatureGates({ CloneSetShortHash: true }));
    expect(resolveFeatureGates(g)).toBe(g);
    expect({ ...g }).toEqual({ ...defaultFeatureGates, CloneSetShortHash: true });
    expect(Object.isFrozen(g)).toBe(true);
    expect(freezeFeatureGates(g)).toBe(g);
  });

  it('the brand is invisible: keys, JSON and spreads; a spread copy is resolved afresh', () => {
    const g = freezeFeatureGates(applyFeatureGateDependencies(resolveFeatureGates({ KruiseDaemon: false })));
    expect(Object.keys(g)).toEqual(Object.keys(defaultFeatureGates));
    expect(JSON.parse(JSON.stringify(g))).toEqual({ ...g });
    const copy = { ...g };
    const resolved = resolveFeatureGates(copy);
    expect(resolved).not.toBe(copy);
    expect(resolved).toEqual(copy);
    expect(g.InPlaceUpdateEnvFromMetadata).toBe(false); // O3.6 applied before freezing
  });

  it('an unfrozen complete set is still copied (callers may mutate what they get)', () => {
    const plain = resolveFeatureGates();
    const again = resolveFeatureGates(plain);
    expect(again).not.toBe(plain);
    expect(again).toEqual(plain);
  });
});

describe('UpdateSpec memo (one per reconcile)', () => {
  it('computes once per (old, new, grace, VCT flag) and returns the same spec as the plain call', () => {
    const cache: InPlaceUpdateSpecCache = new Map();
    const plain = calculateInPlaceUpdateSpec(oldRev, newRev, { gracePeriodSeconds: 0 });
    const first = cachedInPlaceUpdateSpec(cache, oldRev, newRev, { gracePeriodSeconds: 0 });
    expect(first).toEqual(plain);
    expect(plain?.containerImages).toEqual({ main: 'nginx:1.27' });
    expect(cachedInPlaceUpdateSpec(cache, oldRev, newRev, { gracePeriodSeconds: 0 })).toBe(first);
    expect(cache.size).toBe(1);
    const graced = cachedInPlaceUpdateSpec(cache, oldRev, newRev, { gracePeriodSeconds: 30 });
    expect(graced?.graceSeconds).toBe(30);
    expect(cache.size).toBe(2);
  });

  it('records "recreate" (an env change is not in-place) and answers it from the memo', () => {
    const cache: InPlaceUpdateSpecCache = new Map();
    expect(cachedInPlaceUpdateSpec(cache, oldRev, envRev)).toBeUndefined();
    expect([...cache.values()]).toEqual([null]);
    expect(cachedInPlaceUpdateSpec(cache, oldRev, envRev)).toBeUndefined();
    expect(cachedInPlaceUpdateSpec(cache, undefined, envRev)).toBeUndefined(); // R1.1, not cached
    expect(cache.size).toBe(1);
  });

  it('inPlaceUpdate with a memo and frozen gates returns what the plain call returns, for many pods', () => {
    const cache: InPlaceUpdateSpecCache = new Map();
    const gates = freezeFeatureGates(resolveFeatureGates());
    const opts = { now: '2024-01-01T01:00:00Z', revisionAdapter: cloneSetRevisionAdapter };
    const plain = inPlaceUpdate(pod, oldRev, newRev, opts);
    for (let i = 0; i < 3; i++) {
      const fast = inPlaceUpdate(pod, oldRev, newRev, {
        ...opts,
        featureGates: gates,
        updateSpecCache: cache,
      });
      expect(fast).toEqual(plain);
    }
    expect(plain.pod?.spec?.containers[0]?.image).toBe('nginx:1.27');
    expect(plain.pod?.metadata?.labels?.['controller-revision-hash']).toBe('web-bbb');
    expect(plain.pod?.metadata?.annotations?.keep).toBe('me');
    expect(cache.size).toBe(1);
  });

  it('inPlaceUpdate reports an invalid now after computing the spec (R2.1.5), memo or not', () => {
    const cache: InPlaceUpdateSpecCache = new Map();
    const r = inPlaceUpdate(pod, oldRev, newRev, { now: 'yesterday', updateSpecCache: cache });
    expect(r).toMatchObject({ inPlaceUpdate: true, error: 'invalid time yesterday' });
  });
});
