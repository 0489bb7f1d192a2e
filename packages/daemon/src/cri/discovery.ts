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

/** How discovery reports its progress, and how it checks that a socket file exists. */
export interface DiscoveryHooks {
  /** Called before each endpoint is dialled (the dial may wait up to its 30 s timeout). */
  onProbe?: (endpoint: string) => void;
  /** Called for each endpoint skipped, with the reason. */
  onSkip?: (endpoint: string, err: Error) => void;
  /** Whether a path exists (default: the file system's answer). */
  exists?: (path: string) => boolean;
}

/**
 * The socket path of a unix endpoint, written `unix:///run/containerd/containerd.sock` or as the
 * bare path `/run/containerd/containerd.sock` (both give the path); undefined for other schemes.
 */
export function unixSocketPath(endpoint: string): string | undefined {
  if (endpoint.startsWith('unix://')) return endpoint.slice('unix://'.length);
  return endpoint.startsWith('/') ? endpoint : undefined;
}

/**
 * Probes each endpoint (§7.1 item 2): dial (30 s), ImageFsInfo (10 s), ListImages, Version; a socket
 * failing any step is skipped (reported through `onSkip`). Rejects when none is usable.
 *
 * A `unix://` endpoint whose socket file does not exist is skipped at once rather than dialled:
 * gRPC would retry the connection until the 30 s dial timeout, so a mistyped
 * `--runtime-endpoint unix:///run/containerd.sock` would otherwise keep the daemon quiet for
 * half a minute before it says what is wrong.
 */
export async function discoverRuntimes(
  endpoints: string[],
  opts: CriConnectOptions & DiscoveryHooks = {},
): Promise<CriRuntimes> {
  const exists = opts.exists ?? existsSync;
  const found: DiscoveredRuntime[] = [];
  for (const endpoint of endpoints) {
    let client: CriClient | undefined;
    const socket = unixSocketPath(endpoint);
    if (socket !== undefined && !exists(socket)) {
      opts.onSkip?.(endpoint, new Error(`no socket file at ${socket}`));
      continue;
    }
    try {
      opts.onProbe?.(endpoint);
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
