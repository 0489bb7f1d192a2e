// The generated reference pages say what the code says now: each committed page under
// docs/reference/ equals what its generator (scripts/docs/) renders from the current sources,
// so a new CLI option, scenario field or CRD description fails here until the page is
// regenerated with `npx tsx --conditions=@kruise-ts/source scripts/docs/gen-all.ts`.
import { describe, expect, it } from 'vitest';
import { renderCliReference } from '../../scripts/docs/cliReference';
import { crdFields, renderCrdFieldsReference } from '../../scripts/docs/crdFieldsReference';
import { committed, REGENERATE } from '../../scripts/docs/lib';
import {
  renderScenarioReference,
  scenarioFields,
  scenarioReferenceProblems,
} from '../../scripts/docs/scenarioReference';

const stale = (page: string) => `${page} is out of date; regenerate it with: ${REGENERATE}`;

describe('docs/reference/cli.md', () => {
  const page = renderCliReference();

  it('is the page the generator renders from buildProgram now', () => {
    expect(committed('docs/reference/cli.md'), stale('docs/reference/cli.md')).toBe(page);
  });

  it('lists every command, nested ones too, with its options and defaults', () => {
    for (const heading of [
      '## kruise-ts sim',
      '## kruise-ts serve',
      '## kruise-ts rollout status',
      '## kruise-ts forecast',
    ])
      expect(page).toContain(`${heading}\n`);
    expect(page).toMatch(/\| `--port <port>` \| `6443` \| TCP port/);
    expect(page).toContain('--webhook-host'); // the operator's help text after its options
    expect(page).not.toContain('--sweep-worker'); // hidden options stay hidden
  });
});

describe('docs/reference/scenario.md', () => {
  it('has a meaning for every field of the schema, and no meaning without a field', () => {
    expect(scenarioReferenceProblems()).toEqual([]);
    const paths = scenarioFields().map((f) => f.path);
    for (const p of [
      'spec.steps[].setImage.image',
      'spec.cluster.timings.imagePull.default',
      'spec.invariants[].kind',
    ])
      expect(paths).toContain(p);
  });

  it('is the page the generator renders from the scenario schema now', () => {
    expect(committed('docs/reference/scenario.md'), stale('docs/reference/scenario.md')).toBe(
      renderScenarioReference(),
    );
  });
});

describe('docs/reference/crd-fields.md', () => {
  it('walks a kind down to its own fields and stops at Kubernetes types', () => {
    const fields = crdFields('CloneSet', 'v1alpha1');
    const byPath = new Map(fields.map((f) => [f.path, f]));
    expect(byPath.get('spec.updateStrategy.partition')?.type).toBe('int-or-string');
    expect(byPath.get('spec.template')?.type).toBe('PodTemplateSpec');
    expect(fields.some((f) => f.path.startsWith('spec.template.'))).toBe(false);
    // A sidecar container lists what it adds to a Container, not the Container's own fields.
    const sidecar = crdFields('SidecarSet', 'v1alpha1').map((f) => f.path);
    expect(sidecar).toContain('spec.containers[].podInjectPolicy');
    expect(sidecar).not.toContain('spec.containers[].image');
  });

  it('is the page the generator renders from the CRD schemas now', () => {
    expect(committed('docs/reference/crd-fields.md'), stale('docs/reference/crd-fields.md')).toBe(
      renderCrdFieldsReference(),
    );
  });
});
