import { describe, expect, it } from 'vitest';
import { criSkipReason } from './support/criEnv';

describe('integration suite gating', () => {
  it('skips with a clear message naming what is missing (or that root is needed)', () => {
    const reason = criSkipReason(['kruise-ts-no-such-binary']);
    const root = typeof process.getuid === 'function' && process.getuid() === 0;
    if (root) {
      expect(reason).toBe(
        'real-containerd tests need kruise-ts-no-such-binary (run packages/daemon/scripts/ci-setup.sh as root)',
      );
    } else {
      expect(reason).toBe('real-containerd tests need root');
    }
    expect(criSkipReason(['sh'])).toBe(root ? undefined : 'real-containerd tests need root');
  });
});
