// diffPodForPatchHinted (issue #4 perf) must give exactly diffPodForPatch's patch — same values
// and key order (patches are compared as bytes) — when the pods differ only where the hint says,
// and inPlaceUpdate's `changes` must cover everything it changed.

import fc from 'fast-check';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { setPodLifecycleState } from '../src/pods/lifecycle';
import { diffPodForPatch, diffPodForPatchHinted, type PodChangeHint } from '../src/rollout/inplace/diff';
import { cloneSetRevisionAdapter, inPlaceRefresh, inPlaceUpdate } from '../src/rollout/inplace/update';
import { deepFreeze } from '../src/testing';

const key = fc.constantFrom('a', 'b', 'c', 'app', 'x/y');
const value = fc.constantFrom('1', '2', 'v');
const map = fc.dictionary(key, value, { maxKeys: 4 });
const condition: fc.Arbitrary<PodCondition> = fc.record({
  type: fc.constantFrom('Ready', 'InPlaceUpdateReady', 'KruisePodReady'),
  status: fc.constantFrom('True', 'False'),
});
const conditions = fc.array(condition, { maxLength: 3 });
const containers = fc.array(fc.record({ name: fc.constantFrom('main', 'side'), image: value }), {
  maxLength: 2,
});

/** A pod whose metadata/spec/status also carry keys no hint names (and optional maps). */
const pod: fc.Arbitrary<Pod> = fc
  .record(
    {
      labels: map,
      annotations: map,
      containers,
      conditions,
      phase: fc.constantFrom('Running', 'Pending'),
      metaFirst: fc.boolean(),
    },
    { requiredKeys: ['containers', 'phase', 'metaFirst'] },
  )
  .map(({ labels, annotations, containers, conditions, phase, metaFirst }) => {
    const metadata: Record<string, unknown> = metaFirst ? {} : { name: 'p', uid: 'u' };
    if (annotations !== undefined) metadata.annotations = annotations;
    if (labels !== undefined) metadata.labels = labels;
    if (metaFirst) Object.assign(metadata, { name: 'p', uid: 'u' });
    const status: Record<string, unknown> = { phase };
    if (conditions !== undefined) status.conditions = conditions;
    return { metadata, spec: { nodeName: 'n', containers }, status } as Pod;
  });

/** Map edits of a writer: set or delete keys, or drop the map, or add one that was absent. */
const edit = fc.option(fc.array(fc.tuple(key, fc.option(value, { nil: undefined })), { maxLength: 3 }), {
  nil: undefined,
});

function editMap(m: Record<string, string> | undefined, e: Array<[string, string | undefined]> | undefined) {
  if (e === undefined) return m;
  const out = { ...(m ?? {}) };
  for (const [k, v] of e) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

const HINT: PodChangeHint = {
  metadata: { labels: true, annotations: true },
  spec: { containers: true },
  status: { conditions: true },
};

describe('diffPodForPatchHinted', () => {
  it('equals diffPodForPatch (values and key order) for changes inside the hint', () => {
    fc.assert(
      fc.property(
        pod,
        edit,
        edit,
        fc.option(containers, { nil: undefined }),
        fc.option(conditions, { nil: undefined }),
        fc.boolean(),
        (a, el, ea, cs, conds, dropLabels) => {
          deepFreeze(a);
          const meta = { ...a.metadata };
          meta.labels = editMap(a.metadata?.labels, el);
          meta.annotations = editMap(a.metadata?.annotations, ea);
          if (dropLabels) delete meta.labels;
          const b: Pod = {
            metadata: meta,
            spec: cs ? { ...a.spec!, containers: cs } : a.spec,
            status: conds ? { ...a.status, conditions: conds } : a.status,
          };
          const want = JSON.stringify(diffPodForPatch(a, b));
          expect(JSON.stringify(diffPodForPatchHinted(a, b, HINT))).toBe(want);
          expect(
            JSON.stringify(diffPodForPatchHinted(a, b, { metadata: true, spec: true, status: true })),
          ).toBe(want);
        },
      ),
    );
  });
});

// ---- inPlaceUpdate's `changes` ----------------------------------------------------------

function revision(name: string, image: string, labels: Record<string, string>): ControllerRevision {
  return deepFreeze({
    metadata: { name },
    revision: 1,
    data: JSON.stringify({
      spec: {
        template: {
          $patch: 'replace',
          metadata: { labels },
          spec: { containers: [{ name: 'main', image }] },
        },
      },
    }),
  } as unknown as ControllerRevision);
}

describe('inPlaceUpdate / inPlaceRefresh changes', () => {
  it('the hinted patch of every update equals the full diff (with and without the mutator hint)', () => {
    const mutator = (p: Pod) => setPodLifecycleState(p, 'Updating', '2024-01-01T00:00:00Z', false);
    fc.assert(
      fc.property(
        pod,
        value,
        fc.constantFrom(0, 5),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (p0, image, grace, gate, withMutator, metaChange) => {
          const p = deepFreeze({
            ...p0,
            metadata: {
              ...p0.metadata,
              labels: { ...p0.metadata?.labels, 'controller-revision-hash': 'web-a' },
            },
            spec: {
              ...p0.spec!,
              containers: [{ name: 'main', image: 'old' }],
              ...(gate ? { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] } : {}),
            },
          } as Pod);
          const oldRev = revision('web-a', 'old', { app: 'web' });
          const newRev = revision('web-b', image, metaChange ? { app: 'web', tier: 'x' } : { app: 'web' });
          const r = inPlaceUpdate(p, oldRev, newRev, {
            now: '2024-01-01T00:00:00Z',
            gracePeriodSeconds: grace,
            revisionAdapter: cloneSetRevisionAdapter,
            ...(withMutator
              ? {
                  extraMutator: mutator,
                  extraMutatorChanges: { metadata: { labels: true, annotations: true } },
                }
              : {}),
          });
          if (!r.pod) return;
          expect(r.changes).toBeDefined();
          expect(JSON.stringify(diffPodForPatchHinted(p, r.pod, r.changes!))).toBe(
            JSON.stringify(diffPodForPatch(p, r.pod)),
          );
          // and the refresh after it (grace over → batch applied; or R2.5.3; or nothing)
          const updated = deepFreeze(r.pod);
          const back = deepFreeze({
            ...updated,
            metadata: {
              ...updated.metadata,
              labels: { ...updated.metadata?.labels, 'controller-revision-hash': 'web-a' },
            },
          });
          for (const q of [updated, back]) {
            const f = inPlaceRefresh(q, {
              now: '2024-01-01T00:00:10Z',
              revisionAdapter: cloneSetRevisionAdapter,
            });
            if (!f.changed) continue;
            expect(f.changes).toBeDefined();
            expect(JSON.stringify(diffPodForPatchHinted(q, f.pod, f.changes!))).toBe(
              JSON.stringify(diffPodForPatch(q, f.pod)),
            );
          }
        },
      ),
    );
  });
});
