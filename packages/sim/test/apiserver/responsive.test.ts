// `kruise-ts serve` stays responsive while it works through a CloneSet of 2,147,483,647
// replicas: the POST returns (the controller creates a burst of 500 pods per reconcile), the
// real-time driver runs the simulation in slices and yields between them, so /version keeps
// answering while the clock — here ten simulated minutes per second — races ahead of the work,
// and the server closes. Answers are asserted, not latencies: a request "answers" when its
// response arrives before a deadline far above any slice (5 s; a tick that ran the whole backlog
// at once, as the driver did before, holds the server for longer than that).
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiServer } from '../../src/apiserver/index';
import { call, startTestServer } from './helpers';

const INT32_MAX = 2147483647;

let server: (ApiServer & { dir: string }) | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The status of GET /version, or 'no answer' when none came within `ms`. */
async function version(url: string, ms: number): Promise<number | 'no answer'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'no answer'>((resolve) => {
    timer = setTimeout(() => resolve('no answer'), ms);
  });
  try {
    return await Promise.race([call(url, 'GET', '/version').then((r) => r.status), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

describe('serve with a CloneSet of 2,147,483,647 replicas', () => {
  it('answers /version throughout and closes', async () => {
    const s = await startTestServer({ speed: 600 });
    server = s;
    const created = await call(s.url, 'POST', '/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets', {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'huge' },
      spec: {
        replicas: INT32_MAX,
        selector: { matchLabels: { app: 'huge' } },
        template: {
          metadata: { labels: { app: 'huge' } },
          spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
        },
      },
    });
    expect(created.status).toBe(201);
    // 20 polls over 2 s, each with its own deadline
    const polls: Promise<number | 'no answer'>[] = [];
    for (let i = 0; i < 20; i++) {
      polls.push(version(s.url, 5000));
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await Promise.all(polls)).toEqual(new Array(20).fill(200));
    // the simulation did work meanwhile: more than the first burst of pods
    const pods = s.simulation.list('Pod').length;
    expect(pods).toBeGreaterThan(500);
    server = undefined;
    await expect(s.close()).resolves.toBeUndefined();
  });
});
