// Naming a workload on the command line, the image patch of `set image`, the scale-down patch of
// `scale --pods`, and Go durations for --timeout (all pure).
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/commands/kruise/duration';
import { podOrdinal, scaleDownPatch } from '../../src/commands/kruise/scalePods';
import { imagePatch, parseImageArgs } from '../../src/commands/kruise/setImage';
import { displayName, parseWorkloadArgs } from '../../src/commands/kruise/workloads';

describe('parseWorkloadArgs', () => {
  it('reads TYPE/NAME and TYPE NAME with any alias', () => {
    for (const args of [['clone/sample'], ['cloneset', 'sample'], ['CloneSets.apps.kruise.io/sample']]) {
      const r = parseWorkloadArgs(args);
      expect('ref' in r && displayName(r.ref)).toBe('cloneset.apps.kruise.io/sample');
    }
    const asts = parseWorkloadArgs(['asts/web']);
    expect('ref' in asts && asts.ref.kind.version).toBe('v1beta1');
    const ads = parseWorkloadArgs(['daemonset.apps.kruise.io', 'agent']);
    expect('ref' in ads && ads.ref.kind.kind).toBe('DaemonSet');
  });
  it('refuses a missing name, an unknown type and extra arguments', () => {
    expect(parseWorkloadArgs([])).toEqual({ error: 'required resource not specified' });
    expect(parseWorkloadArgs(['clone'])).toMatchObject({
      error: expect.stringContaining('resource name may not be empty'),
    });
    expect(parseWorkloadArgs(['deployment/x'])).toMatchObject({
      error: expect.stringContaining('"deployment"'),
    });
    expect(parseWorkloadArgs(['clone/a', 'b'])).toMatchObject({ error: expect.stringContaining('no need') });
  });
});

describe('set image', () => {
  const template = {
    spec: {
      initContainers: [{ name: 'init', image: 'busybox' }],
      containers: [
        { name: 'nginx', image: 'nginx:alpine' },
        { name: 'sidecar', image: 'log:1' },
      ],
    },
  };
  it('patches the named container, pinning its name with a test', () => {
    expect(imagePatch(template, [{ container: 'sidecar', image: 'log:2' }])).toEqual([
      { op: 'test', path: '/spec/template/spec/containers/1/name', value: 'sidecar' },
      { op: 'replace', path: '/spec/template/spec/containers/1/image', value: 'log:2' },
    ]);
  });
  it('* reaches every container, init containers included; an unchanged image adds nothing', () => {
    const ops = imagePatch(template, [{ container: '*', image: 'log:1' }]);
    expect(Array.isArray(ops) && ops.filter((o: any) => o.op === 'replace').map((o: any) => o.path)).toEqual([
      '/spec/template/spec/initContainers/0/image',
      '/spec/template/spec/containers/0/image',
    ]);
  });
  it('refuses an unknown container and malformed arguments', () => {
    expect(imagePatch(template, [{ container: 'nope', image: 'x' }])).toEqual({
      error: 'unable to find container named "nope"',
    });
    expect(parseImageArgs([])).toEqual({ error: 'at least one image update is required' });
    expect(parseImageArgs(['nginx='])).toMatchObject({ error: expect.stringContaining('CONTAINER=IMAGE') });
    expect(parseImageArgs(['a=b:1', '*=c'])).toEqual([
      { container: 'a', image: 'b:1' },
      { container: '*', image: 'c' },
    ]);
  });
});

describe('scale --pods', () => {
  it('CloneSet: appends to podsToDelete and lowers replicas by the new names only', () => {
    const cs = {
      metadata: { name: 'sample', resourceVersion: '7' },
      spec: { replicas: 5, scaleStrategy: { podsToDelete: ['sample-a'] } },
    };
    expect(scaleDownPatch('CloneSet', cs, ['sample-a', 'sample-b', 'sample-b'])).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '7' },
      { op: 'add', path: '/spec/scaleStrategy/podsToDelete', value: ['sample-a', 'sample-b'] },
      { op: 'add', path: '/spec/replicas', value: 4 },
    ]);
    const bare = { metadata: { name: 'sample', resourceVersion: '1' }, spec: { replicas: 2 } };
    expect(scaleDownPatch('CloneSet', bare, ['sample-x'], 2)).toContainEqual({
      op: 'add',
      path: '/spec/scaleStrategy',
      value: {},
    });
    expect(scaleDownPatch('CloneSet', bare, ['sample-x'], 2)).toContainEqual({
      op: 'add',
      path: '/spec/replicas',
      value: 2,
    });
  });
  it('Advanced StatefulSet: reserves the ordinals', () => {
    const sts = {
      metadata: { name: 'web', resourceVersion: '3' },
      spec: { replicas: 3, reserveOrdinals: [5] },
    };
    expect(scaleDownPatch('StatefulSet', sts, ['web-1'])).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '3' },
      { op: 'add', path: '/spec/reserveOrdinals', value: [5, 1] },
      { op: 'add', path: '/spec/replicas', value: 2 },
    ]);
    expect(scaleDownPatch('StatefulSet', sts, ['db-1'])).toMatchObject({
      error: expect.stringContaining('web-<ordinal>'),
    });
    expect(podOrdinal('web', 'web-01')).toBeUndefined();
    expect(podOrdinal('web-a', 'web-a-12')).toBe(12);
  });
});

describe('parseDuration', () => {
  it("reads Go's durations", () => {
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('30')).toEqual({ error: 'time: missing unit in duration "30"' });
    expect(parseDuration('5x')).toEqual({ error: 'time: invalid duration "5x"' });
    expect(parseDuration('5s!')).toEqual({ error: 'time: invalid duration "5s!"' });
  });
});
