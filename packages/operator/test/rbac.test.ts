// deploy/rbac.yaml against the controllers the operator runs (docs/reference/operator.md §5.4): every
// informer a controller opens needs list + watch on its resource, and every controller writes its
// primary kind's status through the status subresource. The manifest lists rules in flow style
// (`apiGroups: [...]`, `resources: [...]`, `verbs: [...]`), read here without a YAML library.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allControllers, resourceFor } from '../src/index';

const text = readFileSync(fileURLToPath(new URL('../deploy/rbac.yaml', import.meta.url)), 'utf8');
const managerRole = text.split(/^---$/m).find((d) => /name: kruise-manager-role\n/.test(d)) ?? '';
const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim().replace(/^"(.*)"$/, '$1'))
    .filter((x) => x !== '' || s.includes('""'));
const rules = [
  ...managerRole.matchAll(/- apiGroups: \[(.*?)\]\n\s+resources: \[(.*?)\]\n\s+verbs: \[(.*?)\]/g),
].map((m) => ({ groups: list(m[1]), resources: list(m[2]), verbs: list(m[3]) }));

function allows(group: string, resource: string, verb: string): boolean {
  return rules.some(
    (r) =>
      (r.groups.includes(group) || r.groups.includes('*')) &&
      (r.resources.includes(resource) || r.resources.includes('*')) &&
      r.verbs.includes(verb),
  );
}

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

describe('deploy/rbac.yaml covers the controllers (§5.4)', () => {
  it('the kruise-manager-role rules are read', () => {
    expect(rules.length).toBeGreaterThan(10);
  });
  for (const c of allControllers) {
    it(`${c.name}: list + watch on every informer, status update on its primary`, () => {
      for (const ref of [c.primary, ...c.secondary]) {
        const res = resourceFor(ref.apiVersion, ref.kind);
        for (const verb of ['list', 'watch'])
          expect(allows(groupOf(ref.apiVersion), res.plural, verb), `${verb} ${res.plural}`).toBe(true);
      }
      if (c.primary.kind !== 'Node') {
        const res = resourceFor(c.primary.apiVersion, c.primary.kind);
        expect(allows(groupOf(c.primary.apiVersion), `${res.plural}/status`, 'update')).toBe(true);
      }
    });
  }
  it('node-side writes: NodeImages created/updated/deleted, ImagePullJobs created and patched, CRRs patched, Jobs created', () => {
    expect(['create', 'update', 'delete'].every((v) => allows('apps.kruise.io', 'nodeimages', v))).toBe(true);
    expect(['create', 'patch', 'delete'].every((v) => allows('apps.kruise.io', 'imagepulljobs', v))).toBe(
      true,
    );
    expect(allows('apps.kruise.io', 'containerrecreaterequests', 'patch')).toBe(true);
    expect(allows('apps.kruise.io', 'containerrecreaterequests', 'create')).toBe(false);
    expect(allows('batch', 'jobs', 'create')).toBe(true);
    expect(allows('', 'secrets', 'create')).toBe(false); // copies only through the kruise-daemon-config Role
  });
});
