import type { ImageTagSpec, ImageTagStatus } from '@kruise-ts/api';
import type { Secret } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  type CallOptions,
  CriError,
  type CriImage,
  type CriImageService,
  type CriPullImageRequest,
  type EventRecord,
  PullWorker,
  pullWithCredentials,
  silentLogger,
} from '../src/index';
import { FakeClock, flush } from './support/fakeClock';
import { captureLogger } from './support/helpers';

type PullFn = (req: CriPullImageRequest, opts?: CallOptions) => Promise<string>;

function fakeImage(
  pull: PullFn,
  images: CriImage[] = [],
): CriImageService & { calls: CriPullImageRequest[] } {
  const calls: CriPullImageRequest[] = [];
  return {
    calls,
    imageFsInfo: async () => ({}),
    listImages: async () => images,
    pullImage: (req, opts) => {
      calls.push(req);
      return pull(req, opts);
    },
  };
}

/** A pull that never answers until its signal aborts (then fails like a cancelled gRPC call). */
const hangingPull: PullFn = (_req, opts) =>
  new Promise((_res, rej) =>
    opts?.signal?.addEventListener('abort', () => rej(new CriError(1, 'context canceled'))),
  );

function startWorker(
  tag: ImageTagSpec,
  image: CriImageService,
  extra: { secrets?: Secret[]; clock?: FakeClock; logger?: ReturnType<typeof silentLogger> } = {},
) {
  const clock = extra.clock ?? new FakeClock();
  const reports: ImageTagStatus[] = [];
  const events: EventRecord[] = [];
  const w = new PullWorker(
    { name: 'reg.io/app', tag, secrets: extra.secrets ?? [] },
    {
      image,
      clock,
      logger: extra.logger ?? silentLogger(),
      recordEvent: (e) => events.push(e),
      nodeImageRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodeImage', name: 'n1' },
    },
    (s) => reports.push(s),
  );
  w.start();
  return { w, clock, reports, events };
}

const IMG: CriImage = { id: 'sha256:abc', repoTags: ['reg.io/app:v1'], repoDigests: [] };

describe('§7.5–§7.6 pull worker', () => {
  it('§7.5 item 1: reports Pulling at once with startTime and version; item 2.5: Succeeded with imageID name@id and progress 100', async () => {
    const image = fakeImage(async () => 'sha256:abc', [IMG]);
    const { w, reports, events } = startWorker({ tag: 'v1', version: 3, imagePullPolicy: 'Always' }, image);
    expect(reports[0]).toEqual({
      tag: 'v1',
      phase: 'Pulling',
      startTime: '2024-01-01T00:00:00Z',
      version: 3,
    });
    await w.done;
    expect(reports.at(-1)).toEqual({
      tag: 'v1',
      phase: 'Succeeded',
      progress: 100,
      startTime: '2024-01-01T00:00:00Z',
      completionTime: '2024-01-01T00:00:00Z',
      version: 3,
      imageID: 'reg.io/app@sha256:abc',
    });
    expect(events.map((e) => [e.type, e.reason, e.involvedObject.kind])).toEqual([
      ['Normal', 'PullImageSucceed', 'NodeImage'],
    ]);
    expect(image.calls).toHaveLength(1);
  });

  it('§7.6 item 1: IfNotPresent with the image listed → success without PullImage; Always pulls anyway', async () => {
    const image = fakeImage(async () => 'x', [IMG]);
    const a = startWorker({ tag: 'v1', imagePullPolicy: 'IfNotPresent' }, image);
    await a.w.done;
    expect(image.calls).toHaveLength(0);
    expect(a.reports.at(-1)?.phase).toBe('Succeeded');
    const b = startWorker({ tag: 'v1' }, image);
    await b.w.done;
    expect(image.calls).toHaveLength(1);
  });

  it('§7.5 items 2–3: backoffLimit 2 → 3 attempts, sleeping 1 s, 2 s, 4 s; then Failed with the last error and events to owners and NodeImage', async () => {
    const clock = new FakeClock();
    const at: number[] = [];
    const image = fakeImage(async () => {
      at.push(clock.now());
      throw new CriError(5, `reg.io/app:v1: not found (${at.length})`);
    });
    const owner = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'ImagePullJob',
      name: 'job',
      namespace: 'ns',
      uid: 'u',
    };
    const { w, reports, events } = startWorker(
      { tag: 'v1', pullPolicy: { backoffLimit: 2 }, ownerReferences: [owner] },
      image,
      { clock },
    );
    await clock.advance(10_000);
    await w.done;
    const t0 = Date.parse('2024-01-01T00:00:00Z');
    expect(at.map((t) => t - t0)).toEqual([0, 1_000, 3_000]);
    const last = reports.at(-1);
    expect(last?.phase).toBe('Failed');
    expect(last?.completionTime).toBe('2024-01-01T00:00:07Z');
    expect(last?.message).toBe(
      'Failed to pull image reference "reg.io/app:v1": rpc error: code = NotFound desc = reg.io/app:v1: not found (3)',
    );
    expect(events.map((e) => [e.reason, e.involvedObject.kind])).toEqual([
      ['PullImageFailed', 'ImagePullJob'],
      ['PullImageFailed', 'NodeImage'],
    ]);
    expect(events[0].message).toBe(`Image reg.io/app:v1 ${last?.message}`);
  });

  it('§7.6 item 2: an attempt hitting its timeout fails with "is canceled" and the RPC is cancelled', async () => {
    const clock = new FakeClock();
    const image = fakeImage(hangingPull);
    const { w, reports } = startWorker(
      { tag: 'v1', pullPolicy: { timeoutSeconds: 2, backoffLimit: 0 } },
      image,
      { clock },
    );
    await clock.advance(1_999);
    expect(reports).toHaveLength(1);
    await clock.advance(1_001 + 1_000);
    await w.done;
    expect(reports.at(-1)).toMatchObject({
      phase: 'Failed',
      message: 'pulling image reg.io/app:v1 is canceled',
      completionTime: '2024-01-01T00:00:03Z',
    });
  });

  it('§7.5 item 2.1: past activeDeadlineSeconds the worker stops trying with "pulling exceeds the activeDeadlineSeconds"', async () => {
    const clock = new FakeClock();
    const image = fakeImage(async () => {
      throw new CriError(2, 'boom');
    });
    const { w, reports } = startWorker(
      { tag: 'v1', pullPolicy: { backoffLimit: 5, activeDeadlineSeconds: 2 } },
      image,
      { clock },
    );
    await clock.advance(10_000);
    await w.done;
    expect(image.calls).toHaveLength(2); // t=0 and t=1 s; at t=3 s the deadline (2 s) has passed
    expect(reports.at(-1)?.message).toBe('pulling exceeds the activeDeadlineSeconds');
  });

  it('§7.5 item 2.2: the attempt timeout is cut to the time left before the deadline', async () => {
    const clock = new FakeClock();
    const image = fakeImage(hangingPull);
    const { w, reports } = startWorker(
      { tag: 'v1', pullPolicy: { timeoutSeconds: 600, backoffLimit: 0, activeDeadlineSeconds: 3 } },
      image,
      { clock },
    );
    await clock.advance(3_000 + 1_000);
    await w.done;
    expect(reports.at(-1)?.message).toBe('pulling image reg.io/app:v1 is canceled');
  });

  it('§7.4 item 2 / §7.5 item 4: a stopped worker cancels its pull and reports nothing more', async () => {
    const clock = new FakeClock();
    const image = fakeImage(hangingPull);
    const { w, reports } = startWorker({ tag: 'v1' }, image, { clock });
    await flush();
    w.stop();
    await clock.advance(5_000);
    await w.done;
    expect(reports).toHaveLength(1);
    expect(reports[0].phase).toBe('Pulling');
  });
});

describe('§7.7 CRI pull request and credentials', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const secret = (auths: Record<string, Record<string, string>>): Secret => ({
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': b64(JSON.stringify({ auths })) },
  });

  it('items 1–2: image "<name>:<tag>", empty image annotations, sandbox labels and annotations plus pulling-image-by', async () => {
    const image = fakeImage(async () => 'x');
    await pullWithCredentials(image, {
      name: 'reg.io/app',
      tag: 'v1',
      secrets: [],
      sandboxConfig: { labels: { a: 'b' }, annotations: { c: 'd' } },
    });
    expect(image.calls[0]).toEqual({
      image: { image: 'reg.io/app:v1', annotations: {} },
      sandboxConfig: {
        labels: { a: 'b' },
        annotations: { c: 'd', 'apps.kruise.io/pulling-image-by': 'kruise-daemon' },
      },
    });
  });

  it('item 3.3: each matching credential in order, only username/password set, first success wins', async () => {
    let n = 0;
    const image = fakeImage(async () => {
      n++;
      if (n === 1) throw new CriError(2, '401 Unauthorized');
      return 'x';
    });
    const s = secret({
      'reg.io/app': { username: 'first', password: 'p1' },
      'reg.io': { username: 'second', password: 'p2' },
    });
    await pullWithCredentials(image, { name: 'reg.io/app', tag: 'v1', secrets: [s] });
    expect(image.calls.map((c) => c.auth)).toEqual([
      { username: 'first', password: 'p1' },
      { username: 'second', password: 'p2' },
    ]);
  });

  it('item 3.4: all credentials failing → aggregated errors, no anonymous fallback', async () => {
    const image = fakeImage(async (req) => {
      throw new CriError(2, `denied for ${req.auth?.username}`);
    });
    const s = secret({
      'reg.io/app': { username: 'a', password: 'p1' },
      'reg.io': { username: 'b', password: 'p2' },
    });
    await expect(pullWithCredentials(image, { name: 'reg.io/app', tag: 'v1', secrets: [s] })).rejects.toThrow(
      '[rpc error: code = Unknown desc = denied for a, rpc error: code = Unknown desc = denied for b]',
    );
    expect(image.calls.every((c) => c.auth !== undefined)).toBe(true);
  });

  it('item 3.5: no matching credential → one anonymous pull, error wrapped', async () => {
    const image = fakeImage(async () => {
      throw new CriError(2, 'nope');
    });
    await expect(
      pullWithCredentials(image, {
        name: 'other.io/app',
        tag: 'v1',
        secrets: [secret({ 'reg.io': { username: 'a', password: 'b' } })],
      }),
    ).rejects.toThrow(
      'Failed to pull image reference "other.io/app:v1": rpc error: code = Unknown desc = nope',
    );
    expect(image.calls).toHaveLength(1);
    expect(image.calls[0].auth).toBeUndefined();
  });

  it('item 3.6: a malformed secret fails the attempt', async () => {
    const image = fakeImage(async () => 'x');
    const bad: Secret = { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{') } };
    await expect(
      pullWithCredentials(image, { name: 'reg.io/app', tag: 'v1', secrets: [bad] }),
    ).rejects.toThrow(/failed to parse pull secrets/);
    expect(image.calls).toHaveLength(0);
  });

  it('never logs a secret: a failing authenticated worker logs no password, no auth and no config', async () => {
    const password = 'hunter2-very-secret';
    const auth = b64(`user:${password}`);
    const s = secret({ 'reg.io': { auth } });
    const { logger, lines } = captureLogger('trace');
    const image = fakeImage(async () => {
      throw new CriError(2, 'pull access denied');
    });
    const clock = new FakeClock();
    const { w, reports, events } = startWorker({ tag: 'v1', pullPolicy: { backoffLimit: 1 } }, image, {
      secrets: [s],
      clock,
      logger,
    });
    await clock.advance(5_000);
    await w.done;
    logger.info({ secret: s, auth, password }, 'even objects passed by mistake are redacted');
    const all = lines.join('\n') + JSON.stringify(reports) + JSON.stringify(events);
    expect(lines.length).toBeGreaterThan(2);
    expect(all).not.toContain(password);
    expect(all).not.toContain(auth);
    expect(all).not.toContain(s.data?.['.dockerconfigjson']);
    expect(lines.at(-1)).toContain('[REDACTED]');
  });
});
