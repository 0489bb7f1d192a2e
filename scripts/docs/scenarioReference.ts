// Renders docs/reference/scenario.md from the scenario reader's own schema
// (packages/sim/src/scenario/types.ts `scenarioSchema`, the schema `parseScenario` validates
// against) and the meanings in scenarioMeanings.ts: every field and step kind with its path,
// type, whether it is required, and what it does. A schema field without a meaning, or a meaning
// for a field the schema lacks, is an error, so the page lists exactly what the reader accepts.
import type { Schema } from '../../packages/sim/src/scenario/schema';
import { SCENARIO_API_VERSION, scenarioSchema } from '../../packages/sim/src/scenario/types';
import { banner, cell, code } from './lib';
import { SCENARIO_MEANINGS } from './scenarioMeanings';

/** One row of the page: a field's path, its type, whether required, and its meaning. */
export interface ScenarioField {
  path: string;
  type: string;
  required: boolean;
  meaning: string | undefined;
}

/** The type of a schema node in words (`duration`, `list of string`, `"merge", "json"`). */
function typeOf(s: Schema): string {
  switch (s.type) {
    case 'string':
      if (!s.enum) return 'string';
      return s.enum.length === 1
        ? JSON.stringify(s.enum[0])
        : `one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}`;
    case 'object':
      return 'mapping';
    case 'map':
      return `map of ${typeOf(s.values)}`;
    case 'array':
      return `list of ${typeOf(s.items)}`;
    case 'oneOf':
      return s.options.map(typeOf).join(' or ');
    case 'step':
      return 'step (one action)';
    default:
      return s.type;
  }
}

/** The fields a node has below it: an object's fields, a step's actions and common fields. */
function children(s: Schema): { name: string; schema: Schema; required: boolean }[] {
  switch (s.type) {
    case 'object':
      return Object.entries(s.fields).map(([name, schema]) => ({
        name,
        schema,
        required: s.required?.includes(name) ?? false,
      }));
    case 'step':
      return [...Object.entries(s.common), ...Object.entries(s.actions)].map(([name, schema]) => ({
        name,
        schema,
        required: false,
      }));
    case 'array':
      return children(s.items).map((c) => ({ ...c, name: `[].${c.name}` }));
    case 'map':
      return s.values.type === 'any' ? [] : [{ name: '{}', schema: s.values, required: false }];
    case 'oneOf': {
      // Fields of the mapping forms (a node's `{name}`, imagePull's `{default, images}`), once each.
      const seen = new Map<string, { name: string; schema: Schema; required: boolean }>();
      for (const o of s.options) for (const c of children(o)) if (!seen.has(c.name)) seen.set(c.name, c);
      return [...seen.values()];
    }
    default:
      return [];
  }
}

/** Every field of the Scenario document, depth first in the schema's order. */
export function scenarioFields(): ScenarioField[] {
  const out: ScenarioField[] = [];
  const visit = (s: Schema, prefix: string) => {
    for (const c of children(s)) {
      const path = c.name.startsWith('[]') ? `${prefix}${c.name}` : prefix ? `${prefix}.${c.name}` : c.name;
      out.push({
        path,
        type: typeOf(c.schema),
        required: c.required,
        meaning: c.schema.doc ?? SCENARIO_MEANINGS[path],
      });
      visit(c.schema, path);
    }
  };
  visit(scenarioSchema, '');
  return out;
}

/** Problems that stop the page: fields without a meaning, meanings for no field. */
export function scenarioReferenceProblems(): string[] {
  const fields = scenarioFields();
  const paths = new Set(fields.map((f) => f.path));
  return [
    ...fields
      .filter((f) => !f.meaning)
      .map((f) => `${f.path}: no meaning in scripts/docs/scenarioMeanings.ts`),
    ...Object.keys(SCENARIO_MEANINGS)
      .filter((p) => !paths.has(p))
      .map(
        (p) => `${p}: scripts/docs/scenarioMeanings.ts describes a field the scenario schema does not have`,
      ),
  ];
}

function table(fields: ScenarioField[]): string[] {
  return [
    '| field | type | meaning |',
    '| --- | --- | --- |',
    ...fields.map(
      (f) => `| ${code(f.path)}${f.required ? ' (required)' : ''} | ${cell(f.type)} | ${cell(f.meaning)} |`,
    ),
  ];
}

/** The Markdown of docs/reference/scenario.md; throws listing the problems when there are any. */
export function renderScenarioReference(): string {
  const problems = scenarioReferenceProblems();
  if (problems.length > 0) throw new Error(`the scenario reference is incomplete:\n${problems.join('\n')}`);
  const fields = scenarioFields();
  const isStep = (f: ScenarioField) => f.path.startsWith('spec.steps[].');
  const isFailure = (f: ScenarioField) => f.path.startsWith('spec.cluster.failures[].');
  const actions = fields.filter(
    (f) => isStep(f) && f.path.split('.').length === 3 && !['name', 'at'].includes(f.path.split('.')[2]),
  );
  const lines = [
    banner('scripts/docs/gen-scenario-reference.ts from packages/sim/src/scenario/types.ts'),
    '# Scenario file reference',
    '',
    'A scenario is a multi-document YAML file for `kruise-ts sim` (and `runScenario` of',
    `\`@kruise-ts/sim\`): one document of \`apiVersion: ${SCENARIO_API_VERSION}\`, \`kind: Scenario\`,`,
    'and the manifests a user would `kubectl apply`, applied at time 0 in file order. This page lists',
    'every field the reader accepts, from the schema it validates against; an annotated example and how',
    "a run works are in the [simulator's README](../../packages/sim/README.md#scenario-files).",
    '',
    'Durations are written `500ms`, `30s`, `1m30s`, `2h`, `1d` or as a number of seconds. `[]` in a',
    'path stands for any item of a list, `{}` for any key of a map. An unknown field or a wrong type is',
    'reported with its file, line and path before anything runs.',
    '',
    `Step actions: ${actions.map((a) => code(a.path.split('.')[2])).join(', ')}. Every step has exactly one of them, and optionally \`name\` and \`at\`.`,
    '',
    '## The document',
    '',
    ...table(fields.filter((f) => !isStep(f) && !isFailure(f))),
    '',
    '## Failures (`spec.cluster.failures[]`)',
    '',
    'Each entry has exactly one action, and `at`.',
    '',
    ...table(fields.filter(isFailure)),
    '',
    '## Steps (`spec.steps[]`)',
    '',
    ...table(fields.filter(isStep)),
    '',
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
