// The registry's node-side list and its list of every controller: the node-side descriptors in
// the simulator's registration order, every controller in operator.md §3.5 order with the two
// NodeImage runners together, their `--controllers` words and their §3.5 gate conditions.
import { resolveFeatureGates } from '@kruise-ts/core';
import { nodeImageFromNodeDescriptor } from '@kruise-ts/nodeops';
import { describe, expect, it } from 'vitest';
import { allDescriptors, nodeOpsDescriptors, selectName, workloadDescriptors } from '../src/index';

describe('the node-side descriptors', () => {
  it('lists the six runners once each, frozen', () => {
    expect(nodeOpsDescriptors.map((d) => d.name)).toEqual([
      'imagepulljob-controller',
      'nodeimage-controller',
      'nodeimage-controller(node)',
      'imagelistpulljob-controller',
      'advancedcronjob-controller',
      'containerrecreaterequest-controller',
    ]);
    expect(Object.isFrozen(nodeOpsDescriptors)).toBe(true);
  });

  it('the NodeImage runner by Node answers to `nodeimage`', () => {
    expect(selectName(nodeImageFromNodeDescriptor)).toBe('nodeimage');
    expect(selectName(workloadDescriptors[0])).toBe('cloneset');
  });
});

describe('every controller (operator.md §3.5 order)', () => {
  it('is the workload and node-side descriptors in §3.5 registration order', () => {
    expect(allDescriptors.map(selectName)).toEqual([
      'advancedcronjob',
      'cloneset',
      'containerrecreaterequest',
      'daemonset',
      'nodeimage',
      'nodeimage',
      'imagepulljob',
      'sidecarset',
      'statefulset',
      'uniteddeployment',
      'imagelistpulljob',
    ]);
    expect(allDescriptors[4]?.primary.kind).toBe('NodeImage');
    expect(allDescriptors[5]?.primary.kind).toBe('Node');
    expect(new Set(allDescriptors).size).toBe(workloadDescriptors.length + nodeOpsDescriptors.length);
    expect(Object.isFrozen(allDescriptors)).toBe(true);
  });

  it('§3.5 "Enabled when": the v1.8.2 defaults leave out the image pull jobs; no KruiseDaemon leaves out the node side', () => {
    const on = (gates: Parameters<typeof resolveFeatureGates>[0]) =>
      allDescriptors.filter((d) => d.enabled?.(resolveFeatureGates(gates)) ?? true).map((d) => d.name);
    const byDefault = on({});
    expect(byDefault).not.toContain('imagepulljob-controller');
    expect(byDefault).not.toContain('imagelistpulljob-controller');
    expect(byDefault).toContain('nodeimage-controller(node)');
    expect(on({ ImagePullJobGate: true })).toHaveLength(allDescriptors.length);
    expect(
      on({ KruiseDaemon: false, ImagePullJobGate: true }).filter((n) => /image|recreate/.test(n)),
    ).toEqual([]);
  });
});
