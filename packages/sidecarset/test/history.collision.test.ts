// SS-5.3.2 name clashes of a new SidecarSet revision (core's chooseUpdateRevision with the
// kruise namespace as the names taken and Go's EqualRevision).
import type { SidecarSet } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import { describe, expect, it } from 'vitest';
import { defaultSidecarSetThenHash, newSidecarSetRevision, registerLatestRevision } from '../src/index';
import { sidecarSet } from './helpers';

function logAgent(image: string, status?: SidecarSet['status']): SidecarSet {
  const ss = defaultSidecarSetThenHash(
    sidecarSet(
      'log',
      { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'agent', image }] },
      { uid: 'ss-uid' },
    ),
  );
  return deepFreeze(status ? { ...ss, status } : ss);
}

/** A revision of another SidecarSet (`other`) sitting on `name` with the given data. */
function squatter(name: string, data: unknown, namespace = 'kruise-system'): ControllerRevision {
  return deepFreeze({
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: { name, namespace, labels: { 'kruise.io/sidecarset-name': 'other' } },
    data: data as never,
    revision: 1,
  });
}

describe('SS-5.3.2 revision name clashes', () => {
  it('a name taken in the kruise namespace by different data: collisionCount 0 → 1 and a new name', () => {
    const ss = logAgent('a:v0');
    const first = newSidecarSetRevision(ss, 1, 0);
    const reg = registerLatestRevision(ss, [squatter(first.metadata!.name!, { spec: { other: true } })]);
    expect(reg.collisionCount).toBe(1);
    expect(reg.create).toEqual([newSidecarSetRevision(ss, 1, 1)]);
    expect(reg.latest.metadata!.name).not.toBe(first.metadata!.name);
  });

  it('the count starts from status.collisionCount (SS-5.3.3)', () => {
    const ss = logAgent('a:v0', { matchedPods: 0, updatedPods: 0, readyPods: 0, collisionCount: 2 });
    const reg = registerLatestRevision(ss, []);
    expect(reg.collisionCount).toBe(2);
    expect(reg.create).toEqual([newSidecarSetRevision(ss, 1, 2)]);
  });

  it('the same name in another namespace does not clash', () => {
    const ss = logAgent('a:v0');
    const first = newSidecarSetRevision(ss, 1, 0);
    const reg = registerLatestRevision(ss, [
      squatter(first.metadata!.name!, { spec: { other: true } }, 'ns'),
    ]);
    expect(reg.collisionCount).toBe(0);
    expect(reg.create).toEqual([first]);
  });

  it('a name taken by equal data (another owner): no count change, S’s candidate is what is recorded', () => {
    const ss = logAgent('a:v0');
    const first = newSidecarSetRevision(ss, 1, 0);
    const reg = registerLatestRevision(ss, [squatter(first.metadata!.name!, first.data)]);
    expect(reg.collisionCount).toBe(0);
    expect(reg.latest).toEqual(first);
    expect(reg.create).toEqual([first]);
  });
});
