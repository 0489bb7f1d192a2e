// A webhook server's structure cache reaches SidecarSet injection through the descriptor: the
// SidecarSets injected into every new pod are checked once for the server's life, and the answer
// is the same as without a cache.
import { createStructureCache } from '@kruise-ts/api';
import { sidecarSetDescriptor } from '@kruise-ts/sidecarset';
import { describe, expect, it } from 'vitest';
import { deepFreeze, memoryReader } from './memoryReader';

const labels = { app: 'web' };
const sidecarSet = deepFreeze({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  metadata: { name: 'log', uid: 'ss-uid' },
  spec: { selector: { matchLabels: labels }, containers: [{ name: 'log', image: 'busybox' }] },
});
const pod = (name: string) =>
  deepFreeze({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: { containers: [{ name: 'app', image: 'nginx:1' }] },
  });

describe('AdmissionEnv.structureCache', () => {
  const inject = sidecarSetDescriptor.admission?.mutatePod;
  const env = (structureCache?: ReturnType<typeof createStructureCache>) => ({
    operation: 'CREATE' as const,
    featureGates: {},
    reader: memoryReader([sidecarSet]),
    now: '2024-01-01T00:00:00Z',
    kruiseNamespace: 'kruise-system',
    ...(structureCache ? { structureCache } : {}),
  });

  it('is used by sidecar injection: the SidecarSet is checked once and remembered', () => {
    const cache = createStructureCache();
    expect(cache.results.has(sidecarSet)).toBe(false);
    const first = inject?.(pod('a') as never, env(cache));
    expect(first?.errors).toEqual([]);
    expect(cache.results.has(sidecarSet)).toBe(true);
  });

  it('gives the same pods as no cache, call after call', () => {
    const cache = createStructureCache();
    for (const name of ['a', 'b', 'c']) {
      const withCache = inject?.(pod(name) as never, env(cache));
      const without = inject?.(pod(name) as never, env());
      expect(withCache).toEqual(without);
      expect(withCache?.pod.spec?.containers.map((c) => c.name)).toContain('log');
    }
  });
});
