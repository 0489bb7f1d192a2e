// checkStructure against one-field mutations of valid objects (the simulator's testing kit,
// @kruise-ts/sim/testing): it never throws, a value of a type the schema does not accept is
// reported at the mutated field, so is an integer outside its range and a required field
// deleted. Where the schema expects what is imported from the kit's own source: api sits below
// sim, so the package name does not resolve from here; the module is plain fast-check.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbOneFieldMutation, type JsonPathStep, type MutatedObject } from '../../sim/src/testing/mutations';
import { checkStructure, type JSONSchema, k8sDefinitions, kindSchema, kruiseKinds } from '../src/index';
import { validObjects } from './structureFixtures';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A `$ref` replaced by the definition it names. */
function resolve(s: JSONSchema): JSONSchema {
  return typeof s.$ref === 'string' ? (k8sDefinitions[s.$ref] as JSONSchema) : s;
}

/** The schema a kind's object is checked against (root metadata as the full ObjectMeta). */
function rootSchema(kind: string, object: Record<string, unknown>): JSONSchema {
  if (Object.hasOwn(k8sDefinitions, kind) && !kruiseKinds.some((k) => k.kind === kind)) {
    return k8sDefinitions[kind] as JSONSchema;
  }
  const version = String(object.apiVersion).split('/')[1];
  const s = kindSchema(kind, version);
  return { ...s, properties: { ...(s.properties as object), metadata: { $ref: 'ObjectMeta' } } };
}

/** The schema node at `path`, or 'open' where the schema lets anything in. */
function schemaAt(root: JSONSchema, path: readonly JsonPathStep[]): JSONSchema | 'open' {
  let s = resolve(root);
  for (const step of path) {
    if (s['x-kubernetes-int-or-string'] === true) return 'open';
    if (typeof step === 'number') {
      if (!isRecord(s.items)) return 'open';
      s = resolve(s.items as JSONSchema);
    } else {
      const props = isRecord(s.properties) ? (s.properties as Record<string, JSONSchema>) : {};
      if (Object.hasOwn(props, step)) s = resolve(props[step]);
      else if (isRecord(s.additionalProperties)) s = resolve(s.additionalProperties as JSONSchema);
      else return 'open';
    }
  }
  return s;
}

/** Whether the schema node accepts the JSON type of `value` (not its range or syntax). */
function acceptsType(s: JSONSchema | 'open', value: unknown): boolean {
  if (s === 'open') return true;
  if (value === null) return s.nullable === true;
  const integer = typeof value === 'number' && Number.isInteger(value);
  if (s['x-kubernetes-int-or-string'] === true) return typeof value === 'string' || integer;
  switch (s.type) {
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return integer;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return true;
  }
}

/** An integer the node takes by type but not by range: int32 past 2^31 - 1, else past 2^53 - 1. */
function outOfRange(s: JSONSchema | 'open', value: unknown): boolean {
  if (s === 'open' || typeof value !== 'number' || !Number.isInteger(value)) return false;
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  if (s.type !== 'integer' && !intOrString) return false;
  const int32 = s.format === 'int32' || (intOrString && typeof s.pattern !== 'string');
  return int32 ? value > 2147483647 || value < -2147483648 : !Number.isSafeInteger(value);
}

/** At least 1,000 draws (the mutation space is wide); more when FC_NUM_RUNS asks for more. */
const runs = Math.max(fc.readConfigureGlobal().numRuns ?? 100, 1000);

const arbCase = fc
  .constantFrom(...validObjects)
  .chain(({ kind, object }) => arbOneFieldMutation(fc.constant(object)).map((m) => ({ kind, m })));

/** What checkStructure must say about mutation `m` of a valid `kind` object, if anything. */
function expectedField(kind: string, m: MutatedObject<Record<string, unknown>>): string | undefined {
  const root = rootSchema(kind, m.original);
  if (m.mutation.op === 'set') {
    const node = schemaAt(root, m.path);
    if (!acceptsType(node, m.mutation.value) || outOfRange(node, m.mutation.value)) return m.field;
    return undefined;
  }
  if (m.mutation.op === 'delete' && typeof m.path[m.path.length - 1] === 'string') {
    const parent = schemaAt(root, m.path.slice(0, -1));
    const required = parent === 'open' ? [] : ((parent.required as string[] | undefined) ?? []);
    if (required.includes(m.path[m.path.length - 1] as string)) return m.field;
  }
  return undefined;
}

describe('checkStructure on one-field mutations of valid objects', () => {
  it('never throws, and answers with field errors', () => {
    fc.assert(
      fc.property(arbCase, ({ kind, m }) => {
        const errs = checkStructure(kind, m.mutated);
        expect(Array.isArray(errs)).toBe(true);
        for (const e of errs) expect(typeof e.field).toBe('string');
      }),
      { numRuns: runs },
    );
  });

  it('reports a value of the wrong type, an integer out of range and a deleted required field at its path', () => {
    let expected = 0;
    fc.assert(
      fc.property(arbCase, ({ kind, m }) => {
        const field = expectedField(kind, m);
        if (field === undefined) return;
        expected++;
        const errs = checkStructure(kind, m.mutated);
        expect(
          errs.map((e) => e.field),
          `${kind}: ${m.mutation.op} ${m.mutation.op === 'set' ? m.mutation.label : ''} at ${field}`,
        ).toContain(field);
      }),
      { numRuns: runs },
    );
    // Most draws set a value, and most values differ in type from what they replace.
    expect(expected).toBeGreaterThan(runs / 4);
  });

  it('a mutation that keeps every type and range and deletes nothing required keeps a valid object valid, unless it breaks metadata syntax, an enum, a pattern or a date', () => {
    fc.assert(
      fc.property(arbCase, ({ kind, m }) => {
        if (expectedField(kind, m) !== undefined) return;
        for (const e of checkStructure(kind, m.mutated)) {
          const syntax =
            e.type === 'FieldValueNotSupported' ||
            e.field.startsWith(m.field.replace(/\[\d+\]$/, '')) ||
            /\.(labels|annotations|name|namespace)$/.test(e.field) ||
            /should match|date-time/.test(e.detail);
          expect(syntax, JSON.stringify(e)).toBe(true);
        }
      }),
      { numRuns: runs },
    );
  });
});
