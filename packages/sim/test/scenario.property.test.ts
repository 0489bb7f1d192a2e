// Bad input never crashes the parser or the runner: any text or JSON value gives
// a result with errors (or a run), never an exception.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseScenario, parseScenarioObject } from '../src/scenario/parse';
import { runScenario } from '../src/scenario/run';

const header = 'apiVersion: sim.kruise-ts.io/v1alpha1\nkind: Scenario\nspec:\n';

describe('scenario input robustness', () => {
  it('parseScenario never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = parseScenario(s);
        expect(r.scenario !== undefined || r.errors.length > 0).toBe(true);
      }),
    );
  });

  it('parseScenario never throws on YAML-shaped text (anchors, aliases, flow and block collections)', () => {
    // Arbitrary strings rarely form an alias (`*NKG` took 261 runs to appear); this alphabet
    // makes anchors, aliases and nesting common.
    const token = fc.constantFrom(
      '*a',
      '&a ',
      '*b',
      '&b ',
      'a',
      ': ',
      '- ',
      '[',
      ']',
      '{',
      '}',
      ', ',
      '\n',
      '  ',
      '---\n',
      '? ',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (tokens) => {
        const r = parseScenario(`${header}  steps: []\n---\n${tokens.join('')}`);
        expect(r.scenario !== undefined || r.errors.length > 0).toBe(true);
      }),
    );
  });

  it('parseScenario never throws on a Scenario document with arbitrary spec values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = `${header}  steps: ${JSON.stringify(v)}\n  cluster: ${JSON.stringify(v)}\n`;
        const r = parseScenario(text);
        expect(Array.isArray(r.errors)).toBe(true);
      }),
    );
  });

  it('runScenario never throws on arbitrary objects', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const r = runScenario({
          apiVersion: 'sim.kruise-ts.io/v1alpha1',
          kind: 'Scenario',
          spec: { steps: [v] },
        } as Record<string, unknown>);
        expect(['passed', 'failed', 'invalid']).toContain(r.status);
        expect(parseScenarioObject(v).errors.length).toBeGreaterThan(0);
      }),
    );
  });
});
