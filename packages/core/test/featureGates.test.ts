import {
  applyFeatureGateDependencies,
  defaultFeatureGates,
  parseFeatureGatesFlag,
  resolveFeatureGates,
} from '@kruise-ts/core';
import { describe, expect, it } from 'vitest';

describe('feature gates (docs/reference/operator.md §3.6)', () => {
  it('has the v1.8.2 defaults', () => {
    expect(defaultFeatureGates.InPlaceUpdateEnvFromMetadata).toBe(true);
    expect(defaultFeatureGates.CloneSetPartitionRollback).toBe(false);
    expect(defaultFeatureGates.PreDownloadImageForInPlaceUpdate).toBe(false);
    expect(defaultFeatureGates.ResourcesDeletionProtection).toBe(false);
    expect(defaultFeatureGates.PodIndexLabel).toBe(true);
  });
  it('fills missing gates with defaults and keeps given ones', () => {
    const g = resolveFeatureGates({ CloneSetPartitionRollback: true });
    expect(g.CloneSetPartitionRollback).toBe(true);
    expect(g.PodWebhook).toBe(true);
  });
  it('O3.6: PodWebhook off forces WorkloadSpread off; pre-download forces ImagePullJobGate on', () => {
    const g = applyFeatureGateDependencies(
      resolveFeatureGates({ PodWebhook: false, PreDownloadImageForInPlaceUpdate: true }),
    );
    expect(g.WorkloadSpread).toBe(false);
    expect(g.ImagePullJobGate).toBe(true);
  });
  it('O3.6 step 2 runs before step 3: KruiseDaemon off leaves ImagePullJobGate off', () => {
    const g = applyFeatureGateDependencies(
      resolveFeatureGates({ KruiseDaemon: false, PreDownloadImageForInPlaceUpdate: true }),
    );
    expect(g.PreDownloadImageForInPlaceUpdate).toBe(false);
    expect(g.ImagePullJobGate).toBe(false);
  });
  it('parses the --feature-gates flag', () => {
    expect(parseFeatureGatesFlag('CloneSetShortHash=true, AllAlpha=true')).toEqual({
      gates: { CloneSetShortHash: true },
    });
    expect(parseFeatureGatesFlag('Nope=true')).toEqual({ error: 'unrecognized feature gate: Nope' });
    expect(parseFeatureGatesFlag('PodWebhook=maybe')).toHaveProperty('error');
  });
});
