// The inputs the robustness properties draw: valid inputs (from the example scenarios, and small
// hand-written objects for the kinds no scenario runs), each with exactly one field mutated by the
// testing kit's arbOneFieldMutation. Three ways to aim the mutation at a reconcile input:
// anywhere in it, inside the workload, or inside one observed object of one list; the last makes
// sure observed pods, nodes and revisions are hit as often as the workload is.
import fc from 'fast-check';
import { acj, crr, crrPod, ilpj } from '../../../nodeops/test/fixtures';
import { arbOneFieldMutation } from '../../src/testing/mutations';
import { inputsOf } from './fixtures';

type Input = Record<string, unknown>;

const NOW = '2024-01-01T00:10:00Z';

/** The valid inputs of a controller kind, taken from the example scenarios or written here. */
export function validInputs(kind: string): Input[] {
  const fromScenarios = inputsOf(kind).map((s) => s.input);
  if (fromScenarios.length > 0) return fromScenarios;
  switch (kind) {
    case 'ImageListPullJob':
      return [{ imageListPullJob: ilpj(['nginx:1.25', 'busybox:1.36']), imagePullJobs: [], now: NOW }];
    case 'AdvancedCronJob':
      return [{ advancedCronJob: acj(), children: [], now: NOW }];
    case 'ContainerRecreateRequest':
      return [
        { containerRecreateRequest: crr(), pod: crrPod(), now: NOW },
        { containerRecreateRequest: crr(), now: NOW },
      ];
    default:
      throw new Error(`no valid inputs for ${kind}`);
  }
}

const isRecord = (v: unknown): v is Input => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One mutation anywhere in a valid input (a list replaced, a pod's label, the workload's spec). */
export function anywhere(kind: string): fc.Arbitrary<unknown> {
  return arbOneFieldMutation(fc.constantFrom(...validInputs(kind))).map((m) => m.mutated);
}

/** One mutation inside the field `field` of a valid input (the workload). */
export function inside(kind: string, field: string): fc.Arbitrary<unknown> {
  return fc
    .constantFrom(...validInputs(kind).filter((i) => isRecord(i[field])))
    .chain((input) =>
      arbOneFieldMutation(fc.constant(input[field])).map((m) => ({ ...input, [field]: m.mutated })),
    );
}

/**
 * One mutation inside one object of one observed list (`pods[3].metadata.labels: null`), or of an
 * observed single object (`pod`). Inputs whose named lists are all empty are not drawn.
 */
export function insideObserved(kind: string, fields: readonly string[]): fc.Arbitrary<unknown> {
  const targets: { input: Input; field: string; index?: number }[] = [];
  for (const input of validInputs(kind)) {
    for (const field of fields) {
      const v = input[field];
      if (Array.isArray(v)) for (let i = 0; i < v.length; i++) targets.push({ input, field, index: i });
      else if (isRecord(v)) targets.push({ input, field });
    }
  }
  if (targets.length === 0) throw new Error(`${kind}: no observed objects in ${fields.join(', ')}`);
  return fc.constantFrom(...targets).chain(({ input, field, index }) => {
    const target = index === undefined ? input[field] : (input[field] as unknown[])[index];
    return arbOneFieldMutation(fc.constant(target)).map((m) => {
      if (index === undefined) return { ...input, [field]: m.mutated };
      const list = [...(input[field] as unknown[])];
      list[index] = m.mutated;
      return { ...input, [field]: list };
    });
  });
}

/** One of the three above, for a reconcile with `workload` and observed `lists`. */
export function reconcileInputs(kind: string, workload: string | undefined, lists: readonly string[]) {
  const arbs: fc.Arbitrary<unknown>[] = [anywhere(kind), insideObserved(kind, lists)];
  if (workload !== undefined) arbs.push(inside(kind, workload));
  return fc.oneof(...arbs);
}

/** A mutated workload object alone (for validate<Kind>, setDefaults<Kind>). */
export function mutatedWorkload(kind: string, field: string): fc.Arbitrary<unknown> {
  return inside(kind, field).map((i) => (i as Input)[field]);
}
