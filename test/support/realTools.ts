// Suites that need a real tool (kubectl, containerd, openssl, a real kube-apiserver, a browser)
// decide here whether they run. On a developer's machine without the tool the suite is skipped
// with a line saying why; with CI=true a missing tool is a failing test instead, so CI can never
// turn green with a real-tool suite silently left out.
import { describe, it } from 'vitest';

/** Whether the suite should be skipped: `missing` is why it cannot run here, or undefined. */
export function skipWithoutRealTool(suite: string, missing: string | undefined): boolean {
  if (missing === undefined) return false;
  if (process.env.CI === 'true') {
    describe(suite, () => {
      it('has the real tool it needs (CI=true never skips a real-tool suite)', () => {
        throw new Error(`${suite} cannot run: ${missing}. CI must install it (see .ci/run).`);
      });
    });
  } else {
    console.warn(`[skipped] ${suite}: ${missing} (with CI=true this fails instead)`);
  }
  return true;
}

/** Why `path` cannot be used as a tool here (it does not exist), or undefined. */
export function missingFile(path: string, exists: (p: string) => boolean): string | undefined {
  return exists(path) ? undefined : `${path} is missing`;
}
