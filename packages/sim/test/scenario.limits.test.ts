// The scenario parser at the edges of its input: YAML the `yaml` package throws on (aliases),
// nesting and alias bombs, very long lists, and objects the API server would refuse for the size
// of their annotations. Each comes back as errors naming the file, line and field; nothing throws.
import { describe, expect, it } from 'vitest';
import { formatScenarioError, parseScenario } from '../src/scenario/parse';
import { runScenario } from '../src/scenario/run';

const header = `apiVersion: sim.kruise-ts.io/v1alpha1
kind: Scenario
metadata: {name: t}
spec:
`;
const configMap = (name: string, annotation: string) => `---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  annotations:
    note: "${annotation}"
`;
const LIMIT = 262144;

describe('scenario parsing: YAML the yaml package would throw on', () => {
  it('an alias naming no anchor is an error at its line (the 1,000-run counterexample *NKG)', () => {
    expect(parseScenario('*NKG', { fileName: 's.yaml' })).toEqual({
      errors: [
        {
          file: 's.yaml',
          document: 0,
          line: 1,
          message: 'malformed YAML: alias *NKG names no anchor &NKG defined before it',
        },
      ],
    });
    const r = parseScenario(`${header}  steps: []\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: *m\n`);
    expect(r.errors.map(formatScenarioError)).toEqual([
      'scenario.yaml:9 (document 1): malformed YAML: alias *m names no anchor &m defined before it',
    ]);
  });

  it('an alias bomb in the Scenario document stops at the alias limit', () => {
    const lines = ['l0: &l0 [a, a, a, a, a, a, a, a, a]'];
    for (let i = 1; i <= 8; i++)
      lines.push(
        `l${i}: &l${i} [${Array(9)
          .fill(`*l${i - 1}`)
          .join(', ')}]`,
      );
    const text = `${header}  steps: []\ndescription:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
    const r = parseScenario(text);
    expect(r.scenario).toBeUndefined();
    expect(r.errors).toEqual([
      {
        file: 'scenario.yaml',
        document: 0,
        line: 1,
        message:
          'malformed YAML: aliases expand past the limit of 100 (write the repeated values out instead)',
      },
    ]);
  });

  it('a document nested 3,000 levels deep is refused, however often it is read', () => {
    const text = `${header}  steps: []\n---\n${'- '.repeat(3000)}x\n`;
    for (let i = 0; i < 2; i++)
      expect(parseScenario(text).errors).toEqual([
        {
          file: 'scenario.yaml',
          document: 1,
          line: 7,
          message: 'malformed YAML: nested deeper than 128 levels',
        },
      ]);
  });

  it('runScenario answers the same as invalid, without throwing', () => {
    const r = runScenario('*NKG');
    expect(r.status).toBe('invalid');
    expect(r.errors[0].message).toMatch(/^malformed YAML: alias \*NKG/);
  });
});

describe('scenario parsing: long lists', () => {
  it('reports 150,000 bad steps without overflowing the stack', () => {
    const text = `${header}  steps: [${Array(150_000).fill('1').join(',')}]\n`;
    const r = parseScenario(text);
    expect(r.scenario).toBeUndefined();
    expect(r.errors).toHaveLength(150_000);
    expect(r.errors[0].field).toBe('spec.steps[0]');
  });
});

describe('scenario parsing: annotations over 256 KiB', () => {
  it('refuses a manifest of the file, at the line of its annotations', () => {
    const ok = configMap('ok', 'x'.repeat(LIMIT - 'note'.length));
    const big = configMap('big', 'x'.repeat(LIMIT));
    const r = parseScenario(`${header}  steps: []\n${ok}${big}`, { fileName: 's.yaml' });
    expect(r.scenario).toBeUndefined();
    expect(r.errors.map(formatScenarioError)).toEqual([
      's.yaml:18 (document 2): metadata.annotations: Too long: must have at most 262144 bytes',
    ]);
  });

  it('refuses one given inline, named by its path in the scenario', () => {
    const big = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'big', annotations: { note: 'x'.repeat(LIMIT) } },
    };
    const text = `${header}  manifests:\n    - ${JSON.stringify(big)}\n  steps:\n    - apply: {manifest: ${JSON.stringify(big)}}\n`;
    const r = parseScenario(text);
    expect(r.errors.map((e) => `${e.field}: ${e.message}`)).toEqual([
      'spec.manifests[0].metadata.annotations: Too long: must have at most 262144 bytes',
      'spec.steps[0].apply.manifest.metadata.annotations: Too long: must have at most 262144 bytes',
    ]);
  });

  it('refuses one in a file the scenario names, with that file and line', () => {
    const files: Record<string, string> = { 'big.yaml': configMap('big', 'é'.repeat(LIMIT / 2)) };
    const r = parseScenario(`${header}  manifestFiles: [big.yaml]\n  steps: []\n`, {
      readFile: (f) => files[f],
    });
    expect(r.errors.map(formatScenarioError)).toEqual([
      'big.yaml:6 (document 0): metadata.annotations: Too long: must have at most 262144 bytes',
    ]);
  });
});
