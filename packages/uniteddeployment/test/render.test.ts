// §6, §7.4–§7.9 and §8 of docs/reference/uniteddeployment.md: partitions, rendering, affinity, tolerations,
// the subset patch, the stuck-pod workaround and observed partitions.
import type { KubeObject } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  ANNOTATION_SUBSET_PATCH,
  applyPodTemplatePatch,
  applySubsetTemplate,
  calcNextPartitions,
  LABEL_SUBSET_NAME,
  LABEL_UD_REVISION,
  observedPartition,
  type SubsetKind,
  stuckPodsToDelete,
  subsetGenerateName,
  subsetPatchText,
  TEMPLATE_FIELD,
  type UDSubset,
  type UnitedDeploymentObject,
} from '../src/index';

function ud(
  kind: SubsetKind,
  opts: { templateSpec?: any; pod?: any; subsets?: UDSubset[]; meta?: any } = {},
): UnitedDeploymentObject {
  return deepFreeze({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'UnitedDeployment',
    metadata: { name: 'web', namespace: 'prod', uid: 'u1' },
    spec: {
      replicas: 4,
      selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] },
      template: {
        [TEMPLATE_FIELD[kind]]: {
          metadata: opts.meta ?? { labels: { app: 'web', team: 'a' }, annotations: { note: 'x' } },
          spec: {
            ...(opts.templateSpec ?? {}),
            template: opts.pod ?? {
              metadata: { labels: { app: 'web' } },
              spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
            },
          },
        },
      },
      topology: { subsets: opts.subsets ?? [{ name: 'zone-a' }] },
    },
  }) as UnitedDeploymentObject;
}

function render(u: UnitedDeploymentObject, kind: SubsetKind, partition = 2, existing?: KubeObject): any {
  const r = applySubsetTemplate(
    u,
    { kind, subsetName: u.spec.topology!.subsets![0].name, revision: 'web-abc', replicas: 3, partition },
    existing,
  );
  if ('error' in r) throw new Error(r.error);
  return r.object;
}

describe('§6 partitions', () => {
  const subsets = [{ name: 'a' }, { name: 'b' }];
  const withParts = (type: string | undefined, partitions?: Record<string, number>) => ({
    spec: {
      topology: { subsets },
      updateStrategy: { ...(type ? { type } : {}), ...(partitions ? { manualUpdate: { partitions } } : {}) },
    },
  });
  it('p = partitions[s] under Manual, else 0', () => {
    expect(calcNextPartitions(withParts('Manual', { a: 1 }), { a: 3, b: 3 })).toEqual({ a: 1, b: 0 });
    expect(calcNextPartitions(withParts(undefined, { a: 1 }), { a: 3, b: 3 })).toEqual({ a: 0, b: 0 });
  });
  it('clamped to the allocated replicas: {a: 2} with a:1 → 1; a:4 → 2 again', () => {
    expect(calcNextPartitions(withParts('Manual', { a: 2 }), { a: 1, b: 9 })).toEqual({ a: 1, b: 0 });
    expect(calcNextPartitions(withParts('Manual', { a: 2 }), { a: 4, b: 6 })).toEqual({ a: 2, b: 0 });
  });
  it('negative partitions are not clamped', () => {
    expect(calcNextPartitions(withParts('Manual', { a: -3 }), { a: 1, b: 1 })).toEqual({ a: -3, b: 0 });
  });
});

describe('§7.4 rendering', () => {
  it('labels: template, then selector.matchLabels, then revision and subset name; annotations merged', () => {
    const o = render(
      ud('CloneSet', { meta: { labels: { app: 'other', team: 'a' }, annotations: { note: 'x' } } }),
      'CloneSet',
    );
    expect(o.metadata.labels).toEqual({
      app: 'web',
      team: 'a',
      [LABEL_UD_REVISION]: 'web-abc',
      [LABEL_SUBSET_NAME]: 'zone-a',
    });
    expect(o.metadata.annotations).toEqual({ note: 'x', [ANNOTATION_SUBSET_PATCH]: '' });
    expect(o.metadata.namespace).toBe('prod');
    expect(o.metadata.generateName).toBe('web-zone-a-');
    expect(o.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'UnitedDeployment',
        name: 'web',
        uid: 'u1',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  });
  it('spec: selector = UD selector + subset-name (expressions kept), replicas, pod template labels', () => {
    const o = render(ud('Deployment'), 'Deployment');
    expect(o.apiVersion).toBe('apps/v1');
    expect(o.spec.selector).toEqual({
      matchLabels: { app: 'web', [LABEL_SUBSET_NAME]: 'zone-a' },
      matchExpressions: [{ key: 'tier', operator: 'Exists' }],
    });
    expect(o.spec.replicas).toBe(3);
    expect(o.spec.template.metadata.labels).toEqual({
      app: 'web',
      [LABEL_SUBSET_NAME]: 'zone-a',
      [LABEL_UD_REVISION]: 'web-abc',
    });
    expect(o.spec.strategy).toBeUndefined();
  });
  it('update: rendered on top of the fetched object, existing labels kept, spec replaced wholesale', () => {
    const existing = deepFreeze({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: {
        name: 'web-zone-a-x1',
        uid: 'w1',
        resourceVersion: '7',
        labels: { extra: 'keep', [LABEL_UD_REVISION]: 'old' },
      },
      spec: { replicas: 9, serviceName: 'gone' },
      status: { replicas: 9 },
    });
    const o = render(ud('StatefulSet'), 'StatefulSet', 0, existing);
    expect(o.metadata).toMatchObject({ name: 'web-zone-a-x1', uid: 'w1', resourceVersion: '7' });
    expect(o.metadata.labels).toMatchObject({ extra: 'keep', [LABEL_UD_REVISION]: 'web-abc' });
    expect(o.spec.serviceName).toBeUndefined();
    expect(o.status).toEqual({ replicas: 9 });
  });
  it('StatefulSet: "" or RollingUpdate → type RollingUpdate with rollingUpdate.partition', () => {
    expect(render(ud('StatefulSet'), 'StatefulSet').spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { partition: 2 },
    });
    const keep = ud('StatefulSet', {
      templateSpec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } } },
    });
    expect(render(keep, 'StatefulSet').spec.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 2, partition: 2 },
    });
  });
  it('StatefulSet OnDelete: strategy left as in the template (no rollingUpdate added)', () => {
    const u = ud('StatefulSet', { templateSpec: { updateStrategy: { type: 'OnDelete' } } });
    expect(render(u, 'StatefulSet').spec.updateStrategy).toEqual({ type: 'OnDelete' });
  });
  it('Advanced StatefulSet: same condition but an empty type stays empty', () => {
    expect(render(ud('AdvancedStatefulSet'), 'AdvancedStatefulSet').spec.updateStrategy).toEqual({
      rollingUpdate: { partition: 2 },
    });
    expect(render(ud('AdvancedStatefulSet'), 'AdvancedStatefulSet').apiVersion).toBe(
      'apps.kruise.io/v1beta1',
    );
  });
  it('CloneSet: always updateStrategy.partition, other strategy fields kept', () => {
    const u = ud('CloneSet', { templateSpec: { updateStrategy: { type: 'InPlaceIfPossible' } } });
    expect(render(u, 'CloneSet').spec.updateStrategy).toEqual({ type: 'InPlaceIfPossible', partition: 2 });
  });
  it('step 5: generateName falls back to "<udName>-" when the prefix is too long', () => {
    expect(subsetGenerateName('web', 'zone-a')).toBe('web-zone-a-');
    const long = 'a'.repeat(250);
    expect(subsetGenerateName(long, 'zone-a')).toBe(`${long}-`);
    // 254-character prefix: masked to 253 characters, still valid
    expect(subsetGenerateName('u'.repeat(250), 'ab')).toBe(`${'u'.repeat(250)}-ab-`);
  });
  it('an unknown subset is an error, not a throw', () => {
    const r = applySubsetTemplate(ud('CloneSet'), {
      kind: 'CloneSet',
      subsetName: 'nope',
      revision: 'r',
      replicas: 1,
      partition: 0,
    });
    expect(r).toHaveProperty('error');
  });
});

describe('§7.5 node affinity and §7.6 tolerations', () => {
  it('affinity-template-two-terms: the subset expression is ANDed into every term', () => {
    const pod = {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [{ name: 'main', image: 'nginx:1' }],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                {
                  matchExpressions: [
                    { key: 'test', operator: 'Exists' },
                    { key: 'region', operator: 'In', values: ['x'] },
                  ],
                },
                { matchExpressions: [{ key: 'test', operator: 'DoesNotExist' }] },
              ],
            },
          },
        },
      },
    };
    const sub = {
      name: 'zone-a',
      nodeSelectorTerm: {
        matchExpressions: [{ key: 'node-name', operator: 'In', values: ['node-b'] }],
        matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n'] }],
      },
    };
    const o = render(ud('StatefulSet', { pod, subsets: [sub] }), 'StatefulSet');
    expect(
      o.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution
        .nodeSelectorTerms,
    ).toEqual([
      {
        matchExpressions: [
          { key: 'test', operator: 'Exists' },
          { key: 'region', operator: 'In', values: ['x'] },
          { key: 'node-name', operator: 'In', values: ['node-b'] },
        ],
      },
      {
        matchExpressions: [
          { key: 'test', operator: 'DoesNotExist' },
          { key: 'node-name', operator: 'In', values: ['node-b'] },
        ],
      },
    ]);
  });
  it('no subset expressions: the template affinity is untouched', () => {
    const o = render(
      ud('StatefulSet', { subsets: [{ name: 'zone-a', nodeSelectorTerm: { matchExpressions: [] } }] }),
      'StatefulSet',
    );
    expect(o.spec.template.spec.affinity).toBeUndefined();
  });
  it('tolerations: template ones followed by the subset ones, no de-duplication', () => {
    const t = { key: 'k', operator: 'Exists' };
    const pod = {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'main', image: 'i' }], tolerations: [t] },
    };
    const o = render(ud('CloneSet', { pod, subsets: [{ name: 'zone-a', tolerations: [t] }] }), 'CloneSet');
    expect(o.spec.template.spec.tolerations).toEqual([t, t]);
  });
});

describe('§7.7 subset patch (TestStsSubsetPatch)', () => {
  const pod = {
    metadata: { labels: { app: 'web' } },
    spec: {
      containers: [
        { name: 'container-a', image: 'nginx:1.0', env: [{ name: 'A', value: '1' }] },
        { name: 'side', image: 's:1' },
      ],
    },
  };
  it('changes only the named container image', () => {
    const patch = { spec: { containers: [{ name: 'container-a', image: 'nginx:2.0' }] } };
    const o = render(ud('StatefulSet', { pod, subsets: [{ name: 'zone-a', patch }] }), 'StatefulSet');
    expect(o.spec.template.spec.containers).toEqual([
      { name: 'container-a', image: 'nginx:2.0', env: [{ name: 'A', value: '1' }] },
      { name: 'side', image: 's:1' },
    ]);
    expect(o.metadata.annotations[ANNOTATION_SUBSET_PATCH]).toBe(
      '{"spec":{"containers":[{"image":"nginx:2.0","name":"container-a"}]}}',
    );
  });
  it('adds a pod label', () => {
    const o = render(
      ud('StatefulSet', {
        pod,
        subsets: [{ name: 'zone-a', patch: { metadata: { labels: { zone: 'a' } } } }],
      }),
      'StatefulSet',
    );
    expect(o.spec.template.metadata.labels).toMatchObject({
      app: 'web',
      zone: 'a',
      [LABEL_SUBSET_NAME]: 'zone-a',
    });
  });
  it('resources and env merge into the named container', () => {
    const patch = {
      spec: {
        containers: [
          {
            name: 'container-a',
            resources: { limits: { cpu: '2' } },
            env: [
              { name: 'B', value: '2' },
              { name: 'A', value: '9' },
            ],
          },
        ],
      },
    };
    const o = render(ud('StatefulSet', { pod, subsets: [{ name: 'zone-a', patch }] }), 'StatefulSet');
    expect(o.spec.template.spec.containers[0]).toEqual({
      name: 'container-a',
      image: 'nginx:1.0',
      env: [
        { name: 'A', value: '9' },
        { name: 'B', value: '2' },
      ],
      resources: { limits: { cpu: '2' } },
    });
  });
  it('patch values win over the labels and tolerations just added', () => {
    const patch = { metadata: { labels: { [LABEL_SUBSET_NAME]: 'patched' } }, spec: { tolerations: [] } };
    const o = render(
      ud('StatefulSet', {
        pod,
        subsets: [{ name: 'zone-a', tolerations: [{ key: 'k', operator: 'Exists' }], patch }],
      }),
      'StatefulSet',
    );
    expect(o.spec.template.metadata.labels[LABEL_SUBSET_NAME]).toBe('patched');
    expect(o.spec.template.spec.tolerations).toEqual([]);
  });
  it('a raw patch string is kept byte for byte; a malformed one fails rendering', () => {
    const raw = '{ "metadata": {"labels": {"zone": "a"}} }';
    expect(subsetPatchText({ name: 'x', patch: raw })).toBe(raw);
    expect(subsetPatchText({ name: 'x' })).toBe('');
    const r = applySubsetTemplate(ud('StatefulSet', { subsets: [{ name: 'zone-a', patch: '{not json' }] }), {
      kind: 'StatefulSet',
      subsetName: 'zone-a',
      revision: 'r',
      replicas: 1,
      partition: 0,
    });
    expect(r).toHaveProperty('error');
  });
  it('directives: $patch delete on a container, null deletes a key', () => {
    const out = applyPodTemplatePatch(pod, {
      metadata: { labels: { app: null } },
      spec: { containers: [{ name: 'side', $patch: 'delete' }] },
    });
    expect(out).toEqual({ metadata: { labels: {} }, spec: { containers: [pod.spec.containers[0]] } });
  });
});

function stsPod(ordinal: number, revision: string, ready: boolean): Pod {
  return {
    metadata: { name: `web-zone-a-${ordinal}`, labels: { [LABEL_UD_REVISION]: revision } },
    status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

describe('§7.9 stuck-pod workaround (TestStsRollingUpdateDeleteStuckPod)', () => {
  const pods = deepFreeze([0, 1, 2, 3, 4].map((i) => stsPod(i, 'old', false)));
  it('partition 4 → pod 4 deleted', () => {
    expect(stuckPodsToDelete(pods, 'new', 4).map((p) => p.metadata?.name)).toEqual(['web-zone-a-4']);
  });
  it('partition 3 → pods 3 and 4 deleted', () => {
    expect(stuckPodsToDelete(pods, 'new', 3).map((p) => p.metadata?.name)).toEqual([
      'web-zone-a-3',
      'web-zone-a-4',
    ]);
  });
  it('ready pods and pods already at the new revision are kept', () => {
    expect(stuckPodsToDelete([stsPod(3, 'old', true), stsPod(4, 'new', false)], 'new', 0)).toEqual([]);
  });
});

describe('§8 observed partition', () => {
  const wl = (kind: string, spec: any, labels: Record<string, string> = {}): KubeObject => ({
    apiVersion: 'apps/v1',
    kind,
    metadata: { name: 'w', labels },
    spec,
  });
  it('OnDelete: pods whose revision differs from the workload own: [v1,v2,v2] vs v2 → 1; [v1,"",v2,v3] → 3', () => {
    const w = wl('StatefulSet', { updateStrategy: { type: 'OnDelete' } }, { [LABEL_UD_REVISION]: 'v2' });
    const p = (rev?: string): Pod => ({
      metadata: { name: 'p', labels: rev === undefined ? {} : { [LABEL_UD_REVISION]: rev } },
    });
    expect(observedPartition('StatefulSet', w, [p('v1'), p('v2'), p('v2')])).toBe(1);
    expect(observedPartition('AdvancedStatefulSet', w, [p('v1'), p(), p('v2'), p('v3')])).toBe(3);
  });
  it('rolling update: rollingUpdate.partition, else 0', () => {
    expect(
      observedPartition(
        'StatefulSet',
        wl('StatefulSet', { updateStrategy: { rollingUpdate: { partition: 3 } } }),
        [],
      ),
    ).toBe(3);
    expect(observedPartition('StatefulSet', wl('StatefulSet', {}), [])).toBe(0);
  });
  it('CloneSet: percentage scaled against spec.replicas rounding up ("50%" of 3 → 2)', () => {
    expect(
      observedPartition(
        'CloneSet',
        wl('CloneSet', { replicas: 3, updateStrategy: { partition: '50%' } }),
        [],
      ),
    ).toBe(2);
    expect(
      observedPartition('CloneSet', wl('CloneSet', { replicas: 3, updateStrategy: { partition: 1 } }), []),
    ).toBe(1);
    expect(observedPartition('CloneSet', wl('CloneSet', { replicas: 3 }), [])).toBe(0);
  });
  it('Deployment: always 0 (Q4)', () => {
    expect(observedPartition('Deployment', wl('Deployment', { replicas: 3 }), [])).toBe(0);
  });
});
