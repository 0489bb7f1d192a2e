// The reconcile entries' screen of observed objects (observedStructure.ts, core.md §10.1) gives the
// same answers with a StructureCache as without one, over successive reconciles in which pods are
// replaced by new versions that share their unchanged parts (as the simulator and the operator's
// informers produce them): the same objects kept, the same ones skipped, the same errors and paths.
import { createStructureCache } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import { type InputShape, observedErrors, screenObservedInput } from '../src/observedStructure';

const shape: InputShape = { lists: { pods: 'Pod' }, singles: { node: 'Node' } };

function pod(i: number): Record<string, any> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `web-${i}`, namespace: 'default', labels: { app: 'web' }, resourceVersion: '1' },
    spec: { containers: [{ name: 'main', image: 'nginx:1.25' }], nodeName: 'n1' },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' },
        { type: 'PodScheduled', status: 'True' },
      ],
    },
  };
}

/**
 * The next version of `p`: a new metadata and status, with the conditions of `base` (by
 * identity) as edited; the rest shared with `p` by identity.
 */
function nextVersion(
  p: Record<string, any>,
  base: Record<string, any>,
  round: number,
  edit: (status: any) => void,
): Record<string, any> {
  const status = { ...p.status, conditions: [...base.status.conditions] };
  edit(status);
  return { ...p, metadata: { ...p.metadata, resourceVersion: String(round) }, status };
}

describe('screenObservedInput with and without a cache', () => {
  it('answers the same over successive reconciles, malformed versions included', () => {
    const cache = createStructureCache();
    const base = Array.from({ length: 6 }, (_, i) => pod(i));
    let pods = base;
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } };
    for (let round = 2; round < 8; round++) {
      pods = pods.map((p, i) =>
        nextVersion(p, base[i], round, (s) => {
          if (i === round % 6)
            s.conditions[0] = { ...s.conditions[0], status: 5 }; // malformed
          else if (i === (round + 1) % 6)
            s.conditions[1] = { ...s.conditions[1], lastTransitionTime: 'soon' };
          else if (i === (round + 2) % 6) s.phase = round % 2 === 0 ? 'Pending' : 'Running';
        }),
      );
      const input = { pods, node };
      const plain = screenObservedInput(input, shape);
      // twice with the cache: once walking the new versions, once answered from the cache
      for (let k = 0; k < 2; k++) {
        const cached = screenObservedInput(input, shape, cache);
        expect(cached).toEqual(plain);
      }
      const at = (i: number) => plain.skipped.find((s) => s.at === `pods[${i}]`);
      expect(plain.skipped).toHaveLength(2);
      expect(at(round % 6)?.errors).toEqual([
        {
          type: 'FieldValueInvalid',
          field: 'status.conditions[0].status',
          badValue: 'integer',
          detail: 'status.conditions[0].status in body must be of type string: "integer"',
        },
      ]);
      expect(at((round + 1) % 6)?.errors.map((e) => e.field)).toEqual([
        'status.conditions[1].lastTransitionTime',
      ]);
    }
  });

  it("leaves out required-field errors with a cache as without one (a Go client's zero value)", () => {
    const cache = createStructureCache();
    const p = pod(1);
    const noStatus = { ...p, status: { ...p.status, conditions: [{ status: 'True' }] } };
    expect(observedErrors('Pod', noStatus)).toEqual([]);
    expect(observedErrors('Pod', noStatus, cache)).toEqual([]);
    expect(observedErrors('Pod', noStatus, cache)).toEqual([]);
    const bad = { ...noStatus, spec: { ...p.spec, nodeName: 3 } };
    const plain = observedErrors('Pod', bad);
    expect(plain.map((e) => e.field)).toEqual(['spec.nodeName']);
    expect(observedErrors('Pod', bad, cache)).toEqual(plain);
    expect(observedErrors('Pod', bad, cache)).toEqual(plain);
  });
});
