// OpenKruise's sample CloneSet, reconciled by kruise-ts: it scales to 5 pods, then rolls an
// image change in place with `updateStrategy: {type: InPlaceIfPossible, partition: 2,
// maxUnavailable: 1}`. The script plays the API server (core's applyActions) and the kubelet
// (pods become Running/Ready, image changes are pulled), printing every step.
//
//   npx tsx --conditions=@kruise-ts/source examples/cloneset-inplace.ts
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Pod, PodCondition } from 'kubernetes-types/core/v1';
import type { CloneSet, CloneSetStatus, KubeObject } from '../packages/api/src/index';
import { readManifests } from '../packages/api/src/index';
import { reconcileCloneSet } from '../packages/cloneset/src/index';
import { applyActions } from '../packages/core/src/apply/index';
import type { Action } from '../packages/core/src/index';

/** The new image rolled out in place. */
export const NEW_IMAGE = 'nginx:1.27-alpine';

/** The example's world: the stored objects, the virtual clock and a step counter. */
export interface ExampleState {
  objects: KubeObject[];
  nowMs: number;
  step: number;
}

/** What one step did, for printing and tests. */
export interface StepRecord {
  step: number;
  time: string;
  actions: string[];
  status: CloneSetStatus;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Reads examples/cloneset.yaml (or the given text) and stores the CloneSet. */
export function createExample(yamlText?: string): ExampleState {
  const text = yamlText ?? readFileSync(fileURLToPath(new URL('./cloneset.yaml', import.meta.url)), 'utf8');
  const { objects, errors } = readManifests(text);
  if (errors.length > 0) throw new Error(`cloneset.yaml: ${errors.map((e) => e.message).join('; ')}`);
  const cs = objects[0] as CloneSet;
  const withNs = { ...cs, metadata: { namespace: 'default', ...cs.metadata } };
  const nowMs = Date.parse('2024-01-01T00:00:00Z');
  return {
    objects: applyActions([], [{ verb: 'create', object: withNs, reason: 'kubectl' }], iso(nowMs)),
    nowMs,
    step: 0,
  };
}

function setCondition(pod: Pod, type: string, ok: boolean, now: string): void {
  if (!pod.status!.conditions) pod.status!.conditions = [];
  const conds = pod.status!.conditions;
  const status = ok ? 'True' : 'False';
  const c = conds.find((x) => x.type === type);
  if (!c) conds.push({ type, status, lastTransitionTime: now } as PodCondition);
  else if (c.status !== status)
    Object.assign(c, { status, lastTransitionTime: now, reason: undefined, message: undefined });
}

/** The kubelet: schedules and starts pods, pulls changed images, and derives Ready from the readiness gates. */
export function kubelet(objects: KubeObject[], now: string): KubeObject[] {
  return objects
    .filter((o) => !(o.kind === 'Pod' && o.metadata.deletionTimestamp))
    .map((o) => {
      if (o.kind !== 'Pod') return o;
      const pod = structuredClone(o) as unknown as Pod;
      pod.spec!.nodeName ??= 'node-1';
      const status: NonNullable<Pod['status']> = { ...(pod.status ?? {}) };
      (pod as { status?: Pod['status'] }).status = status;
      status.phase = 'Running';
      if (!status.containerStatuses) status.containerStatuses = [];
      const statuses = status.containerStatuses;
      for (const c of pod.spec!.containers) {
        const s = statuses.find((x) => x.name === c.name);
        const image = c.image ?? '';
        if (!s)
          statuses.push({
            name: c.name,
            image,
            imageID: `docker.io/library/${image}@sha`,
            ready: true,
            restartCount: 0,
          });
        else if (s.image !== image)
          Object.assign(s, {
            image,
            imageID: `docker.io/library/${image}@sha`,
            restartCount: s.restartCount + 1,
          });
      }
      setCondition(pod, 'ContainersReady', true, now);
      const gatesOk = (pod.spec!.readinessGates ?? []).every((g) =>
        status.conditions?.some((c) => c.type === g.conditionType && c.status === 'True'),
      );
      setCondition(pod, 'Ready', gatesOk, now);
      return pod as unknown as KubeObject;
    });
}

const describe = (a: Action) =>
  a.verb === 'create' || a.verb === 'update'
    ? `${a.verb} ${a.object.kind}/${a.object.metadata.name} (${a.reason})`
    : a.verb === 'event'
      ? ''
      : `${a.verb} ${a.target.kind}/${a.target.name} (${a.reason})`;

/** One step: reconcile the CloneSet, apply its actions, run the kubelet, advance the clock 5 s. */
export function exampleStep(
  state: ExampleState,
  opts: { seed?: number } = {},
): { state: ExampleState; record: StepRecord } {
  const now = iso(state.nowMs);
  const cloneSet = state.objects.find((o) => o.kind === 'CloneSet') as CloneSet;
  const pods = state.objects.filter((o) => o.kind === 'Pod') as unknown as Pod[];
  const revisions = state.objects.filter((o) => o.kind === 'ControllerRevision') as any[];
  const result = reconcileCloneSet({ cloneSet, pods, revisions, now }, { seed: opts.seed ?? 42 });
  if (result.errors.length > 0)
    throw new Error(result.errors.map((e) => `${e.field}: ${e.detail}`).join('; '));
  const applied = applyActions(
    state.objects,
    result.actions.filter((a) => a.verb !== 'event'),
    now,
    { seed: state.step },
  );
  const next: ExampleState = {
    objects: kubelet(applied, now),
    nowMs: state.nowMs + 5000,
    step: state.step + 1,
  };
  const record: StepRecord = {
    step: state.step,
    time: now,
    actions: result.actions.map(describe).filter((s) => s !== ''),
    status: result.status,
  };
  return { state: next, record };
}

/** The user's change: in-place updates with partition 2 and maxUnavailable 1, and a new image. */
export function rollNewImage(state: ExampleState): ExampleState {
  const cs = structuredClone(state.objects.find((o) => o.kind === 'CloneSet') as CloneSet);
  cs.spec.updateStrategy = { type: 'InPlaceIfPossible', partition: 2, maxUnavailable: 1 };
  cs.spec.template.spec!.containers[0].image = NEW_IMAGE;
  return {
    ...state,
    objects: applyActions(
      state.objects,
      [{ verb: 'update', object: cs, reason: 'kubectl' }],
      iso(state.nowMs),
    ),
  };
}

/** Runs the whole example; `log` receives each printed line. Returns every step and the final pods. */
export function runExample(log: (line: string) => void = () => {}): { records: StepRecord[]; pods: Pod[] } {
  const records: StepRecord[] = [];
  const header = 'STEP  TIME                  DESIRED UPDATED UPDATED_READY UPDATED_AVAILABLE READY TOTAL';
  const print = (r: StepRecord, desired: number) => {
    const s = r.status;
    log(
      `${String(r.step).padEnd(5)} ${r.time}  ${String(desired).padEnd(7)} ${String(s.updatedReplicas).padEnd(7)} ${String(s.updatedReadyReplicas).padEnd(13)} ${String(s.updatedAvailableReplicas ?? 0).padEnd(17)} ${String(s.readyReplicas).padEnd(5)} ${s.replicas}`,
    );
    for (const a of r.actions) log(`        ${a}`);
  };
  let state = createExample();
  const desired = () => (state.objects.find((o) => o.kind === 'CloneSet') as CloneSet).spec.replicas ?? 1;
  const until = (done: (s: CloneSetStatus) => boolean) => {
    let quiet = 0;
    for (let i = 0; i < 60 && quiet < 2; i++) {
      const { state: next, record } = exampleStep(state);
      records.push(record);
      print(record, desired());
      state = next;
      quiet = done(record.status) && record.actions.length === 0 ? quiet + 1 : 0;
    }
  };
  log('# kubectl apply -f examples/cloneset.yaml');
  log(header);
  until((s) => s.readyReplicas === 5 && s.replicas === 5);
  log(
    `# kubectl patch: updateStrategy {type: InPlaceIfPossible, partition: 2, maxUnavailable: 1}, image ${NEW_IMAGE}`,
  );
  state = rollNewImage(state);
  log(header);
  until((s) => s.updatedReplicas === 3 && s.updatedReadyReplicas === 3 && s.readyReplicas === 5);
  const pods = state.objects.filter((o) => o.kind === 'Pod') as unknown as Pod[];
  log('# pods');
  for (const p of pods) {
    log(
      `${p.metadata!.name}  ${p.spec!.containers[0].image}  ${p.metadata!.labels!['lifecycle.apps.kruise.io/state']}  restarts=${p.status!.containerStatuses![0].restartCount}`,
    );
  }
  return { records, pods };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runExample((line) => console.log(line));
}
