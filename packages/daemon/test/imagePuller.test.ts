import type { NodeImage } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import {
  type CallOptions,
  CriError,
  type CriImage,
  type CriImageService,
  type CriPullImageRequest,
  ImagePuller,
  InMemoryKube,
} from '../src/index';
import { FakeClock } from './support/fakeClock';
import { nodeImageWith } from './support/helpers';

function setup(
  pull: (req: CriPullImageRequest, opts?: CallOptions) => Promise<string>,
  images: CriImage[] = [],
) {
  const clock = new FakeClock();
  const kube = new InMemoryKube({ now: () => clock.now() });
  const calls: CriPullImageRequest[] = [];
  const image: CriImageService = {
    imageFsInfo: async () => ({}),
    listImages: async () => images,
    pullImage: (req, opts) => {
      calls.push(req);
      return pull(req, opts);
    },
  };
  const puller = new ImagePuller({ nodeName: 'n1', kube, image, clock, rng: () => 0 });
  const get = () => kube.get<NodeImage>('NodeImage', undefined, 'n1') as NodeImage;
  return { clock, kube, puller, calls, get };
}

describe('§7.2–§7.4 image puller controller (in-memory API, fake CRI)', () => {
  it('§7.3: pulls each spec tag once and writes desired/succeeded and the per-tag status', async () => {
    const t = setup(
      async () => 'x',
      [{ id: 'sha256:1', repoTags: ['docker.io/library/nginx:1.25'], repoDigests: [] }],
    );
    t.kube.create(nodeImageWith('n1', 'nginx', { tag: '1.25', version: 2 }));
    await t.puller.start();
    await t.clock.advance(10_000);
    const st = t.get().status;
    expect(st).toMatchObject({ desired: 1, succeeded: 1, failed: 0, pulling: 0 });
    expect(st?.imageStatuses?.nginx.tags).toEqual([
      expect.objectContaining({
        tag: '1.25',
        phase: 'Succeeded',
        version: 2,
        imageID: 'nginx@sha256:1',
        progress: 100,
      }),
    ]);
    await t.clock.advance(60_000);
    expect(t.calls).toHaveLength(1);
    await t.puller.stop();
  });

  it('§7.4 item 2: a spec version bump stops nothing finished but starts a new pull round', async () => {
    const t = setup(async () => 'x');
    t.kube.create(nodeImageWith('n1', 'nginx', { tag: 'v1', version: 0 }));
    await t.puller.start();
    await t.clock.advance(10_000);
    expect(t.get().status?.imageStatuses?.nginx.tags[0]).toMatchObject({ phase: 'Succeeded', version: 0 });
    t.kube.mutate<NodeImage>('NodeImage', undefined, 'n1', (ni) => {
      ni.spec.images = { nginx: { tags: [{ tag: 'v1', version: 1, createdAt: '2024-01-01T00:00:00Z' }] } };
      return ni;
    });
    await t.clock.advance(10_000);
    expect(t.calls).toHaveLength(2);
    expect(t.get().status?.imageStatuses?.nginx.tags[0]).toMatchObject({ phase: 'Succeeded', version: 1 });
    await t.puller.stop();
  });

  it('§7.3 item 1: an image removed from the spec stops its pool (the pull is cancelled) and leaves the status', async () => {
    let aborted = false;
    const t = setup(
      (_req, opts) =>
        new Promise((_res, rej) =>
          opts?.signal?.addEventListener('abort', () => {
            aborted = true;
            rej(new CriError(1, 'canceled'));
          }),
        ),
    );
    t.kube.create(nodeImageWith('n1', 'nginx', { tag: 'v1' }));
    await t.puller.start();
    await t.clock.advance(5_000);
    expect(t.get().status).toMatchObject({ desired: 1, pulling: 1 });
    t.kube.mutate<NodeImage>('NodeImage', undefined, 'n1', (ni) => ({ ...ni, spec: { images: {} } }));
    await t.clock.advance(5_000);
    expect(aborted).toBe(true);
    expect(t.get().status).toEqual({ desired: 0, succeeded: 0, failed: 0, pulling: 0 });
    await t.puller.stop();
  });

  it('§7.4 item 1.1: pull secrets are read from the API; a missing one is skipped', async () => {
    const t = setup(async () => 'x');
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    t.kube.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: 'kruise-daemon-config', name: 's1' },
      type: 'kubernetes.io/dockerconfigjson',
      data: {
        '.dockerconfigjson': b64(JSON.stringify({ auths: { 'reg.io': { username: 'u', password: 'p' } } })),
      },
    } as never);
    t.kube.create(
      nodeImageWith(
        'n1',
        'reg.io/app',
        { tag: 'v1' },
        {
          pullSecrets: [
            { namespace: 'kruise-daemon-config', name: 'missing' },
            { namespace: 'kruise-daemon-config', name: 's1' },
          ],
          sandboxConfig: { labels: { l: '1' } },
        },
      ),
    );
    await t.puller.start();
    await t.clock.advance(10_000);
    expect(t.calls.map((c) => c.auth)).toEqual([{ username: 'u', password: 'p' }]);
    expect(t.calls[0].sandboxConfig?.labels).toEqual({ l: '1' });
    await t.puller.stop();
  });

  it('§7.3 item 3.3: a status conflict is retried with backoff', async () => {
    const t = setup(async () => 'x');
    t.kube.create(nodeImageWith('n1', 'nginx', { tag: 'v1' }));
    let conflicts = 1;
    const orig = t.kube.updateNodeImageStatus.bind(t.kube);
    t.kube.updateNodeImageStatus = async (ni, st) => {
      if (conflicts-- > 0) {
        // A concurrent writer bumped the resourceVersion.
        t.kube.mutate<NodeImage>('NodeImage', undefined, 'n1', (o) => ({
          ...o,
          metadata: { ...o.metadata, labels: { x: 'y' } },
        }));
      }
      return orig(ni, st);
    };
    await t.puller.start();
    await t.clock.advance(20_000);
    expect(t.get().status?.succeeded).toBe(1);
    await t.puller.stop();
  });

  it('§7.2 item 1: a NodeImage being deleted is ignored', async () => {
    const t = setup(async () => 'x');
    t.kube.create({
      ...nodeImageWith('n1', 'nginx', { tag: 'v1' }),
      metadata: { name: 'n1', deletionTimestamp: '2024-01-01T00:00:00Z' },
    } as NodeImage);
    await t.puller.start();
    await t.clock.advance(10_000);
    expect(t.calls).toHaveLength(0);
    expect(t.get().status).toBeUndefined();
    await t.puller.stop();
  });
});
