// Upstream cases of the admission side (testdata/upstream/sidecarset/): injection, merge,
// hashes, the namespace index, sidecarcontrol helpers, validation, and the shared ordering
// helpers (which live in core; the SidecarSet strategy depends on them).
import type { SidecarSet } from '@kruise-ts/api';
import {
  comparePriority,
  getScatterTerms,
  scatterPodsByRule,
  sortUpdateIndexesByScatter,
} from '@kruise-ts/core';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  convertDownwardAPIFieldLabel,
  extractContainerNameFromFieldPath,
  getPodMatchedSidecarSets,
  getPodSidecarSetRevision,
  getSidecarTransferEnvs,
  injectSidecars,
  isSelectorOverlapping,
  isSidecarContainerUpdateCompleted,
  mergeSidecarContainers,
  patchPodMetadata,
  podMatchedSidecarSet,
  sidecarSetHash,
  sidecarSetHashEncoding,
  sidecarSetHashWithoutImage,
  sidecarSetNamespaceIndex,
  sortByNameThenMergeSidecarContainers,
  updatePodSidecarSetHash,
  validateSidecarConflict,
  validateSidecarSetPatchMetadataWhitelist,
  validateSidecarSetSpec,
} from '../src/index';
import { loadCases, runCheck } from './helpers';

const NOW = '2025-06-01T12:00:00Z';
const each = (file: string): [string, any][] => {
  const d = loadCases(file);
  return d.cases.map((c: any) => [c.id, c] as [string, any]);
};

describe('upstream webhook_injection.json (mutatePodOnCreate, §3–§4)', () => {
  it.each(each('webhook_injection.json'))('%s', (_id, c) => {
    const input = deepFreeze(c.input);
    const pod = input.pod as Pod;
    const r = injectSidecars(pod, input.sidecarSets, {
      now: NOW,
      namespaces: input.namespaces ?? [],
      kruiseNamespace: input.kruiseNamespace,
      revisions: input.controllerRevisions ?? [],
      random: () => input.random ?? 0.5,
    });
    expect(r.errors.length > 0).toBe(c.expected.error);
    if (c.expected.error) expect(r.pod).toBe(pod);
    const root = { pod: r.pod, skip: r.pod === pod };
    for (const check of c.expected.checks) runCheck(root, check);
  });
});

describe('upstream webhook_merge_containers.json (SS-4.6.1, SS-4.6.2)', () => {
  it.each(each('webhook_merge_containers.json'))('%s', (_id, c) => {
    const injected = c.input.injected.map((s: any) => ({
      container: { name: s.name },
      policy: s.podInjectPolicy ?? '',
    }));
    const fn =
      c.function === 'mergeSidecarContainers' ? mergeSidecarContainers : sortByNameThenMergeSidecarContainers;
    const out = fn(deepFreeze(c.input.origins), injected);
    expect(out.map((x) => x.name)).toEqual(c.expected.names);
    expect(out.length).toBe(c.expected.length);
  });
});

describe('upstream hash_and_defaults.json (§2)', () => {
  it.each(each('hash_and_defaults.json'))('%s', (_id, c) => {
    const ss = deepFreeze(c.input.sidecarSet) as SidecarSet;
    if (c.function === 'sidecarSetHash') {
      expect(sidecarSetHashEncoding(ss)).toBe(c.expected.canonicalEncoding);
      expect(sidecarSetHash(ss)).toBe(c.expected.hash);
      const changed = {
        ...ss,
        spec: { ...ss.spec, containers: [{ ...ss.spec.containers![0], image: 'new-image' }] },
      };
      const h2 = sidecarSetHash(changed);
      expect(h2).not.toBe(c.expected.hashAfterSettingContainers0ImageToNewImage.notEqualTo);
      expect(h2).toBe(c.expected.hashAfterSettingContainers0ImageToNewImage.value);
    } else {
      expect(sidecarSetHashEncoding(ss, true)).toBe(c.expected.canonicalEncoding);
      expect(sidecarSetHashWithoutImage(ss)).toBe(c.expected.hashWithoutImage);
      const allNew = {
        ...ss,
        spec: {
          ...ss.spec,
          containers: ss.spec.containers?.map((x) => ({ ...x, image: 'other:1' })),
          initContainers: ss.spec.initContainers?.map((x) => ({ ...x, image: 'other:2' })),
        },
      };
      expect(sidecarSetHashWithoutImage(allNew)).toBe(c.expected.hashWithoutImageAfterChangingAllImages);
    }
  });
});

describe('upstream fieldindex_sidecarset.json (SS-3.4)', () => {
  it.each(each('fieldindex_sidecarset.json'))('%s', (_id, c) => {
    expect(sidecarSetNamespaceIndex(c.input.sidecarSet)).toEqual(c.expected.indexValues);
  });
});

describe('upstream sidecarcontrol_util.json', () => {
  it.each(each('sidecarcontrol_util.json'))('%s', (_id, c) => {
    const i = deepFreeze(c.input);
    const e = c.expected;
    switch (c.function) {
      case 'isSidecarContainerUpdateCompleted':
        expect(isSidecarContainerUpdateCompleted(i.pod, i.sidecarSetNames, i.containers)).toBe(e.result);
        break;
      case 'getPodSidecarSetRevision':
        expect(getPodSidecarSetRevision(i.podAnnotations, i.sidecarSetName)).toBe(e.revision);
        expect(getPodSidecarSetRevision(i.podAnnotations, i.sidecarSetName, true)).toBe(
          e.withoutImageRevision,
        );
        break;
      case 'updatePodSidecarSetHash': {
        const out = updatePodSidecarSetHash(i.podAnnotations, i.sidecarSet, NOW);
        const hashes = JSON.parse(out['kruise.io/sidecarset-hash']);
        for (const v of Object.values(hashes) as any[]) expect(v.hash).toBe(Object.values(e.hashByName)[0]);
        const noImage = JSON.parse(out['kruise.io/sidecarset-hash-without-image']);
        for (const v of Object.values(noImage) as any[])
          expect(v.hash).toBe(Object.values(e.withoutImageHashByName)[0]);
        for (const check of e.checks) runCheck(out, check);
        break;
      }
      case 'convertDownwardAPIFieldLabel': {
        const r = convertDownwardAPIFieldLabel(i.version, i.label, i.value);
        expect('error' in r).toBe(e.error);
        if (!e.error) expect(r).toEqual({ label: e.label, value: e.value });
        break;
      }
      case 'extractContainerNameFromFieldPath': {
        const r = extractContainerNameFromFieldPath(i.fieldRef, i.pod);
        expect('error' in r).toBe(e.error);
        if (!e.error) expect(r).toEqual({ containerName: e.containerName });
        break;
      }
      case 'getSidecarTransferEnvs': {
        const envs = getSidecarTransferEnvs(i.sidecarContainer, i.pod);
        expect(envs.length).toBe(e.length);
        expect(envs).toEqual(e.envs);
        break;
      }
      case 'patchPodMetadata': {
        const r = patchPodMetadata(i.podAnnotations, i.patches);
        expect(r.error !== undefined).toBe(e.error);
        if (r.error === undefined) {
          expect(r.annotations).toEqual(e.annotations);
          expect(!r.changed).toBe(e.skip);
        }
        break;
      }
      case 'validateSidecarSetPatchMetadataWhitelist':
        expect(
          validateSidecarSetPatchMetadataWhitelist(i.sidecarSet, i.kruiseConfiguration, i.featureGates) !==
            undefined,
        ).toBe(e.error);
        break;
      case 'podMatchedSidecarSet':
        expect(podMatchedSidecarSet(i.pod, i.sidecarSet, i.namespaces).matched).toBe(e.matched);
        break;
      default:
        throw new Error(`unhandled ${c.function}`);
    }
  });
});

describe('upstream webhook_validating.json (§6)', () => {
  it.each(each('webhook_validating.json'))('%s', (_id, c) => {
    const i = deepFreeze(c.input);
    switch (c.function) {
      case 'validateSidecarSetSpec': {
        const errs = validateSidecarSetSpec(i.sidecarSet, undefined, {
          revisions: i.controllerRevisions,
          kruiseConfiguration: i.kruiseConfiguration,
          featureGates: i.featureGates,
        });
        expect(errs.length, JSON.stringify(errs)).toBe(c.expected.errorCount);
        break;
      }
      case 'validateSidecarConflict':
        expect(validateSidecarConflict(i.sidecarSet, i.otherSidecarSets, i.namespaces).length).toBe(
          c.expected.errorCount,
        );
        break;
      case 'isSelectorOverlapping':
        expect(isSelectorOverlapping(i.selector1, i.selector2)).toBe(c.expected.overlapping);
        break;
      default:
        throw new Error(`unhandled ${c.function}`);
    }
  });
});

describe('upstream controller_pod_event_handler.json: getPodMatchedSidecarSets (SS-5.9)', () => {
  const cases = each('controller_pod_event_handler.json').filter(
    ([, c]) => c.function === 'getPodMatchedSidecarSets',
  );
  it.each(cases)('%s', (_id, c) => {
    const got = getPodMatchedSidecarSets(deepFreeze(c.input.pod), deepFreeze(c.input.sidecarSets));
    expect(got.length).toBe(c.expected.count);
    expect(got.map((s) => s.metadata.name)).toEqual(c.expected.names);
  });
});

describe('upstream updatesort_shared.json (SS-5.6.5, SS-5.6.6 via core)', () => {
  const podsOf = (labels: (Record<string, string> | null)[]) =>
    labels.map((l) => (l === null ? null : ({ metadata: { labels: l } } as Pod)));
  it.each(each('updatesort_shared.json'))('%s', (_id, c) => {
    const i = c.input;
    switch (c.function) {
      case 'scatterGetTerms':
        expect(getScatterTerms(i.scatterStrategy, podsOf(i.podLabels), i.indexes)).toEqual(c.expected.terms);
        break;
      case 'scatterPodsByRule':
        expect(scatterPodsByRule(i.term, podsOf(i.podLabels), i.indexes)).toEqual(c.expected.indexes);
        break;
      case 'scatterSort':
        expect(sortUpdateIndexesByScatter(podsOf(i.podLabels), i.indexes, i.scatterStrategy)).toEqual(
          c.expected.indexes,
        );
        break;
      case 'priorityCompare': {
        const cmp = comparePriority(i.priorityStrategy, i.podILabels, i.podJLabels);
        expect(cmp < 0 ? true : cmp > 0 ? false : i.defaultValue).toBe(c.expected.result);
        break;
      }
      default:
        throw new Error(`unhandled ${c.function}`);
    }
  });
});
