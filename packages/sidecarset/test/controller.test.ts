// docs/reference/sidecarset.md §5: the controller's worked examples (SS-5.3.2, SS-5.6.3/4, SS-5.8.4)
// and one test per rule.
import type { SidecarSet } from '@kruise-ts/api';
import { deepFreeze } from '@kruise-ts/core/testing';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  defaultSidecarSetThenHash,
  getMatchingPods,
  getNextUpgradePods,
  reconcileSidecarSet,
  registerLatestRevision,
  truncateHistory,
} from '../src/index';
import { sidecarSet } from './helpers';
import { injectedPods, runPod } from './kubelet';
import { World } from './scenario';

const NOW = '2025-06-01T00:00:00Z';

function logAgent(image: string, extra: Partial<SidecarSet['spec']> = {}, rv = '100'): SidecarSet {
  const ss = defaultSidecarSetThenHash(
    sidecarSet(
      'log',
      {
        selector: { matchLabels: { app: 'web' } },
        containers: [{ name: 'agent', image, env: [{ name: 'LEVEL', value: 'info' }] }],
        ...extra,
      },
      { resourceVersion: rv, generation: 1, uid: 'ss-uid' },
    ),
  );
  return ss;
}

function hotSet(image: string): SidecarSet {
  return defaultSidecarSetThenHash(
    sidecarSet(
      'hot',
      {
        selector: { matchLabels: { app: 'web' } },
        containers: [
          {
            name: 't',
            image,
            upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' },
          },
        ],
      },
      { resourceVersion: '7', generation: 1, uid: 'hot-uid' },
    ),
  );
}

const image = (p: Pod, name: string) => p.spec?.containers.find((c) => c.name === name)?.image;
const statusOf = (r: {
  status: { matchedPods: number; updatedPods: number; readyPods: number; updatedReadyPods?: number };
}) => `${r.status.matchedPods}/${r.status.updatedPods}/${r.status.readyPods}/${r.status.updatedReadyPods}`;

describe('SS-5.8.4 hot upgrade timeline (TestUpdateHotUpgradeSidecar)', () => {
  it('rounds 1–4: swap, wait for the kubelet, flip, ready', () => {
    const pods = injectedPods(1, [hotSet('t:v1')]);
    expect(pods[0].spec!.containers.map((c) => `${c.name}=${c.image}`)).toEqual([
      't-1=t:v1',
      't-2=empty:1',
      'main=main:1',
    ]);
    const w = new World(hotSet('t:v2'), pods);
    const emptyId = pods[0].status!.containerStatuses!.find((s) => s.name === 't-2')!.imageID;

    // Round 1: t-2 ← v2, working → t-2, hash updated, state records t-2's empty imageID.
    let r = w.reconcile();
    expect(statusOf(r)).toBe('1/0/1/0');
    let p = w.pod('pod-0');
    expect(image(p, 't-2')).toBe('t:v2');
    expect(image(p, 't-1')).toBe('t:v1');
    const ann = p.metadata!.annotations!;
    expect(JSON.parse(ann['kruise.io/sidecarset-working-hotupgrade-container'])).toEqual({ t: 't-2' });
    expect(ann['version.sidecarset.kruise.io/t-2']).toBe('7');
    expect(ann['versionalt.sidecarset.kruise.io/t-2']).toBe('1');
    expect(ann['versionalt.sidecarset.kruise.io/t-1']).toBe('7');
    expect(JSON.parse(ann['kruise.io/sidecarset-inplace-update-state']).hot.lastContainerStatuses).toEqual({
      't-2': { imageID: emptyId },
    });
    expect(r.actions.filter((a) => a.verb === 'patch').map((a) => a.reason)).toEqual(['InPlaceUpdate']);

    // Round 2: the kubelet has not switched t-2 yet.
    r = w.reconcile();
    expect(statusOf(r)).toBe('1/1/0/0');
    expect(r.actions.filter((a) => a.verb === 'patch')).toEqual([]);

    // The kubelet switches t-2; round 3 flips t-1 to the empty image.
    w.updatePod('pod-0', (x) => runPod(x, ['t-2']));
    r = w.reconcile();
    expect(statusOf(r)).toBe('1/1/0/0');
    p = w.pod('pod-0');
    expect(image(p, 't-1')).toBe('empty:1');
    expect(p.metadata!.annotations!['version.sidecarset.kruise.io/t-1']).toBe('0');
    expect(p.metadata!.annotations!['versionalt.sidecarset.kruise.io/t-2']).toBe('0');
    expect(r.actions.filter((a) => a.verb === 'patch').map((a) => a.reason)).toEqual(['HotUpgradeReset']);

    // The kubelet switches t-1; round 4: everything ready.
    w.updatePod('pod-0', (x) => runPod(x, ['t-1']));
    r = w.reconcile();
    expect(statusOf(r)).toBe('1/1/1/1');
    expect(r.actions.filter((a) => a.verb === 'patch')).toEqual([]);
  });

  it('SS-5.1 step 5: the flip also runs when the update strategy is NotUpdate', () => {
    const pods = injectedPods(1, [hotSet('t:v1')]);
    const w = new World(hotSet('t:v2'), pods);
    w.reconcile();
    w.updatePod('pod-0', (x) => runPod(x, ['t-2']));
    w.editSidecarSet((ss) => ({
      ...ss,
      spec: { ...ss.spec, updateStrategy: { ...ss.spec.updateStrategy, type: 'NotUpdate' } },
    }));
    w.reconcile();
    expect(image(w.pod('pod-0'), 't-1')).toBe('empty:1');
  });
});

describe('SS-5.3 revisions', () => {
  it('SS-5.3.2 example (TestGetActiveRevisions): v0 → 1; v1 ×5 → 2; v0 again ×5 → 3; 100 image changes → 10 stored', () => {
    const w = new World(logAgent('a:v0'), []);
    const latest = () => {
      const revs = w.revisions();
      return Math.max(...revs.map((r) => r.revision));
    };
    const setImage = (img: string) =>
      w.editSidecarSet((ss) => ({
        ...ss,
        spec: { ...ss.spec, containers: [{ ...ss.spec.containers![0], image: img }] },
      }));
    w.reconcile();
    expect(w.revisions().map((r) => r.revision)).toEqual([1]);
    setImage('a:v1');
    for (let i = 0; i < 5; i++) w.reconcile();
    expect(latest()).toBe(2);
    expect(w.revisions()).toHaveLength(2);
    setImage('a:v0');
    for (let i = 0; i < 5; i++) w.reconcile();
    expect(latest()).toBe(3);
    expect(w.revisions()).toHaveLength(2);
    const r0 = w.revisions().find((r) => r.revision === 3)!;
    expect(w.sidecarSet().status!.latestRevision).toBe(r0.metadata!.name);
    for (let i = 0; i < 100; i++) {
      setImage(`a:x${i}`);
      w.reconcile();
    }
    expect(w.revisions()).toHaveLength(10);
  });

  it('SS-5.3.1 revision shape: kruise namespace, labels, annotations, owner, data', () => {
    const ss = deepFreeze(logAgent('a:v0', {}, '1'));
    const reg = registerLatestRevision({ ...ss, metadata: { ...ss.metadata, labels: { team: 'x' } } }, []);
    const rev = reg.create[0];
    expect(rev.metadata!.namespace).toBe('kruise-system');
    expect(rev.metadata!.labels).toMatchObject({ team: 'x', 'kruise.io/sidecarset-name': 'log' });
    expect(rev.metadata!.labels!['controller.kubernetes.io/hash']).toBe(
      rev.metadata!.name!.slice('log-'.length),
    );
    expect(rev.metadata!.annotations!['kruise.io/sidecarset-hash']).toBe(
      ss.metadata.annotations!['kruise.io/sidecarset-hash'],
    );
    expect(rev.metadata!.ownerReferences![0]).toMatchObject({
      kind: 'SidecarSet',
      name: 'log',
      uid: 'ss-uid',
    });
    expect(Object.keys((rev.data as any).spec)).toEqual([
      '$patch',
      'containers',
      'imagePullSecrets',
      'initContainers',
      'patchPodMetadata',
      'volumes',
    ]);
    expect((rev.data as any).spec.volumes).toBeNull();
    expect(rev.revision).toBe(1);
  });

  it('SS-5.3.2 the custom-version label is copied onto the latest revision', () => {
    const ss = logAgent('a:v0');
    const reg1 = registerLatestRevision(ss, []);
    const labelled = {
      ...ss,
      metadata: { ...ss.metadata, labels: { 'apps.kruise.io/sidecarset-custom-version': 'v9' } },
    };
    const reg2 = registerLatestRevision(labelled, reg1.create);
    expect(reg2.update).toHaveLength(1);
    expect(reg2.update[0].metadata!.labels!['apps.kruise.io/sidecarset-custom-version']).toBe('v9');
  });

  it('SS-5.3.4 pods referencing old revisions keep them; a shortfall is a Warning event, the round continues', () => {
    const ss = { ...logAgent('a:v0'), spec: { ...logAgent('a:v0').spec, revisionHistoryLimit: 1 } };
    const revs = [1, 2, 3].map((n) => ({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: `log-${n}`,
        namespace: 'kruise-system',
        labels: { 'kruise.io/sidecarset-name': 'log' },
      },
      revision: n,
    }));
    const pods = [1, 2].map(
      (n) =>
        ({
          metadata: {
            annotations: {
              'kruise.io/sidecarset-hash': `{"log":{"hash":"x","controllerRevision":"log-${n}"}}`,
            },
          },
        }) as Pod,
    );
    expect(truncateHistory(ss, revs as never, pods)).toEqual({
      delete: [],
      error: 'failed to limit the number of stored revisions, limited: 1, actual: 3, name: log',
    });
    // in a round: the shortfall is reported as an event and the pods are still updated
    const v1 = { ...ss, status: { matchedPods: 0, updatedPods: 0, readyPods: 0, latestRevision: 'log-1' } };
    const injected = injectedPods(2, [v1]);
    const r = reconcileSidecarSet(
      deepFreeze({
        sidecarSet: { ...logAgent('a:v2'), spec: { ...logAgent('a:v2').spec, revisionHistoryLimit: 1 } },
        pods: injected,
        revisions: [revs[0]] as never,
        now: NOW,
      }),
    );
    expect(r.actions.find((a) => a.verb === 'event')).toMatchObject({
      type: 'Warning',
      reason: 'FailedTruncateHistory',
    });
    expect(r.actions.filter((a) => a.verb === 'patch')).toHaveLength(1);
  });
});

describe('§5.1, SS-5.4, SS-5.7 one round', () => {
  it('SS-5.4 status counts and observedGeneration; SS-5.7.1 only the image changes; SS-5.7.3 hash entry', () => {
    const pods = injectedPods(3, [logAgent('a:v1')]);
    const ss = { ...logAgent('a:v2'), metadata: { ...logAgent('a:v2').metadata, generation: 4 } };
    const r = reconcileSidecarSet(deepFreeze({ sidecarSet: ss, pods, now: NOW }));
    expect(r.status).toMatchObject({
      observedGeneration: 4,
      matchedPods: 3,
      updatedPods: 0,
      readyPods: 3,
      updatedReadyPods: 0,
    });
    const patches = r.actions.filter((a) => a.verb === 'patch');
    expect(patches).toHaveLength(1);
    const patch = (patches[0] as any).patch;
    const agent = patch.spec.containers.find((c: any) => c.name === 'agent');
    const before = pods[2].spec!.containers.find((c) => c.name === 'agent')!;
    expect(agent).toEqual({ ...before, image: 'a:v2' });
    const entry = JSON.parse(patch.metadata.annotations['kruise.io/sidecarset-hash']).log;
    expect(entry).toEqual({
      updateTimestamp: NOW,
      hash: ss.metadata.annotations!['kruise.io/sidecarset-hash'],
      sidecarSetName: 'log',
      sidecarList: ['agent'],
      controllerRevision: r.status.latestRevision,
    });
    const cond = patch.status.conditions.find((c: any) => c.type === 'SidecarSetUpgradable');
    expect(cond).toMatchObject({
      status: 'True',
      reason: 'AllSidecarsetUpgradable',
      message: '{"log":true}',
    });
  });

  it('SS-5.1 steps 6–8: NotUpdate, paused and "all updated" stop before selection', () => {
    const pods = injectedPods(2, [logAgent('a:v1')]);
    for (const us of [{ type: 'NotUpdate' as const }, { type: 'RollingUpdate' as const, paused: true }]) {
      const ss = logAgent('a:v2', { updateStrategy: us });
      const r = reconcileSidecarSet(deepFreeze({ sidecarSet: ss, pods, now: NOW }));
      expect(r.actions.filter((a) => a.verb === 'patch')).toEqual([]);
      expect(r.status.matchedPods).toBe(2);
    }
    const same = reconcileSidecarSet(deepFreeze({ sidecarSet: logAgent('a:v1'), pods, now: NOW }));
    expect(same.status.updatedPods).toBe(2);
    expect(same.actions.filter((a) => a.verb === 'patch')).toEqual([]);
  });

  it('SS-5.5.2 / SS-5.7.5 a pod whose without-image hash differs gets SidecarSetUpgradable=False and no image change', () => {
    const pods = injectedPods(1, [logAgent('a:v1')]);
    const changed = logAgent('a:v2', {
      containers: [{ name: 'agent', image: 'a:v2', env: [{ name: 'LEVEL', value: 'debug' }] }],
    });
    const r = reconcileSidecarSet(deepFreeze({ sidecarSet: changed, pods, now: NOW }));
    const patches = r.actions.filter((a) => a.verb === 'patch') as any[];
    expect(patches.map((a) => a.reason)).toEqual(['NotUpgradable']);
    expect(patches[0].patch.spec).toBeUndefined();
    expect(
      patches[0].patch.status.conditions.find((c: any) => c.type === 'SidecarSetUpgradable'),
    ).toMatchObject({
      type: 'SidecarSetUpgradable',
      status: 'False',
      reason: 'UpdateImmutableField',
      message: '{"log":false}',
    });
  });

  it('SS-5.5.2 busy: a ready sidecar whose in-place update is not complete is skipped', () => {
    const [p] = injectedPods(1, [logAgent('a:v1')]);
    const busy = {
      ...p,
      metadata: {
        ...p.metadata,
        annotations: {
          ...p.metadata!.annotations,
          'kruise.io/sidecarset-inplace-update-state': JSON.stringify({
            log: {
              revision: 'x',
              lastContainerStatuses: {
                agent: { imageID: p.status!.containerStatuses!.find((s) => s.name === 'agent')!.imageID },
              },
            },
          }),
        },
      },
      spec: {
        ...p.spec!,
        containers: p.spec!.containers.map((c) => (c.name === 'agent' ? { ...c, image: 'a:v1.5' } : c)),
      },
    } as Pod;
    const r = getNextUpgradePods(logAgent('a:v2'), [busy]);
    expect(r).toEqual({ upgrade: [], notUpgradable: [] });
  });

  it('SS-5.7.5 patchPodMetadata is applied to upgraded pods', () => {
    const pods = injectedPods(1, [logAgent('a:v1')]);
    const ss = logAgent('a:v2', {
      patchPodMetadata: [{ patchPolicy: 'Overwrite', annotations: { 'x/y': 'z' } }],
    });
    const r = reconcileSidecarSet(deepFreeze({ sidecarSet: ss, pods, now: NOW }));
    expect((r.actions.find((a) => a.verb === 'patch') as any).patch.metadata.annotations['x/y']).toBe('z');
  });

  it('SS-5.2 matched pods: injected list, consistency, scope and activity', () => {
    const ss = logAgent('a:v1');
    const [ok, notListed, inconsistent, done, otherNs] = injectedPods(5, [ss]);
    const a = { ...notListed, metadata: { ...notListed.metadata, annotations: {} } };
    const b = { ...inconsistent, spec: { containers: [{ name: 'main', image: 'm' }] } };
    const c = { ...done, status: { ...done.status, phase: 'Succeeded' } };
    const d = { ...otherNs, metadata: { ...otherNs.metadata, namespace: 'other' } };
    const scoped = { ...ss, spec: { ...ss.spec, namespace: 'default' } };
    expect(
      getMatchingPods(scoped, deepFreeze([ok, a, b, c, d] as Pod[])).map((p) => p.metadata!.name),
    ).toEqual(['pod-0']);
    expect(getMatchingPods(ss, deepFreeze([ok, d] as Pod[]))).toHaveLength(2);
  });

  it('an invalid SidecarSet gets a Warning event and nothing else', () => {
    const ss = logAgent('a:v2', { selector: {} });
    const r = reconcileSidecarSet(
      deepFreeze({ sidecarSet: ss, pods: injectedPods(1, [logAgent('a:v1')]), now: NOW }),
    );
    expect(r.errors.length).toBeGreaterThan(0);
    expect(r.actions.map((a) => a.verb)).toEqual(['event']);
  });

  it('the reconcile is idempotent: the same observed state gives the same actions', () => {
    const input = deepFreeze({
      sidecarSet: logAgent('a:v2'),
      pods: injectedPods(4, [logAgent('a:v1')]),
      now: NOW,
    });
    expect(reconcileSidecarSet(input)).toEqual(reconcileSidecarSet(input));
  });
});
