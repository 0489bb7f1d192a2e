// docs/reference/core.md §1: calculateInPlaceUpdateSpec — upstream cases, the §1.6 worked examples and
// the individual rules R1.1–R1.12.
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import type { Container, PodTemplateSpec } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { calculateInPlaceUpdateSpec } from '../src/rollout/inplace/calculate';
import { deepFreeze } from '../src/testing';
import { loadCases, semantic } from './inplaceHelpers';

describe('calculateInPlaceUpdateSpec: upstream cases (inplace_calculate_spec.json)', () => {
  const cases = loadCases('inplace_calculate_spec.json');
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const input = deepFreeze(c.input);
    const spec = calculateInPlaceUpdateSpec(input.oldRevision, input.newRevision, {
      featureGates: c.featureGates,
      gracePeriodSeconds: input.options.gracePeriodSeconds,
      ignoreVolumeClaimTemplatesHashDiff: input.options.ignoreVolumeClaimTemplatesHashDiff,
    });
    const expected = c.expected.spec;
    if (expected === null) {
      expect(spec).toBeUndefined();
      return;
    }
    expect(spec).toBeDefined();
    if (c.compare === 'nullness+containerImages') {
      expect(spec!.containerImages).toEqual(expected.containerImages);
    } else if (c.compare === 'semantic') {
      expect(semantic(spec)).toEqual(semantic(expected));
    } else {
      expect({ ...spec, metaDataPatch: spec!.metaDataPatch ?? null }).toEqual(expected);
    }
  });
});

// ---- §1.6 worked examples ------------------------------------------------------------------

const containerMain = (over: Partial<Container> = {}): Container => ({
  name: 'main',
  image: 'nginx:1.25',
  env: [{ name: 'TIER', valueFrom: { fieldRef: { fieldPath: "metadata.labels['tier']" } } }],
  resources: {},
  ...over,
});
const containerSidecar = (over: Partial<Container> = {}): Container => ({
  name: 'sidecar',
  image: 'busybox:1.36',
  ...over,
});

const templateA = (): PodTemplateSpec => ({
  metadata: { labels: { app: 'web', tier: 'a' }, annotations: { note: 'x' } },
  spec: { containers: [containerMain(), containerSidecar()] },
});

function rev(
  name: string,
  template: PodTemplateSpec,
  annotations?: Record<string, string>,
): ControllerRevision {
  return deepFreeze({
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    revision: 1,
    data: JSON.stringify({ spec: { template: { ...template, $patch: 'replace' } } }),
  } as ControllerRevision);
}

const web1 = rev('web-1', templateA());
function withTemplate(mutate: (t: PodTemplateSpec) => void): ControllerRevision {
  const t = templateA();
  mutate(t);
  return rev('web-2', t);
}

describe('§1.6 worked examples (template A, revision web-1 → web-2)', () => {
  it('sidecar image → busybox:1.37: in place, containerImages={sidecar}, no metaDataPatch', () => {
    const spec = calculateInPlaceUpdateSpec(
      web1,
      withTemplate((t) => {
        t.spec!.containers[1]!.image = 'busybox:1.37';
      }),
    );
    expect(spec).toEqual({
      revision: 'web-2',
      containerImages: { sidecar: 'busybox:1.37' },
      containerResources: {},
      containerRefMetadata: {},
      updateEnvFromMetadata: false,
      graceSeconds: 0,
    });
  });

  it('sidecar gets env [{A: "1"}]: recreate (add op under /spec/)', () => {
    const next = withTemplate((t) => {
      t.spec!.containers[1]!.env = [{ name: 'A', value: '1' }];
    });
    expect(calculateInPlaceUpdateSpec(web1, next)).toBeUndefined();
  });

  it('main env name changed: recreate (replace of /spec/containers/0/env/0/name)', () => {
    const next = withTemplate((t) => {
      t.spec!.containers[0]!.env![0]!.name = 'TIER2';
    });
    expect(calculateInPlaceUpdateSpec(web1, next)).toBeUndefined();
  });

  it('main gets command [sh]: recreate', () => {
    const next = withTemplate((t) => {
      t.spec!.containers[0]!.command = ['sh'];
    });
    expect(calculateInPlaceUpdateSpec(web1, next)).toBeUndefined();
  });

  it('a third container appended: recreate', () => {
    const next = withTemplate((t) => {
      t.spec!.containers.push({ name: 'third', image: 'x' });
    });
    expect(calculateInPlaceUpdateSpec(web1, next)).toBeUndefined();
  });

  it('label app → web2: in place, no images, metaDataPatch {"metadata":{"labels":{"app":"web2"}}}', () => {
    const spec = calculateInPlaceUpdateSpec(
      web1,
      withTemplate((t) => {
        t.metadata!.labels!.app = 'web2';
      }),
    );
    expect(spec?.containerImages).toEqual({});
    expect(spec?.metaDataPatch).toBe('{"metadata":{"labels":{"app":"web2"}}}');
    expect(spec?.updateEnvFromMetadata).toBe(false);
  });

  it('label tier → b (read by main): containerRefMetadata={main:{labels:{tier:b}}}, updateEnvFromMetadata, patch "{}"', () => {
    const spec = calculateInPlaceUpdateSpec(
      web1,
      withTemplate((t) => {
        t.metadata!.labels!.tier = 'b';
      }),
    );
    expect(spec?.containerRefMetadata).toEqual({ main: { labels: { tier: 'b' } } });
    expect(spec?.updateEnvFromMetadata).toBe(true);
    expect(spec?.metaDataPatch).toBe('{}');
  });

  it('label team:x added and the only annotation removed: patch deletes the whole annotations map (B.3)', () => {
    const spec = calculateInPlaceUpdateSpec(
      web1,
      withTemplate((t) => {
        t.metadata!.labels!.team = 'x';
        t.metadata!.annotations = {};
      }),
    );
    expect(spec?.metaDataPatch).toBe('{"metadata":{"annotations":null,"labels":{"team":"x"}}}');
  });

  it('template metadata removed entirely: recreate (path /metadata)', () => {
    const next = withTemplate((t) => {
      delete t.metadata;
    });
    expect(calculateInPlaceUpdateSpec(web1, next)).toBeUndefined();
  });

  it('vertical gate on, main requests cpu 1 → 2 (QoS unchanged): containerResources={main:{requests:{cpu:"2"}}}', () => {
    const old = rev(
      'web-1',
      (() => {
        const t = templateA();
        t.spec!.containers[0]!.resources = { requests: { cpu: '1' } };
        return t;
      })(),
    );
    const next = withTemplate((t) => {
      t.spec!.containers[0]!.resources = { requests: { cpu: '2' } };
    });
    const spec = calculateInPlaceUpdateSpec(old, next, {
      featureGates: { InPlaceWorkloadVerticalScaling: true },
    });
    expect(spec?.containerResources).toEqual({ main: { requests: { cpu: '2' } } });
    // gate off: the same change recreates (R1.6.6)
    expect(calculateInPlaceUpdateSpec(old, next)).toBeUndefined();
  });

  it('vertical gate on, adding a memory limit that did not exist: recreate', () => {
    const old = rev(
      'web-1',
      (() => {
        const t = templateA();
        t.spec!.containers[0]!.resources = { limits: { cpu: '1' } };
        return t;
      })(),
    );
    const next = withTemplate((t) => {
      t.spec!.containers[0]!.resources = { limits: { cpu: '1', memory: '1Gi' } };
    });
    expect(
      calculateInPlaceUpdateSpec(old, next, { featureGates: { InPlaceWorkloadVerticalScaling: true } }),
    ).toBeUndefined();
  });

  it('TestCalculateInPlaceUpdateSpec/#5: finalizer removal patch', () => {
    const old = rev('old-revision', {
      metadata: { labels: { k2: 'v2' }, finalizers: ['fz1', 'fz2'] },
      spec: { containers: [{ name: 'c1', image: 'foo1' }] },
    });
    const next = rev('new-revision', {
      metadata: { labels: { k1: 'v1' }, finalizers: ['fz2'] },
      spec: { containers: [{ name: 'c1', image: 'foo1' }] },
    });
    expect(calculateInPlaceUpdateSpec(old, next)?.metaDataPatch).toBe(
      '{"metadata":{"$deleteFromPrimitiveList/finalizers":["fz1"],"$setElementOrder/finalizers":["fz2"],"labels":{"k1":"v1","k2":null}}}',
    );
  });
});

describe('§1 rules', () => {
  it('R1.1: a missing old revision → recreate', () => {
    expect(calculateInPlaceUpdateSpec(undefined, web1)).toBeUndefined();
    expect(calculateInPlaceUpdateSpec(null, web1)).toBeUndefined();
  });

  it('R1.2: revision data that is not a JSON object → recreate; object data is accepted too', () => {
    const bad = deepFreeze({ ...web1, data: '[1,2]' } as unknown as ControllerRevision);
    expect(calculateInPlaceUpdateSpec(bad, web1)).toBeUndefined();
    const asObject = deepFreeze({
      ...web1,
      data: JSON.parse(web1.data as unknown as string),
    } as ControllerRevision);
    expect(calculateInPlaceUpdateSpec(asObject, web1)?.containerImages).toEqual({});
  });

  it('R1.3: differing VCT hashes recreate only with the gate and without ignoreVolumeClaimTemplatesHashDiff', () => {
    const a = rev('a', templateA(), { 'kruise.io/cloneset-volumeclaimtemplate-hash': 'h1' });
    const b = rev('b', templateA(), { 'kruise.io/cloneset-volumeclaimtemplate-hash': 'h2' });
    const gate = { RecreatePodWhenChangeVCTInCloneSetGate: true };
    expect(calculateInPlaceUpdateSpec(a, b, { featureGates: gate })).toBeUndefined();
    expect(
      calculateInPlaceUpdateSpec(a, b, { featureGates: gate, ignoreVolumeClaimTemplatesHashDiff: true }),
    ).toBeDefined();
    expect(calculateInPlaceUpdateSpec(a, b)).toBeDefined();
  });

  it('R1.5: graceSeconds copies gracePeriodSeconds; getRevision replaces the name (ADS)', () => {
    const next = withTemplate((t) => {
      t.spec!.containers[1]!.image = 'busybox:1.37';
    });
    const spec = calculateInPlaceUpdateSpec(web1, next, {
      gracePeriodSeconds: 30,
      getRevision: () => 'hash-2',
    });
    expect(spec?.graceSeconds).toBe(30);
    expect(spec?.revision).toBe('hash-2');
  });

  it('R1.6.2: a change of the $patch marker → recreate', () => {
    const changed = deepFreeze({
      ...web1,
      data: (web1.data as unknown as string).replace('"$patch":"replace"', '"$patch":"merge"'),
    } as unknown as ControllerRevision);
    expect(calculateInPlaceUpdateSpec(web1, changed)).toBeUndefined();
  });

  it('R1.6.4: an image path whose index is beyond the old template containers → recreate', () => {
    // A revision-level `spec.containers` (outside the template) yields /spec/containers/<n>/image
    // paths without a /spec/template prefix; <n> is checked against the old *template*.
    const data = (img: string) =>
      JSON.stringify({
        spec: {
          template: { $patch: 'replace', spec: { containers: [{ name: 'c1', image: 'a' }] } },
          containers: [{ image: 'a' }, { image: img }],
        },
      });
    const r = (name: string, img: string) =>
      deepFreeze({ metadata: { name }, revision: 1, data: data(img) } as unknown as ControllerRevision);
    expect(calculateInPlaceUpdateSpec(r('o', 'a'), r('n', 'b'))).toBeUndefined(); // index 1 ≥ 1 container
    const inRange = (img: string) =>
      deepFreeze({
        metadata: { name: 'x' },
        revision: 1,
        data: JSON.stringify({
          spec: {
            template: { $patch: 'replace', spec: { containers: [{ name: 'c1', image: 'a' }] } },
            containers: [{ image: img }],
          },
        }),
      } as unknown as ControllerRevision);
    expect(calculateInPlaceUpdateSpec(inRange('a'), inRange('b'))?.containerImages).toEqual({ c1: 'b' });
  });

  it('R1.7/R1.12: a resize that turns Burstable into Guaranteed → recreate', () => {
    const res = (cpu: string, mem: string) => ({
      requests: { cpu, memory: mem },
      limits: { cpu: '2', memory: '2Gi' },
    });
    const old = rev('o', { spec: { containers: [{ name: 'c1', image: 'a', resources: res('1', '1Gi') }] } });
    const next = rev('n', { spec: { containers: [{ name: 'c1', image: 'a', resources: res('2', '2Gi') }] } });
    expect(
      calculateInPlaceUpdateSpec(old, next, { featureGates: { InPlaceWorkloadVerticalScaling: true } }),
    ).toBeUndefined();
  });

  it('R1.10: env-from-metadata is off with the gate off: the change travels in metaDataPatch', () => {
    const spec = calculateInPlaceUpdateSpec(
      web1,
      withTemplate((t) => {
        t.metadata!.labels!.tier = 'b';
      }),
      { featureGates: { InPlaceUpdateEnvFromMetadata: false } },
    );
    expect(spec?.updateEnvFromMetadata).toBe(false);
    expect(spec?.metaDataPatch).toBe('{"metadata":{"labels":{"tier":"b"}}}');
  });

  it('D.5: a newly added whole labels map is not extracted for env (path has 3 parts)', () => {
    const old = rev('o', { spec: { containers: [containerMain()] } });
    const next = rev('n', { metadata: { labels: { tier: 'b' } }, spec: { containers: [containerMain()] } });
    // template metadata added entirely is a "/metadata" op → recreate; with an existing metadata
    // object but no labels map, the labels map is added at once:
    expect(calculateInPlaceUpdateSpec(old, next)).toBeUndefined();
    const old2 = rev('o', { metadata: { annotations: { a: 'b' } }, spec: { containers: [containerMain()] } });
    const next2 = rev('n', {
      metadata: { annotations: { a: 'b' }, labels: { tier: 'b' } },
      spec: { containers: [containerMain()] },
    });
    const spec = calculateInPlaceUpdateSpec(old2, next2);
    expect(spec?.updateEnvFromMetadata).toBe(false);
    expect(spec?.containerRefMetadata).toEqual({});
    expect(spec?.metaDataPatch).toBe('{"metadata":{"labels":{"tier":"b"}}}');
  });

  it('1.4: keys with "/" are decoded (RFC 6901) and SIDECARSET_VERSION env is ignored', () => {
    const reader = (name: string): Container => ({
      name,
      image: 'x',
      env: [
        {
          name: name === 'side' ? 'SIDECARSET_VERSION' : 'V',
          valueFrom: { fieldRef: { fieldPath: "metadata.annotations['a/b']" } },
        },
      ],
    });
    const old = rev('o', {
      metadata: { annotations: { 'a/b': '1' } },
      spec: { containers: [reader('app'), reader('side')] },
    });
    const next = rev('n', {
      metadata: { annotations: { 'a/b': '2' } },
      spec: { containers: [reader('app'), reader('side')] },
    });
    const spec = calculateInPlaceUpdateSpec(old, next);
    expect(spec?.containerRefMetadata).toEqual({ app: { annotations: { 'a/b': '2' } } });
    expect(spec?.metaDataPatch).toBe('{}');
  });
});
