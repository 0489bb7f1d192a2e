// What each field of a scenario file means, keyed by its path in the Scenario document
// (`spec.steps[].setImage.image`; `[]` stands for any list item, `{}` for any map key). The
// schema in packages/sim/src/scenario/types.ts says which fields exist and their types; this
// table says what they do, with the defaults the parser (parse.ts, steps.ts) and the simulator
// (context.ts, simulation.ts) apply. A schema node's own `doc` wins over an entry here.
// scenarioReference.ts fails on a field without a meaning and on a meaning without a field, so
// the table and the schema cannot drift apart.

const podPick = (verb: string): Record<string, string> => ({
  name: `The pod to ${verb}, by name (give name or selector, not both).`,
  selector: `A label selector (\`app=sample,tier!=db\`) choosing the pods to ${verb}.`,
  count: 'How many of the chosen pods (at least 1; default 1).',
  namespace: 'Their namespace (default `default`).',
  container: 'The container (default: every container of the pod).',
});

const target = (what: string): Record<string, string> => ({
  kind: `The kind of the object to ${what} (\`CloneSet\`, \`StatefulSet\`, ...); a manifest of the scenario, or an earlier \`apply\` step, must define it.`,
  name: 'Its name.',
  namespace: 'Its namespace (default `default` for namespaced kinds).',
  apiVersion: 'Its apiVersion (default: the one of the manifest that defines it).',
});

const under = (prefix: string, fields: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [`${prefix}.${k}`, v]));

/** The meaning of every scenario field, by path. */
export const SCENARIO_MEANINGS: Readonly<Record<string, string>> = {
  apiVersion: '`sim.kruise-ts.io/v1alpha1`.',
  kind: '`Scenario`. A file holds exactly one Scenario document; every other document is a manifest applied at time 0, in file order.',
  metadata: "The scenario's metadata.",
  'metadata.name': "The scenario's name, printed in the summary and the report (default `scenario`).",
  'metadata.annotations': 'Free annotations; not used by the simulator.',
  'metadata.labels': 'Free labels; not used by the simulator.',
  description: 'One line saying what the scenario shows; printed at the top of the report.',
  spec: 'What to simulate.',
  'spec.seed':
    'The seed of every random choice: generated names, uids, jitter, failures drawn by probability (default 1). The same file and seed give a byte-identical event log.',
  'spec.startTime': 'The RFC 3339 time the virtual clock starts at (default 2024-01-01T00:00:00Z).',
  'spec.maxDuration': 'The run stops after this much simulated time (default 2h).',
  'spec.cluster': 'The simulated cluster: nodes, timings, feature gates, failures.',
  'spec.cluster.nodes':
    'The nodes; default three, `node-1` to `node-3`, with 4 cpu, 16Gi memory and 110 pods each.',
  'spec.cluster.nodes[].name': 'A single node of this name.',
  'spec.cluster.nodes[].namePrefix':
    'With `count`: nodes `<namePrefix>-1` to `<namePrefix>-<count>` (prefix default `node`).',
  'spec.cluster.nodes[].count': 'How many nodes this entry makes (default 1).',
  'spec.cluster.nodes[].capacity': 'Allocatable resources, e.g. `{cpu: "4", memory: 16Gi, pods: 110}`.',
  'spec.cluster.nodes[].labels': "The node's labels, e.g. `topology.kubernetes.io/zone: a`.",
  'spec.cluster.nodes[].taints': "The node's taints (`{key, value, effect}`), as in a Node's `spec.taints`.",
  'spec.cluster.nodes[].unschedulable': 'Cordoned: the scheduler places no new pod on it.',
  'spec.cluster.nodes[].images': 'Images already cached on the node: pods using them start without a pull.',
  'spec.cluster.timings': "The kubelet model's timings; every duration also takes a number of seconds.",
  'spec.cluster.timings.imagePull':
    'How long a node takes to pull an image it lacks: one duration, or `{default, images: {<image>: <duration>}}` (default 5s). Concurrent pulls of one image on a node share the pull.',
  'spec.cluster.timings.imagePull.default': 'The pull time of an image not listed under `images`.',
  'spec.cluster.timings.imagePull.images': 'Pull times per image.',
  'spec.cluster.timings.imagePull.images.{}': 'The pull time of this image.',
  'spec.cluster.timings.containerStart': 'Image present to container running (default 1s).',
  'spec.cluster.timings.readinessDelay': 'Container running to ready (default 2s).',
  'spec.cluster.timings.termination':
    'How long containers take to exit once asked to stop, capped by the grace period (default 2s).',
  'spec.cluster.timings.jitter':
    'Every duration is multiplied by a factor drawn uniformly from 1 ± jitter, from the seed (0 to 1; default 0).',
  'spec.cluster.timings.crashProbability':
    'The probability that a container crashes within `crashWithin` of each start (0 to 1; default 0).',
  'spec.cluster.timings.crashWithin':
    'The window after a start in which a drawn crash happens (default 30s).',
  'spec.cluster.timings.crashBackoff': 'How long a crashed container waits before it restarts (default 10s).',
  'spec.cluster.timings.readinessFailureProbability':
    "The probability that a container's readiness fails for `readinessFailure` after it starts (0 to 1; default 0).",
  'spec.cluster.timings.readinessFailure': 'How long a drawn readiness failure lasts (default 20s).',
  'spec.cluster.timings.nodeMonitorGracePeriod':
    "How long after a node's kubelet stops reporting the node turns Ready=Unknown and gets the unreachable taints (default 40s).",
  'spec.cluster.timings.podEvictionTimeout':
    'How long after that the pods of an unreachable node without a forever-toleration are evicted (default 5m).',
  'spec.cluster.featureGates':
    "OpenKruise v1.8.2 feature gates of the simulated controllers (`{CloneSetPartitionRollback: true}`); a missing gate takes v1.8.2's default.",
  'spec.cluster.featureGates.{}': 'Whether this gate is on.',
  'spec.cluster.resolution':
    'Every scheduled time is rounded up to a multiple of this (default 1s); coarser is faster, and timestamps stay exact.',
  'spec.cluster.failures':
    'Failures injected on a schedule, each with exactly one action and the time `at` which it happens.',
  'spec.cluster.failures[].at': 'When, as simulated time since the start (default 0).',
  'spec.cluster.failures[].crash':
    'Crash containers of the chosen pods (the kubelet restarts them after the back-off).',
  ...under('spec.cluster.failures[].crash', podPick('crash')),
  'spec.cluster.failures[].unready': 'Fail the readiness of the chosen pods for `duration`.',
  ...under('spec.cluster.failures[].unready', podPick('turn unready')),
  'spec.cluster.failures[].unready.duration': 'How long readiness fails (default 20s).',
  'spec.cluster.failures[].deletePod': 'Delete the chosen pods, as `kubectl delete pod` would.',
  ...under('spec.cluster.failures[].deletePod', podPick('delete')),
  'spec.cluster.failures[].failNode':
    'Fail a node (its name, or `{name}`): its kubelet stops reporting, and the node lifecycle takes its course (`nodeMonitorGracePeriod`, `podEvictionTimeout`).',
  'spec.cluster.failures[].failNode.name': 'The node.',
  'spec.cluster.failures[].recoverNode': 'Bring a failed node back (its name, or `{name}`).',
  'spec.cluster.failures[].recoverNode.name': 'The node.',
  'spec.invariants':
    "The invariants judged at every settle: a name, or `{name, objectName?, namespace?, kind?}` to judge one object or kind only. What each checks is in [the simulator's README](../../packages/sim/README.md#invariants).",
  'spec.invariants[].name': 'The invariant.',
  'spec.invariants[].objectName': 'Judge only the object of this name.',
  'spec.invariants[].namespace': 'Judge only objects in this namespace.',
  'spec.invariants[].kind': 'Judge only objects of this kind.',
  'spec.manifests':
    'Manifests written inline, applied at time 0 after those of `manifestFiles` and of the file itself.',
  'spec.manifestFiles':
    'Manifest files (paths relative to the scenario file) applied at time 0, before the documents of the file itself.',
  'spec.steps':
    'What happens, in order: each step has exactly one action, and may have a `name` and a time `at`. A step runs when the one before it is done; a failed or timed-out step fails the run and skips the rest.',
  'spec.steps[].name': 'A label for the step in the output and the report.',
  'spec.steps[].at': 'Wait until this simulated time (since the start) before the step runs.',
  'spec.steps[].apply':
    'Apply objects, as `kubectl apply` does (labels, annotations and spec replaced, status kept).',
  'spec.steps[].apply.file': 'A manifest file, relative to the scenario file.',
  'spec.steps[].apply.manifest': 'One manifest written inline.',
  'spec.steps[].apply.manifests': 'Several manifests written inline.',
  'spec.steps[].patch': 'Patch an object.',
  ...under('spec.steps[].patch', target('patch')),
  'spec.steps[].patch.type': 'The patch type (default `merge`).',
  'spec.steps[].patch.patch':
    'The patch: a merge or strategic patch as a mapping, a JSON patch as a list of operations.',
  'spec.steps[].scale': "Set a workload's `spec.replicas`.",
  ...under('spec.steps[].scale', target('scale')),
  'spec.steps[].scale.replicas': 'The new replica count (0 or more).',
  'spec.steps[].setImage':
    "Change a container's image in a workload's pod template, as `kubectl set image` does.",
  ...under('spec.steps[].setImage', target('change')),
  'spec.steps[].setImage.container': 'The container (default: every container of the template).',
  'spec.steps[].setImage.image': 'The new image.',
  'spec.steps[].delete': 'Delete an object (its dependents are garbage-collected).',
  ...under('spec.steps[].delete', target('delete')),
  'spec.steps[].deletePod': 'Delete pods, as `kubectl delete pod` would.',
  ...under('spec.steps[].deletePod', podPick('delete')),
  'spec.steps[].crashPod': 'Crash containers of pods now.',
  ...under('spec.steps[].crashPod', podPick('crash')),
  'spec.steps[].failReadiness': 'Fail the readiness of pods for a while.',
  ...under('spec.steps[].failReadiness', podPick('turn unready')),
  'spec.steps[].failReadiness.duration': 'How long readiness fails (default 20s).',
  'spec.steps[].failNode': 'Fail a node (its name, or `{name}`).',
  'spec.steps[].failNode.name': 'The node.',
  'spec.steps[].recoverNode': 'Bring a failed node back (its name, or `{name}`).',
  'spec.steps[].recoverNode.name': 'The node.',
  'spec.steps[].wait': 'Let this much simulated time pass.',
  'spec.steps[].waitFor':
    'Wait until an object meets a condition or its fields have the given values; give `condition` or `fields`.',
  ...under('spec.steps[].waitFor', target('wait for')),
  'spec.steps[].waitFor.condition':
    '`Exists`, `Deleted`; for pods and nodes `Ready` and `Available` mean condition Ready=True; for a workload `Ready` means its status is current and every replica ready, `Available` also available, `RolledOut` also updated as far as the partition allows (DaemonSets and SidecarSets compare their own counters).',
  'spec.steps[].waitFor.fields':
    'Dotted paths and the values they must equal, e.g. `status.updatedReadyReplicas: 8`.',
  'spec.steps[].waitFor.timeout': 'Give up after this long: the step fails (default 10m).',
};
