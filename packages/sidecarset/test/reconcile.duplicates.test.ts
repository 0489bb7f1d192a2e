// reconcileSidecarSet on observed lists that name one object twice: the reconcile answers as if
// each object were listed once, plus one DuplicateObserved Warning event (core dedupeObserved).
import type { SidecarSet } from '@kruise-ts/api';
import { type Action, DUPLICATE_OBSERVED_REASON } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { defaultSidecarSetThenHash, reconcileSidecarSet } from '../src/index';
import { sidecarSet } from './helpers';
import { injectedPods } from './kubelet';

const NOW = '2025-06-01T00:00:00Z';

function logAgent(image: string): SidecarSet {
  return defaultSidecarSetThenHash(
    sidecarSet(
      'log',
      { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'agent', image }] },
      { resourceVersion: '100', generation: 1, uid: 'ss-uid' },
    ),
  );
}

function warnings(actions: readonly Action[]) {
  return actions.filter((a) => a.verb === 'event' && a.reason === DUPLICATE_OBSERVED_REASON);
}

describe('duplicate observed objects', () => {
  it('a pod listed twice is counted and upgraded once, with one warning naming it', () => {
    const pods: Pod[] = injectedPods(2, [logAgent('agent:v1')]);
    const ss = logAgent('agent:v2');
    const once = reconcileSidecarSet(deepFreeze({ sidecarSet: ss, pods, now: NOW }));
    const twice = reconcileSidecarSet(
      deepFreeze({ sidecarSet: ss, pods: [pods[0], pods[0], pods[1]], now: NOW }),
    );
    expect(once.status).toMatchObject({ matchedPods: 2, updatedPods: 0 });
    expect(twice.status).toEqual(once.status);
    expect(twice.actions.slice(1)).toEqual(once.actions);
    expect(warnings(twice.actions)).toEqual([
      {
        verb: 'event',
        involvedObject: {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'SidecarSet',
          name: 'log',
          uid: 'ss-uid',
        },
        type: 'Warning',
        reason: DUPLICATE_OBSERVED_REASON,
        message: 'dropped 1 duplicate observed object (pods: 1): default/pod-0',
      },
    ]);
  });
});
