// Upstream cases: apply-subset-template.json (§7.4–7.7), convert-to-subset.json (§8) and
// partition-and-revision.json (§7.9, §8).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  applySubsetTemplate,
  convertToSubset,
  currentPartitionFromPods,
  LABEL_UD_REVISION,
  type SubsetKind,
  stuckPodsToDelete,
  TEMPLATE_FIELD,
  type UnitedDeploymentObject,
} from '../src/index';

const load = (name: string) =>
  JSON.parse(
    readFileSync(
      fileURLToPath(new URL(`../../../testdata/upstream/uniteddeployment/${name}`, import.meta.url)),
      'utf8',
    ),
  );

const kindOf = (k: string): SubsetKind =>
  k === 'AdvancedStatefulSet' ? 'AdvancedStatefulSet' : (k as SubsetKind);

function get(obj: any, path: string): unknown {
  return path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .reduce((o, k) => (o == null ? undefined : o[k]), obj);
}

function render(
  ud: UnitedDeploymentObject,
  kind: SubsetKind,
  subsetName: string,
  extra?: Partial<{ replicas: number; partition: number }>,
) {
  const r = applySubsetTemplate(deepFreeze(ud), {
    kind,
    subsetName,
    revision: 'rev',
    replicas: extra?.replicas ?? 1,
    partition: extra?.partition ?? 0,
  });
  if ('error' in r) throw new Error(r.error);
  return r.object as KubeObject & { spec: any };
}

function simpleUD(
  kind: SubsetKind,
  podTemplate: any,
  subset: any,
  templateSpec: any = {},
): UnitedDeploymentObject {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'UnitedDeployment',
    metadata: { name: 'ud', namespace: 'ns', uid: 'u1' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'x' } },
      template: {
        [TEMPLATE_FIELD[kind]]: {
          metadata: { labels: { app: 'x' } },
          spec: { ...templateSpec, template: podTemplate },
        },
      },
      topology: { subsets: [subset] },
    },
  };
}

describe('upstream apply-subset-template.json', () => {
  for (const v of load('apply-subset-template.json').vectors as any[]) {
    it(v.id, () => {
      const inp = v.input;
      if (inp.ud) {
        const kind = kindOf(inp.ud.spec.template.kind);
        const ud: UnitedDeploymentObject = {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'UnitedDeployment',
          metadata: { name: inp.ud.name, namespace: inp.ud.namespace, uid: 'u1' },
          spec: {
            selector: inp.ud.spec.selector,
            template: {
              [TEMPLATE_FIELD[kind]]: {
                metadata: inp.ud.spec.template.metadata,
                spec: inp.ud.spec.template.spec,
              },
            },
            topology: {
              subsets: inp.ud.spec.topology.subsets.map((s: any) => ({ name: s.name, patch: s.patchRaw })),
            },
          },
        };
        const r = applySubsetTemplate(deepFreeze(ud), {
          kind,
          subsetName: inp.subsetName,
          revision: inp.revision,
          replicas: inp.replicas,
          partition: inp.partition,
        });
        if ('error' in r) throw new Error(r.error);
        const obj = r.object as any;
        expect(obj.metadata.namespace).toBe(v.expected.namespace);
        expect(obj.metadata.labels).toMatchObject(v.expected.labelsContain);
        expect(obj.metadata.annotations).toMatchObject(v.expected.annotationsContain);
        expect(obj.spec.template.metadata.annotations).toMatchObject(
          v.expected.podTemplateAnnotationsContain,
        );
        expect(obj.spec.replicas).toBe(inp.replicas);
      } else if ('templateAffinityRequiredTerms' in inp) {
        const pod = {
          metadata: { labels: { app: 'x' } },
          spec: {
            containers: [{ name: 'c', image: 'i' }],
            ...(inp.templateAffinityRequiredTerms
              ? {
                  affinity: {
                    nodeAffinity: {
                      requiredDuringSchedulingIgnoredDuringExecution: {
                        nodeSelectorTerms: inp.templateAffinityRequiredTerms,
                      },
                    },
                  },
                }
              : {}),
          },
        };
        for (const kind of [
          'StatefulSet',
          ...v.alsoAssertedBy.map((t: string) => t.replace(/^Test|SubsetProvision$/g, '')),
        ]) {
          const k: SubsetKind =
            ({ Asts: 'AdvancedStatefulSet', Cs: 'CloneSet', Deployment: 'Deployment' } as any)[kind] ??
            'StatefulSet';
          const obj = render(simpleUD(k, pod, inp.subset), k, inp.subset.name);
          expect(
            obj.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution
              .nodeSelectorTerms,
          ).toEqual(v.expected.requiredNodeSelectorTerms);
        }
      } else if ('templateTolerations' in inp) {
        const pod = {
          metadata: { labels: { app: 'x' } },
          spec: {
            containers: [{ name: 'c', image: 'i' }],
            ...(inp.templateTolerations ? { tolerations: inp.templateTolerations } : {}),
          },
        };
        for (const k of ['StatefulSet', 'AdvancedStatefulSet', 'CloneSet', 'Deployment'] as SubsetKind[]) {
          const obj = render(simpleUD(k, pod, inp.subset), k, inp.subset.name);
          expect(obj.spec.template.spec.tolerations).toEqual(v.expected.tolerations);
        }
      } else if (inp.podTemplate) {
        for (const k of ['StatefulSet', 'AdvancedStatefulSet', 'CloneSet', 'Deployment'] as SubsetKind[]) {
          const obj = render(simpleUD(k, inp.podTemplate, inp.subset), k, inp.subset.name);
          for (const [path, want] of Object.entries(v.expected.podTemplateFieldEquals)) {
            expect(get(obj.spec.template, path), path).toBe(want);
          }
        }
      } else if (inp.templateKind) {
        const kind = kindOf(inp.templateKind);
        const ud = simpleUD(
          kind,
          { metadata: { labels: { app: 'x' } }, spec: { containers: [] } },
          { name: inp.subsets[0] },
          inp.templateSpec,
        );
        ud.spec.topology = { subsets: inp.subsets.map((name: string) => ({ name })) };
        for (const name of inp.subsets) {
          const obj = render(ud, kind, name);
          expect(obj.spec.strategy.type).toBe(v.expected.perSubset.strategyType);
          expect(obj.spec.strategy.rollingUpdate.maxUnavailable).toBe(v.expected.perSubset.maxUnavailable);
          expect(obj.spec.strategy.rollingUpdate.maxSurge).toBe(v.expected.perSubset.maxSurge);
          expect(obj.spec.minReadySeconds).toBe(v.expected.perSubset.minReadySeconds);
        }
      } else {
        throw new Error(`unhandled vector ${v.id}`);
      }
    });
  }
});

function pod(name: string, labels: Record<string, string>, ready: boolean, phase?: string): Pod {
  return {
    metadata: { name, labels },
    spec: { containers: [] },
    status: {
      ...(phase ? { phase } : {}),
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    },
  };
}

describe('upstream convert-to-subset.json', () => {
  for (const v of load('convert-to-subset.json').vectors as any[]) {
    it(v.id, () => {
      const w = v.input.workload;
      const kind: SubsetKind = w.kind === 'AdvancedStatefulSet' ? 'AdvancedStatefulSet' : w.kind;
      const workload = deepFreeze({
        apiVersion: kind === 'AdvancedStatefulSet' ? 'apps.kruise.io/v1beta1' : 'apps/v1',
        kind: kind === 'AdvancedStatefulSet' ? 'StatefulSet' : w.kind,
        metadata: { name: w.name, labels: w.labels },
        spec: w.spec,
        status: w.status,
      });
      const pods = deepFreeze(
        v.input.pods.map((p: any) => pod(p.name, p.labels, p.ready, p.phase || undefined)),
      );
      const s = convertToSubset(kind, workload, pods, v.input.updatedRevision);
      expect(s.spec).toEqual(v.expected.spec);
      expect(s.status).toEqual(v.expected.status);
      expect(s.pods).toHaveLength(v.expected.podCount);
      expect(s.workload.metadata.name).toBe(v.expected.subsetRefName);
    });
  }
});

describe('upstream partition-and-revision.json', () => {
  for (const v of load('partition-and-revision.json').vectors as any[]) {
    it(v.id, () => {
      if (v.function === 'currentPartitionFromPods') {
        const pods = deepFreeze(v.input.pods.map((p: any) => pod(p.name, p.labels, true)));
        expect(currentPartitionFromPods(pods, v.input.revision)).toBe(v.expected.partition);
      } else {
        const pods = deepFreeze(
          v.input.pods.map((p: any) =>
            pod(`subset-a-${p.ordinal}`, { [LABEL_UD_REVISION]: p.revision }, p.ready),
          ),
        );
        const deleted = new Set(
          stuckPodsToDelete(pods, v.input.newRevision, v.input.partition).map((p) => p.metadata?.name),
        );
        const remaining = v.input.pods
          .filter((p: any) => !deleted.has(`subset-a-${p.ordinal}`))
          .map((p: any) => p.ordinal);
        expect(remaining).toEqual(v.expected.remainingOrdinals);
      }
    });
  }
});
