// A UnitedDeployment whose subset template mounts a volume that only a volumeClaimTemplates
// entry provides: the UnitedDeployment is valid and its subset workloads carry the claim
// templates and the mount as written, for the subset kind's own validation (CloneSet, Advanced
// StatefulSet: core validatePodTemplateBasics counts claim templates as volumes) to accept.
import { validatePodTemplateBasics } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import {
  reconcileUnitedDeployment,
  type SubsetKind,
  TEMPLATE_FIELD,
  validateUnitedDeployment,
} from '../src/index';
import { makeUD, NOW } from './fixtures';

const claim = {
  metadata: { name: 'data' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
};
const mount = { name: 'data', mountPath: '/data' };

function udWithClaims(kind: SubsetKind) {
  const ud = makeUD({ replicas: 4 }, { kind });
  const field = TEMPLATE_FIELD[kind];
  const t = (ud.spec.template as Record<string, any>)[field];
  const spec = {
    ...t.spec,
    volumeClaimTemplates: [claim],
    template: {
      ...t.spec.template,
      spec: { containers: [{ ...t.spec.template.spec.containers[0], volumeMounts: [mount] }] },
    },
  };
  return deepFreeze({ ...ud, spec: { ...ud.spec, template: { [field]: { ...t, spec } } } });
}

describe.each(['AdvancedStatefulSet', 'CloneSet'] as const)(
  '%s subsets with a claim template mounted',
  (kind) => {
    it('the UnitedDeployment validates clean', () => {
      expect(validateUnitedDeployment(udWithClaims(kind))).toEqual([]);
    });

    it('each subset workload carries the claim template and the mount, and its pod template passes the shared check', () => {
      const r = reconcileUnitedDeployment(
        deepFreeze({ unitedDeployment: udWithClaims(kind), subsets: [], pods: [], revisions: [], now: NOW }),
      );
      expect(r.errors).toEqual([]);
      const subsets = r.actions.flatMap((a) =>
        a.verb === 'create' && a.object.kind !== 'ControllerRevision' ? [a.object as any] : [],
      );
      expect(subsets).toHaveLength(2);
      for (const s of subsets) {
        expect(s.spec.volumeClaimTemplates).toEqual([claim]);
        expect(s.spec.template.spec.containers[0].volumeMounts).toEqual([mount]);
        // the check validateCloneSet and validateStatefulSet make of a subset's pod template
        expect(
          validatePodTemplateBasics(s.spec.template, 'spec.template', {
            volumeClaimTemplates: s.spec.volumeClaimTemplates,
          }),
        ).toEqual([]);
      }
    });
  },
);
