// The entry points of the pure packages that take user data, each with how to draw its arguments
// (valid inputs with one field mutated: anywhere, in the workload, or in one observed object) and
// what shape its answer must have. exports.test.ts checks that this table and exemptions.ts
// together name every function each package exports; mutation.property.test.ts calls each entry.
import * as api from '@kruise-ts/api';
import * as cloneset from '@kruise-ts/cloneset';
import * as core from '@kruise-ts/core';
import * as daemonset from '@kruise-ts/daemonset';
import * as nodeops from '@kruise-ts/nodeops';
import * as sidecarset from '@kruise-ts/sidecarset';
import * as statefulset from '@kruise-ts/statefulset';
import * as uniteddeployment from '@kruise-ts/uniteddeployment';
import fc from 'fast-check';
import { arbOneFieldMutation } from '../../src/testing/mutations';
import { insideObserved, mutatedWorkload, reconcileInputs, validInputs } from './arbitraries';

/** What an entry's answer must look like. */
export type AnswerShape =
  /** A ReconcileResult: actions (known verbs), status, field errors; nothing deleted on errors. */
  | 'reconcile'
  /** A FieldError[]. */
  | 'fieldErrors'
  /** An object (a defaulted or converted copy). */
  | 'object'
  /** injectSidecars' result: a pod, the injected names, field errors. */
  | 'injection'
  /** allocateSubsetReplicas: `{replicas}` of non-negative integers, or `{error}`. */
  | 'allocation'
  /** calculateDiffs: numbers only. */
  | 'diffs'
  /** A value, whatever it is (the property is that it returns). */
  | 'any';

/** One entry point: how to call it on drawn arguments, and the answer's shape. */
export interface Entry {
  /** Draws one call's arguments (built lazily: the scenario fixtures take a few seconds). */
  args: () => fc.Arbitrary<unknown[]>;
  call: (...args: unknown[]) => unknown;
  answer: AnswerShape;
}

type Fn = (...args: unknown[]) => unknown;
const fn = (f: unknown): Fn => f as Fn;

const single = (a: () => fc.Arbitrary<unknown>) => () => a().map((x) => [x]);

/** A reconcile entry of a controller kind: its input drawn three ways, called without options. */
function reconcile(f: unknown, kind: string, workload: string | undefined, lists: readonly string[]): Entry {
  return { args: single(() => reconcileInputs(kind, workload, lists)), call: fn(f), answer: 'reconcile' };
}

/** A validate<Kind>, setDefaults<Kind> or conversion of the workload of a controller kind. */
function ofWorkload(f: unknown, kind: string, field: string, answer: AnswerShape, ...rest: unknown[]): Entry {
  return { args: () => mutatedWorkload(kind, field).map((w) => [w, ...rest]), call: fn(f), answer };
}

const NOW = '2024-01-01T00:10:00Z';

/** A mutated pod from a scenario, and a valid SidecarSet list (or the other way round). */
function injectArgs(): fc.Arbitrary<unknown[]> {
  const inputs = validInputs('SidecarSet');
  const sets = inputs.map((i) => i.sidecarSet);
  const pods = inputs.flatMap((i) => i.pods as unknown[]).slice(0, 20);
  const ctx = { now: NOW, namespaces: inputs[0].namespaces };
  return fc.oneof(
    arbOneFieldMutation(fc.constantFrom(...pods)).map((m) => [m.mutated, sets, ctx]),
    fc
      .tuple(fc.constantFrom(...pods), arbOneFieldMutation(fc.constantFrom(...sets)))
      .map(([pod, m]) => [pod, [m.mutated], ctx]),
  );
}

/** A mutated UnitedDeployment, with or without its existing subsets' replicas. */
function allocateArgs(): fc.Arbitrary<unknown[]> {
  return fc
    .tuple(mutatedWorkload('UnitedDeployment', 'unitedDeployment'), fc.boolean())
    .map(([ud, withExisting]) => {
      const names = (ud as { spec?: { topology?: { subsets?: { name?: unknown }[] } } }).spec?.topology
        ?.subsets;
      const existing: Record<string, { specReplicas: number }> = {};
      if (withExisting && Array.isArray(names))
        for (const s of names) if (typeof s?.name === 'string') existing[s.name] = { specReplicas: 2 };
      return withExisting ? [ud, existing] : [ud];
    });
}

/** A mutated CloneSet with its pods, or a valid one with one pod mutated. */
function diffsArgs(): fc.Arbitrary<unknown[]> {
  const ctx = (cs: unknown) => {
    const status = (cs as { status?: { currentRevision?: unknown; updateRevision?: unknown } } | undefined)
      ?.status;
    return {
      currentRevision: String(status?.currentRevision ?? 'a'),
      updateRevision: String(status?.updateRevision ?? 'b'),
      now: NOW,
    };
  };
  return reconcileInputs('CloneSet', 'cloneSet', ['pods']).map((i) => {
    const input = i as { cloneSet: unknown; pods: unknown };
    return [input.cloneSet, input.pods, ctx(input.cloneSet)];
  });
}

/** A mutated observed object of `kind` (a pod, a node) and the structural kind to check it as. */
function structureArgs(): fc.Arbitrary<unknown[]> {
  return fc.oneof(
    mutatedWorkload('CloneSet', 'cloneSet').map((o) => ['CloneSet', o]),
    mutatedWorkload('StatefulSet', 'statefulSet').map((o) => ['StatefulSet', o, { observed: true }]),
    insideObserved('DaemonSet', ['nodes']).map((i) => ['Node', ((i as { nodes: unknown[] }).nodes ?? [])[0]]),
  );
}

/** Any text, and YAML-ish text built from the characters YAML gives meaning to. */
const arbText = (): fc.Arbitrary<unknown[]> =>
  fc
    .oneof(
      fc.string(),
      fc
        .array(
          fc.constantFrom(
            'a',
            ':',
            ' ',
            '\n',
            '-',
            '*',
            '&',
            '[',
            ']',
            '{',
            '}',
            '!',
            '|',
            '>',
            '#',
            '"',
            "'",
          ),
        )
        .map((cs) => cs.join('')),
    )
    .map((t) => [t]);

/** Package → entry point → how the robustness property calls it. */
export const entries: Readonly<Record<string, Readonly<Record<string, Entry>>>> = {
  '@kruise-ts/api': {
    checkStructure: { args: structureArgs, call: fn(api.checkStructure), answer: 'fieldErrors' },
    readYamlDocuments: { args: arbText, call: fn(api.readYamlDocuments), answer: 'any' },
    readManifests: { args: arbText, call: fn(api.readManifests), answer: 'any' },
    setDefaultsCloneSet: ofWorkload(api.setDefaultsCloneSet, 'CloneSet', 'cloneSet', 'object'),
    setDefaultsStatefulSet: ofWorkload(api.setDefaultsStatefulSet, 'StatefulSet', 'statefulSet', 'object'),
    setDefaultsDaemonSet: ofWorkload(api.setDefaultsDaemonSet, 'DaemonSet', 'daemonSet', 'object'),
    setDefaultsSidecarSet: ofWorkload(api.setDefaultsSidecarSet, 'SidecarSet', 'sidecarSet', 'object'),
    setDefaultsUnitedDeployment: ofWorkload(
      api.setDefaultsUnitedDeployment,
      'UnitedDeployment',
      'unitedDeployment',
      'object',
    ),
    setDefaultsImagePullJob: ofWorkload(
      api.setDefaultsImagePullJob,
      'ImagePullJob',
      'imagePullJob',
      'object',
    ),
    setDefaultsImageListPullJob: ofWorkload(
      api.setDefaultsImageListPullJob,
      'ImageListPullJob',
      'imageListPullJob',
      'object',
    ),
    setDefaultsNodeImage: ofWorkload(api.setDefaultsNodeImage, 'NodeImage', 'nodeImage', 'object'),
    setDefaultsAdvancedCronJob: ofWorkload(
      api.setDefaultsAdvancedCronJob,
      'AdvancedCronJob',
      'advancedCronJob',
      'object',
    ),
    setDefaultsContainerRecreateRequest: ofWorkload(
      api.setDefaultsContainerRecreateRequest,
      'ContainerRecreateRequest',
      'containerRecreateRequest',
      'object',
    ),
    setDefaultsBroadcastJob: {
      // no scenario runs a BroadcastJob: an AdvancedCronJob's job template stands in for its spec
      args: () =>
        mutatedWorkload('AdvancedCronJob', 'advancedCronJob').map((o) => [
          { ...(o as object), kind: 'BroadcastJob' },
        ]),
      call: fn(api.setDefaultsBroadcastJob),
      answer: 'object',
    },
  },
  '@kruise-ts/core': {
    screenObservedInput: {
      args: () =>
        reconcileInputs('CloneSet', 'cloneSet', ['pods', 'nodes']).map((i) => [
          i,
          { workload: 'cloneSet', lists: { pods: 'Pod', nodes: 'Node' } },
        ]),
      call: fn(core.screenObservedInput),
      answer: 'any',
    },
    withWellFormedInput: {
      args: () =>
        reconcileInputs('CloneSet', 'cloneSet', ['pods']).map((i) => [
          i,
          { workload: 'cloneSet', lists: { pods: 'Pod' } },
          undefined,
          () => undefined,
          (errors: unknown) => ({ actions: [], status: {}, errors }),
          () => ({ actions: [], status: {}, errors: [] }),
        ]),
      call: fn(core.withWellFormedInput),
      answer: 'reconcile',
    },
    observedErrors: {
      args: () =>
        insideObserved('CloneSet', ['pods']).map((i) => ['Pod', ((i as { pods: unknown[] }).pods ?? [])[0]]),
      call: fn(core.observedErrors),
      answer: 'fieldErrors',
    },
    dedupeObserved: {
      args: () => insideObserved('CloneSet', ['pods']).map((i) => [(i as { pods: unknown }).pods]),
      call: fn(core.dedupeObserved),
      answer: 'any',
    },
    dedupeObservedInput: {
      args: () =>
        reconcileInputs('CloneSet', 'cloneSet', ['pods']).map((i) => [
          i,
          ['pods', 'revisions', 'pvcs', 'nodes'],
        ]),
      call: fn(core.dedupeObservedInput),
      answer: 'any',
    },
  },
  '@kruise-ts/cloneset': {
    reconcileCloneSet: reconcile(cloneset.reconcileCloneSet, 'CloneSet', 'cloneSet', [
      'pods',
      'revisions',
      'pvcs',
      'nodes',
    ]),
    validateCloneSet: ofWorkload(cloneset.validateCloneSet, 'CloneSet', 'cloneSet', 'fieldErrors'),
    calculateDiffs: { args: diffsArgs, call: fn(cloneset.calculateDiffs), answer: 'diffs' },
  },
  '@kruise-ts/statefulset': {
    reconcileStatefulSet: reconcile(statefulset.reconcileStatefulSet, 'StatefulSet', 'statefulSet', [
      'pods',
      'revisions',
      'pvcs',
    ]),
    validateStatefulSet: ofWorkload(
      statefulset.validateStatefulSet,
      'StatefulSet',
      'statefulSet',
      'fieldErrors',
    ),
    convertStatefulSet: ofWorkload(
      statefulset.convertStatefulSet,
      'StatefulSet',
      'statefulSet',
      'object',
      'apps.kruise.io/v1alpha1',
    ),
  },
  '@kruise-ts/daemonset': {
    reconcileDaemonSet: reconcile(daemonset.reconcileDaemonSet, 'DaemonSet', 'daemonSet', [
      'nodes',
      'pods',
      'revisions',
    ]),
    validateDaemonSet: ofWorkload(daemonset.validateDaemonSet, 'DaemonSet', 'daemonSet', 'fieldErrors'),
  },
  '@kruise-ts/sidecarset': {
    reconcileSidecarSet: reconcile(sidecarset.reconcileSidecarSet, 'SidecarSet', 'sidecarSet', [
      'pods',
      'namespaces',
      'revisions',
    ]),
    validateSidecarSet: ofWorkload(sidecarset.validateSidecarSet, 'SidecarSet', 'sidecarSet', 'fieldErrors'),
    injectSidecars: { args: injectArgs, call: fn(sidecarset.injectSidecars), answer: 'injection' },
    defaultSidecarSetThenHash: ofWorkload(
      sidecarset.defaultSidecarSetThenHash,
      'SidecarSet',
      'sidecarSet',
      'object',
    ),
  },
  '@kruise-ts/uniteddeployment': {
    reconcileUnitedDeployment: reconcile(
      uniteddeployment.reconcileUnitedDeployment,
      'UnitedDeployment',
      'unitedDeployment',
      ['subsets', 'pods', 'revisions'],
    ),
    validateUnitedDeployment: ofWorkload(
      uniteddeployment.validateUnitedDeployment,
      'UnitedDeployment',
      'unitedDeployment',
      'fieldErrors',
    ),
    allocateSubsetReplicas: {
      args: allocateArgs,
      call: fn(uniteddeployment.allocateSubsetReplicas),
      answer: 'allocation',
    },
  },
  '@kruise-ts/nodeops': {
    reconcileImagePullJob: reconcile(nodeops.reconcileImagePullJob, 'ImagePullJob', 'imagePullJob', [
      'nodeImages',
      'pods',
      'secrets',
    ]),
    reconcileImageListPullJob: reconcile(
      nodeops.reconcileImageListPullJob,
      'ImageListPullJob',
      'imageListPullJob',
      ['imageListPullJob'],
    ),
    reconcileNodeImage: reconcile(nodeops.reconcileNodeImage, 'NodeImage', undefined, [
      'node',
      'nodeImage',
      'imagePullJobs',
    ]),
    reconcileAdvancedCronJob: reconcile(
      nodeops.reconcileAdvancedCronJob,
      'AdvancedCronJob',
      'advancedCronJob',
      ['advancedCronJob'],
    ),
    reconcileContainerRecreateRequest: reconcile(
      nodeops.reconcileContainerRecreateRequest,
      'ContainerRecreateRequest',
      'containerRecreateRequest',
      ['pod'],
    ),
    validateImagePullJob: ofWorkload(
      nodeops.validateImagePullJob,
      'ImagePullJob',
      'imagePullJob',
      'fieldErrors',
    ),
    validateImageListPullJob: ofWorkload(
      nodeops.validateImageListPullJob,
      'ImageListPullJob',
      'imageListPullJob',
      'fieldErrors',
    ),
    validateNodeImage: ofWorkload(nodeops.validateNodeImage, 'NodeImage', 'nodeImage', 'fieldErrors'),
    validateAdvancedCronJob: ofWorkload(
      nodeops.validateAdvancedCronJob,
      'AdvancedCronJob',
      'advancedCronJob',
      'fieldErrors',
    ),
    validateContainerRecreateRequest: ofWorkload(
      nodeops.validateContainerRecreateRequest,
      'ContainerRecreateRequest',
      'containerRecreateRequest',
      'fieldErrors',
    ),
  },
};
