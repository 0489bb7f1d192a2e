// encodeInPlaceUpdateState keeps the last state it encoded (issue #4 perf): the text it returns
// must be the text a fresh encoding gives, whatever state came before, and a caller changing
// its state object after the call must not change later results.
import type { InPlaceUpdateState } from '@kruise-ts/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeInPlaceUpdateState } from '../src/rollout/inplace/annotations';

let flushes = 0;
/** A fresh (memo-less) encoding: a state with a never-seen revision empties the memo first. */
function freshEncode(s: InPlaceUpdateState): string {
  encodeInPlaceUpdateState({
    revision: `flush-${flushes++}`,
    updateTimestamp: null,
    lastContainerStatuses: null,
  });
  return encodeInPlaceUpdateState(s);
}

// small pools so that equal and nearly equal states are frequent
const name = fc.constantFrom('a', 'b', 'main');
const text = fc.constantFrom('', 'x', 'y', 'img:v2', 'sha256:1');
const names = fc.array(name, { maxLength: 2 });
const state = fc.record(
  {
    revision: fc.constantFrom('r1', 'r2'),
    updateTimestamp: fc.constantFrom(null, '', '2024-01-01T00:00:00Z'),
    lastContainerStatuses: fc.option(
      fc.dictionary(name, fc.oneof(fc.constant({}), fc.record({ imageID: text }))),
      { nil: null },
    ),
    updateEnvFromMetadata: fc.boolean(),
    updateResources: fc.boolean(),
    updateImages: fc.boolean(),
    nextContainerImages: fc.dictionary(name, text),
    nextContainerRefMetadata: fc.dictionary(name, fc.record({ labels: fc.dictionary(name, text) })),
    nextContainerResources: fc.dictionary(
      name,
      fc.record({ limits: fc.dictionary(fc.constant('cpu'), text) }),
    ),
    preCheckBeforeNext: fc.record({ containersRequiredReady: names }, { requiredKeys: [] }),
    containerBatchesRecord: fc.array(
      fc.record(
        { timestamp: fc.constantFrom('t1', 't2'), containers: names },
        { requiredKeys: ['timestamp'] },
      ),
      { maxLength: 2 },
    ),
  },
  { requiredKeys: ['revision', 'updateTimestamp', 'lastContainerStatuses'] },
) as fc.Arbitrary<InPlaceUpdateState>;

describe('encodeInPlaceUpdateState memo (2.7.1 encoding unchanged)', () => {
  it('after any previous state, the text equals a fresh encoding', () => {
    fc.assert(
      fc.property(state, state, (prev, s) => {
        const want = freshEncode(structuredClone(s));
        encodeInPlaceUpdateState(prev);
        expect(encodeInPlaceUpdateState(s)).toBe(want);
        expect(encodeInPlaceUpdateState(structuredClone(s))).toBe(want); // a hit on an equal state
      }),
    );
  });

  it('a state changed by its caller after encoding is encoded anew', () => {
    fc.assert(
      fc.property(state, state, (s, other) => {
        const mutable = structuredClone(s);
        encodeInPlaceUpdateState(mutable);
        Object.assign(mutable, structuredClone(other));
        for (const k of Object.keys(mutable) as (keyof InPlaceUpdateState)[])
          if (!Object.hasOwn(other, k)) delete mutable[k];
        expect(encodeInPlaceUpdateState(mutable)).toBe(freshEncode(structuredClone(other)));
      }),
    );
  });

  it('a wave of equal states with the same image ID shares one text', () => {
    const s = (imageID: string): InPlaceUpdateState => ({
      revision: 'web-2',
      updateTimestamp: '2024-01-01T00:00:00Z',
      lastContainerStatuses: { main: { imageID } },
      updateImages: true,
      containerBatchesRecord: [{ timestamp: '2024-01-01T00:00:00Z', containers: ['main'] }],
    });
    const text =
      '{"revision":"web-2","updateTimestamp":"2024-01-01T00:00:00Z","lastContainerStatuses":{"main":{"imageID":"id1"}},' +
      '"updateImages":true,"containerBatchesRecord":[{"timestamp":"2024-01-01T00:00:00Z","containers":["main"]}]}';
    expect(encodeInPlaceUpdateState(s('id1'))).toBe(text);
    expect(encodeInPlaceUpdateState(s('id1'))).toBe(text);
    expect(encodeInPlaceUpdateState(s('id2'))).toBe(text.replace('id1', 'id2'));
  });
});
