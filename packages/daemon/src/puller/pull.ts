// One CRI pull with the pull secrets as credentials (docs/reference/daemon.md §7.7): the PullImageRequest
// (image, sandbox config with the pulling-image-by annotation), the keyring lookup, one PullImage per
// matching credential until one succeeds, else one anonymous pull. Secrets never reach a log or error.
import { ANNOTATION_PULLING_IMAGE_BY, type SandboxConfig } from '@kruise-ts/api';
import type { Secret } from 'kubernetes-types/core/v1.js';
import type { CallOptions, CriImageService, CriPullImageRequest } from '../cri/types';
import { normalizeImage, pullReference } from '../imageRef';
import { buildKeyring, type DockerConfig, lookupCredentials } from '../keyring';

/** §7.7 item 2: the annotation value every request carries. */
export const PULLING_IMAGE_BY_VALUE = 'kruise-daemon';

/**
 * §7.7 items 1–2: the request without credentials.
 *
 * Example: (`nginx`, `1.25`, `{labels: {a: 'b'}}`) → `{image: {image: 'nginx:1.25', annotations: {}},
 * sandboxConfig: {labels: {a: 'b'}, annotations: {'apps.kruise.io/pulling-image-by': 'kruise-daemon'}}}`.
 */
export function buildPullRequest(
  name: string,
  tag: string,
  sandboxConfig: SandboxConfig | undefined,
): CriPullImageRequest {
  return {
    image: { image: pullReference(name, tag), annotations: {} },
    sandboxConfig: {
      labels: { ...(sandboxConfig?.labels ?? {}) },
      annotations: {
        ...(sandboxConfig?.annotations ?? {}),
        [ANNOTATION_PULLING_IMAGE_BY]: PULLING_IMAGE_BY_VALUE,
      },
    },
  };
}

/** Kubernetes' aggregate error text: one error as is, several as `[e1, e2]`. */
export function aggregateErrors(messages: readonly string[]): string {
  return messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
}

/** What one pull needs. */
export interface PullInput {
  name: string;
  tag: string;
  secrets: readonly Secret[];
  sandboxConfig?: SandboxConfig;
  /** Node-level docker credentials (after the secrets' entries, §7.7 item 3.1). */
  nodeDockerConfig?: DockerConfig;
}

/**
 * §7.7 item 3: pulls with each matching credential in order (first success wins; all failing →
 * aggregated errors, no anonymous fallback), or anonymously when none matches (error wrapped as
 * `Failed to pull image reference "<ref>": …`). Rejects with an Error whose message holds no secret.
 * Aborting `opts.signal` cancels the RPC in flight and stops trying further credentials.
 */
export async function pullWithCredentials(
  image: CriImageService,
  input: PullInput,
  opts: CallOptions = {},
): Promise<void> {
  const req = buildPullRequest(input.name, input.tag, input.sandboxConfig);
  const ref = req.image.image;
  const norm = normalizeImage(ref);
  if (!norm) throw new Error(`Failed to pull image reference "${ref}": invalid reference format`);
  const kr = buildKeyring(input.secrets, input.nodeDockerConfig);
  if ('error' in kr) throw new Error(kr.error);
  const creds = lookupCredentials(kr.keyring, norm.repository);
  if (creds.length === 0) {
    try {
      await image.pullImage(req, opts);
      return;
    } catch (e) {
      throw new Error(`Failed to pull image reference "${ref}": ${(e as Error).message}`);
    }
  }
  const errors: string[] = [];
  for (const c of creds) {
    try {
      await image.pullImage({ ...req, auth: { username: c.username, password: c.password } }, opts);
      return;
    } catch (e) {
      errors.push((e as Error).message);
      if (opts.signal?.aborted) break;
    }
  }
  throw new Error(aggregateErrors(errors));
}
