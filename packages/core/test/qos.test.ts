// docs/reference/core.md Appendix C.2: pod QoS class (Kubernetes v1.30).
import type { Container, PodSpec } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { getPodQOS } from '../src/pods/qos';
import { deepFreeze } from '../src/testing';

const c = (requests?: Record<string, string>, limits?: Record<string, string>): Container => ({
  name: 'c',
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
});
const spec = (containers: Container[], initContainers: Container[] = []): PodSpec =>
  deepFreeze({ containers, initContainers });

describe('C.2 QoS', () => {
  it('no requests and no limits at all → BestEffort (other resources and zero values ignored)', () => {
    expect(getPodQOS(spec([c(), c({ 'example.com/gpu': '1' }, { 'example.com/gpu': '1' })]))).toBe(
      'BestEffort',
    );
    expect(getPodQOS(spec([c({ cpu: '0' })]))).toBe('BestEffort');
    expect(getPodQOS(undefined)).toBe('BestEffort');
  });

  it('every container with cpu+memory limits equal to the summed requests → Guaranteed', () => {
    const g = c({ cpu: '1', memory: '1Gi' }, { cpu: '1000m', memory: '1024Mi' });
    expect(getPodQOS(spec([g, g]))).toBe('Guaranteed');
  });

  it('C.2: limits without requests → Burstable (entry counts differ; in a cluster API defaulting copies limits to requests)', () => {
    expect(getPodQOS(spec([c(undefined, { cpu: '1', memory: '1Gi' })]))).toBe('Burstable');
  });

  it('a container without both a cpu and a memory limit disqualifies Guaranteed (init containers count)', () => {
    const g = c({ cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' });
    expect(getPodQOS(spec([g], [c({ cpu: '1' }, { cpu: '1' })]))).toBe('Burstable');
  });

  it('C.2 worked example: requests {1, 2Gi} and limits {2, 4Gi} in two containers → Burstable; raising requests to limits → Guaranteed', () => {
    const b = c({ cpu: '1', memory: '2Gi' }, { cpu: '2', memory: '4Gi' });
    expect(getPodQOS(spec([b, b]))).toBe('Burstable');
    const g = c({ cpu: '2', memory: '4Gi' }, { cpu: '2', memory: '4Gi' });
    expect(getPodQOS(spec([g, g]))).toBe('Guaranteed');
  });
});
