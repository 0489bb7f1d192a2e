// The caches a caller passes in change no answer: the annotation cache of reconcileSidecarSet and
// updatePodSidecarSetHash, the structure cache of injectSidecars; and the readers the controller
// uses on every pod (the injected-list membership, the digest comparison of SS-5.5.3) agree with
// their plain definitions.
import { createStructureCache, type SidecarSet } from '@kruise-ts/api';
import fc from 'fast-check';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { SidecarSetAnnotationCache } from '../src/annotationCache';
import { getInjectedList, isInInjectedList, parseUpgradeSpecMap } from '../src/annotations';
import {
  defaultSidecarSetThenHash,
  injectSidecars,
  isPodStateConsistent,
  reconcileSidecarSet,
} from '../src/index';
import { updatePodSidecarSetHash } from '../src/update';
import { injectedPods, runPod } from './kubelet';

const NOW = '2025-06-01T00:00:00Z';
const RUNS = { seed: 22, numRuns: 300 };

function makeSet(image: string, maxUnavailable: number | string = 2): SidecarSet {
  return defaultSidecarSetThenHash({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'log', resourceVersion: '5', generation: 1 },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'agent', image: `agent:${image}` }],
      updateStrategy: { type: 'RollingUpdate', maxUnavailable },
    },
  });
}

describe('isInInjectedList', () => {
  it('answers as getInjectedList(...).includes(name)', () => {
    const item = fc.constantFrom('', 'a', 'ab', 'b', 'log', 'a,b', ',');
    fc.assert(
      fc.property(fc.array(item, { maxLength: 5 }), item, (items, name) => {
        const annotations = { 'kruise.io/sidecarset-injected-list': items.join(',') };
        expect(isInInjectedList(annotations, name)).toBe(getInjectedList(annotations).includes(name));
      }),
      RUNS,
    );
    expect(isInInjectedList(undefined, 'log')).toBe(false);
    expect(isInInjectedList({ 'kruise.io/sidecarset-injected-list': 'blog,logs' }, 'log')).toBe(false);
    expect(isInInjectedList({ 'kruise.io/sidecarset-injected-list': 'blog,log' }, 'log')).toBe(true);
  });
});

describe('SidecarSetAnnotationCache', () => {
  const texts = [
    '{"log":{"updateTimestamp":"2025-01-01T00:00:00Z","hash":"h1","sidecarSetName":"log","sidecarList":["agent"]}}',
    '{"log":"legacy-hash"}',
    'not json',
    'null',
  ];

  it('upgradeSpecMap gives what parseUpgradeSpecMap gives, frozen, once per text', () => {
    const cache = new SidecarSetAnnotationCache();
    for (const t of texts) {
      const cached = cache.upgradeSpecMap(t);
      expect(cached).toEqual(parseUpgradeSpecMap(t));
      expect(cache.upgradeSpecMap(t)).toBe(cached);
      if (cached) expect(Object.isFrozen(cached.entries)).toBe(true);
    }
  });

  it('starts afresh when full and still answers the same', () => {
    const cache = new SidecarSetAnnotationCache(1);
    for (const t of [...texts, ...texts]) expect(cache.upgradeSpecMap(t)).toEqual(parseUpgradeSpecMap(t));
  });

  it('updatePodSidecarSetHash writes the same annotations with and without one, and never changes the shared entry', () => {
    const cache = new SidecarSetAnnotationCache();
    const ss = makeSet('v2');
    for (const t of texts) {
      const annotations = { 'kruise.io/sidecarset-hash': t, other: 'x' };
      const plain = updatePodSidecarSetHash(annotations, ss, NOW, 'log-rev');
      expect(updatePodSidecarSetHash(annotations, ss, NOW, 'log-rev', cache)).toEqual(plain);
      expect(updatePodSidecarSetHash(annotations, ss, NOW, 'log-rev', cache)).toEqual(plain);
      expect(cache.upgradeSpecMap(t)).toEqual(parseUpgradeSpecMap(t));
    }
  });

  it('reconcileSidecarSet answers the same with a cache kept across rounds as with none', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('old', 'new', 'notReady'), { minLength: 1, maxLength: 10 }),
        fc.constantFrom<number | string>(1, 3, '50%'),
        (states, maxUnavailable) => {
          const v1 = makeSet('v1');
          const v2 = makeSet('v2', maxUnavailable);
          const pods: Pod[] = states.map((s, i) => {
            const [pod] = injectedPods(1, [s === 'new' ? v2 : v1], { app: 'web' }, `p${i}`);
            const run = runPod(pod);
            if (s !== 'notReady') return run;
            return { ...run, status: { ...run.status, conditions: [{ type: 'Ready', status: 'False' }] } };
          });
          const kept = new SidecarSetAnnotationCache();
          const input = { sidecarSet: v2, pods, now: NOW };
          const plain = reconcileSidecarSet(input);
          expect(reconcileSidecarSet(input, { annotationCache: kept })).toEqual(plain);
          expect(reconcileSidecarSet(input, { annotationCache: kept })).toEqual(plain);
        },
      ),
      { seed: 22, numRuns: 60 },
    );
  });
});

describe('injectSidecars with a structure cache', () => {
  it('answers as without one, for good and malformed pods and SidecarSets', () => {
    const good = makeSet('v1');
    const broken = {
      ...makeSet('v1'),
      metadata: { name: 'broken' },
      spec: { containers: 5 },
    } as unknown as SidecarSet;
    const [pod] = injectedPods(1, [], { app: 'web' });
    const badPod = { ...pod, metadata: { ...pod.metadata, labels: null } } as unknown as Pod;
    const cache = createStructureCache();
    for (let round = 0; round < 2; round++) {
      for (const p of [pod, badPod]) {
        for (const sets of [[good], [good, broken], [broken]]) {
          expect(injectSidecars(p, sets, { now: NOW, structureCache: cache })).toEqual(
            injectSidecars(p, sets, { now: NOW }),
          );
        }
      }
    }
  });
});

describe('isPodStateConsistent over digest references (SS-5.5.3)', () => {
  const digest = 'sha256:0123456789abcdef';
  const podWith = (image: string, imageID: string): Pod => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default' },
    spec: { containers: [{ name: 'agent', image }] },
    status: {
      containerStatuses: [{ name: 'agent', image, imageID, ready: true, restartCount: 0 }],
    } as Pod['status'],
  });
  const ss = makeSet('v1');

  it('compares repository and digest after the scheme prefix', () => {
    expect(isPodStateConsistent(podWith(`agent@${digest}`, `docker-pullable://agent@${digest}`), ss)).toBe(
      true,
    );
    expect(isPodStateConsistent(podWith(`agent@${digest}`, `docker-pullable://other@${digest}`), ss)).toBe(
      false,
    );
    expect(isPodStateConsistent(podWith(`agent@${digest}`, 'docker-pullable://agent@sha256:ffff'), ss)).toBe(
      false,
    );
  });

  it('treats an image that only looks like a digest as a tag (the update-completed check)', () => {
    // `@sha256:` without hex digits, and a line break in the repository, are not digest references
    expect(isPodStateConsistent(podWith('agent@sha256:', 'docker-pullable://x@sha256:1'), ss)).toBe(true);
    expect(isPodStateConsistent(podWith(`ag\nent@${digest}`, 'docker-pullable://x@sha256:1'), ss)).toBe(true);
  });
});
