// Real-runtime tests of the image puller (docs/reference/daemon.md §7.5–§7.7, issue 11): a private containerd
// over CRI and Debian's docker-registry on loopback; NodeImage objects live in the in-memory API.
import { ANNOTATION_PULLING_IMAGE_BY, type NodeImage } from '@kruise-ts/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutRealTool } from '../../../test/support/realTools';
import { ImagePuller, InMemoryKube } from '../src/index';
import { CriEnv, criSkipReason, PRIVATE_PASSWORD, PRIVATE_USER } from './support/criEnv';
import { captureLogger, eventually, nodeImageWith, spyImageService } from './support/helpers';

const SUITE = 'image puller on real containerd (§7)';
const skip = skipWithoutRealTool(SUITE, criSkipReason());

const FAST = { pullingRequeueMs: 150, pullingRequeueJitterMs: 0 };

describe.skipIf(skip)(SUITE, () => {
  let env: CriEnv;
  beforeAll(async () => {
    env = await CriEnv.start({ registries: true });
  }, 120_000);
  afterAll(async () => {
    await env?.stop();
  }, 60_000);

  async function run(ni: NodeImage, secrets: Record<string, unknown>[] = []) {
    const kube = new InMemoryKube();
    for (const s of secrets) kube.create(s as never);
    kube.create(ni);
    const spy = spyImageService(env.cri);
    const { logger, lines } = captureLogger();
    const puller = new ImagePuller({
      nodeName: ni.metadata.name ?? '',
      kube,
      image: spy.image,
      logger,
      timings: FAST,
    });
    await puller.start();
    const [name] = Object.keys(ni.spec.images ?? {});
    const t0 = Date.now();
    const final = await eventually(
      'a final tag status',
      () => {
        const st = kube.get<NodeImage>('NodeImage', undefined, ni.metadata.name ?? '')?.status;
        const tag = st?.imageStatuses?.[name]?.tags[0];
        return tag?.completionTime ? { status: st, tag } : undefined;
      },
      60_000,
    );
    await puller.stop();
    return { ...final, kube, pulls: spy.pulls, lines, elapsedMs: Date.now() - t0 };
  }

  it('§7.5/§7.7: a NodeImage tag pulls from the loopback registry (IfNotPresent, absent → one PullImage)', async () => {
    const name = `${env.openRegistry?.host}/kruise-test/busybox`;
    const r = await run(
      nodeImageWith('node-open', name, {
        tag: 'v1',
        imagePullPolicy: 'IfNotPresent',
        pullPolicy: { timeoutSeconds: 30, backoffLimit: 1 },
      }),
    );
    expect(r.tag.phase).toBe('Succeeded');
    expect(r.tag.progress).toBe(100);
    expect(r.pulls.map((p) => p.image)).toEqual([`${name}:v1`]);
    expect(r.pulls[0].annotations[ANNOTATION_PULLING_IMAGE_BY]).toBe('kruise-daemon');
    const img = await env.cri.imageStatus(`${name}:v1`);
    expect(img).toBeDefined();
    expect(r.tag.imageID).toBe(`${name}@${img?.id}`);
    expect(r.status).toMatchObject({ desired: 1, succeeded: 1, failed: 0, pulling: 0 });
    expect(r.kube.events.map((e) => e.reason)).toContain('PullImageSucceed');
  });

  it('§7.6 item 1: IfNotPresent skips an image the runtime already has (no PullImage call)', async () => {
    const r = await run(
      nodeImageWith('node-present', 'kruise-test/busybox', { tag: 'v2', imagePullPolicy: 'IfNotPresent' }),
    );
    expect(r.tag.phase).toBe('Succeeded');
    expect(r.tag.progress).toBe(100);
    expect(r.pulls).toHaveLength(0);
    const img = await env.cri.imageStatus('docker.io/kruise-test/busybox:v2');
    expect(r.tag.imageID).toBe(`kruise-test/busybox@${img?.id}`);
  });

  it('§7.7 item 3: a private htpasswd registry pulls with the pull secret as CRI auth, and no secret is logged', async () => {
    const host = env.privateRegistry?.host as string;
    const auth = Buffer.from(`${PRIVATE_USER}:${PRIVATE_PASSWORD}`).toString('base64');
    const config = Buffer.from(JSON.stringify({ auths: { [host]: { auth } } })).toString('base64');
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: 'kruise-daemon-config', name: 'reg-cred' },
      type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': config },
    };
    const r = await run(
      nodeImageWith(
        'node-private',
        `${host}/private/busybox`,
        { tag: 'v3', imagePullPolicy: 'Always', pullPolicy: { timeoutSeconds: 30, backoffLimit: 1 } },
        { pullSecrets: [{ namespace: 'kruise-daemon-config', name: 'reg-cred' }] },
      ),
      [secret],
    );
    expect(r.tag.phase).toBe('Succeeded');
    expect(r.pulls).toHaveLength(1);
    expect(r.pulls[0].username).toBe(PRIVATE_USER);
    const everything = r.lines.join('\n') + JSON.stringify(r.kube.events) + JSON.stringify(r.status);
    expect(r.lines.length).toBeGreaterThan(0);
    expect(everything).not.toContain(PRIVATE_PASSWORD);
    expect(everything).not.toContain(auth);
    expect(everything).not.toContain(config);
  });

  it('§7.7 item 3.5: without the secret the private pull fails cleanly after backoffLimit+1 attempts (401)', async () => {
    const host = env.privateRegistry?.host as string;
    const r = await run(
      nodeImageWith('node-noauth', `${host}/private/busybox`, {
        tag: 'v3',
        imagePullPolicy: 'Always',
        pullPolicy: { timeoutSeconds: 30, backoffLimit: 1 },
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'ImagePullJob',
            name: 'job-a',
            namespace: 'default',
            uid: 'u-1',
          },
        ],
      }),
    );
    expect(r.tag.phase).toBe('Failed');
    expect(r.pulls).toHaveLength(2);
    expect(r.pulls.every((p) => p.username === undefined)).toBe(true);
    expect(r.tag.message).toMatch(
      new RegExp(
        `^Failed to pull image reference "${host}/private/busybox:v3": rpc error: code = Unknown desc = .*401 Unauthorized`,
      ),
    );
    expect(r.status).toMatchObject({ desired: 1, succeeded: 0, failed: 1 });
    const failed = r.kube.events.filter((e) => e.reason === 'PullImageFailed');
    expect(failed.map((e) => e.involvedObject.kind).sort()).toEqual(['ImagePullJob', 'NodeImage']);
    // §7.5 item 2.4: 1 s backoff between the two attempts.
    expect(r.pulls[1].atMs - r.pulls[0].atMs).toBeGreaterThanOrEqual(950);
  });

  it('§7.5 item 2: a registry that never answers hits the per-attempt timeout, then the backoff', async () => {
    const name = `${env.blackHole}/kruise-test/busybox`;
    const r = await run(
      nodeImageWith('node-blackhole', name, {
        tag: 'v1',
        imagePullPolicy: 'Always',
        pullPolicy: { timeoutSeconds: 1, backoffLimit: 1 },
      }),
    );
    expect(r.tag.phase).toBe('Failed');
    expect(r.tag.message).toBe(`pulling image ${name}:v1 is canceled`);
    expect(r.pulls).toHaveLength(2);
    // attempt 0 times out after 1 s, then 1 s backoff before attempt 1; attempt 1 times out after
    // 1 s, then 2 s backoff (also after the last attempt) before the final status.
    const gap = r.pulls[1].atMs - r.pulls[0].atMs;
    expect(gap).toBeGreaterThanOrEqual(1_900);
    expect(gap).toBeLessThan(8_000); // generous: CI runs other suites at the same time
    expect(r.elapsedMs).toBeGreaterThanOrEqual(4_900);
  });
});
