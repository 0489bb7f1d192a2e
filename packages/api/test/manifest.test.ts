// The manifest reader (manifest.ts) and the Kruise kind table (kinds.ts).
import { describe, expect, it } from 'vitest';
import { findKruiseKind, isKruiseKind, kruiseKinds, readManifests } from '../src/index';

const cloneSetYaml = `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata:
  name: web
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: main, image: "nginx:1.25"}]
`;

describe('readManifests', () => {
  it('reads several documents in order', () => {
    const text = `${cloneSetYaml}---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: demo\n`;
    const { objects, errors } = readManifests(text);
    expect(errors).toEqual([]);
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['CloneSet/web', 'Namespace/demo']);
    expect((objects[0].spec as any).replicas).toBe(3);
    expect((objects[0].spec as any).template.spec.containers[0].image).toBe('nginx:1.25');
  });

  it('skips empty documents, comment-only documents and a leading ---', () => {
    const text = `---\n---\n# only a comment\n---\n${cloneSetYaml}---\n\n---\n`;
    const { objects, errors } = readManifests(text);
    expect(errors).toEqual([]);
    expect(objects).toHaveLength(1);
  });

  it('empty text gives nothing', () => {
    expect(readManifests('')).toEqual({ objects: [], errors: [] });
  });

  it('reads JSON too', () => {
    const { objects } = readManifests(
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }),
    );
    expect(objects[0].kind).toBe('Pod');
  });

  it('an unknown kind names the document index and the field kind; other documents still load', () => {
    const text = `apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n`;
    const { objects, errors } = readManifests(text);
    expect(objects).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ document: 1, field: 'kind', line: 6 });
    expect(errors[0].message).toContain('Widget');
  });

  it('a Kruise kind at a version it does not serve names the field apiVersion', () => {
    const { errors } = readManifests(
      'apiVersion: apps.kruise.io/v1beta1\nkind: CloneSet\nmetadata: {name: c}\n',
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ document: 0, field: 'apiVersion', line: 1 });
    expect(errors[0].message).toContain('apps.kruise.io/v1alpha1');
  });

  it('a built-in kind at the wrong apiVersion names the field apiVersion', () => {
    const { errors } = readManifests('apiVersion: v1\nkind: Deployment\nmetadata: {name: d}\n');
    expect(errors[0]).toMatchObject({ document: 0, field: 'apiVersion' });
  });

  it('malformed YAML names the document and the line', () => {
    const text = `${cloneSetYaml}---\napiVersion: v1\nkind: Pod\nmetadata: {name: [oops\n`;
    const { objects, errors } = readManifests(text);
    expect(objects).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(errors[0].document).toBe(1);
    expect(errors[0].line).toBeGreaterThanOrEqual(15);
    expect(errors[0].message).toMatch(/^malformed YAML/);
  });

  it('duplicate keys are malformed YAML', () => {
    const { errors } = readManifests('apiVersion: v1\nkind: Pod\nkind: Node\nmetadata: {name: x}\n');
    expect(errors[0]).toMatchObject({ document: 0, line: 3 });
  });

  it('a document that is not a mapping is an error', () => {
    const { errors } = readManifests('- a\n- b\n---\njust a string\n');
    expect(errors).toEqual([
      { document: 0, line: 1, message: 'document is not a mapping (an object)' },
      { document: 1, line: 4, message: 'document is not a mapping (an object)' },
    ]);
  });

  it.each([
    ['kind: Pod\nmetadata: {name: p}\n', 'apiVersion', 1],
    ['apiVersion: v1\nmetadata: {name: p}\n', 'kind', 1],
    ['apiVersion: v1\nkind: Pod\n', 'metadata', 1],
    ['apiVersion: v1\nkind: Pod\nmetadata:\n  labels: {a: b}\n', 'metadata.name', 3],
    ['apiVersion: v1\nkind: Pod\nmetadata: {name: ""}\n', 'metadata.name', 3],
  ])('missing field: %j → field %s', (text, field, line) => {
    const { objects, errors } = readManifests(text);
    expect(objects).toEqual([]);
    expect(errors).toEqual([expect.objectContaining({ document: 0, field, line })]);
  });

  it('opts.acceptKind admits further kinds (the simulator Scenario)', () => {
    const text = `apiVersion: sim.kruise-ts.io/v1alpha1\nkind: Scenario\nmetadata: {name: s}\n---\n${cloneSetYaml}`;
    expect(readManifests(text).errors[0]).toMatchObject({ document: 0, field: 'kind' });
    const ok = readManifests(text, {
      acceptKind: (v, k) => v === 'sim.kruise-ts.io/v1alpha1' && k === 'Scenario',
    });
    expect(ok.errors).toEqual([]);
    expect(ok.objects.map((o) => o.kind)).toEqual(['Scenario', 'CloneSet']);
  });

  it('metadata.generateName is accepted instead of metadata.name', () => {
    const { objects, errors } = readManifests(
      'apiVersion: batch/v1\nkind: Job\nmetadata: {generateName: j-}\n',
    );
    expect(errors).toEqual([]);
    expect(objects).toHaveLength(1);
  });

  it('a v1 List is expanded; a bad item is reported as items[i]', () => {
    const text = `apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {}}\n`;
    const { objects, errors } = readManifests(text);
    expect(objects.map((o) => o.metadata.name)).toEqual(['a']);
    expect(errors).toEqual([expect.objectContaining({ document: 0, field: 'items[1].metadata.name' })]);
  });

  it('an alias naming no anchor, a self-holding alias and an alias bomb are errors with a line', () => {
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n';
    const bomb = ['x0: &x0 [a, a, a, a, a, a, a, a, a]'];
    for (let i = 1; i <= 6; i++)
      bomb.push(
        `x${i}: &x${i} [${Array(9)
          .fill(`*x${i - 1}`)
          .join(', ')}]`,
      );
    const text = `${pod}---\n*NKG\n---\n${pod}spec: &s {containers: [*s]}\n---\n${pod}spec:\n${bomb.map((l) => `  ${l}`).join('\n')}\n`;
    const { objects, errors } = readManifests(text);
    expect(objects).toHaveLength(1);
    expect(errors).toEqual([
      { document: 1, line: 5, message: 'malformed YAML: alias *NKG names no anchor &NKG defined before it' },
      {
        document: 2,
        line: 10,
        message:
          'malformed YAML: alias *s is inside the node its anchor &s marks (a value that holds itself)',
      },
      {
        document: 3,
        line: 12,
        message:
          'malformed YAML: aliases expand past the limit of 100 (write the repeated values out instead)',
      },
    ]);
  });

  it('text nested deeper than the limit is refused as a whole, naming the deep document', () => {
    const text = `apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\nspec: ${'['.repeat(200)}${']'.repeat(200)}\n`;
    expect(readManifests(text)).toEqual({
      objects: [],
      errors: [{ document: 1, line: 5, message: 'malformed YAML: nested deeper than 128 levels' }],
    });
  });

  it('opts.check adds problems at the line of the field; a List item gets items[i].', () => {
    const check = (o: { metadata: { annotations?: Record<string, string> } }) =>
      o.metadata.annotations?.bad ? [{ field: 'metadata.annotations', message: 'too bad' }] : [];
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    bad: "yes"\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n---\napiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: d, annotations: {bad: x}}}\n`;
    const { objects, errors } = readManifests(text, { check });
    expect(objects.map((o) => o.metadata.name)).toEqual(['b', 'c']);
    expect(errors).toEqual([
      { document: 0, line: 5, field: 'metadata.annotations', message: 'too bad' },
      { document: 2, line: 12, field: 'items[1].metadata.annotations', message: 'too bad' },
    ]);
  });

  it('a check that throws is reported, not thrown', () => {
    const { objects, errors } = readManifests('apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n', {
      check: () => {
        throw new Error('oops');
      },
    });
    expect(objects).toEqual([]);
    expect(errors).toEqual([{ document: 0, line: 1, message: 'check failed: Error: oops' }]);
  });

  it('never throws on odd input', () => {
    for (const t of ['\t\u0000', '{', ']]', '&a [*a]', '%YAML 9.9\n---\na: 1', '!!binary 3']) {
      expect(() => readManifests(t)).not.toThrow();
    }
    expect(() => readManifests(undefined as unknown as string)).not.toThrow();
  });
});

describe('kruiseKinds / isKruiseKind', () => {
  it('lists the 11 Kruise kinds with plural and scope', () => {
    expect(kruiseKinds.map((k) => [k.kind, k.plural, k.namespaced])).toEqual([
      ['CloneSet', 'clonesets', true],
      ['StatefulSet', 'statefulsets', true],
      ['DaemonSet', 'daemonsets', true],
      ['SidecarSet', 'sidecarsets', false],
      ['UnitedDeployment', 'uniteddeployments', true],
      ['ImagePullJob', 'imagepulljobs', true],
      ['ImageListPullJob', 'imagelistpulljobs', true],
      ['NodeImage', 'nodeimages', false],
      ['ContainerRecreateRequest', 'containerrecreaterequests', true],
      ['AdvancedCronJob', 'advancedcronjobs', true],
      ['BroadcastJob', 'broadcastjobs', true],
    ]);
  });

  it('every kind has exactly one storage version', () => {
    for (const k of kruiseKinds) expect(k.versions.filter((v) => v.storage)).toHaveLength(1);
  });

  it.each([
    ['apps.kruise.io/v1alpha1', 'CloneSet', true],
    ['apps.kruise.io/v1beta1', 'StatefulSet', true],
    ['apps.kruise.io/v1alpha1', 'StatefulSet', true],
    ['apps/v1', 'StatefulSet', false],
    ['apps.kruise.io/v1beta1', 'CloneSet', false],
    ['apps.kruise.io/v1beta1', 'AdvancedCronJob', true],
    ['apps.kruise.io/v1alpha1', 'Widget', false],
    ['v1', 'Pod', false],
  ])('isKruiseKind(%s, %s) = %s', (apiVersion, kind, expected) => {
    expect(isKruiseKind(apiVersion, kind)).toBe(expected);
  });

  it('findKruiseKind gives short names', () => {
    expect(findKruiseKind('ContainerRecreateRequest')!.shortNames).toEqual(['crr']);
    expect(findKruiseKind('Pod')).toBeUndefined();
  });
});
