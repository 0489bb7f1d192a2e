// Upstream cases: testdata/upstream/uniteddeployment/allocator.json (§3, §4).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deepFreeze } from '@kruise-ts/core/testing';
import { describe, expect, it } from 'vitest';
import { expectKnownFields } from '../../../test/support/cases';
import { allocateSubsetReplicas } from '../src/index';

const file = JSON.parse(
  readFileSync(
    fileURLToPath(new URL('../../../testdata/upstream/uniteddeployment/allocator.json', import.meta.url)),
    'utf8',
  ),
);

interface Vector {
  id: string;
  input: { spec: any; existingSubsets: any };
  expected: {
    replicas?: Record<string, number>;
    error?: boolean;
    errorMessage?: string;
    existingReplicasUnchanged?: Record<string, number>;
  };
}

describe('upstream allocator.json', () => {
  it.each((file.vectors as Vector[]).map((v) => [v.id, v] as const))('%s', (_id, v) => {
    const spec = { ...v.input.spec };
    if (spec.replicas === null) delete spec.replicas;
    const unitedDeployment = deepFreeze({ spec });
    const existing = deepFreeze(v.input.existingSubsets);
    const result = allocateSubsetReplicas(unitedDeployment, existing);
    expectKnownFields(v.expected, ['error', 'errorMessage', 'existingReplicasUnchanged', 'replicas'], v.id);
    if (v.expected.error) {
      expect(result).toHaveProperty('error');
      // upstream's error text, which the Go tests print but do not compare; kruise-ts keeps it
      if (v.expected.errorMessage !== undefined) expect(result).toEqual({ error: v.expected.errorMessage });
      // the inputs (and so the existing workloads) are untouched
      if (v.expected.existingReplicasUnchanged) {
        for (const [name, n] of Object.entries(v.expected.existingReplicasUnchanged)) {
          expect(existing[name].specReplicas).toBe(n);
        }
      }
    } else {
      expect(result).toEqual({ replicas: v.expected.replicas });
    }
  });
});
