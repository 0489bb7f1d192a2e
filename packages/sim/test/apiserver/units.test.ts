// Unit tests of the API server's pure parts: printer-column JSONPath, the
// tableconvertor cell rules, kubectl's pod STATUS logic, version priority,
// selectors and webhook rule matching.
import { crdManifests, type KubeObject } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import { compileFilter, matchesFilter, parseFieldSelector } from '../../src/apiserver/filters';
import { evalJsonPath } from '../../src/apiserver/jsonpath';
import { podRow } from '../../src/apiserver/printers';
import { compareVersions, Registry } from '../../src/apiserver/registry';
import { toTable, wantsTable } from '../../src/apiserver/tables';
import { ruleMatches } from '../../src/apiserver/webhooks';

const NOW = Date.parse('2026-01-01T01:00:00Z');

describe('printer-column JSONPath', () => {
  const obj = {
    metadata: { labels: { 'crr.apps.kruise.io/node-name': 'node-1' } },
    spec: { template: { spec: { containers: [{ name: 'nginx' }, { name: 'sidecar' }] } } },
  };
  it('[*] gives every match', () => {
    expect(evalJsonPath(obj, '.spec.template.spec.containers[*].name')).toEqual(['nginx', 'sidecar']);
  });
  it('escaped dots name one key', () => {
    expect(evalJsonPath(obj, '.metadata.labels.crr\\.apps\\.kruise\\.io/node-name')).toEqual(['node-1']);
  });
  it('indexes, negative indexes and missing paths', () => {
    expect(evalJsonPath(obj, '.spec.template.spec.containers[-1].name')).toEqual(['sidecar']);
    expect(evalJsonPath(obj, '.status.replicas')).toEqual([]);
    expect(evalJsonPath(obj, '.spec[')).toEqual([]);
  });
});

describe('tableconvertor rules (CRD columns)', () => {
  const reg = new Registry(crdManifests());
  const res = reg.lookup('apps.kruise.io', 'v1alpha1', 'clonesets')!;
  const cs: KubeObject = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'sample', creationTimestamp: '2026-01-01T00:54:30Z' },
    spec: {
      replicas: 5,
      template: {
        spec: {
          containers: [
            { name: 'nginx', image: 'nginx:alpine' },
            { name: 'side', image: 'busybox' },
          ],
        },
      },
    },
    status: { replicas: 5, readyReplicas: 4 },
  };
  const t = toTable(res, [cs], NOW) as any;
  it('Name first, integers as JSON integers, missing values null', () => {
    expect(t.columnDefinitions[0]).toMatchObject({ name: 'Name', type: 'string', format: 'name' });
    expect(t.rows[0].cells.slice(0, 7)).toEqual(['sample', 5, null, null, null, 4, 5]);
  });
  it('date → HumanDuration (5m30s), string → matches joined with a space', () => {
    expect(t.rows[0].cells[7]).toBe('5m30s');
    expect(t.rows[0].cells[8]).toBe('nginx side');
    expect(t.rows[0].cells[9]).toBe('nginx:alpine busybox');
  });
  it('includeObject Metadata (default) / None', () => {
    expect(t.rows[0].object).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: cs.metadata,
    });
    expect((toTable(res, [cs], NOW, { include: 'None' }) as any).rows[0].object).toBeUndefined();
  });
  it('Accept header: Table v1 first, then v1beta1', () => {
    expect(wantsTable('application/json;as=Table;v=v1;g=meta.k8s.io,application/json')).toBe('v1');
    expect(wantsTable('application/json;as=Table;v=v1beta1;g=meta.k8s.io')).toBe('v1beta1');
    expect(wantsTable('application/json')).toBeUndefined();
  });
});

describe("kubectl's pod STATUS / READY / RESTARTS (printPod)", () => {
  const pod = (status: any, extra: any = {}): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', creationTimestamp: '2026-01-01T00:00:00Z', ...extra },
    spec: { containers: [{ name: 'a' }, { name: 'b' }], nodeName: 'node-1' },
    status,
  });
  it('running and ready: 2/2 Running, age 60m', () => {
    const cs = { ready: true, restartCount: 0, state: { running: {} } };
    expect(
      podRow(pod({ phase: 'Running', containerStatuses: [cs, cs], podIP: '10.0.0.1' }), NOW).slice(1, 7),
    ).toEqual(['2/2', 'Running', '0', '60m', '10.0.0.1', 'node-1']);
  });
  it('a waiting reason wins (ContainerCreating, CrashLoopBackOff)', () => {
    const r = podRow(
      pod({ phase: 'Pending', containerStatuses: [{ state: { waiting: { reason: 'ContainerCreating' } } }] }),
      NOW,
    );
    expect(r[2]).toBe('ContainerCreating');
  });
  it('restarts with the last termination: "3 (5m ago)"', () => {
    const cs = {
      ready: true,
      restartCount: 3,
      state: { running: {} },
      lastState: { terminated: { finishedAt: '2026-01-01T00:55:00Z' } },
    };
    expect(podRow(pod({ phase: 'Running', containerStatuses: [cs] }), NOW)[3]).toBe('3 (5m ago)');
  });
  it('init containers: Init:0/1, Init:Error', () => {
    const p = (s: any) => ({
      ...pod(s),
      spec: { containers: [{ name: 'a' }], initContainers: [{ name: 'i' }] },
    });
    expect(podRow(p({ phase: 'Pending', initContainerStatuses: [{ state: { running: {} } }] }), NOW)[2]).toBe(
      'Init:0/1',
    );
    expect(
      podRow(
        p({
          phase: 'Pending',
          initContainerStatuses: [{ state: { terminated: { exitCode: 1, reason: 'Error' } } }],
        }),
        NOW,
      )[2],
    ).toBe('Init:Error');
  });
  it('deletionTimestamp → Terminating; missing values → <none>', () => {
    const r = podRow(
      {
        ...pod({ phase: 'Running' }, { deletionTimestamp: '2026-01-01T00:59:00Z' }),
        spec: { containers: [] },
      },
      NOW,
    );
    expect(r[2]).toBe('Terminating');
    expect(r.slice(5)).toEqual(['<none>', '<none>', '<none>', '<none>']);
  });
});

describe('registry', () => {
  it('kube-aware version priority: v1 > v1beta1 > v1alpha1, v2 > v1', () => {
    expect(['v1alpha1', 'v1', 'v1beta1', 'v2'].sort(compareVersions)).toEqual([
      'v2',
      'v1',
      'v1beta1',
      'v1alpha1',
    ]);
  });
  it('every CRD version is served with its scale paths and printer columns', () => {
    const reg = new Registry(crdManifests());
    const sts = reg.lookup('apps.kruise.io', 'v1beta1', 'statefulsets')!;
    expect(sts.scale).toMatchObject({
      specReplicasPath: '.spec.replicas',
      labelSelectorPath: '.status.labelSelector',
    });
    expect(sts.shortNames).toContain('asts');
    expect(reg.lookup('apps.kruise.io', 'v1alpha1', 'sidecarsets')!.namespaced).toBe(false);
    expect(reg.lookup('', 'v1', 'pods')!.custom).toBe(false);
  });
});

describe('selectors', () => {
  const o: KubeObject = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'e', namespace: 'default', labels: { a: '1' } },
    involvedObject: { kind: 'CloneSet', uid: 'u1' },
  };
  it('field selector over dotted paths (involvedObject.*)', () => {
    expect(matchesFilter(o, compileFilter(null, 'involvedObject.kind=CloneSet,involvedObject.uid=u1'))).toBe(
      true,
    );
    expect(matchesFilter(o, compileFilter(null, 'involvedObject.uid!=u1'))).toBe(false);
    expect(matchesFilter(o, compileFilter('a in (1,2)', 'metadata.name==e'))).toBe(true);
  });
  it('a malformed field selector throws a KruiseError (answered as 400)', () => {
    expect(() => parseFieldSelector('nonsense')).toThrow(/invalid selector/);
  });
});

describe('webhook rules', () => {
  const res = new Registry([]).lookup('', 'v1', 'pods')!;
  const rule = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] };
  it('operations, groups, versions and resources must all match; subresources need their own entry', () => {
    expect(ruleMatches(rule, res, 'CREATE', undefined)).toBe(true);
    expect(ruleMatches(rule, res, 'UPDATE', undefined)).toBe(false);
    expect(ruleMatches(rule, res, 'CREATE', 'status')).toBe(false);
    expect(ruleMatches({ ...rule, resources: ['pods/status'] }, res, 'CREATE', 'status')).toBe(true);
    expect(
      ruleMatches(
        { ...rule, operations: ['*'], resources: ['*'], scope: 'Cluster' },
        res,
        'DELETE',
        undefined,
      ),
    ).toBe(false);
  });
});
