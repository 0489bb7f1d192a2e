// The public entry points of docs/architecture.md for orderings, specified delete and expectations are
// exported from '@kruise-ts/core' (expectations from '@kruise-ts/core/expectations') with the documented shapes.
import * as core from '@kruise-ts/core';
import * as expectations from '@kruise-ts/core/expectations';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';

describe('docs/architecture.md: @kruise-ts/core exports the ordering entry points', () => {
  it.each([
    'sortUpdateIndexesByPriority',
    'sortUpdateIndexesByScatter',
    'comparePriority',
    'getScatterTerms',
    'scatterPodsByRule',
    'compareActivePods',
    'sortIndexesByActivePods',
    'compareForScaleIn',
    'sameNodeRanks',
    'spreadConstraintRanks',
    'scaleInRanks',
    'pickPodsForScaleIn',
    'isSpecifiedDelete',
  ])('%s is a function', (name) => {
    expect(typeof (core as Record<string, unknown>)[name]).toBe('function');
  });
  // The steps the entry points above are built from stay inside the package: no other package
  // calls them, so they are not part of the public API.
  it.each([
    'getPodPriorityWeight',
    'getPodPriorityOrder',
    'sortActivePods',
    'parseDeletionCost',
    'sortPodsForScaleIn',
    'markSpecifiedDelete',
    'isMarkedUnavailable',
  ])('%s is not exported', (name) => {
    expect(name in core).toBe(false);
  });
  it.each([
    'expectScale',
    'observeScale',
    'scaleExpectationsSatisfied',
    'expectUpdated',
    'observeUpdated',
    'updateExpectationsSatisfied',
    'expectResourceVersion',
    'observeResourceVersion',
    'resourceVersionSatisfied',
  ])('%s is a function of @kruise-ts/core/expectations', (name) => {
    expect(typeof (expectations as Record<string, unknown>)[name]).toBe('function');
  });
  it('sortUpdateIndexesByPriority(pods, indexes, strategy) and sortUpdateIndexesByScatter(pods, indexes, scatter)', () => {
    const pods: Pod[] = [
      { metadata: { labels: { k: 'v' } } },
      { metadata: {} },
      { metadata: { labels: { k: 'v' } } },
    ];
    expect(
      core.sortUpdateIndexesByPriority(pods, [0, 1, 2], { orderPriority: [{ orderedKey: 'k' }] }),
    ).toEqual([1, 2, 0]);
    expect(core.sortUpdateIndexesByScatter(pods, [0, 1, 2], [{ key: 'k', value: 'v' }])).toEqual([0, 1, 2]);
  });
  it('an invalid now is rejected with a KruiseError', () => {
    expect(() => expectations.expectScale({}, 'k', 'create', 'a', 'yesterday')).toThrow(core.KruiseError);
  });
});
