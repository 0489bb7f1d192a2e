// Properties of convertStatefulSet (docs/reference/statefulset.md §2.3): v1alpha1 → v1beta1 → v1alpha1 is
// the identity on v1alpha1 fields; converting to the object's own version is the identity; a
// v1beta1 → v1alpha1 → v1beta1 round trip loses exactly the v1beta1-only fields; inputs are
// never mutated.
import type { StatefulSet } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  convertStatefulSet,
  V1ALPHA1_SPEC_FIELDS,
  V1ALPHA1_STATUS_FIELDS,
  V1BETA1_ONLY_SPEC_FIELDS,
  V1BETA1_ONLY_STATUS_FIELDS,
} from '../src/index';

const ALPHA = 'apps.kruise.io/v1alpha1';
const BETA = 'apps.kruise.io/v1beta1';

const leaf = fc.jsonValue({ maxDepth: 2 });
/** A record whose keys are all optional, each any JSON value. */
const optional = (keys: readonly string[], value: fc.Arbitrary<unknown> = leaf) =>
  fc.record(Object.fromEntries(keys.map((k) => [k, value])), { requiredKeys: [] });

const rollingUpdate = optional([
  'partition',
  'maxUnavailable',
  'podUpdatePolicy',
  'paused',
  'unorderedUpdate',
  'inPlaceUpdateStrategy',
  'minReadySeconds',
]);
const updateStrategy = fc.record(
  { type: fc.constantFrom('RollingUpdate', 'OnDelete'), rollingUpdate },
  { requiredKeys: [] },
);
const alphaSpec = fc
  .tuple(optional(V1ALPHA1_SPEC_FIELDS.filter((f) => f !== 'updateStrategy')), fc.option(updateStrategy))
  .map(([spec, us]) => (us === null ? spec : { ...spec, updateStrategy: us }));
const alphaStatus = optional(V1ALPHA1_STATUS_FIELDS);
const metadata = fc.record(
  { name: fc.string(), namespace: fc.string(), labels: fc.dictionary(fc.string(), fc.string()) },
  { requiredKeys: ['name'] },
);

/** A v1alpha1 object built from v1alpha1 fields only (optional status). */
const alphaSet = fc.tuple(metadata, alphaSpec, fc.option(alphaStatus)).map(
  ([m, spec, status]) =>
    ({
      apiVersion: ALPHA,
      kind: 'StatefulSet',
      metadata: m,
      spec,
      ...(status === null ? {} : { status }),
    }) as unknown as StatefulSet,
);

/** A v1beta1 object: v1alpha1 fields plus any v1beta1-only fields. */
const betaSet = fc
  .tuple(alphaSet, optional(V1BETA1_ONLY_SPEC_FIELDS), optional(V1BETA1_ONLY_STATUS_FIELDS))
  .map(
    ([a, extraSpec, extraStatus]) =>
      ({
        ...a,
        apiVersion: BETA,
        spec: { ...a.spec, ...extraSpec },
        ...(a.status ? { status: { ...a.status, ...extraStatus } } : {}),
      }) as StatefulSet,
  );

const without = (o: object | undefined, keys: readonly string[]) =>
  o && Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

describe('§2.3 convertStatefulSet properties', () => {
  it('v1alpha1 → v1beta1 → v1alpha1 is the identity on v1alpha1 fields', () => {
    fc.assert(
      fc.property(alphaSet, (a) => {
        deepFreeze(a);
        const b = convertStatefulSet(a, BETA);
        expect(b.apiVersion).toBe(BETA);
        expect(convertStatefulSet(b, ALPHA)).toEqual(a);
      }),
    );
  });

  it('converting to the same version is the identity (same object)', () => {
    fc.assert(
      fc.property(fc.oneof(alphaSet, betaSet), (o) => {
        deepFreeze(o);
        expect(convertStatefulSet(o, o.apiVersion as typeof ALPHA)).toBe(o);
      }),
    );
  });

  it('v1beta1 → v1alpha1 → v1beta1 drops exactly the v1beta1-only fields', () => {
    fc.assert(
      fc.property(betaSet, (b) => {
        deepFreeze(b);
        const back = convertStatefulSet(convertStatefulSet(b, ALPHA), BETA);
        const expected: Record<string, unknown> = {
          ...b,
          spec: without(b.spec, V1BETA1_ONLY_SPEC_FIELDS),
        };
        if (b.status) expected.status = without(b.status, V1BETA1_ONLY_STATUS_FIELDS);
        expect(back).toEqual(expected);
      }),
    );
  });

  it('never throws and never mutates, whatever the object', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })),
        fc.constantFrom(ALPHA, BETA, 'x/y', undefined),
        fc.constantFrom(ALPHA, BETA),
        (raw, from, to) => {
          const o = deepFreeze({ ...raw, apiVersion: from } as unknown as StatefulSet);
          expect(convertStatefulSet(o, to).apiVersion).toBe(to);
        },
      ),
    );
  });
});
