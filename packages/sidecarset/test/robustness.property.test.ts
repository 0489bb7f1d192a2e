// Pure functions never throw on user data (docs/architecture.md, principle 6): malformed
// SidecarSets, pods and annotations give errors or no-ops, not exceptions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { injectSidecars, reconcileSidecarSet, validateSidecarSet } from '../src/index';

const junk = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.dictionary(fc.string(), fc.string()),
);
const annotationValue = fc.oneof(
  fc.string(),
  fc.constant('{"s":{"hash":1}}'),
  fc.constant('{"s":"legacy"}'),
  fc.constant('[1,2'),
  fc.constant('null'),
);

const sidecarSetArb = fc.record({
  apiVersion: fc.constant('apps.kruise.io/v1alpha1'),
  kind: fc.constant('SidecarSet'),
  metadata: fc.record({
    name: fc.constantFrom('s', 'Bad.Name', ''),
    annotations: fc.dictionary(fc.constantFrom('kruise.io/sidecarset-hash', 'x'), fc.string()),
  }),
  spec: fc.record(
    {
      selector: fc.oneof(
        fc.constant({ matchLabels: { app: 'web' } }),
        fc.constant({}),
        fc.constant({ matchExpressions: [{ key: 'app', operator: 'Nope' }] }),
        fc.constant({ matchLabels: { 'bad key!': 'x' } }),
      ),
      containers: fc.array(
        fc.record(
          {
            name: fc.constantFrom('a', 'b', 'app'),
            image: junk,
            env: fc.constantFrom(undefined, [{ name: 'X', value: 'y' }]),
            volumeMounts: fc.constantFrom(undefined, [{ name: 'missing', mountPath: '/m' }]),
            upgradeStrategy: fc.constantFrom(undefined, { upgradeType: 'HotUpgrade' }),
            shareVolumePolicy: fc.constantFrom(undefined, { type: 'enabled' }, { type: 'weird' }),
            transferEnv: fc.constantFrom(undefined, [
              { sourceContainerNameFrom: { fieldRef: { fieldPath: 'bad' } } },
            ]),
          },
          { requiredKeys: ['name'] },
        ),
        { maxLength: 3 },
      ),
      updateStrategy: fc.record(
        { type: junk, partition: junk, maxUnavailable: junk, paused: junk },
        { requiredKeys: [] },
      ),
      injectionStrategy: fc.constantFrom(undefined, { revision: { revisionName: 'x' } }, { paused: true }),
      patchPodMetadata: fc.constantFrom(undefined, [
        { patchPolicy: 'MergePatchJson', annotations: { k: 'not json' } },
      ]),
      namespaceSelector: fc.constantFrom(undefined, {}, { matchLabels: { a: 'b' } }),
    },
    { requiredKeys: [] },
  ),
});

const podArb = fc.record({
  apiVersion: fc.constant('v1'),
  kind: fc.constant('Pod'),
  metadata: fc.record({
    name: fc.constant('p'),
    namespace: fc.constant('default'),
    labels: fc.constant({ app: 'web' }),
    annotations: fc.dictionary(
      fc.constantFrom(
        'kruise.io/sidecarset-hash',
        'kruise.io/sidecarset-hash-without-image',
        'kruise.io/sidecarset-injected-list',
        'kruise.io/sidecarset-inplace-update-state',
        'kruise.io/sidecarset-working-hotupgrade-container',
        'k',
      ),
      annotationValue,
    ),
  }),
  spec: fc.record({ containers: fc.constant([{ name: 'app', image: 'app:1' }]) }),
  status: fc.constantFrom(undefined, { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }),
});

describe('robustness', () => {
  it('injectSidecars, reconcileSidecarSet and validateSidecarSet never throw on malformed input', () => {
    fc.assert(
      fc.property(
        sidecarSetArb,
        podArb,
        fc.constantFrom('2025-01-01T00:00:00Z', 'not a time'),
        (ss: any, pod: any, now) => {
          const r = injectSidecars(pod, [ss], { now });
          expect(Array.isArray(r.errors)).toBe(true);
          const rec = reconcileSidecarSet({ sidecarSet: ss, pods: [pod, r.pod], now });
          expect(Array.isArray(rec.actions)).toBe(true);
          expect(Array.isArray(validateSidecarSet(ss, ss, { sidecarSets: [ss] }))).toBe(true);
        },
      ),
    );
  });
});
