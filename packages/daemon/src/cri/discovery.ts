// Runtime discovery (docs/reference/daemon.md §7.1): which CRI sockets to probe, the probe sequence
// (dial, ImageFsInfo, ListImages, Version) and the lookup of a runtime service by `runtime_name`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CriClient, type CriConnectOptions } from './client';

/** §7.1 item 1: the sockets probed, in order, under the host's var-run directory. */
export const CANDIDATE_SOCKETS = [
  'containerd.sock',
  'containerd/containerd.sock',
  'crio.sock',
  'crio/crio.sock',
  'cri-dockerd.sock',
  'cri-dockerd/cri-dockerd.sock',
] as const;

/**
 * The endpoints to probe (§7.1 item 1): explicit endpoints win; else `<varRunDir>/<socketFile>`
 * when a socket file is given; else every candidate that exists.
 *
 * Example: `candidateEndpoints({ varRunDir: '/hostvarrun' }, p => p.endsWith('containerd.sock'))`
 * gives `['unix:///hostvarrun/containerd.sock', 'unix:///hostvarrun/containerd/containerd.sock']`.
 */
export function candidateEndpoints(
  opts: { endpoints?: string[]; varRunDir?: string; socketFile?: string },
  exists: (path: string) => boolean = existsSync,
): string[] {
  if (opts.endpoints && opts.endpoints.length > 0) return [...opts.endpoints];
  const dir = opts.varRunDir ?? '/hostvarrun';
  if (opts.socketFile) return [`unix://${join(dir, opts.socketFile)}`];
  return CANDIDATE_SOCKETS.map((s) => join(dir, s))
    .filter((p) => exists(p))
    .map((p) => `unix://${p}`);
}

/** A usable runtime found by discovery. */
export interface DiscoveredRuntime {
  endpoint: string;
  runtimeName: string;
  client: CriClient;
}

/** What discovery returns: the image service (the first usable socket) and runtimes by name. */
export interface CriRuntimes {
  imageService: CriClient;
  runtimes: DiscoveredRuntime[];
  /** §7.1 item 3: a runtime service is looked up by `runtime_name` (used by CRR, §9.3 item 1). */
  runtimeByName(name: string): CriClient | undefined;
  /** Closes every client. */
  close(): void;
}

/**
 * Probes each endpoint (§7.1 item 2): dial (30 s), ImageFsInfo (10 s), ListImages, Version; a socket
 * failing any step is skipped (reported through `onSkip`). Rejects when none is usable.
 */
export async function discoverRuntimes(
  endpoints: string[],
  opts: CriConnectOptions & { onSkip?: (endpoint: string, err: Error) => void } = {},
): Promise<CriRuntimes> {
  const found: DiscoveredRuntime[] = [];
  for (const endpoint of endpoints) {
    let client: CriClient | undefined;
    try {
      client = await CriClient.connect(endpoint, opts);
      try {
        await client.imageFsInfo({ timeoutMs: 10_000 });
      } catch (e) {
        throw new Error(`unable to determine image API version: ${(e as Error).message}`);
      }
      await client.listImages();
      const v = await client.version();
      found.push({ endpoint, runtimeName: v.runtimeName, client });
    } catch (e) {
      client?.close();
      opts.onSkip?.(endpoint, e as Error);
    }
  }
  if (found.length === 0) {
    throw new Error(`no usable CRI runtime among [${endpoints.join(', ')}]`);
  }
  return {
    imageService: found[0].client,
    runtimes: found,
    runtimeByName: (name) => found.find((r) => r.runtimeName === name)?.client,
    close: () => {
      for (const r of found) r.client.close();
    },
  };
}
