// Properties of injectSidecars (docs/reference/sidecarset.md §4), each with the spec's own exceptions.
import type { SidecarSet } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import fc from 'fast-check';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { candidateSidecarSets, injectSidecars } from '../src/index';
import { appPod, sidecarSets } from './arbitraries';

const NOW = '2025-01-01T00:00:00Z';
const inject = (p: Pod, sets: SidecarSet[]) =>
  injectSidecars(deepFreeze(p), deepFreeze(sets), { now: NOW, random: () => 0.5 });

/** The injected containers in injection order, with their policy (SS-4.6.3). */
function expectedInjection(sets: SidecarSet[]): { name: string; before: boolean }[] {
  const out: { name: string; before: boolean }[] = [];
  for (const ss of candidateSidecarSets(sets, 'default')) {
    for (const c of ss.spec.containers ?? []) {
      const before = c.podInjectPolicy === 'BeforeAppContainer';
      if (c.upgradeStrategy?.upgradeType === 'HotUpgrade')
        out.push({ name: `${c.name}-1`, before }, { name: `${c.name}-2`, before });
      else out.push({ name: c.name, before });
    }
  }
  return out;
}

describe('injection properties', () => {
  // Exceptions (spec): SidecarSets sharing a container name (SS-3.6; V11 forbids it), and a
  // sidecar named like an app container (SS-4.6.2 replaces it, so on the second pass it is no
  // longer an app container for transferEnv / shareVolumePolicy).
  it('SS-4.6.2: a pod already injected is not injected twice (same SidecarSets → nothing changes)', () => {
    fc.assert(
      fc.property(appPod, sidecarSets(false), (pod, sets) => {
        const once = inject(pod, sets);
        expect(once.errors).toEqual([]);
        const twice = inject(once.pod, sets);
        expect(twice.errors).toEqual([]);
        expect(twice.pod).toEqual(once.pod);
      }),
    );
  });

  it('SS-4.6.2: the app containers keep their relative order; exception: an app container replaced by a same-named sidecar keeps its slot', () => {
    fc.assert(
      fc.property(appPod, sidecarSets(true), (pod, sets) => {
        const out = inject(pod, sets).pod.spec!.containers.map((c) => c.name);
        const apps = pod.spec!.containers.map((c) => c.name);
        const positions = apps.map((n) => out.indexOf(n));
        expect(positions.every((p) => p >= 0)).toBe(true);
        expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      }),
    );
  });

  it('SS-4.6.3: every sidecar lands in its Before/After group, in injection order (empty policy = After)', () => {
    fc.assert(
      fc.property(appPod, sidecarSets(false), (pod, sets) => {
        const out = inject(pod, sets).pod.spec!.containers.map((c) => c.name);
        const apps = pod.spec!.containers.map((c) => c.name);
        const exp = expectedInjection(sets);
        const before = exp.filter((e) => e.before).map((e) => e.name);
        const after = exp.filter((e) => !e.before).map((e) => e.name);
        expect(out).toEqual([...before, ...apps, ...after]);
      }),
    );
  });

  it('SS-4.6.4: volume names stay unique and the pod keeps its own volumes first', () => {
    fc.assert(
      fc.property(appPod, sidecarSets(true), (pod, sets) => {
        const vols = (inject(pod, sets).pod.spec!.volumes ?? []).map((v) => v.name);
        expect(new Set(vols).size).toBe(vols.length);
        expect(vols.slice(0, pod.spec!.volumes!.length)).toEqual(pod.spec!.volumes!.map((v) => v.name));
      }),
    );
  });

  it('SS-4.4.3: every injected container carries IS_INJECTED=true; app containers are untouched', () => {
    fc.assert(
      fc.property(appPod, sidecarSets(false), (pod, sets) => {
        const out = inject(pod, sets).pod.spec!;
        const apps = new Map(pod.spec!.containers.map((c) => [c.name, c] as const));
        for (const c of out.containers) {
          if (apps.has(c.name)) expect(c).toEqual(apps.get(c.name));
          else expect(c.env).toContainEqual({ name: 'IS_INJECTED', value: 'true' });
        }
      }),
    );
  });
});
