// The change hint of CloneSet's lifecycle refresh (update.ts LIFECYCLE_REFRESH_CHANGES): the
// merge patch built from the hinted keys only must be exactly the full diff's patch, for any pod
// the refresh touches (every lifecycle state, hooks held or released, markPodNotReady with or
// without the KruisePodReady gate, the completion check) and for the pod-template-hash fix.
// (The hint also names `finalizers`, which the refresh never writes — core's refresh goes through
// setPodLifecycleState, not the handler writer — so a hint without it would pass here too; a wider
// hint is only slower, never wrong.)
import type { Lifecycle, LifecycleHook } from '@kruise-ts/api';
import {
  defaultFeatureGates,
  diffPodForPatch,
  diffPodForPatchHinted,
  encodeNotReadyMessages,
  PRE_UPDATE_HOOK_MESSAGE,
} from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import fc from 'fast-check';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { refreshLifecycle } from '../src/lifecycle';
import { LIFECYCLE_REFRESH_CHANGES, withTemplateHashLabel } from '../src/update';
import { makePod } from './builders';

const NOW = '2024-01-01T00:10:00Z';
const REVISION = 'sample-2';

const hook: fc.Arbitrary<LifecycleHook | undefined> = fc.option(
  fc.record(
    {
      labelsHandler: fc.constantFrom<Record<string, string>>({ hold: 'true' }, {}),
      finalizersHandler: fc.constantFrom<string[]>(['example.com/hold'], []),
      markPodNotReady: fc.boolean(),
    },
    { requiredKeys: [] },
  ),
  { nil: undefined },
);
const lifecycle: fc.Arbitrary<Lifecycle | undefined> = fc.option(
  fc.record({ preNormal: hook, inPlaceUpdate: hook, preDelete: hook }, { requiredKeys: [] }),
  { nil: undefined },
);

/** KruisePodReady messages: none, or the lifecycle's pre-update key (which the refresh may remove). */
const notReadyMessage = fc.constantFrom(undefined, '[]', encodeNotReadyMessages([PRE_UPDATE_HOOK_MESSAGE]));
const condition: fc.Arbitrary<PodCondition> = fc
  .record({
    type: fc.constantFrom('Ready', 'InPlaceUpdateReady', 'KruisePodReady'),
    status: fc.constantFrom('True', 'False'),
    message: notReadyMessage,
  })
  .map(({ message, ...c }) => (message === undefined || c.type !== 'KruisePodReady' ? c : { ...c, message }));

const pod: fc.Arbitrary<Pod> = fc
  .record({
    state: fc.constantFrom('PreparingNormal', 'PreparingUpdate', 'Updating', 'Updated', 'Normal', ''),
    revision: fc.constantFrom('sample-1', REVISION),
    holdLabel: fc.boolean(),
    holdFinalizer: fc.boolean(),
    gates: fc.subarray(['InPlaceUpdateReady', 'KruisePodReady']),
    conditions: fc.option(fc.array(condition, { maxLength: 3 }), { nil: undefined }),
    annotations: fc.constantFrom<Record<string, string>>(
      {},
      { 'lifecycle.apps.kruise.io/timestamp': '2024-01-01T00:00:00Z' },
    ),
    templateHash: fc.boolean(),
  })
  .map((o) => {
    const p = makePod('sample-a', {
      revision: o.revision,
      state: o.state,
      labels: o.holdLabel ? { hold: 'true' } : {},
      annotations: o.annotations,
      ...(o.holdFinalizer ? { finalizers: ['example.com/hold'] } : {}),
      readinessGates: o.gates,
      ...(o.conditions !== undefined ? { conditions: o.conditions } : {}),
    });
    if (!o.templateHash) delete p.metadata!.labels!['pod-template-hash'];
    return deepFreeze(p);
  });

describe('CloneSet lifecycle refresh: its change hint covers every change it makes', () => {
  it('the hinted patch equals the full diff (values and key order)', () => {
    const reached = { conditions: 0, finalizers: 0 };
    fc.assert(
      fc.property(pod, lifecycle, (p, lc) => {
        let refreshed = refreshLifecycle(p, {
          lifecycle: lc,
          updateRevision: REVISION,
          featureGates: defaultFeatureGates,
          now: NOW,
        });
        if (!Object.hasOwn(refreshed.metadata?.labels ?? {}, 'pod-template-hash'))
          refreshed = withTemplateHashLabel(refreshed, 'x1');
        const full = diffPodForPatch(p, refreshed);
        const hinted = diffPodForPatchHinted(p, refreshed, LIFECYCLE_REFRESH_CHANGES);
        expect(JSON.stringify(hinted)).toBe(JSON.stringify(full));
        if ('status' in full) reached.conditions++;
        if ((full.metadata as { finalizers?: unknown } | undefined)?.finalizers !== undefined)
          reached.finalizers++;
      }),
      { seed: 1130, numRuns: 400 },
    );
    // the generator reaches condition changes (markPodNotReady's key removed on Updated)
    expect(reached.conditions).toBeGreaterThan(0);
  });

  it('the generator reaches refreshes that change the pod', () => {
    // a PreparingNormal pod with no preNormal hook goes Normal: labels and annotations change
    const p = deepFreeze(makePod('sample-a', { revision: REVISION, state: 'PreparingNormal' }));
    const refreshed = refreshLifecycle(p, {
      lifecycle: undefined,
      updateRevision: REVISION,
      featureGates: defaultFeatureGates,
      now: NOW,
    });
    expect(refreshed).not.toBe(p);
    expect(diffPodForPatchHinted(p, refreshed, LIFECYCLE_REFRESH_CHANGES)).toEqual(
      diffPodForPatch(p, refreshed),
    );
    expect(refreshed.metadata?.labels?.['lifecycle.apps.kruise.io/state']).toBe('Normal');
  });
});
