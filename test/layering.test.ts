// The layering of docs/architecture.md, checked: api <- core <- each controller <- registry <- sim,
// operator <- cli; the cluster model on api and core alone, under sim (the controllers' tests may use
// it, their sources may not); the daemon on api and core alone; no controller imports another; and
// no import cycle between the files of any package.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, readSourceGraph } from './imports';

const root = fileURLToPath(new URL('..', import.meta.url));
const CONTROLLERS = ['cloneset', 'statefulset', 'daemonset', 'sidecarset', 'uniteddeployment', 'nodeops'];

/** Which @kruise-ts packages each package's sources may import. */
const ALLOWED: Record<string, readonly string[]> = {
  api: [],
  core: ['api'],
  ...Object.fromEntries(CONTROLLERS.map((c) => [c, ['api', 'core']])),
  registry: ['api', 'core', ...CONTROLLERS],
  cluster: ['api', 'core'],
  sim: ['api', 'core', 'cluster', ...CONTROLLERS, 'registry'],
  operator: ['api', 'core', ...CONTROLLERS, 'registry'],
  daemon: ['api', 'core'],
  cli: ['api', 'core', 'cluster', ...CONTROLLERS, 'registry', 'sim', 'operator', 'daemon'],
  playground: ['api', 'sim'],
};

describe('layering', () => {
  const graph = readSourceGraph(root);

  it('reads every package', () => {
    expect(graph.files.size).toBeGreaterThan(300);
    expect([...graph.packages.keys()]).toContain('core -> api');
  });

  it('imports run downward only', () => {
    const upward = [...graph.packages.entries()]
      .filter(([key]) => {
        const [from, to] = key.split(' -> ');
        return from !== to && !(ALLOWED[from] ?? []).includes(to);
      })
      .map(([key, edge]) => `${key} (${edge.from} imports ${edge.to})`);
    expect(upward).toEqual([]);
  });

  it('no import cycle between files', () => {
    expect(importCycles(graph.files)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const files = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(importCycles(files)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
