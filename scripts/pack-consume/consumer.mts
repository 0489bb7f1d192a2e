// The consumer project of scripts/pack-consume/run.mjs: imports every @kruise-ts package from
// its installed tarball, uses it on small objects (so tsc checks real types, not just that the
// modules resolve) and prints one `ok <package>` line per package. run.mjs type-checks it under
// NodeNext, Node16 and Bundler with `strict` and without `skipLibCheck`, then runs it.
// It lives outside the workspace's tsconfig (`.mts` is not matched by `scripts/**/*.ts`) because
// it resolves the packages the way a user does, from node_modules.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  type CloneSet,
  type DaemonSet,
  type ImagePullJob,
  type KubeObject,
  readManifests,
  type SidecarSet,
  type StatefulSet,
  setDefaultsCloneSet,
  setDefaultsSidecarSet,
  setDefaultsStatefulSet,
  type UnitedDeployment,
} from '@kruise-ts/api';
import { CliError, type CliIO, demoScenarioPath, main, VERSION } from '@kruise-ts/cli';
import { type CloneSetDiffs, calculateDiffs, reconcileCloneSet, validateCloneSet } from '@kruise-ts/cloneset';
import { type Cluster, createCluster } from '@kruise-ts/cluster';
import {
  type Action,
  driverOf,
  type FieldError,
  objectReaderOf,
  scaledValueFromIntOrPercent,
} from '@kruise-ts/core';
import { applyActions } from '@kruise-ts/core/apply';
import { type DaemonOptions, defaultProtoPath, seededRng } from '@kruise-ts/daemon';
import { nodeShouldRunDaemonPod, validateDaemonSet } from '@kruise-ts/daemonset';
import { validateImagePullJob } from '@kruise-ts/nodeops';
import { type OperatorOptions, parseDuration, RateLimiter } from '@kruise-ts/operator';
import { descriptorForKind, workloadDescriptors } from '@kruise-ts/registry';
import { injectSidecars, validateSidecarSet } from '@kruise-ts/sidecarset';
import { createSimulation, type RunResult, runScenario, Simulation } from '@kruise-ts/sim';
import { arbNodes } from '@kruise-ts/sim/testing';
import { validateStatefulSet } from '@kruise-ts/statefulset';
import { allocateSubsetReplicas, validateUnitedDeployment } from '@kruise-ts/uniteddeployment';
import type { Node, Pod, PodTemplateSpec } from 'kubernetes-types/core/v1.js';

const NOW = '2024-01-01T00:00:00Z';
const template: PodTemplateSpec = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
};
const selector = { matchLabels: { app: 'web' } };
const meta = (name: string) => ({ name, namespace: 'default', uid: `uid-${name}` });
const noErrors = (what: string, errs: FieldError[]) =>
  assert.deepEqual(errs, [], `${what}: ${JSON.stringify(errs)}`);
const ok = (pkg: string, detail: string) => console.log(`ok @kruise-ts/${pkg}: ${detail}`);

// api: defaulting fills the webhook defaults; the manifest reader parses YAML.
const cloneSet: CloneSet = setDefaultsCloneSet({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: meta('web'),
  spec: { replicas: 3, selector, template },
});
assert.equal(cloneSet.spec.updateStrategy?.type, 'ReCreate');
const read = readManifests('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: demo\n');
const objects: KubeObject[] = read.objects;
assert.equal(objects.length, 1);
ok('api', `setDefaultsCloneSet, readManifests (${objects[0]?.kind})`);

// core: int-or-percent math.
const scaled: number = scaledValueFromIntOrPercent('20%', 5, true);
assert.equal(scaled, 1);
ok('core', `scaledValueFromIntOrPercent('20%', 5) = ${scaled}`);

// cloneset: validation, the diff numbers and one reconcile from no pods.
noErrors('validateCloneSet', validateCloneSet(cloneSet));
const diffs: CloneSetDiffs = calculateDiffs(cloneSet, [] as Pod[], {
  currentRevision: 'r1',
  updateRevision: 'r1',
});
assert.equal(diffs.scaleUpNum, 3);
const result = reconcileCloneSet({ cloneSet, pods: [], now: NOW }, { seed: 1 });
const creates = result.actions.filter((a: Action) => a.verb === 'create' && a.object.kind === 'Pod');
assert.equal(creates.length, 3);
ok(
  'cloneset',
  `calculateDiffs scaleUpNum=${diffs.scaleUpNum}, reconcileCloneSet creates ${creates.length} pods`,
);

// core/apply: the in-memory API server (a subpath of its own) stores what the reconcile created.
const stored = applyActions([cloneSet], result.actions, NOW, { seed: 1 });
assert.equal(stored.filter((o) => o.kind === 'Pod').length, 3);
ok('core', `applyActions from @kruise-ts/core/apply stores ${stored.length} objects`);

// daemonset: a node with no taints runs the daemon pod.
const daemonSet: DaemonSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'DaemonSet',
  metadata: meta('agent'),
  spec: { selector, template },
};
noErrors('validateDaemonSet', validateDaemonSet(daemonSet));
const node: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } };
const run = nodeShouldRunDaemonPod(node, daemonSet);
assert.equal(run.shouldRun, true);
ok('daemonset', `validateDaemonSet, nodeShouldRunDaemonPod = ${run.shouldRun}`);

// statefulset
const statefulSet: StatefulSet = setDefaultsStatefulSet({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'StatefulSet',
  metadata: meta('db'),
  spec: { replicas: 1, serviceName: 'db', selector, template },
});
noErrors('validateStatefulSet', validateStatefulSet(statefulSet));
ok('statefulset', 'validateStatefulSet');

// sidecarset: a matching pod gets the sidecar injected.
const sidecarSet: SidecarSet = setDefaultsSidecarSet({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  metadata: { name: 'logger', uid: 'uid-logger' },
  spec: { selector, containers: [{ name: 'logger', image: 'busybox:1.36' }] },
});
noErrors('validateSidecarSet', validateSidecarSet(sidecarSet));
const pod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { ...meta('web-0'), labels: { app: 'web' } },
  spec: template.spec,
};
const injected = injectSidecars(pod, [sidecarSet], { now: NOW });
noErrors('injectSidecars', injected.errors);
const names = (injected.pod.spec?.containers ?? []).map((c) => c.name);
assert.deepEqual(names.sort(), ['logger', 'nginx']);
ok('sidecarset', `injectSidecars -> containers ${names.join(', ')}`);

// uniteddeployment: 5 replicas over two subsets.
const unitedDeployment: UnitedDeployment = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'UnitedDeployment',
  metadata: meta('ud'),
  spec: {
    replicas: 5,
    selector,
    template: { cloneSetTemplate: { metadata: { labels: { app: 'web' } }, spec: { selector, template } } },
    topology: { subsets: [{ name: 'a', replicas: 2 }, { name: 'b' }] },
  },
};
noErrors('validateUnitedDeployment', validateUnitedDeployment(unitedDeployment));
const allocation = allocateSubsetReplicas(unitedDeployment);
assert.ok('replicas' in allocation, JSON.stringify(allocation));
assert.deepEqual(allocation.replicas, { a: 2, b: 3 });
ok('uniteddeployment', `allocateSubsetReplicas -> ${JSON.stringify(allocation.replicas)}`);

// nodeops
const imagePullJob: ImagePullJob = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'ImagePullJob',
  metadata: meta('prewarm'),
  spec: { image: 'nginx:1.27', completionPolicy: { type: 'Always' } },
};
noErrors('validateImagePullJob', validateImagePullJob(imagePullJob));
ok('nodeops', 'validateImagePullJob');

// registry: the workload descriptors, and one CloneSet reconciled through an in-memory reader.
const descriptor = descriptorForKind(cloneSet.apiVersion, cloneSet.kind);
assert.ok(descriptor, 'no CloneSet descriptor');
const viaReader = driverOf(descriptor).reconcile(cloneSet, objectReaderOf([cloneSet]), NOW, undefined, {
  featureGates: {},
  seed: 1,
  kruiseNamespace: 'kruise-system',
  scalingExcludePreparingDelete: false,
});
assert.equal(viaReader.actions.filter((a: Action) => a.verb === 'create').length, 4); // 3 pods and a revision
ok('registry', `${workloadDescriptors.length} descriptors, ${descriptor.name} created 3 pods`);

// cluster: a reconcile's pods through the simulated cluster; the kubelet starts their containers
// (Ready itself waits for the CloneSet's InPlaceUpdateReady readiness gate).
const cluster: Cluster = createCluster({ nodes: [{ name: 'node-1' }], seed: 1 });
const podCreates = viaReader.actions.filter((a: Action) => a.verb === 'create' && a.object.kind === 'Pod');
const written = cluster.apply(podCreates);
assert.ok(
  written.every((r) => r.ok),
  JSON.stringify(written),
);
cluster.advance(30_000);
const readyPods = cluster
  .list<Pod & KubeObject>('Pod')
  .filter((p) => p.status?.conditions?.some((c) => c.type === 'ContainersReady' && c.status === 'True'));
assert.equal(readyPods.length, 3);
ok('cluster', `createCluster, apply, advance: ${readyPods.length} pods running at ${cluster.now()}`);

// sim: the scenario that ships with the CLI runs to PASSED; a Simulation settles a CloneSet.
const scenarioPath = demoScenarioPath();
assert.ok(scenarioPath, '@kruise-ts/cli does not carry its demo scenario');
const scenario: RunResult = runScenario(readFileSync(scenarioPath, 'utf8'));
assert.equal(scenario.status, 'passed', scenario.failure);
const sim: Simulation = createSimulation([cloneSet]);
assert.ok(sim instanceof Simulation);
const settled = sim.runUntil(() => sim.store.list('v1', 'Pod', 'default').length === 3, {
  timeoutMs: 60_000,
});
assert.ok(settled, 'the simulated CloneSet did not create its pods');
const arb = arbNodes(2);
assert.equal(typeof arb.generate, 'function');
ok('sim', `runScenario ${scenario.status}, Simulation created 3 pods, arbNodes from /testing`);

// operator: a type and values.
const operatorOptions: Pick<OperatorOptions, 'workers'> = { workers: 3 };
assert.equal(parseDuration('30s'), 30_000);
const limiter = new RateLimiter();
ok(
  'operator',
  `parseDuration, ${limiter.constructor.name}, OperatorOptions (workers ${operatorOptions.workers})`,
);

// daemon: a type and values; the CRI proto file ships with the package.
const daemonNode: Pick<DaemonOptions, 'nodeName'> = { nodeName: 'node-1' };
const rng = seededRng(1);
const draw: number = rng();
assert.ok(draw >= 0 && draw < 1);
assert.ok(readFileSync(defaultProtoPath(), 'utf8').includes('package runtime.v1'));
ok('daemon', `seededRng, defaultProtoPath, DaemonOptions (${daemonNode.nodeName})`);

// cli: the library entry point (the binary is checked by run.mjs).
const io: Pick<CliIO, 'stdout'> = { stdout: () => {} };
const err = new CliError('x', 2);
assert.ok(err instanceof Error && typeof main === 'function' && typeof io.stdout === 'function');
ok('cli', `VERSION ${VERSION}, main, CliError`);
