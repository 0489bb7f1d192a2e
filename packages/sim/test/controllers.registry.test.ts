// The simulator's registries (src/controllers.ts): `createDefaultRegistry()` builds a fresh
// registry of every controller for each caller, so what one caller adds reaches no other
// registry and no simulation it did not pass it to; the deprecated `defaultRegistry` is sealed.
import { describe, expect, it } from 'vitest';
import { ControllerRegistry, createDefaultRegistry, defaultRegistry } from '../src/controllers';
import { fakeSetController } from './fakeController';

const kinds = (r: ControllerRegistry) => r.all().map((c) => `${c.apiVersion}/${c.kind}`);

describe('controller registries', () => {
  it('createDefaultRegistry lists every controller, in registration order, fresh each call', () => {
    const a = createDefaultRegistry();
    const b = createDefaultRegistry();
    expect(a).not.toBe(b);
    expect(kinds(a)).toEqual(kinds(b));
    expect(kinds(a).slice(0, 5)).toEqual([
      'apps.kruise.io/v1alpha1/CloneSet',
      'apps.kruise.io/v1beta1/StatefulSet',
      'apps.kruise.io/v1alpha1/DaemonSet',
      'apps.kruise.io/v1alpha1/UnitedDeployment',
      'apps.kruise.io/v1alpha1/SidecarSet',
    ]);
    expect(kinds(a)).toContain('batch/v1/Job');
    expect(a.forKind('apps.kruise.io/v1alpha1', 'StatefulSet')?.apiVersion).toBe('apps.kruise.io/v1beta1');
  });

  it('what one caller registers reaches no other registry', () => {
    const mine = createDefaultRegistry().register(fakeSetController);
    expect(mine.forKind(fakeSetController.apiVersion, fakeSetController.kind)).toBe(fakeSetController);
    expect(
      createDefaultRegistry().forKind(fakeSetController.apiVersion, fakeSetController.kind),
    ).toBeUndefined();
    expect(defaultRegistry.forKind(fakeSetController.apiVersion, fakeSetController.kind)).toBeUndefined();
  });

  it('the deprecated defaultRegistry reads as before and refuses to change; its clone may', () => {
    expect(kinds(defaultRegistry)).toEqual(kinds(createDefaultRegistry()));
    expect(() => defaultRegistry.register(fakeSetController)).toThrow(TypeError);
    expect(defaultRegistry.clone().register(fakeSetController).all()).toContain(fakeSetController);
    expect(new ControllerRegistry().seal().all()).toEqual([]);
  });
});
