// The committed Kubernetes definitions (src/structure/k8sDefinitions.generated.ts) against the
// generator run on the installed kubernetes-models and @kubernetes/client-node, like the CRD drift
// test: a bump of either package without a regeneration fails here.
import { describe, expect, it } from 'vitest';
import { buildK8sDefinitions } from '../scripts/gen-k8s-schemas';
import { k8sDefinitions } from '../src/index';

describe('Kubernetes definitions (src/structure/k8sDefinitions.generated.ts)', () => {
  it('are up to date with scripts/gen-k8s-schemas.ts', () => {
    expect(k8sDefinitions).toEqual(buildK8sDefinitions());
  });

  it('carry what the schema subset needs: formats, int-or-string, quantities, enums, descriptions', () => {
    const podSpec = k8sDefinitions.PodSpec as any;
    expect(podSpec.required).toEqual(['containers']);
    expect(podSpec.properties.priority).toMatchObject({ type: 'integer', format: 'int32' });
    expect(podSpec.properties.activeDeadlineSeconds).toMatchObject({ type: 'integer', format: 'int64' });
    expect(podSpec.properties.dnsPolicy.enum).toEqual([
      'ClusterFirst',
      'ClusterFirstWithHostNet',
      'Default',
      'None',
    ]);
    expect(podSpec.properties.containers.description).toMatch(/^List of containers belonging to the pod/);
    expect(k8sDefinitions.IntOrString).toMatchObject({ 'x-kubernetes-int-or-string': true });
    expect(k8sDefinitions.Quantity).toMatchObject({
      'x-kubernetes-int-or-string': true,
      pattern: expect.any(String),
    });
    expect(k8sDefinitions.Time).toMatchObject({ type: 'string', format: 'date-time', nullable: true });
  });
});
