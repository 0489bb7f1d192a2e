// Every function the pure packages export is either an entry point the robustness properties
// call (entries.ts) or exempted with a reason (exemptions.ts): a new export without a line in
// either fails here, so whoever adds it decides whether it takes user data.
import * as api from '@kruise-ts/api';
import * as cloneset from '@kruise-ts/cloneset';
import * as core from '@kruise-ts/core';
import * as coreApply from '@kruise-ts/core/apply';
import * as coreExpectations from '@kruise-ts/core/expectations';
import * as coreTesting from '@kruise-ts/core/testing';
import * as daemonset from '@kruise-ts/daemonset';
import * as nodeops from '@kruise-ts/nodeops';
import * as sidecarset from '@kruise-ts/sidecarset';
import * as statefulset from '@kruise-ts/statefulset';
import * as uniteddeployment from '@kruise-ts/uniteddeployment';
import { describe, expect, it } from 'vitest';
import { entries } from './entries';
import { exemptions } from './exemptions';

const packages: Record<string, Record<string, unknown>> = {
  '@kruise-ts/api': api,
  '@kruise-ts/core': core,
  '@kruise-ts/core/apply': coreApply,
  '@kruise-ts/core/expectations': coreExpectations,
  '@kruise-ts/core/testing': coreTesting,
  '@kruise-ts/cloneset': cloneset,
  '@kruise-ts/statefulset': statefulset,
  '@kruise-ts/daemonset': daemonset,
  '@kruise-ts/sidecarset': sidecarset,
  '@kruise-ts/uniteddeployment': uniteddeployment,
  '@kruise-ts/nodeops': nodeops,
};

describe('the robustness table covers every exported function', () => {
  for (const [name, mod] of Object.entries(packages)) {
    it(`${name}: each exported function is an entry or exempted with a reason, never both`, () => {
      const exported = Object.keys(mod).filter((k) => typeof mod[k] === 'function');
      const entry = entries[name] ?? {};
      const exempt = exemptions[name] ?? {};
      const missing = exported.filter((f) => !Object.hasOwn(entry, f) && !Object.hasOwn(exempt, f));
      expect(missing, 'exported functions with neither an entry nor an exemption').toEqual([]);
      expect(exported.filter((f) => Object.hasOwn(entry, f) && Object.hasOwn(exempt, f))).toEqual([]);
      const stale = [...Object.keys(entry), ...Object.keys(exempt)].filter(
        (f) => typeof mod[f] !== 'function',
      );
      expect(stale, 'table lines naming no exported function').toEqual([]);
      for (const reason of Object.values(exempt)) expect(reason.length).toBeGreaterThan(20);
    });
  }

  it('every reconcile<Kind> and validate<Kind> is an entry, not an exemption', () => {
    const kinds =
      /^(reconcile|validate)(CloneSet|StatefulSet|DaemonSet|SidecarSet|UnitedDeployment|ImagePullJob|ImageListPullJob|NodeImage|AdvancedCronJob|ContainerRecreateRequest)$/;
    let seen = 0;
    for (const [name, mod] of Object.entries(packages)) {
      for (const f of Object.keys(mod).filter((k) => kinds.test(k))) {
        seen++;
        expect(Object.hasOwn(entries[name] ?? {}, f), `${name} ${f}`).toBe(true);
      }
    }
    expect(seen).toBe(20);
  });
});
