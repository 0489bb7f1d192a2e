// Specified delete (docs/reference/core.md R7.2, docs/reference/cloneset.md §4.4) and the unavailable-label prefix (R7.1).
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  isMarkedUnavailable,
  isSpecifiedDelete,
  markSpecifiedDelete,
  specifiedDeletePatch,
} from '../src/rollout/specifiedDelete';
import { deepFreeze } from '../src/testing';

const KEY = 'apps.kruise.io/specified-delete';
const pod = (labels?: Record<string, string>, name = 'web-x7k2p'): Pod =>
  deepFreeze({ metadata: { name, labels, annotations: { a: 'b' } }, spec: { containers: [] } });

describe('R7.2 specified delete', () => {
  it('R7.2: the label with any value, even "", makes a pod specified-delete', () => {
    expect(isSpecifiedDelete(pod({ [KEY]: 'true' }))).toBe(true);
    expect(isSpecifiedDelete(pod({ [KEY]: '' }))).toBe(true);
    expect(isSpecifiedDelete(pod({ [KEY]: 'false' }))).toBe(true);
    expect(isSpecifiedDelete(pod({ app: 'web' }))).toBe(false);
    expect(isSpecifiedDelete(pod(undefined))).toBe(false);
  });
  it('cloneset.md §4.4: a name in scaleStrategy.podsToDelete also counts', () => {
    expect(isSpecifiedDelete(pod({}), ['other', 'web-x7k2p'])).toBe(true);
    expect(isSpecifiedDelete(pod({}), ['other'])).toBe(false);
    expect(isSpecifiedDelete({ metadata: {} }, ['web-x7k2p'])).toBe(false);
  });
  it('R7.2: marking writes "true" when the label is absent, returning a new pod', () => {
    const p = pod({ app: 'web' });
    const marked = markSpecifiedDelete(p);
    expect(marked).not.toBe(p);
    expect(marked.metadata?.labels).toEqual({ app: 'web', [KEY]: 'true' });
    expect(marked.metadata?.annotations).toEqual({ a: 'b' });
    expect(p.metadata?.labels).toEqual({ app: 'web' });
    expect(markSpecifiedDelete(pod(undefined)).metadata?.labels).toEqual({ [KEY]: 'true' });
  });
  it('R7.2: marking a pod that already has the label (any value) returns the same pod', () => {
    const p = pod({ [KEY]: '' });
    expect(markSpecifiedDelete(p)).toBe(p);
  });
  it('R7.2: the merge patch is the label "true", or nothing when present', () => {
    expect(specifiedDeletePatch(pod({}))).toEqual({ metadata: { labels: { [KEY]: 'true' } } });
    expect(specifiedDeletePatch(pod({ [KEY]: 'x' }))).toBeUndefined();
  });
});

describe('R7.1 unavailable label prefix', () => {
  it('R7.1: any label key with the prefix unavailable-pod.kruise.io/ marks the pod (values ignored)', () => {
    expect(isMarkedUnavailable(pod({ 'unavailable-pod.kruise.io/maintenance': '' }))).toBe(true);
    expect(isMarkedUnavailable(pod({ 'unavailable-pod.kruise.io/x': 'false' }))).toBe(true);
    expect(isMarkedUnavailable(pod({ 'unavailable-pod.kruise.io': 'true' }))).toBe(false);
    expect(isMarkedUnavailable(pod({ 'apps.kruise.io/unavailable': 'true' }))).toBe(false);
    expect(isMarkedUnavailable(pod(undefined))).toBe(false);
  });
});
