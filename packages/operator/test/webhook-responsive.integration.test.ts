// The operator's webhook server keeps answering while its controllers work through a huge object
// (issue 17): a CloneSet of 2,147,483,647 replicas against `kruise-ts serve --controllers none`
// keeps the CloneSet controller busy (500 creates per reconcile, requeued at once, on a cluster
// with room for 330 pods), and all the while AdmissionReviews sent straight to the operator's
// `/mutate-pod` are answered. Measured: every answer's latency; the bound below is loose enough for
// a loaded CI machine and far below a webhook's 10 s timeout (a starved event loop would blow it).
import https from 'node:https';
import { describe, expect, it } from 'vitest';
import { api, CS_PATH, podsOf, sampleCloneSet, useCluster, waitFor } from './helpers/cluster';

// stopping the operator waits for the burst of creates in flight (500 pods): allow a minute
const cluster = useCluster({ teardownTimeoutMs: 60_000 });

/** One AdmissionReview for a pod CREATE, posted to the operator's webhook; resolves with the latency. */
function review(port: number, ca: string, uid: string): Promise<{ ms: number; allowed: boolean }> {
  const body = JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      operation: 'CREATE',
      namespace: 'default',
      object: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `probe-${uid}`, namespace: 'default' },
        spec: { containers: [{ name: 'c', image: 'nginx:alpine' }] },
      },
    },
  });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: '127.0.0.1',
      port,
      path: '/mutate-pod',
      method: 'POST',
      ca,
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => {
        const allowed = JSON.parse(text)?.response?.allowed === true;
        resolve({ ms: performance.now() - started, allowed });
      });
    });
    req.end(body);
  });
}

describe('webhook responsiveness under a huge object', () => {
  it('answers every AdmissionReview within 2 s while the controller works through 2^31-1 replicas', async () => {
    const server = await cluster.start(10);
    const op = await cluster.operator();
    const port = op.ports.webhook;
    const ca = op.caBundle;
    expect(port).toBeGreaterThan(0);
    expect(ca).toBeTruthy();
    const created = await api(server.url, 'POST', CS_PATH, sampleCloneSet('huge', { replicas: 2147483647 }));
    expect(created.status).toBe(201);
    // the controller is at work: pods are being created
    await waitFor(
      async () => (await podsOf(server.url, 'huge')).length >= 100,
      30_000,
      '100 pods of the huge set',
    );
    const latencies: number[] = [];
    for (let i = 0; i < 40; i++) {
      const r = await review(port ?? 0, ca ?? '', `r${i}`);
      expect(r.allowed).toBe(true);
      latencies.push(r.ms);
      await new Promise((done) => setTimeout(done, 50));
    }
    latencies.sort((a, b) => a - b);
    const p50 = latencies[Math.floor(latencies.length / 2)] ?? 0;
    const max = latencies[latencies.length - 1] ?? 0;
    console.info(`webhook latency under load: p50 ${p50.toFixed(1)} ms, max ${max.toFixed(1)} ms`);
    expect(max).toBeLessThan(2000);
    // and the controller kept working meanwhile (the cluster's 330 pod slots fill up)
    expect((await podsOf(server.url, 'huge')).length).toBeGreaterThanOrEqual(100);
  });
});
