// Upstream cases: testdata/upstream/uniteddeployment/controller-scenarios.json — multi-step
// reconcile scenarios (§4, §6, §7, §9, §10), run for every workload kind listed per scenario.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { expectKnownFields } from '../../../test/support/cases';
import {
  LABEL_SUBSET_NAME,
  type SubsetKind,
  TEMPLATE_FIELD,
  type UnitedDeploymentObject,
  WORKLOAD_TYPE,
} from '../src/index';
import { type Cluster, settle, workloads } from './harness';

const file = JSON.parse(
  readFileSync(
    fileURLToPath(
      new URL('../../../testdata/upstream/uniteddeployment/controller-scenarios.json', import.meta.url),
    ),
    'utf8',
  ),
);

const NOW = '2024-01-01T00:00:00Z';
const labels = { app: 'demo' };

function buildUD(
  kind: SubsetKind,
  spec: any,
  generation: number,
  prev?: UnitedDeploymentObject,
): UnitedDeploymentObject {
  const templateKind: SubsetKind = spec.templateKind ?? kind;
  const workloadSpec: Record<string, unknown> = {
    selector: { matchLabels: labels },
    template: {
      metadata: { labels },
      spec: { containers: [{ name: 'container-a', image: spec.templateImage ?? 'nginx:1.0' }] },
    },
    ...(spec.templateUpdateStrategy ? { updateStrategy: spec.templateUpdateStrategy } : {}),
  };
  return deepFreeze({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'UnitedDeployment',
    metadata: { name: 'ud', namespace: 'default', uid: 'ud-uid', generation },
    spec: {
      replicas: spec.replicas,
      selector: { matchLabels: labels },
      template: {
        [TEMPLATE_FIELD[templateKind]]: {
          metadata: { labels: spec.templateLabels ?? labels },
          spec: workloadSpec,
        },
      },
      topology: { subsets: spec.subsets },
      ...(spec.updateStrategy ? { updateStrategy: spec.updateStrategy } : {}),
      revisionHistoryLimit: spec.revisionHistoryLimit ?? 10,
    },
    ...(prev?.status ? { status: prev.status } : {}),
  }) as UnitedDeploymentObject;
}

const bySubset = (ws: KubeObject[]) =>
  new Map(ws.map((w) => [w.metadata.labels?.[LABEL_SUBSET_NAME] ?? '', w]));
const replicasOf = (w: KubeObject) => (w.spec as any).replicas;
function partitionOf(kind: SubsetKind, w: KubeObject): number | undefined {
  const s = w.spec as any;
  return kind === 'CloneSet' ? s.updateStrategy?.partition : s.updateStrategy?.rollingUpdate?.partition;
}
const imageOf = (w: KubeObject) =>
  (w.spec as any).template.spec.containers.find((c: any) => c.name === 'container-a')?.image;

const cases: [string, string, SubsetKind, any][] = [];
for (const sc of file.scenarios) {
  for (const kind of Object.keys(sc.tests) as SubsetKind[]) cases.push([sc.id, kind, kind, sc]);
}

describe('upstream controller-scenarios.json', () => {
  it.each(cases)('%s (%s)', (_id, _k, kind, sc) => {
    let cluster: Cluster | undefined;
    for (const step of sc.steps) {
      const gen = (cluster?.ud.metadata.generation ?? 0) + 1;
      const ud = buildUD(kind, step.spec, gen, cluster?.ud);
      if (!cluster) cluster = { ud, objects: [], counter: 0, log: [] };
      else cluster.ud = ud;
      const tkind: SubsetKind = step.spec.templateKind ?? kind;
      // Inputs the step describes must be what the previous steps left.
      if (step.existingBefore) {
        const before = Object.fromEntries(
          [...bySubset(workloads(cluster, WORKLOAD_TYPE[tkind]))].map(([n, w]) => [n, replicasOf(w)]),
        );
        expect(before, `step ${step.step} existingBefore`).toEqual(step.existingBefore);
      }
      if (step.existingBeforeByKind) {
        for (const [k, m] of Object.entries(
          step.existingBeforeByKind as Record<string, Record<string, number>>,
        )) {
          const before = Object.fromEntries(
            [...bySubset(workloads(cluster, WORKLOAD_TYPE[k as SubsetKind]))].map(([n, w]) => [
              n,
              replicasOf(w),
            ]),
          );
          expect(before).toEqual(m);
        }
      }
      if (step.existingBeforeDuplicates) {
        for (const [name, count] of Object.entries(step.existingBeforeDuplicates as Record<string, number>)) {
          const original = bySubset(workloads(cluster, WORKLOAD_TYPE[tkind])).get(name)!;
          for (let i = 1; i < count; i++) {
            cluster.objects.push({
              ...structuredClone(original),
              metadata: {
                ...structuredClone(original.metadata),
                name: `${original.metadata.name}-copy${i}`,
                uid: `copy-${i}`,
              },
            });
          }
          expect(
            workloads(cluster, WORKLOAD_TYPE[tkind]).filter(
              (w) => w.metadata.labels?.[LABEL_SUBSET_NAME] === name,
            ),
          ).toHaveLength(count);
        }
      }
      settle(cluster, NOW);
      const exp = step.expected;
      expectKnownFields(
        exp,
        [
          'workloadCount',
          'workloadCountByKind',
          'workloadReplicas',
          'workloadPartition',
          'workloadImage',
          'workloadUpdateStrategy',
          'specPartitionsUnchanged',
          'status',
        ],
        `step of ${kind}`,
      );
      const ws = workloads(cluster, WORKLOAD_TYPE[tkind]);
      const map = bySubset(ws);
      if (exp.workloadCount !== undefined) expect(ws).toHaveLength(exp.workloadCount);
      if (exp.workloadCountByKind) {
        for (const [k, n] of Object.entries(exp.workloadCountByKind)) {
          expect(workloads(cluster, WORKLOAD_TYPE[k as SubsetKind]), k).toHaveLength(n as number);
        }
      }
      for (const [name, n] of Object.entries(exp.workloadReplicas ?? {}))
        expect(replicasOf(map.get(name)!), name).toBe(n);
      const partitionKinds: string[] = sc.partitionAssertedFor ?? Object.keys(sc.tests);
      if (partitionKinds.includes(kind)) {
        for (const [name, p] of Object.entries(exp.workloadPartition ?? {}))
          expect(partitionOf(kind, map.get(name)!), name).toBe(p);
      }
      for (const [name, img] of Object.entries(exp.workloadImage ?? {}))
        expect(imageOf(map.get(name)!), name).toBe(img);
      if (exp.workloadUpdateStrategy) {
        for (const w of ws) expect((w.spec as any).updateStrategy).toMatchObject(exp.workloadUpdateStrategy);
      }
      if (exp.specPartitionsUnchanged) {
        expect(cluster.ud.spec.updateStrategy?.manualUpdate?.partitions).toEqual(exp.specPartitionsUnchanged);
      }
      if (exp.status !== undefined) expect(cluster.ud.status).toMatchObject(exp.status);
    }
  });
});
