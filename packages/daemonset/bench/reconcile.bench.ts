// vitest bench (`pnpm bench`): reconcileDaemonSet at 1k, 5k and 20k nodes next to the
// single-pass baseline of ./fixtures. bench/scaling.ts prints the ratios.
import { bench, describe } from 'vitest';
import { reconcileDaemonSet } from '../src';
import { fixture, singlePassBaseline } from './fixtures';

for (const n of [1_000, 5_000, 20_000]) {
  describe(`${n} nodes, rolling update due (maxUnavailable 10%)`, () => {
    const input = fixture(n);
    bench('reconcileDaemonSet', () => {
      reconcileDaemonSet(input);
    });
    bench('single-pass baseline', () => {
      singlePassBaseline(input);
    });
  });
}
