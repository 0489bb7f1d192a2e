// docs/reference/sidecarset.md §4: one test per injection rule, and the injection revision (SS-4.2).
import type { SidecarSet } from '@kruise-ts/api';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import { describe, expect, it } from 'vitest';
import { names, pod, sidecarSet } from './helpers';
import { aLogging, inject, webPod } from './injectionFixtures';

describe('§4 injection rules', () => {
  const base = (spec: Partial<SidecarSet['spec']>, name = 's', annotations?: Record<string, string>) =>
    sidecarSet(
      name,
      { selector: { matchLabels: { app: 'web' } }, ...spec },
      annotations ? { annotations } : {},
    );

  it('SS-4.1.2 UPDATE never changes the pod', () => {
    const p = webPod();
    expect(inject(p, [aLogging], { operation: 'UPDATE' }).pod).toBe(p);
  });

  it('SS-4.3.2 patchPodMetadata applies even when nothing is injected; SS-4.6.6 nothing else changes', () => {
    const ss = base({ patchPodMetadata: [{ patchPolicy: 'Overwrite', annotations: { a: 'b' } }] });
    const r = inject(webPod(), [ss]);
    expect(r.pod.metadata!.annotations).toEqual({ a: 'b' });
    expect(r.pod.spec).toEqual(webPod().spec);
  });

  it('SS-4.3.1 a MergePatchJson on a non-JSON value rejects the pod, unchanged', () => {
    const ss = base({
      containers: [{ name: 'c', image: 'i' }],
      patchPodMetadata: [{ patchPolicy: 'MergePatchJson', annotations: { cfg: '{"a":1}' } }],
    });
    const p = { ...webPod(), metadata: { ...webPod().metadata, annotations: { cfg: 'not json' } } };
    const r = inject(p, [ss]);
    expect(r.errors).toHaveLength(1);
    expect(r.pod).toBe(p);
  });

  it('SS-4.4.3 IS_INJECTED is appended even when declared; transfer envs skip names already present', () => {
    const ss = base({
      containers: [
        {
          name: 'c',
          image: 'i',
          env: [
            { name: 'IS_INJECTED', value: 'true' },
            { name: 'DB_URL', value: 'mine' },
          ],
          transferEnv: [{ sourceContainerName: 'app-a', envNames: ['DB_URL', 'MISSING'] }],
        },
      ],
    });
    const c = inject(webPod(), [ss]).pod.spec!.containers.find((x) => x.name === 'c')!;
    expect(c.env).toEqual([
      { name: 'IS_INJECTED', value: 'true' },
      { name: 'DB_URL', value: 'mine' },
      { name: 'IS_INJECTED', value: 'true' },
    ]);
  });

  it('SS-4.4.4 shared mounts skip known mountPaths and pull subPathExpr envs from the same app container', () => {
    const p = pod(
      'p',
      'shop',
      { app: 'web' },
      {
        containers: [
          {
            name: 'app',
            image: 'a',
            env: [{ name: 'POD', value: 'p1' }],
            volumeMounts: [
              { name: 'logs', mountPath: '/logs', subPathExpr: '$(POD)/x' },
              { name: 'conf', mountPath: '/conf' },
            ],
          },
        ],
        volumes: [
          { name: 'logs', emptyDir: {} },
          { name: 'conf', emptyDir: {} },
        ],
      },
    );
    const ss = base({
      containers: [
        {
          name: 'c',
          image: 'i',
          shareVolumePolicy: { type: 'enabled' },
          volumeMounts: [{ name: 'own', mountPath: '/conf' }],
        },
      ],
      volumes: [{ name: 'own', emptyDir: {} }],
    });
    const c = inject(p, [ss]).pod.spec!.containers.find((x) => x.name === 'c')!;
    expect(c.volumeMounts!.map((m) => m.mountPath)).toEqual(['/conf', '/logs']);
    expect(c.env).toEqual([
      { name: 'IS_INJECTED', value: 'true' },
      { name: 'POD', value: 'p1' },
    ]);
  });

  it('SS-4.4.5 transferEnv from a label-named source container (names sorted)', () => {
    const p = { ...webPod(), metadata: { ...webPod().metadata, labels: { app: 'web', src: 'app-a' } } };
    p.spec!.containers[0].env = [
      { name: 'B', value: '2' },
      { name: 'A', value: '1' },
    ];
    const ss = base({
      containers: [
        {
          name: 'c',
          image: 'i',
          transferEnv: [
            {
              sourceContainerNameFrom: { fieldRef: { fieldPath: "metadata.labels['src']" } },
              envNames: ['B', 'A'],
            },
          ],
        },
      ],
    });
    const c = inject(p, [ss]).pod.spec!.containers.find((x) => x.name === 'c')!;
    expect(c.env!.map((e) => e.name)).toEqual(['IS_INJECTED', 'A', 'B']);
  });

  it('SS-4.4.1 native sidecars (restartPolicy Always) enter sidecarList; plain init containers do not', () => {
    const ss = base(
      {
        initContainers: [
          { name: 'native', image: 'n', restartPolicy: 'Always' },
          { name: 'plain', image: 'p' },
        ],
      },
      's',
      { 'kruise.io/sidecarset-hash': 'h' },
    );
    const r = inject(webPod(), [ss]);
    expect(names(r.pod.spec!.initContainers)).toEqual(['init-db', 'native', 'plain']);
    expect(JSON.parse(r.pod.metadata!.annotations!['kruise.io/sidecarset-hash']).s.sidecarList).toEqual([
      'native',
    ]);
  });

  it("SS-4.6.4 the pod's volume names win; only mounted SidecarSet volumes are added", () => {
    const ss = base({
      containers: [
        {
          name: 'c',
          image: 'i',
          volumeMounts: [
            { name: 'data', mountPath: '/d2' },
            { name: 'v2', mountPath: '/v2' },
          ],
        },
      ],
      volumes: [
        { name: 'data', hostPath: { path: '/x' } },
        { name: 'v2', emptyDir: {} },
        { name: 'v3', emptyDir: {} },
      ],
    });
    const vols = inject(webPod(), [ss]).pod.spec!.volumes!;
    expect(vols).toEqual([
      { name: 'data', emptyDir: {} },
      { name: 'v2', emptyDir: {} },
    ]);
  });

  it('SS-4.6.5 pod secrets de-duplicated first, then SidecarSet secrets; empty stays unset', () => {
    const p = {
      ...webPod(),
      spec: { ...webPod().spec!, imagePullSecrets: [{ name: 'a' }, { name: 'a' }, { name: 'b' }] },
    };
    const ss = base({
      containers: [{ name: 'c', image: 'i' }],
      imagePullSecrets: [{ name: 'b' }, { name: 'c' }],
    });
    expect(inject(p, [ss]).pod.spec!.imagePullSecrets).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    expect(
      inject(webPod(), [base({ containers: [{ name: 'c', image: 'i' }] })]).pod.spec!.imagePullSecrets,
    ).toBeUndefined();
  });

  it('SS-4.7.1 existing entries are kept, legacy entries converted; an unparsable value rejects the pod', () => {
    const ss = base({ containers: [{ name: 'c', image: 'i' }] }, 'new', {
      'kruise.io/sidecarset-hash': 'h2',
    });
    const legacy = {
      ...webPod(),
      metadata: { ...webPod().metadata, annotations: { 'kruise.io/sidecarset-hash': '{"old":"h1"}' } },
    };
    const m = JSON.parse(inject(legacy, [ss]).pod.metadata!.annotations!['kruise.io/sidecarset-hash']);
    expect(m.old).toEqual({ updateTimestamp: null, hash: 'h1', sidecarSetName: 'old', sidecarList: null });
    expect(m.new.hash).toBe('h2');
    const broken = {
      ...webPod(),
      metadata: { ...webPod().metadata, annotations: { 'kruise.io/sidecarset-hash': '[1' } },
    };
    expect(inject(broken, [ss]).errors).toHaveLength(1);
  });

  it('SS-4.7.1 controllerRevision = status.latestRevision of the resolved SidecarSet', () => {
    const ss = {
      ...base({ containers: [{ name: 'c', image: 'i' }] }),
      status: { matchedPods: 0, updatedPods: 0, readyPods: 0, latestRevision: 's-abc' },
    };
    const m = JSON.parse(inject(webPod(), [ss]).pod.metadata!.annotations!['kruise.io/sidecarset-hash']);
    expect(m.s.controllerRevision).toBe('s-abc');
    const n = JSON.parse(
      inject(webPod(), [ss]).pod.metadata!.annotations!['kruise.io/sidecarset-hash-without-image'],
    );
    expect(n.s.controllerRevision).toBeUndefined();
  });

  it('SS-4.7.3 the injected list is the sorted union with the existing value', () => {
    const p = {
      ...webPod(),
      metadata: { ...webPod().metadata, annotations: { 'kruise.io/sidecarset-injected-list': 'zz,aa' } },
    };
    const r = inject(p, [base({ containers: [{ name: 'c', image: 'i' }] }, 'mm')]);
    expect(r.pod.metadata!.annotations!['kruise.io/sidecarset-injected-list']).toBe('aa,mm,zz');
  });
});

describe('SS-4.2 injection revision', () => {
  const rev = (name: string, image: string, revision: number, custom?: string): ControllerRevision => ({
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      namespace: 'kruise-system',
      labels: {
        'kruise.io/sidecarset-name': 's',
        ...(custom ? { 'apps.kruise.io/sidecarset-custom-version': custom } : {}),
      },
      annotations: { 'kruise.io/sidecarset-hash': `hash-${name}` },
    },
    data: { spec: { $patch: 'replace', containers: [{ name: 'c', image }] } } as never,
    revision,
  });
  const ss = (revision: Record<string, unknown>, us: Record<string, unknown> = {}) =>
    sidecarSet('s', {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'c', image: 'current' }],
      injectionStrategy: { revision },
      updateStrategy: us,
    });
  const imageOf = (r: ReturnType<typeof inject>) => r.pod.spec!.containers.find((c) => c.name === 'c')!.image;
  const revisions = [rev('s-1', 'old', 1, 'v1'), rev('s-2', 'older', 2, 'v1'), rev('s-3', 'named', 3)];

  it('SS-4.2.1 no revision → current', () => {
    expect(imageOf(inject(webPod(), [ss({})], { revisions }))).toBe('current');
  });
  it('SS-4.2.2 revisionName takes precedence; customVersion picks the highest revision; hash from the revision', () => {
    const r = inject(webPod(), [ss({ revisionName: 's-3', customVersion: 'v1' })], { revisions });
    expect(imageOf(r)).toBe('named');
    const m = JSON.parse(r.pod.metadata!.annotations!['kruise.io/sidecarset-hash']);
    expect(m.s).toMatchObject({ hash: 'hash-s-3', controllerRevision: 's-3' });
    expect(imageOf(inject(webPod(), [ss({ customVersion: 'v1' })], { revisions }))).toBe('older');
  });
  it('SS-4.2.2 a missing revision rejects the pod', () => {
    expect(inject(webPod(), [ss({ revisionName: 'nope' })], { revisions }).errors).toHaveLength(1);
  });
  it('SS-4.2.3 updateStrategy.paused → history', () => {
    expect(
      imageOf(
        inject(webPod(), [ss({ revisionName: 's-3', policy: 'Partial' }, { paused: true })], { revisions }),
      ),
    ).toBe('named');
  });
  it('SS-4.2.4 Partial: unmatched selector → history; "P%" → history iff r <= P/100; a bad string → error', () => {
    const sel = { selector: { matchLabels: { canary: 'true' } } };
    expect(
      imageOf(inject(webPod(), [ss({ revisionName: 's-3', policy: 'Partial' }, sel)], { revisions })),
    ).toBe('named');
    const part = (p: string, r: number) =>
      inject(webPod(), [ss({ revisionName: 's-3', policy: 'Partial' }, { partition: p })], {
        revisions,
        random: () => r,
      });
    expect(imageOf(part('30%', 0.3))).toBe('named');
    expect(imageOf(part('30%', 0.31))).toBe('current');
    expect(part('30', 0.1).errors).toHaveLength(1);
  });
  it('SS-4.2.5 Always (or empty) → history', () => {
    expect(imageOf(inject(webPod(), [ss({ revisionName: 's-3', policy: 'Always' })], { revisions }))).toBe(
      'named',
    );
    expect(imageOf(inject(webPod(), [ss({ revisionName: 's-3' })], { revisions }))).toBe('named');
  });
});
