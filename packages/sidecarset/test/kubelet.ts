// A minimal kubelet for controller tests: container statuses that follow the spec images
// (imageID derived from the image), phase Running and Ready, optionally lagging behind.
import type { SidecarSet } from '@kruise-ts/api';
import { fnv32a } from '@kruise-ts/core';
import type { Pod } from 'kubernetes-types/core/v1';
import { injectSidecars } from '../src/index';

/** The imageID a container running `image` reports. */
export function imageIdOf(image: string): string {
  const repo = image.replace(/[:@].*$/, '');
  return `docker-pullable://${repo}@sha256:${fnv32a(image).toString(16).padStart(8, '0')}`;
}

/** A pod whose status reports every spec container running its spec image, Ready. */
export function runPod(pod: Pod, only?: readonly string[]): Pod {
  const old = new Map((pod.status?.containerStatuses ?? []).map((s) => [s.name, s] as const));
  const statuses = (pod.spec?.containers ?? []).map((c) => {
    const prev = old.get(c.name);
    if (only && prev && !only.includes(c.name)) return prev;
    return {
      name: c.name,
      image: c.image ?? '',
      imageID: imageIdOf(c.image ?? ''),
      ready: true,
      restartCount: 0,
    } as never;
  });
  return {
    ...pod,
    status: {
      ...(pod.status ?? {}),
      phase: 'Running',
      conditions: [
        ...(pod.status?.conditions ?? []).filter((c) => c.type !== 'Ready'),
        { type: 'Ready', status: 'True' },
      ],
      containerStatuses: statuses,
    },
  };
}

/** `count` app pods `<prefix>-<i>` in `default`, injected with `sidecarSets` and running. */
export function injectedPods(
  count: number,
  sidecarSets: SidecarSet[],
  labels: Record<string, string> = { app: 'web' },
  prefix = 'pod',
): Pod[] {
  const out: Pod[] = [];
  for (let i = 0; i < count; i++) {
    const p: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `${prefix}-${i}`,
        namespace: 'default',
        uid: `uid-${prefix}-${i}`,
        labels: { ...labels },
        creationTimestamp: new Date(Date.parse('2025-01-01T00:00:00Z') + i * 1000)
          .toISOString()
          .replace('.000Z', 'Z'),
      },
      spec: { containers: [{ name: 'main', image: 'main:1' }] },
    };
    const r = injectSidecars(p, sidecarSets, { now: '2025-01-01T00:00:00Z' });
    out.push(runPod(r.pod));
  }
  return out;
}
