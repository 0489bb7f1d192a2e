// Test helpers: a log sink capturing pino's JSON lines, a CRI image service spy, and polling.
import type { NodeImage } from '@kruise-ts/api';
import { type CriImageService, type CriPullImageRequest, createLogger, type Logger } from '../../src/index';

/** A logger whose JSON lines land in `lines`. */
export function captureLogger(level = 'debug'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({ level, destination: { write: (s: string) => void lines.push(s) } });
  return { logger, lines };
}

/** One recorded PullImage call (never the password). */
export interface PullCall {
  atMs: number;
  image: string;
  username?: string;
  annotations: Record<string, string>;
}

/** Wraps an image service, recording PullImage calls. */
export function spyImageService(inner: CriImageService): { image: CriImageService; pulls: PullCall[] } {
  const pulls: PullCall[] = [];
  const image: CriImageService = {
    imageFsInfo: (o) => inner.imageFsInfo(o),
    listImages: (o) => inner.listImages(o),
    pullImage: (req: CriPullImageRequest, o) => {
      pulls.push({
        atMs: Date.now(),
        image: req.image.image,
        username: req.auth?.username,
        annotations: { ...(req.sandboxConfig?.annotations ?? {}) },
      });
      return inner.pullImage(req, o);
    },
  };
  return { image, pulls };
}

/** Polls `fn` every 50 ms until it returns a value (not undefined/false) or the timeout passes. */
export async function eventually<T>(
  what: string,
  fn: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A NodeImage with one image and one tag. */
export function nodeImageWith(
  node: string,
  name: string,
  tag: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): NodeImage {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'NodeImage',
    metadata: { name: node },
    spec: {
      images: {
        [name]: { tags: [{ createdAt: '2024-01-01T00:00:00Z', version: 0, ...tag }] as never, ...extra },
      },
    },
  } as NodeImage;
}
