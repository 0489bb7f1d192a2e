// Properties of every setDefaults* over random partial objects: the input is never mutated
// (it is deep-frozen), a new object is returned, defaulting twice equals defaulting once, and
// (except where the spec rewrites a value) every value the user set is kept.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type DefaultingOptions,
  setDefaultsAdvancedCronJob,
  setDefaultsBroadcastJob,
  setDefaultsCloneSet,
  setDefaultsContainerRecreateRequest,
  setDefaultsDaemonSet,
  setDefaultsImageListPullJob,
  setDefaultsImagePullJob,
  setDefaultsNodeImage,
  setDefaultsSidecarSet,
  setDefaultsStatefulSet,
  setDefaultsUnitedDeployment,
} from '../src/index';
import {
  advancedCronJob,
  broadcastJob,
  cloneSet,
  crr,
  crrPod,
  daemonSet,
  gates,
  imageListPullJob,
  imagePullJob,
  nodeImage,
  opt,
  sidecarSet,
  statefulSet,
  unitedDeployment,
} from './arbitraries';
import { deepFreeze } from './helpers';

type Fn = (o: any, opts?: any) => any;
interface Case {
  name: string;
  arb: fc.Arbitrary<any>;
  fn: Fn;
  /** extra options arbitrary merged into DefaultingOptions */
  extra?: fc.Arbitrary<Record<string, unknown>>;
  /** false where the spec rewrites a user value (sorting, Surging → Standard) */
  keepsUserValues: boolean;
}

const cases: Case[] = [
  { name: 'CloneSet', arb: cloneSet, fn: setDefaultsCloneSet, keepsUserValues: true },
  { name: 'StatefulSet', arb: statefulSet, fn: setDefaultsStatefulSet, keepsUserValues: true },
  { name: 'DaemonSet', arb: daemonSet, fn: setDefaultsDaemonSet, keepsUserValues: false },
  { name: 'SidecarSet', arb: sidecarSet, fn: setDefaultsSidecarSet, keepsUserValues: true },
  { name: 'UnitedDeployment', arb: unitedDeployment, fn: setDefaultsUnitedDeployment, keepsUserValues: true },
  { name: 'ImagePullJob', arb: imagePullJob, fn: setDefaultsImagePullJob, keepsUserValues: true },
  { name: 'ImageListPullJob', arb: imageListPullJob, fn: setDefaultsImageListPullJob, keepsUserValues: true },
  {
    name: 'NodeImage',
    arb: nodeImage,
    fn: setDefaultsNodeImage,
    extra: opt({ now: fc.constantFrom('2024-01-01T00:00:00Z', '2025-06-30T12:34:56.789Z') }),
    keepsUserValues: false,
  },
  {
    name: 'ContainerRecreateRequest',
    arb: crr,
    fn: setDefaultsContainerRecreateRequest,
    extra: opt({ pod: crrPod }),
    keepsUserValues: false,
  },
  { name: 'AdvancedCronJob', arb: advancedCronJob, fn: setDefaultsAdvancedCronJob, keepsUserValues: true },
  { name: 'BroadcastJob', arb: broadcastJob, fn: setDefaultsBroadcastJob, keepsUserValues: true },
];

/** Paths of user-set scalar values (non-empty) that the output does not keep. */
function lostValues(input: unknown, output: unknown, at = ''): string[] {
  if (input === null || input === undefined || input === '') return [];
  if (typeof input !== 'object') return Object.is(input, output) ? [] : [at];
  if (output === null || typeof output !== 'object') return [at];
  const out: string[] = [];
  for (const [k, v] of Object.entries(input)) out.push(...lostValues(v, (output as any)[k], `${at}.${k}`));
  return out;
}

describe.each(cases)('setDefaults$name properties', ({ arb, fn, extra, keepsUserValues }) => {
  const inputs = fc.record({
    obj: arb,
    old: fc.option(arb, { nil: undefined }),
    featureGates: fc.option(gates, { nil: undefined }),
    extra: extra ?? fc.constant({}),
  });
  const optsOf = (v: any): DefaultingOptions => ({
    ...(v.featureGates ? { featureGates: v.featureGates } : {}),
    ...(v.old ? { old: deepFreeze(v.old) } : {}),
    ...v.extra,
  });

  it('never mutates its (frozen) input and returns a new object', () => {
    fc.assert(
      fc.property(inputs, (v) => {
        const snapshot = structuredClone(v.obj);
        const frozen = deepFreeze(v.obj);
        const out = fn(frozen, optsOf(v));
        expect(out).not.toBe(frozen);
        expect(frozen).toEqual(snapshot);
      }),
    );
  });

  it('is idempotent: defaulting twice equals defaulting once', () => {
    fc.assert(
      fc.property(inputs, (v) => {
        const opts = optsOf(v);
        const once = fn(deepFreeze(v.obj), opts);
        expect(fn(deepFreeze(structuredClone(once)), opts)).toEqual(once);
      }),
    );
  });

  if (keepsUserValues) {
    it('keeps every value the user set', () => {
      fc.assert(
        fc.property(inputs, (v) => {
          const lost = lostValues(v.obj, fn(deepFreeze(v.obj), optsOf(v)));
          expect(lost).toEqual([]);
        }),
      );
    });
  }
});
