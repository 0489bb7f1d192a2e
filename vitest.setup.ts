// Property tests run with a fixed seed and a bounded number of runs in CI.
// FC_SEED and FC_NUM_RUNS override both (the `test:long` script sets 100,000 runs).
import fc from 'fast-check';

const seed = Number(process.env.FC_SEED ?? 20240101);
const numRuns = Number(process.env.FC_NUM_RUNS ?? 100);
fc.configureGlobal({ seed, numRuns, endOnFailure: true });
