// reconcileUnitedDeployment with 10 subsets and 10 000 pods against a single pass over the pods
// (target: within 20x). Run with `npx vitest bench --run packages/uniteddeployment`.
import { bench, describe } from 'vitest';
import { allocateSubsetReplicas, reconcileUnitedDeployment } from '../src/index';
import { benchInput, singlePass } from './fixture';

const fixed = benchInput(false);
const adaptive = benchInput(true);

describe('UnitedDeployment, 10 subsets × 1 000 pods', () => {
  bench('baseline: single pass over the pods', () => {
    singlePass(fixed);
  });
  bench('reconcileUnitedDeployment (Fixed)', () => {
    reconcileUnitedDeployment(fixed);
  });
  bench('reconcileUnitedDeployment (Adaptive)', () => {
    reconcileUnitedDeployment(adaptive);
  });
  bench('allocateSubsetReplicas (10 subsets)', () => {
    allocateSubsetReplicas(fixed.unitedDeployment, {});
  });
});
