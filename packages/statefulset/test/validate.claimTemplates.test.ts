// An Advanced StatefulSet whose container mounts a volume that only a volumeClaimTemplates entry
// provides (docs/reference/statefulset.md §2.2, §R3.15): valid, and its pods get the claim as
// that volume.
import { setDefaultsStatefulSet } from '@kruise-ts/api';
import { formatFieldError } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { reconcileStatefulSet } from '../src/reconcile';
import { validateStatefulSet } from '../src/validation';
import { NOW } from './fixtures';
import { makeSet } from './world';

const claim = {
  metadata: { name: 'data' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
};

function withMount(mount: string) {
  const base = makeSet({ replicas: 2, podManagementPolicy: 'Parallel' });
  return deepFreeze({
    ...base,
    spec: {
      ...base.spec,
      template: {
        ...base.spec.template,
        spec: {
          ...base.spec.template.spec,
          containers: [{ name: 'main', image: 'nginx', volumeMounts: [{ name: mount, mountPath: '/data' }] }],
        },
      },
      volumeClaimTemplates: [claim],
    },
  });
}

describe('volumeClaimTemplates count as volumes of the pod template', () => {
  it('a mount of a claim template validates clean', () => {
    expect(validateStatefulSet(setDefaultsStatefulSet(withMount('data')))).toEqual([]);
  });

  it('the reconcile creates the claims and pods that carry them as the mounted volume', () => {
    const r = reconcileStatefulSet(deepFreeze({ statefulSet: withMount('data'), pods: [], now: NOW }));
    expect(r.errors).toEqual([]);
    const created = r.actions.flatMap((a) => (a.verb === 'create' ? [a.object] : []));
    expect(created.filter((o) => o.kind === 'PersistentVolumeClaim').map((o) => o.metadata.name)).toEqual([
      'data-foo-0',
      'data-foo-1',
    ]);
    const pods = created.filter((o) => o.kind === 'Pod') as unknown as Pod[];
    expect(pods.map((p) => p.metadata?.name)).toEqual(['foo-0', 'foo-1']);
    for (const pod of pods) {
      expect(pod.spec?.volumes).toEqual([
        {
          name: 'data',
          persistentVolumeClaim: { claimName: `data-${pod.metadata?.name}`, readOnly: false },
        },
      ]);
      expect(pod.spec?.containers[0].volumeMounts).toEqual([{ name: 'data', mountPath: '/data' }]);
    }
  });

  it('a mount of a name that is neither a volume nor a claim template is still rejected', () => {
    const errs = validateStatefulSet(setDefaultsStatefulSet(withMount('other')));
    expect(errs.map(formatFieldError)).toEqual([
      'spec.template.spec.containers[0].volumeMounts[0].name: Invalid value: "other": not found',
    ]);
    const r = reconcileStatefulSet(deepFreeze({ statefulSet: withMount('other'), pods: [], now: NOW }));
    expect(r.actions.map((a) => `${a.verb}:${a.reason}`)).toEqual(['event:FailedValidation']);
  });
});
