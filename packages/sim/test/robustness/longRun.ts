// The long run of the robustness properties (not part of CI): MUTATION_CALLS calls in total
// (default 10^6), shared evenly by the entry points of entries.ts, each call on a valid input
// with one field mutated. Unlike the vitest property it does not stop at the first failure: it
// counts throws and malformed answers per entry, prints the first few of each with the mutated
// input's seed, and exits 1 when there was any.
//
//   pnpm run test:mutation-long                     # 10^6 calls
//   MUTATION_CALLS=20000 FC_SEED=7 pnpm run test:mutation-long
//   MUTATION_FROM=calculateDiffs pnpm run test:mutation-long   # resume at that entry point
import fc from 'fast-check';
import { answerProblem } from './answers';
import { entries } from './entries';

const total = Number(process.env.MUTATION_CALLS ?? 1_000_000);
const seed = Number(process.env.FC_SEED ?? 20240101);
const allRows = Object.entries(entries).flatMap(([pkg, table]) =>
  Object.entries(table).map(([name, entry]) => ({ pkg, name, entry })),
);
// the calls are shared by every entry point; MUTATION_FROM resumes at an entry (its name), so a
// run cut short can be finished with the same per-entry count
const perEntry = Math.ceil(total / allRows.length);
const from = process.env.MUTATION_FROM;
const start = from === undefined ? 0 : allRows.findIndex((r) => r.name === from);
if (start < 0) throw new Error(`MUTATION_FROM: no entry point ${from}`);
const rows = allRows.slice(start);

let calls = 0;
let throws = 0;
let malformed = 0;
const started = performance.now();
for (const { pkg, name, entry } of rows) {
  const t0 = performance.now();
  let entryThrows = 0;
  let entryMalformed = 0;
  const examples: string[] = [];
  fc.assert(
    fc.property(entry.args(), (args) => {
      calls++;
      let answer: unknown;
      try {
        answer = entry.call(...args);
      } catch (e) {
        entryThrows++;
        if (examples.length < 3) examples.push(`threw ${e instanceof Error ? e.message : String(e)}`);
        return true;
      }
      const problem = answerProblem(entry.answer, answer);
      if (problem !== undefined) {
        entryMalformed++;
        if (examples.length < 3) examples.push(problem);
      }
      return true;
    }),
    { numRuns: perEntry, seed, endOnFailure: true },
  );
  throws += entryThrows;
  malformed += entryMalformed;
  const ms = performance.now() - t0;
  console.log(
    `${pkg} ${name}: ${perEntry} calls, ${entryThrows} throws, ${entryMalformed} malformed answers, ${(ms / 1000).toFixed(1)} s`,
  );
  for (const e of examples) console.log(`    ${e}`);
}
const seconds = (performance.now() - started) / 1000;
console.log(
  `total: ${calls} calls over ${rows.length} of ${allRows.length} entry points, ${throws} throws, ${malformed} malformed answers, ${seconds.toFixed(0)} s (seed ${seed})`,
);
process.exitCode = throws + malformed > 0 ? 1 : 0;
