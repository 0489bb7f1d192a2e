// JSON requests to the real control plane with its admin token and CA (remembered once by the
// suite's setup through ../../test/helpers/serverAccess.ts, which the serve-based tests share).
import { requestText } from '../../test/helpers/serverAccess';

/** One request; the body is sent as JSON (or as `contentType`), the answer parsed when it is JSON. */
export async function api(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<{ status: number; body: any }> {
  const r = await requestText(
    `${base}${path}`,
    method,
    body === undefined ? undefined : JSON.stringify(body),
    contentType,
  );
  let parsed: unknown = r.text;
  try {
    parsed = r.text ? JSON.parse(r.text) : undefined;
  } catch {
    // plain text (e.g. /readyz)
  }
  return { status: r.status, body: parsed };
}

/**
 * Polls `fn` every 100 ms until it returns a truthy value or `timeoutMs` passes; on a timeout the
 * error carries what `explain` says about the state (e.g. the pods as they are).
 */
export async function waitFor<T>(
  fn: () => Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
  explain?: () => Promise<string>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as T;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      const state = explain ? `\n${await explain().catch((e) => `(explain failed: ${String(e)})`)}` : '';
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}${state}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
