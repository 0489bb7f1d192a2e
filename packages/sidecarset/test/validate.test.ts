// docs/reference/sidecarset.md §1.2, §2 and §6: defaulting + hashes, and one test per validation rule.
import type { SidecarSet } from '@kruise-ts/api';
import { canonicalQuantity, formatFieldError } from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ConfigMap, Namespace } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  defaultSidecarSetThenHash,
  encodeSidecarContainer,
  isNamespaceOverlapping,
  isSelectorOverlapping,
  sidecarSetHash,
  sidecarSetHashEncoding,
  validateSidecarSet,
} from '../src/index';
import { sidecarSet } from './helpers';

const valid = (spec: Partial<SidecarSet['spec']> = {}, name = 'ok'): SidecarSet =>
  defaultSidecarSetThenHash(
    sidecarSet(name, {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'agent', image: 'agent:1' }],
      ...spec,
    }),
  );
const fields = (ss: SidecarSet, old?: SidecarSet, ctx = {}) =>
  validateSidecarSet(deepFreeze(ss), old && deepFreeze(old), ctx).map(formatFieldError);

describe('§1.2 defaulting and §2 hashes', () => {
  it('SS-2.5 the defaulted TestMutatingSidecarSetFn SidecarSet encodes and hashes exactly', () => {
    const ss = defaultSidecarSetThenHash(
      sidecarSet('s', { containers: [{ name: 'dns-f', image: 'dns:1.0' }] }),
    );
    expect(sidecarSetHashEncoding(ss)).toBe(
      '{"containers":[{"name":"dns-f","image":"dns:1.0","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent","podInjectPolicy":"BeforeAppContainer","upgradeStrategy":{"upgradeType":"ColdUpgrade"},"shareVolumePolicy":{"type":"disabled"}}]}',
    );
    expect(ss.metadata.annotations!['kruise.io/sidecarset-hash']).toBe(
      '6wbd76bd7984x24fb4f44fv9222cw9v9bcf85x766744wddd4zwx927zzz2zb684',
    );
  });

  it('SS-2.3 volumes, secrets, patches, selectors and strategies do not enter the hash; plain init containers neither', () => {
    const a = valid();
    const b = valid({
      volumes: [{ name: 'v', emptyDir: {} }],
      imagePullSecrets: [{ name: 's' }],
      selector: { matchLabels: { app: 'other' } },
      updateStrategy: { type: 'NotUpdate' },
      initContainers: [{ name: 'init', image: 'i' }],
    });
    expect(sidecarSetHash(a)).toBe(sidecarSetHash(b));
  });

  it('SS-2.4 Go field order, omitempty and canonical quantities', () => {
    expect(
      encodeSidecarContainer({
        tty: true,
        name: 'c',
        resources: { requests: { memory: '1.5Gi', cpu: '0.5' }, limits: { cpu: 2000 } },
        env: [{ valueFrom: { fieldRef: { fieldPath: 'metadata.name' } }, name: 'N' }],
        volumeMounts: [{ mountPath: '/x', name: 'v', readOnly: false }],
        ports: [{ containerPort: 80 }],
        podInjectPolicy: 'AfterAppContainer',
      }),
    ).toBe(
      '{"name":"c","ports":[{"containerPort":80}],"env":[{"name":"N","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],"resources":{"limits":{"cpu":"2k"},"requests":{"cpu":"500m","memory":"1536Mi"}},"volumeMounts":[{"name":"v","mountPath":"/x"}],"tty":true,"podInjectPolicy":"AfterAppContainer","upgradeStrategy":{},"shareVolumePolicy":{}}',
    );
    expect(['100m', '1000m', '1Gi', '1024Mi', '0.5Ki', '1e3', '0'].map(canonicalQuantity)).toEqual([
      '100m',
      '1',
      '1Gi',
      '1Gi',
      '512',
      '1e3',
      '0',
    ]);
  });
});

describe('§6 validation', () => {
  it('a defaulted valid SidecarSet passes', () => {
    expect(fields(valid())).toEqual([]);
  });

  it('V1 name: ^[a-zA-Z0-9-]+$ (uppercase allowed), at most 63 characters', () => {
    expect(fields(valid({}, 'Upper-1'))).toEqual([]);
    expect(fields(valid({}, 'a.b'))).toHaveLength(1);
    expect(fields(valid({}, 'x'.repeat(64)))).toHaveLength(1);
  });

  it('V2 a native sidecar init container with RollingUpdate is rejected', () => {
    expect(fields(valid({ initContainers: [{ name: 'n', image: 'n', restartPolicy: 'Always' }] }))).toEqual([
      'spec.updateStrategy: Required value: The initContainer in-place upgrade is not currently supported.',
    ]);
    expect(
      fields(
        valid({
          initContainers: [{ name: 'n', image: 'n', restartPolicy: 'Always' }],
          updateStrategy: { type: 'NotUpdate' },
        }),
      ),
    ).toEqual([]);
  });

  it('V3 selector: nil, empty, invalid value (2 errors)', () => {
    expect(fields(valid({ selector: undefined }))).toEqual([
      'spec.selector: Required value: no selector defined for SidecarSet',
    ]);
    expect(fields(valid({ selector: {} }))).toEqual([
      'spec.selector: Invalid value: {}: empty selector is not valid for sidecarset.',
    ]);
    expect(fields(valid({ selector: { matchLabels: { a: 'bad-' } } }))).toHaveLength(2);
  });

  it('V4 namespace and namespaceSelector are mutually exclusive', () => {
    expect(fields(valid({ namespace: 'a', namespaceSelector: { matchLabels: { x: 'y' } } }))).toEqual([
      'spec.namespace, namespaceSelector: Required value: namespace and namespaceSelector are mutually exclusive',
    ]);
    expect(fields(valid({ namespaceSelector: {} }))).toHaveLength(1);
  });

  it('V5 injectionStrategy.revision: empty, not found, bad policy', () => {
    expect(fields(valid({ injectionStrategy: { revision: { policy: 'Always' } } }))[0]).toMatch(
      /^revision: Invalid value: .*revisionName and customVersion cannot be empty simultaneously/,
    );
    expect(
      fields(valid({ injectionStrategy: { revision: { revisionName: 'x', policy: 'Always' } } }))[0],
    ).toMatch(/Cannot find specific ControllerRevision/);
    const rev = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'x', namespace: 'kruise-system' },
      revision: 1,
    };
    expect(
      fields(
        valid({ injectionStrategy: { revision: { revisionName: 'x', policy: 'Bogus' as never } } }),
        undefined,
        { revisions: [rev] },
      ),
    ).toEqual(['revision.policy: Unsupported value: "Bogus": supported values: "Always", "Partial"']);
  });

  it('V6 updateStrategy: partition with selector, bad percentages, priority and scatter', () => {
    const us = (u: Record<string, unknown>) =>
      fields(valid({ updateStrategy: { type: 'RollingUpdate', ...u } }));
    expect(us({ partition: '0%', selector: { matchLabels: { a: 'b' } } })[0]).toMatch(
      /^updateStrategy: Invalid value: .*Partition and Selector cannot be used together/,
    );
    expect(us({ partition: 0, selector: { matchLabels: { a: 'b' } } })).toEqual([]);
    expect(us({ maxUnavailable: '2.5%' })).toHaveLength(1);
    expect(us({ partition: -1 })).toHaveLength(1);
    expect(
      us({
        priorityStrategy: {
          weightPriority: [{ weight: 1, matchSelector: { matchLabels: { a: 'b' } } }],
          orderPriority: [{ orderedKey: 'k' }],
        },
      }),
    ).toHaveLength(1);
    expect(
      us({
        scatterStrategy: [
          { key: 'key-1', value: 'value-1' },
          { key: 'key-1', value: 'value-1' },
        ],
      })[0],
    ).toMatch(/duplicated key=key-1 value=value-1/);
    expect(fields(valid({ updateStrategy: { type: 'NotUpdate', maxUnavailable: 'bad' } }))).toEqual([]);
  });

  it('V7 volumes need exactly one source', () => {
    expect(fields(valid({ volumes: [{ name: 'v' }] }))).toEqual([]); // defaulting supplies emptyDir
    const raw = {
      ...valid(),
      spec: {
        ...valid().spec,
        volumes: [{ name: 'v' }, { name: 'w', emptyDir: {}, hostPath: { path: '/' } }],
      },
    };
    expect(fields(raw)).toEqual([
      'spec.volumes[0]: Required value: must specify a volume type',
      'spec.volumes[1]: Forbidden: may not specify more than 1 volume type',
    ]);
  });

  it('V8 containers: none, inject policy, share policy, transferEnv fieldRef, synthetic pod rules', () => {
    expect(fields(valid({ containers: [] }))).toEqual([
      'spec: Required value: no initContainer or container defined for SidecarSet',
    ]);
    const base = valid();
    const c0 = base.spec.containers![0];
    const withC = (c: Record<string, unknown>) =>
      fields({ ...base, spec: { ...base.spec, containers: [{ ...c0, ...c }] } });
    expect(withC({ podInjectPolicy: 'Middle' })[0]).toMatch(
      /^spec.container.podInjectPolicy: Invalid value.*unsupported pod inject policy/,
    );
    expect(withC({ shareVolumePolicy: {} })[0]).toMatch(/unsupported share volume policy/);
    expect(
      withC({
        transferEnv: [
          { sourceContainerNameFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
        ],
      }),
    ).toHaveLength(1);
    expect(
      withC({
        transferEnv: [
          { sourceContainerNameFrom: { fieldRef: { apiVersion: 'v2', fieldPath: "metadata.labels['a']" } } },
        ],
      }),
    ).toHaveLength(1);
    expect(withC({ image: '' })).toEqual(['spec.containers[0].image: Required value']);
    expect(withC({ imagePullPolicy: '' })).toEqual(['spec.containers[0].imagePullPolicy: Required value']);
    expect(withC({ volumeMounts: [{ name: 'missing', mountPath: '/m' }] })).toEqual([
      'spec.containers[0].volumeMounts[0].name: Invalid value: "missing": not found',
    ]);
    expect(
      fields(
        valid({ initContainers: [{ name: 'agent', image: 'x' }], updateStrategy: { type: 'NotUpdate' } }),
      ),
    ).toEqual(['spec.containers[0].name: Duplicate value: "agent"']);
  });

  it('V9 patchPodMetadata: whitelist, empty annotations, duplicate keys', () => {
    const ss = valid({ patchPodMetadata: [{ annotations: { 'a/b': 'c' } }] });
    expect(fields(ss)).toEqual([
      'spec.patchPodMetadata: Required value: SidecarSet patch metadata whitelist not found',
    ]);
    expect(
      fields(ss, undefined, { featureGates: { SidecarSetPatchPodMetadataDefaultsAllowed: true } }),
    ).toEqual([]);
    const cm: ConfigMap = {
      metadata: { name: 'kruise-configuration', namespace: 'kruise-system' },
      data: { SidecarSet_PatchPodMetadata_WhiteList: '{"rules":[{"allowedAnnotationKeyExprs":["^a/"]}]}' },
    };
    expect(fields(ss, undefined, { kruiseConfiguration: cm })).toEqual([]);
    const gates = { featureGates: { SidecarSetPatchPodMetadataDefaultsAllowed: true } };
    expect(fields(valid({ patchPodMetadata: [{ annotations: {} }] }), undefined, gates)).toEqual([
      'spec.patchPodMetadata: Required value: no annotations defined for SidecarSet',
    ]);
    expect(
      fields(
        valid({ patchPodMetadata: [{ annotations: { k: '1' } }, { annotations: { k: '2' } }] }),
        undefined,
        gates,
      ),
    ).toEqual(['spec.patchPodMetadata: Required value: patch annotation[k] already exist']);
  });

  it('V10 UPDATE: no new containers, upgradeType immutable; init containers not checked', () => {
    const old = valid();
    const added = valid({ containers: [...old.spec.containers!, { name: 'new', image: 'n' }] });
    expect(fields(added, old)).toEqual(['spec.containers: Invalid value: "new": container new is not found']);
    const hot = valid({
      containers: [
        {
          name: 'agent',
          image: 'a',
          upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'e' },
        },
      ],
    });
    expect(fields(hot, old)).toEqual([
      'spec.containers: Invalid value: "agent": container agent upgradeType is immutable',
    ]);
  });

  it('V11 conflicts: names, volumes, Overwrite annotations — only when V1–V10 pass', () => {
    const mesh = valid(
      {
        containers: [{ name: 'envoy', image: 'e' }],
        volumes: [{ name: 'certs', secret: { secretName: 'a' } }],
        patchPodMetadata: [{ patchPolicy: 'Overwrite', annotations: { k: 'v' } }],
      },
      'mesh',
    );
    const gates = { featureGates: { SidecarSetPatchPodMetadataDefaultsAllowed: true } };
    const mine = valid(
      {
        containers: [{ name: 'envoy', image: 'e2', volumeMounts: [{ name: 'certs', mountPath: '/c' }] }],
        volumes: [{ name: 'certs', secret: { secretName: 'b' } }],
        patchPodMetadata: [{ patchPolicy: 'MergePatchJson', annotations: { k: '{}' } }],
      },
      'mine',
    );
    expect(fields(mine, undefined, { ...gates, sidecarSets: [mesh, mine] })).toEqual([
      'spec.containers: Invalid value: "envoy": container envoy already exist in mesh',
      'spec.volumes: Invalid value: "certs": volume certs is in conflict with sidecarset mesh',
      'spec.patchPodMetadata: Invalid value: "k": annotation k is in conflict with sidecarset mesh',
    ]);
    const disjoint = valid({ ...mine.spec, selector: { matchLabels: { app: 'db' } } }, 'mine');
    expect(fields(disjoint, undefined, { ...gates, sidecarSets: [mesh] })).toEqual([]);
    const otherNs = valid({ ...mine.spec, namespace: 'x' }, 'mine');
    expect(
      fields(otherNs, undefined, {
        ...gates,
        sidecarSets: [{ ...mesh, spec: { ...mesh.spec, namespace: 'y' } }],
      }),
    ).toEqual([]);
  });

  it('SS-6.2 selector overlap examples: a=h vs b=i overlap; a=h vs a NotIn [h,i] do not; a=h vs a Exists overlap', () => {
    expect(isSelectorOverlapping({ matchLabels: { a: 'h' } }, { matchLabels: { b: 'i' } })).toBe(true);
    expect(
      isSelectorOverlapping(
        { matchLabels: { a: 'h' } },
        { matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['h', 'i'] }] },
      ),
    ).toBe(false);
    expect(
      isSelectorOverlapping(
        { matchLabels: { a: 'h' } },
        { matchExpressions: [{ key: 'a', operator: 'Exists' }] },
      ),
    ).toBe(true);
  });

  it('SS-6.1 namespace overlap, including the v1.8.2 bug for B.namespace vs A.namespaceSelector', () => {
    const a = valid({ namespace: 'shop' });
    const b = valid({ namespaceSelector: { matchLabels: { team: 'x' } } });
    const shop: Namespace = { metadata: { name: 'shop', labels: { team: 'x' } } };
    expect(isNamespaceOverlapping(a, b, [shop])).toBe(true);
    expect(isNamespaceOverlapping(a, b, [])).toBe(false);
    expect(isNamespaceOverlapping(b, a, [shop])).toBe(false);
  });
});
