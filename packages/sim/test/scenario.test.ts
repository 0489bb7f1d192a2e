// Scenario files: parsing with file/document/line/field errors, running the
// example, determinism (same seed → byte-identical event log), 422 rejections.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatScenarioError, parseScenario } from '../src/scenario/parse';
import { runScenario } from '../src/scenario/run';

const example = readFileSync(
  fileURLToPath(new URL('../../../examples/scenarios/cloneset-inplace.yaml', import.meta.url)),
  'utf8',
);

const header = `apiVersion: sim.kruise-ts.io/v1alpha1
kind: Scenario
metadata: {name: t}
spec:
`;
const cloneSet = (replicas: number | string = 2) => `---
apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: sample}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: sample}}
  template:
    metadata: {labels: {app: sample}}
    spec: {containers: [{name: nginx, image: "nginx:alpine"}]}
`;

describe('scenario parsing: bad input stops before running', () => {
  it('names the file, line and field of an unknown field', () => {
    const text = `${header}  seed: 1\n  steps:\n    - setImage: {kind: CloneSet, name: sample, imag: x}\n${cloneSet()}`;
    const r = parseScenario(text, { fileName: 'bad.yaml' });
    expect(r.scenario).toBeUndefined();
    const e = r.errors.find((x) => x.field === 'spec.steps[0].setImage.imag');
    expect(e).toMatchObject({ file: 'bad.yaml', document: 0, line: 7 });
    expect(e?.message).toMatch(/^unknown field "imag"/);
    expect(formatScenarioError(e!)).toMatch(
      /^bad\.yaml:7 \(document 0\): spec\.steps\[0\]\.setImage\.imag: unknown field "imag"/,
    );
  });

  it('reports an unknown top-level spec field and a bad duration', () => {
    const text = `${header}  sede: 1\n  steps:\n    - wait: soon\n${cloneSet()}`;
    const r = parseScenario(text, { fileName: 's.yaml' });
    expect(r.errors.map((e) => [e.line, e.field])).toEqual([
      [5, 'spec.sede'],
      [7, 'spec.steps[0].wait'],
    ]);
  });

  it('reports a bad manifest with its document and line', () => {
    const text = `${header}  steps: []\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {}\n`;
    const r = parseScenario(text, { fileName: 'm.yaml' });
    expect(r.errors).toEqual([
      { file: 'm.yaml', document: 1, line: 9, field: 'metadata.name', message: 'missing metadata.name' },
    ]);
  });

  it('reports a step naming an object no manifest defines', () => {
    const text = `${header}  steps:\n    - scale: {kind: CloneSet, name: sampel, replicas: 3}\n${cloneSet()}`;
    const r = parseScenario(text, { fileName: 's.yaml' });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ line: 6, field: 'spec.steps[0].scale.name' });
    expect(r.errors[0].message).toBe(
      'CloneSet "sampel" is not defined by any manifest of this scenario (defined: sample)',
    );
  });

  it('reports a node missing from the cluster and malformed YAML', () => {
    expect(parseScenario(`${header}  steps:\n    - failNode: node-9\n`).errors[0].message).toBe(
      'node "node-9" is not in the cluster (nodes: node-1, node-2, node-3)',
    );
    const bad = parseScenario(`${header}  steps: [\n`, { fileName: 'y.yaml' });
    expect(bad.errors[0].message).toMatch(/^malformed YAML/);
    expect(bad.errors[0].file).toBe('y.yaml');
  });

  it('requires exactly one Scenario document', () => {
    expect(parseScenario(cloneSet()).errors[0].message).toMatch(/no Scenario document/);
  });

  it('expands namePrefix/count nodes and converts durations', () => {
    const text = `${header}  cluster:\n    nodes: [{namePrefix: w, count: 2, capacity: {cpu: "2"}}]\n    timings: {imagePull: {default: 1m30s, images: {"a:1": 500ms}}, readinessDelay: 2.5}\n  steps: []\n`;
    const s = parseScenario(text).scenario!;
    expect(s.nodes.map((n) => n.name)).toEqual(['w-1', 'w-2']);
    expect(s.timings.imagePull).toEqual({ defaultMs: 90_000, images: { 'a:1': 500 } });
    expect(s.timings.readinessDelayMs).toBe(2500);
  });
});

describe('running scenarios', () => {
  it('runs the example: the sample CloneSet rolls nginx:1.27-alpine in place and every invariant holds', () => {
    const r = runScenario(example, { fileName: 'cloneset-inplace.yaml' });
    expect(r.failure).toBeUndefined();
    expect(r.status).toBe('passed');
    expect(r.steps.map((s) => s.status)).toEqual(['done', 'done', 'done', 'done', 'done', 'done']);
    const sim = r.sim!;
    const cs = sim.get('CloneSet', 'sample');
    expect(cs?.status).toMatchObject({
      replicas: 5,
      updatedReplicas: 5,
      updatedReadyReplicas: 5,
      readyReplicas: 5,
    });
    expect(sim.stats.podsCreated).toBe(5);
    expect(sim.stats.podsDeleted).toBe(0);
    expect(sim.stats.podsUpdatedInPlace).toBe(5);
    for (const inv of r.invariants) expect(inv.violations).toEqual([]);
    // After the partition step, 2 pods stayed on the old revision until the partition was lifted.
    const images = sim
      .list('Pod')
      .map((p) => (p.spec as { containers: { image: string }[] }).containers[0].image);
    expect(images).toEqual(Array(5).fill('nginx:1.27-alpine'));
  });

  it('runs the node-failure example: evicted pods are replaced, the rollout completes, invariants hold', () => {
    const text = readFileSync(
      fileURLToPath(new URL('../../../examples/scenarios/cloneset-node-failure.yaml', import.meta.url)),
      'utf8',
    );
    const r = runScenario(text, { fileName: 'cloneset-node-failure.yaml' });
    expect(r.failure).toBeUndefined();
    const sim = r.sim!;
    expect(sim.events.filter((e) => e.type === 'PodEvicted').length).toBeGreaterThan(0);
    expect(sim.stats.podsCreated).toBeGreaterThan(6);
    for (const inv of r.invariants) expect(inv.violations).toEqual([]);
  });

  it('is deterministic: the same scenario and seed give a byte-identical event log', () => {
    const a = runScenario(example).sim!.log.toJSONLines();
    const b = runScenario(example).sim!.log.toJSONLines();
    expect(a.length).toBeGreaterThan(1000);
    expect(b).toBe(a);
    const c = runScenario(example, { seed: 43 }).sim!.log.toJSONLines();
    expect(c).not.toBe(a);
  });

  it('reports a manifest the admission chain rejects like an API server 422, and runs no step', () => {
    const text = `${header}  steps:\n    - wait: 10s\n${cloneSet(-1)}`;
    const r = runScenario(text, { fileName: 'neg.yaml' });
    expect(r.status).toBe('failed');
    expect(r.failure).toBe(
      'neg.yaml:8 (document 1): The CloneSet "sample" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    expect(r.steps).toEqual([]);
  });

  it('fails a waitFor step that times out, naming the object and its status', () => {
    const text = `${header}  steps:\n    - waitFor: {kind: CloneSet, name: sample, condition: Ready, timeout: 3s}\n${cloneSet()}`;
    const r = runScenario(text);
    expect(r.status).toBe('failed');
    expect(r.steps[0].message).toMatch(
      /^timed out after 3s waiting for CloneSet\/default\/sample to be Ready \(status: /,
    );
  });

  it('fails a step on a rejected patch (422) and skips the rest', () => {
    const text = `${header}  steps:\n    - scale: {kind: CloneSet, name: sample, replicas: 1}\n    - patch: {kind: CloneSet, name: sample, patch: {spec: {selector: {matchLabels: {app: other}}}}}\n    - wait: 5s\n${cloneSet()}`;
    const r = runScenario(text);
    expect(r.steps.map((s) => s.status)).toEqual(['done', 'failed', 'skipped']);
    expect(r.steps[1].message).toMatch(/^The CloneSet "sample" is invalid: /);
  });

  it('accepts a scenario object with inline manifests (runScenario(object))', () => {
    const r = runScenario({
      apiVersion: 'sim.kruise-ts.io/v1alpha1',
      kind: 'Scenario',
      metadata: { name: 'obj' },
      spec: {
        manifests: [
          {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: 'p' },
            spec: { containers: [{ name: 'c', image: 'busybox:1' }] },
          },
        ],
        steps: [{ waitFor: { kind: 'Pod', name: 'p', condition: 'Ready', timeout: '1m' } }],
      },
    });
    expect(r.status).toBe('passed');
    expect(r.sim!.nowMs).toBe(8000);
  });
});
