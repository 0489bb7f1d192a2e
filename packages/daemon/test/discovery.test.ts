import { describe, expect, it } from 'vitest';
import {
  CANDIDATE_SOCKETS,
  candidateEndpoints,
  criTarget,
  defaultProtoPath,
  discoverRuntimes,
} from '../src/index';

describe('§7.1 runtime discovery', () => {
  it('item 1: probes the six sockets in order under the var-run dir, keeping those that exist', () => {
    expect(CANDIDATE_SOCKETS).toEqual([
      'containerd.sock',
      'containerd/containerd.sock',
      'crio.sock',
      'crio/crio.sock',
      'cri-dockerd.sock',
      'cri-dockerd/cri-dockerd.sock',
    ]);
    expect(candidateEndpoints({ varRunDir: '/hostvarrun' }, (p) => p.endsWith('containerd.sock'))).toEqual([
      'unix:///hostvarrun/containerd.sock',
      'unix:///hostvarrun/containerd/containerd.sock',
    ]);
  });

  it('item 1: --socket-file uses only <dir>/<file>; explicit endpoints win', () => {
    expect(candidateEndpoints({ varRunDir: '/v', socketFile: 'crio.sock' }, () => false)).toEqual([
      'unix:///v/crio.sock',
    ]);
    expect(candidateEndpoints({ endpoints: ['unix:///a.sock'], socketFile: 'x' })).toEqual([
      'unix:///a.sock',
    ]);
  });

  it('endpoint forms map to the gRPC unix target', () => {
    expect(criTarget('unix:///run/c.sock')).toBe('unix:///run/c.sock');
    expect(criTarget('/run/c.sock')).toBe('unix:///run/c.sock');
  });

  it('item 3: no usable socket → the daemon fails to start, each skipped socket reported', async () => {
    const skipped: string[] = [];
    await expect(
      discoverRuntimes(['unix:///nonexistent/kruise-test.sock'], {
        dialTimeoutMs: 200,
        onSkip: (e) => skipped.push(e),
      }),
    ).rejects.toThrow('no usable CRI runtime among [unix:///nonexistent/kruise-test.sock]');
    expect(skipped).toEqual(['unix:///nonexistent/kruise-test.sock']);
  });

  it('a unix endpoint without a socket file is skipped at once, with the reason, never dialled', async () => {
    const skipped: string[] = [];
    const probed: string[] = [];
    const started = Date.now();
    await expect(
      discoverRuntimes(['unix:///nonexistent/kruise-test.sock', '/nonexistent/bare.sock'], {
        onProbe: (e) => probed.push(e),
        onSkip: (e, err) => skipped.push(`${e}: ${err.message}`),
      }),
    ).rejects.toThrow('no usable CRI runtime');
    // the default dial timeout is 30 s: answering within a few seconds shows nothing was dialled
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(probed).toEqual([]);
    expect(skipped).toEqual([
      'unix:///nonexistent/kruise-test.sock: no socket file at /nonexistent/kruise-test.sock',
      '/nonexistent/bare.sock: no socket file at /nonexistent/bare.sock',
    ]);
  });

  it('an endpoint whose file exists is dialled, and reported before the dial', async () => {
    const probed: string[] = [];
    const skipped: string[] = [];
    await expect(
      discoverRuntimes(['unix:///nonexistent/kruise-test.sock'], {
        dialTimeoutMs: 200,
        exists: () => true,
        onProbe: (e) => probed.push(e),
        onSkip: (e, err) => skipped.push(`${e}: ${err.message}`),
      }),
    ).rejects.toThrow('no usable CRI runtime');
    expect(probed).toEqual(['unix:///nonexistent/kruise-test.sock']);
    expect(skipped[0]).toMatch(/failed to dial CRI endpoint/);
  });

  it('the package ships its own runtime.v1 proto', () => {
    expect(defaultProtoPath()).toMatch(/packages\/daemon\/proto\/runtime_v1\.proto$/);
  });
});
