// The manual holds together: every tutorial parses under the doc-test convention
// (scripts/doctest/markdown.mjs) and runs at least one block, the index (docs/README.md) links
// every tutorial and every generated reference, and the concepts page carries its diagrams.
// Links and anchors themselves are checked by test/repository.test.ts; running the tutorials is
// `pnpm run test:docs`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/docs/lib';
// @ts-expect-error: a plain ES module without type declarations
import { doctestSteps } from '../../scripts/doctest/markdown.mjs';

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const tutorials = readdirSync(join(repoRoot, 'docs/tutorials'))
  .filter((f) => f.endsWith('.md'))
  .sort();

type Step = { kind: 'file' | 'run'; body: string };

describe('the tutorials', () => {
  it('include the install tutorial', () => {
    expect(tutorials).toContain('install.md');
  });

  it.each(tutorials)('%s parses under the doc-test convention', (page) => {
    const { errors } = doctestSteps(read(`docs/tutorials/${page}`)) as { errors: string[] };
    expect(errors).toEqual([]);
  });

  it.each(['forecast.md', 'install.md', 'own-controller.md', 'property-testing.md'])(
    '%s runs its blocks',
    (page) => {
      const { steps } = doctestSteps(read(`docs/tutorials/${page}`)) as { steps: Step[] };
      expect(steps.filter((s) => s.kind === 'run').length).toBeGreaterThan(2);
    },
  );

  it('install.md renders the chart from ./charts, as the doc test links it', () => {
    const { steps } = doctestSteps(read('docs/tutorials/install.md')) as { steps: Step[] };
    const helm = steps.filter((s) => s.kind === 'run' && s.body.includes('helm template'));
    expect(helm.length).toBeGreaterThanOrEqual(3);
    for (const s of helm) expect(s.body).toContain('./charts/kruise-ts');
    expect(read('scripts/doctest/run.mjs')).toContain(
      "symlinkSync(join(root, 'charts'), join(dir, 'charts'))",
    );
  });
});

describe('the index, docs/README.md', () => {
  const index = read('docs/README.md');

  it.each(tutorials)('links tutorials/%s', (page) => {
    expect(index).toContain(`](tutorials/${page})`);
  });

  it.each([
    'reference/cli.md',
    'reference/scenario.md',
    'reference/crd-fields.md',
    'reference/README.md',
    'differences.md',
    'kubectl-kruise.md',
    'benchmarks.md',
    'concepts.md',
    '../packages/playground/README.md',
    '../charts/kruise-ts/README.md',
    '../scripts/real-cluster/README.md',
  ])('links %s', (target) => {
    expect(index).toContain(`](${target})`);
  });
});

describe('docs/concepts.md', () => {
  it('has the four diagrams: the reconcile flow, both loops and a CloneSet rollout', () => {
    const text = read('docs/concepts.md');
    expect(text.match(/```mermaid\n/g)?.length).toBe(4);
    expect(text).toContain('sequenceDiagram');
  });
});
