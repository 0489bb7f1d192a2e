// A CloneSet whose container mounts a volume that only a volumeClaimTemplates entry provides
// (docs/reference/cloneset.md §2.2, §7.2): valid, and its pods get the claim as that volume.
import { setDefaultsCloneSet } from '@kruise-ts/api';
import { formatFieldError } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { reconcileCloneSet } from '../src/reconcile';
import { validateCloneSet } from '../src/validation';
import { makeCloneSet, NOW } from './builders';

const claim = {
  metadata: { name: 'data' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
};

function withMount(mount: string) {
  return deepFreeze(
    makeCloneSet({
      replicas: 2,
      template: {
        metadata: { labels: { app: 'sample' } },
        spec: {
          containers: [
            { name: 'nginx', image: 'nginx:1.25', volumeMounts: [{ name: mount, mountPath: '/data' }] },
          ],
        },
      },
      volumeClaimTemplates: [claim],
    }),
  );
}

describe('volumeClaimTemplates count as volumes of the pod template', () => {
  it('a mount of a claim template validates clean', () => {
    expect(validateCloneSet(setDefaultsCloneSet(withMount('data')))).toEqual([]);
  });

  it('the reconcile creates pods that carry the PVC as the mounted volume, and the PVCs', () => {
    const r = reconcileCloneSet(deepFreeze({ cloneSet: withMount('data'), pods: [], now: NOW }));
    expect(r.errors).toEqual([]);
    const pods = r.actions.flatMap((a) =>
      a.verb === 'create' && a.object.kind === 'Pod' ? [a.object as Pod] : [],
    );
    const pvcs = r.actions.flatMap((a) =>
      a.verb === 'create' && a.object.kind === 'PersistentVolumeClaim' ? [a.object] : [],
    );
    expect(pods).toHaveLength(2);
    expect(pvcs.map((p) => p.metadata.name).sort()).toEqual(
      pods.map((p) => `data-${p.metadata!.name}`).sort(),
    );
    for (const pod of pods) {
      expect(pod.spec!.volumes).toEqual([
        { name: 'data', persistentVolumeClaim: { claimName: `data-${pod.metadata!.name}` } },
      ]);
      expect(pod.spec!.containers[0].volumeMounts).toEqual([{ name: 'data', mountPath: '/data' }]);
    }
  });

  it('a mount of a name that is neither a volume nor a claim template is still rejected', () => {
    const errs = validateCloneSet(setDefaultsCloneSet(withMount('other')));
    expect(errs.map(formatFieldError)).toEqual([
      'spec.template.spec.containers[0].volumeMounts[0].name: Invalid value: "other": not found',
    ]);
    const r = reconcileCloneSet(deepFreeze({ cloneSet: withMount('other'), pods: [], now: NOW }));
    expect(r.actions.map((a) => `${a.verb}:${a.reason}`)).toEqual(['event:FailedValidation']);
  });
});
