// docs/reference/sidecarset.md §3 and §4.8: the worked examples of §4.8 and the matching rules.
import type { SidecarSet } from '@kruise-ts/api';
import type { Namespace, Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { candidateSidecarSets, podMatchedSidecarSet } from '../src/index';
import { names, pod, sidecarSet } from './helpers';
import { aLogging, bMesh, inject, NOW, T, webPod, zAudit } from './injectionFixtures';

describe('§4.8 worked examples', () => {
  it('Example A: two app containers, two SidecarSets (one Before, one After)', () => {
    const r = inject(webPod(), [bMesh, aLogging]);
    expect(r.errors).toEqual([]);
    const s = r.pod.spec!;
    expect(names(s.initContainers)).toEqual(['init-db', 'mesh-init']);
    expect(names(s.containers)).toEqual(['envoy', 'app-a', 'app-b', 'filebeat']);
    expect(s.containers[0].env).toEqual([{ name: 'IS_INJECTED', value: 'true' }]);
    const filebeat = s.containers[3];
    expect(filebeat.volumeMounts).toEqual([
      { name: 'log-config', mountPath: '/etc/filebeat' },
      { name: 'data', mountPath: '/data' },
    ]);
    expect(filebeat.env).toEqual([
      { name: 'IS_INJECTED', value: 'true' },
      { name: 'DB_URL', value: 'db:5432' },
    ]);
    expect(names(s.volumes)).toEqual(['data', 'log-config']);
    expect(s.imagePullSecrets).toEqual([{ name: 'registry' }]);
    const ann = r.pod.metadata!.annotations!;
    expect(ann['kruise.io/sidecarset-hash']).toBe(
      `{"a-logging":{"updateTimestamp":"${T}","hash":"h-log","sidecarSetName":"a-logging","sidecarList":["filebeat"]},"b-mesh":{"updateTimestamp":"${T}","hash":"h-mesh","sidecarSetName":"b-mesh","sidecarList":["envoy"]}}`,
    );
    expect(ann['kruise.io/sidecarset-hash-without-image']).toBe(
      `{"a-logging":{"updateTimestamp":"${T}","hash":"n-log","sidecarSetName":"a-logging","sidecarList":["filebeat"]},"b-mesh":{"updateTimestamp":"${T}","hash":"n-mesh","sidecarSetName":"b-mesh","sidecarList":["envoy"]}}`,
    );
    expect(ann['kruise.io/sidecarset-injected-list']).toBe('a-logging,b-mesh');
    expect(r.injected).toEqual(['a-logging', 'b-mesh']);
  });

  it('Example B: a namespaced SidecarSet, two sidecars, hot upgrade', () => {
    const r = inject(webPod(), [aLogging, bMesh, zAudit]);
    expect(r.errors).toEqual([]);
    const cs = r.pod.spec!.containers;
    expect(names(cs)).toEqual(['auditor', 'proxy-1', 'proxy-2', 'envoy', 'app-a', 'app-b', 'filebeat']);
    expect(cs[1].image).toBe('proxy:3');
    expect(cs[2].image).toBe('proxy:empty');
    const ann = r.pod.metadata!.annotations!;
    expect(ann['kruise.io/sidecarset-injected-list']).toBe('a-logging,b-mesh,z-audit');
    expect(JSON.parse(ann['kruise.io/sidecarset-hash'])['z-audit'].sidecarList).toEqual(['auditor', 'proxy']);
    expect(ann['kruise.io/sidecarset-working-hotupgrade-container']).toBe('{"proxy":"proxy-1"}');
    expect(ann['version.sidecarset.kruise.io/proxy-1']).toBe('1');
    expect(ann['versionalt.sidecarset.kruise.io/proxy-1']).toBe('0');
    expect(ann['version.sidecarset.kruise.io/proxy-2']).toBe('0');
    expect(ann['versionalt.sidecarset.kruise.io/proxy-2']).toBe('1');
  });

  it("Example C (TestSidecarSetPodInjectPolicy): init sorted by name after the pod's own", () => {
    const p = pod(
      'p',
      'default',
      { app: 'x' },
      {
        initContainers: [{ name: 'init-0', image: 'b' }],
        containers: [{ name: 'nginx', image: 'nginx' }],
      },
    );
    const ss = sidecarSet('sidecarset1', {
      selector: { matchLabels: { app: 'x' } },
      initContainers: [
        { name: 'init-2', image: 'b' },
        { name: 'init-1', image: 'b' },
      ],
      containers: [
        { name: 'dns-f', image: 'd', podInjectPolicy: 'BeforeAppContainer' },
        { name: 'log-agent', image: 'l', podInjectPolicy: 'AfterAppContainer' },
      ],
    });
    const r = inject(p, [ss]);
    expect(names(r.pod.spec!.containers)).toEqual(['dns-f', 'nginx', 'log-agent']);
    expect(names(r.pod.spec!.initContainers)).toEqual(['init-0', 'init-1', 'init-2']);
  });
});

describe('§3 matching and candidate order', () => {
  const base = sidecarSet('s', {
    selector: { matchLabels: { app: 'web' } },
    containers: [{ name: 'c', image: 'i' }],
  });

  it('SS-3.1 inactive pods are never injected (Succeeded, Failed, deleting)', () => {
    for (const patch of [{ status: { phase: 'Succeeded' } }, { status: { phase: 'Failed' } }]) {
      const p = { ...webPod(), ...patch } as Pod;
      expect(inject(p, [base]).pod).toBe(p);
    }
    const deleting = { ...webPod(), metadata: { ...webPod().metadata, deletionTimestamp: NOW } };
    expect(names(inject(deleting, [base]).pod.spec!.containers)).toEqual(['app-a', 'app-b']);
  });

  it('SS-3.2 a pod without namespace matches as the request namespace, else "default"', () => {
    const ss = sidecarSet('s', { ...base.spec, namespace: 'default' });
    const p = { ...webPod(), metadata: { name: 'x', labels: { app: 'web' } } } as Pod;
    expect(podMatchedSidecarSet(p, ss).matched).toBe(true);
    expect(podMatchedSidecarSet(p, ss, [], 'shop').matched).toBe(false);
  });

  it('SS-3.3 a nil or empty selector matches nothing; an unknown operator rejects the pod', () => {
    expect(podMatchedSidecarSet(webPod(), sidecarSet('s', { containers: [] })).matched).toBe(false);
    expect(podMatchedSidecarSet(webPod(), sidecarSet('s', { selector: {} })).matched).toBe(false);
    const bad = sidecarSet('bad', {
      ...base.spec,
      selector: { matchExpressions: [{ key: 'app', operator: 'Foo' }] },
    });
    const r = inject(webPod(), [bad]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].field).toBe('sidecarSet[bad].spec.selector');
  });

  it("SS-3.3 namespaceSelector: the pod's Namespace must exist and match", () => {
    const ss = sidecarSet('s', { ...base.spec, namespaceSelector: { matchLabels: { team: 'a' } } });
    const ns: Namespace = { metadata: { name: 'shop', labels: { team: 'a' } } };
    expect(names(inject(webPod(), [ss], { namespace: ns }).pod.spec!.containers)).toContain('c');
    expect(names(inject(webPod(), [ss]).pod.spec!.containers)).not.toContain('c');
    const other: Namespace = { metadata: { name: 'shop', labels: { team: 'b' } } };
    expect(names(inject(webPod(), [ss], { namespaces: [other] }).pod.spec!.containers)).not.toContain('c');
  });

  it('SS-3.4 the namespace group comes first, each group by name; other namespaces never', () => {
    const mk = (name: string, spec: Partial<SidecarSet['spec']>) =>
      sidecarSet(name, { ...base.spec, ...spec });
    const order = candidateSidecarSets(
      [
        mk('b', {}),
        mk('z', { namespace: 'shop' }),
        mk('a', {}),
        mk('other', { namespace: 'elsewhere' }),
        mk('y', { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'shop' } } }),
      ],
      'shop',
    ).map((s) => s.metadata.name);
    expect(order).toEqual(['y', 'z', 'a', 'b']);
  });

  it('SS-3.5 injectionStrategy.paused skips the SidecarSet', () => {
    const paused = sidecarSet('s', { ...base.spec, injectionStrategy: { paused: true } });
    const p = webPod();
    expect(inject(p, [paused]).pod).toBe(p);
  });

  it('SS-3.6 the webhook does not de-duplicate; a sidecar named like an app container replaces it in place', () => {
    const one = sidecarSet('one', {
      ...base.spec,
      containers: [{ name: 'x', image: '1', podInjectPolicy: 'BeforeAppContainer' }],
    });
    const two = sidecarSet('two', {
      ...base.spec,
      containers: [{ name: 'x', image: '2', podInjectPolicy: 'AfterAppContainer' }],
    });
    expect(names(inject(webPod(), [one, two]).pod.spec!.containers)).toEqual(['x', 'app-a', 'app-b', 'x']);
    const replace = sidecarSet('r', {
      ...base.spec,
      containers: [{ name: 'app-b', image: 'new', podInjectPolicy: 'BeforeAppContainer' }],
    });
    const cs = inject(webPod(), [replace]).pod.spec!.containers;
    expect(names(cs)).toEqual(['app-a', 'app-b']);
    expect(cs[1].image).toBe('new');
  });
});
