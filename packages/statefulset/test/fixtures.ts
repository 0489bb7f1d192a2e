// Shared test helpers: loading the upstream case files of testdata/upstream/statefulset and
// building pods from their reduced pod descriptions.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { StatefulSet } from '@kruise-ts/api';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';

/** Parses one file of `testdata/upstream/statefulset/`. */
export function loadCases(file: string): any {
  return JSON.parse(
    readFileSync(
      fileURLToPath(new URL(`../../../testdata/upstream/statefulset/${file}`, import.meta.url)),
      'utf8',
    ),
  );
}

export const NOW = '2024-01-01T01:00:00Z';
export const NOW_MS = Date.parse(NOW);

/** RFC 3339 of `NOW` minus `seconds`. */
export function secondsAgo(seconds: number, nowMs = NOW_MS): string {
  return new Date(nowMs - seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** A pod with a name, revision label, lifecycle state, phase and Ready condition. */
export function pod(opts: {
  name: string;
  namespace?: string;
  revision?: string | null;
  lifecycleState?: string | null;
  labels?: Record<string, string>;
  phase?: string;
  ready?: boolean | string | null;
  readyForSeconds?: number | null;
  terminating?: boolean;
  uid?: string;
  nowMs?: number;
}): Pod {
  const labels: Record<string, string> = { ...(opts.labels ?? {}) };
  if (opts.revision) labels['controller-revision-hash'] = opts.revision;
  if (opts.lifecycleState) labels['lifecycle.apps.kruise.io/state'] = opts.lifecycleState;
  const conditions: PodCondition[] = [];
  if (opts.ready !== undefined && opts.ready !== null) {
    const status = opts.ready === true ? 'True' : opts.ready === false ? 'False' : opts.ready;
    const c: PodCondition = { type: 'Ready', status };
    if (opts.readyForSeconds !== undefined && opts.readyForSeconds !== null) {
      c.lastTransitionTime = secondsAgo(opts.readyForSeconds, opts.nowMs);
    }
    conditions.push(c);
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: opts.name,
      namespace: opts.namespace ?? 'default',
      labels,
      ...(opts.uid ? { uid: opts.uid } : {}),
      ...(opts.terminating ? { deletionTimestamp: secondsAgo(1, opts.nowMs) } : {}),
    },
    spec: { containers: [{ name: 'main', image: 'nginx' }] },
    status: { phase: opts.phase ?? 'Running', conditions },
  };
}

/** A minimal v1beta1 set for the pure helpers. */
export function bareSet(
  name: string,
  spec: Partial<StatefulSet['spec']> = {},
  meta: Partial<StatefulSet['metadata']> = {},
): StatefulSet {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'StatefulSet',
    metadata: { name, namespace: 'default', ...meta },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'nginx' }] },
      },
      ...spec,
    },
  } as StatefulSet;
}
