// Every entry point of the pure packages (entries.ts) answers one-field mutations of valid inputs
// without throwing, and with a well-formed answer (answers.ts): a reconcile's actions of known
// verbs and its field errors with paths, nothing deleted when it reports errors. The valid inputs
// are the example scenarios' own (fixtures.ts); a mutation lands anywhere in the input, in the
// workload, or in one observed pod, node, revision or PVC (docs/reference/core.md §10.1, §10.3).
// Runs: FC_NUM_RUNS (100 in CI, fixed seed from vitest.setup.ts) per entry;
// `pnpm run test:mutation-long` makes 10^6 calls in total.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerProblem } from './answers';
import { entries } from './entries';

describe('entry points answer one-field mutations of valid inputs', () => {
  for (const [pkg, table] of Object.entries(entries)) {
    for (const [name, entry] of Object.entries(table)) {
      it(`${pkg} ${name}: never throws, and answers in shape (${entry.answer})`, () => {
        fc.assert(
          fc.property(entry.args(), (args) => {
            let answer: unknown;
            try {
              answer = entry.call(...args);
            } catch (e) {
              throw new Error(`threw ${e instanceof Error ? e.stack : String(e)}`);
            }
            expect(answerProblem(entry.answer, answer)).toBeUndefined();
          }),
        );
      });
    }
  }
});
