// Valid reconcile inputs taken from real runs: each example scenario of examples/scenarios is run
// in the simulator, and at the end of each of its steps the input each controller would be
// handed is built from the store (the workload, its observed pods, nodes, revisions, PVCs,
// subsets), exactly as the simulator's registrations build them (src/kinds/*.ts). These are the
// valid objects the one-field mutations start from, so the observed lists are what a cluster
// really holds: pods with status, conditions, owner references, lifecycle labels.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '@kruise-ts/api';
import { runScenario } from '../../src/scenario/run';
import type { Simulation } from '../../src/simulation';

const here = dirname(fileURLToPath(import.meta.url));
const scenariosDir = join(here, '../../../../examples/scenarios');

/** One controller's input at one moment of one scenario. */
export interface InputSnapshot {
  scenario: string;
  /** The workload kind (`CloneSet`, `StatefulSet`, ...). */
  kind: string;
  input: Record<string, unknown>;
}

const KRUISE_A1 = 'apps.kruise.io/v1alpha1';
const KRUISE_B1 = 'apps.kruise.io/v1beta1';

/** A deep copy: the inputs leave the simulation's store, which keeps changing. */
const copy = <T>(v: T): T => structuredClone(v);

function inputsAt(sim: Simulation, scenario: string, now: string): InputSnapshot[] {
  const store = sim.store;
  const out: InputSnapshot[] = [];
  const nodes = store.list('v1', 'Node');
  for (const cs of store.list(KRUISE_A1, 'CloneSet')) {
    const owned = cs.metadata.uid ? store.listOwnedBy(cs.metadata.uid) : [];
    out.push({
      scenario,
      kind: 'CloneSet',
      input: copy({
        cloneSet: cs,
        pods: owned.filter((o) => o.kind === 'Pod'),
        revisions: owned.filter((o) => o.kind === 'ControllerRevision'),
        pvcs: owned.filter((o) => o.kind === 'PersistentVolumeClaim'),
        nodes,
        now,
      }),
    });
  }
  for (const set of store.list(KRUISE_B1, 'StatefulSet')) {
    const ns = set.metadata.namespace;
    out.push({
      scenario,
      kind: 'StatefulSet',
      input: copy({
        statefulSet: set,
        pods: store.list('v1', 'Pod', ns),
        revisions: store.list('apps/v1', 'ControllerRevision', ns),
        pvcs: store.list('v1', 'PersistentVolumeClaim', ns),
        now,
      }),
    });
  }
  for (const ds of store.list(KRUISE_A1, 'DaemonSet')) {
    const ns = ds.metadata.namespace;
    out.push({
      scenario,
      kind: 'DaemonSet',
      input: copy({
        daemonSet: ds,
        nodes,
        pods: store.list('v1', 'Pod', ns),
        revisions: store.list('apps/v1', 'ControllerRevision', ns),
        now,
      }),
    });
  }
  for (const ss of store.list(KRUISE_A1, 'SidecarSet')) {
    out.push({
      scenario,
      kind: 'SidecarSet',
      input: copy({
        sidecarSet: ss,
        pods: store.list('v1', 'Pod'),
        namespaces: store.list('v1', 'Namespace'),
        revisions: store.list('apps/v1', 'ControllerRevision', 'kruise-system'),
        now,
      }),
    });
  }
  for (const ud of store.list(KRUISE_A1, 'UnitedDeployment')) {
    const ns = ud.metadata.namespace;
    const subsets: KubeObject[] = [
      ...store.list('apps/v1', 'StatefulSet', ns),
      ...store.list(KRUISE_B1, 'StatefulSet', ns),
      ...store.list(KRUISE_A1, 'CloneSet', ns),
      ...store.list('apps/v1', 'Deployment', ns),
    ];
    out.push({
      scenario,
      kind: 'UnitedDeployment',
      input: copy({
        unitedDeployment: ud,
        subsets,
        pods: store.list('v1', 'Pod', ns),
        revisions: store.list('apps/v1', 'ControllerRevision', ns),
        now,
      }),
    });
  }
  for (const job of store.list(KRUISE_A1, 'ImagePullJob')) {
    const ns = job.metadata.namespace;
    out.push({
      scenario,
      kind: 'ImagePullJob',
      input: copy({
        imagePullJob: job,
        nodeImages: store.list(KRUISE_A1, 'NodeImage'),
        pods: store.list('v1', 'Pod', ns),
        secrets: store.list('v1', 'Secret', ns),
        now,
      }),
    });
  }
  for (const node of nodes.slice(0, 2)) {
    const name = node.metadata.name ?? '';
    out.push({
      scenario,
      kind: 'NodeImage',
      input: copy({
        nodeName: name,
        node,
        nodeImage: store.get(KRUISE_A1, 'NodeImage', undefined, name),
        imagePullJobs: store.list(KRUISE_A1, 'ImagePullJob'),
        now,
      }),
    });
  }
  return out;
}

/** Every snapshot of every example scenario, once per test file (a few seconds of simulation). */
let memo: InputSnapshot[] | undefined;

/**
 * The valid inputs of every example scenario: for each controller kind in it, the input at the
 * end of each step (at most `perScenario` moments, evenly spread).
 */
export function scenarioInputs(perScenario = 6): InputSnapshot[] {
  if (memo) return memo;
  const all: InputSnapshot[] = [];
  for (const file of readdirSync(scenariosDir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const name = file.replace(/\.yaml$/, '');
    const moments: InputSnapshot[][] = [];
    const r = runScenario(readFileSync(join(scenariosDir, file), 'utf8'), {
      fileName: file,
      readFile: (p) => readFileSync(join(scenariosDir, p), 'utf8'),
      onStepEnd: (_result, sim) => moments.push(inputsAt(sim, name, sim.clock.now())),
    });
    if (r.status === 'invalid') throw new Error(`${file}: ${r.errors.map((e) => e.message).join('; ')}`);
    const step = Math.max(1, Math.ceil(moments.length / perScenario));
    for (let i = 0; i < moments.length; i += step) all.push(...moments[i]);
  }
  memo = all;
  return all;
}

/** The snapshots of one controller kind. */
export function inputsOf(kind: string): InputSnapshot[] {
  return scenarioInputs().filter((s) => s.kind === kind);
}
