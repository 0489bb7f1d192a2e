// A session (the scenario text, an optional workload text and the user's mid-rollout changes)
// turned into the scenario the simulator runs. The scenario reader does the reading; this file
// joins the two editors into one multi-document text, maps the reader's errors back to the editor
// and line they came from, and rewrites the step list for the user's changes.
//
// A change made at a frame takes over the run from there: the steps finished by then are kept,
// the change becomes a step at that instant, and the scenario's later steps are dropped (the
// point of changing a partition is to watch the rollout hold at it). The run then goes on for
// FREE_RUN_MS so the effect plays out.
import type { KubeObject } from '@kruise-ts/api';
import { parseScenario, type Scenario, type ScenarioError, type Step } from '@kruise-ts/sim/browser';
import type { Change, Edit, LineError, Session } from './protocol';

/** How long a run goes on after the user's last change. */
export const FREE_RUN_MS = 10 * 60_000;

/** The name the reader uses for the text in messages. */
const FILE = 'playground.yaml';

/** The two editors as one multi-document YAML text, and where the workload editor starts. */
export function joinEditors(s: Pick<Session, 'scenario' | 'workload'>): {
  text: string;
  workloadFrom: number;
} {
  const scenarioLines = s.scenario.split('\n').length;
  if (s.workload.trim() === '') return { text: s.scenario, workloadFrom: Number.POSITIVE_INFINITY };
  // Line scenarioLines + 1 is the `---` separator; the workload's line 1 follows it.
  return { text: `${s.scenario}\n---\n${s.workload}`, workloadFrom: scenarioLines + 2 };
}

/** A reader error placed in the editor it belongs to. */
export function placeError(e: ScenarioError, workloadFrom: number): LineError {
  const where = e.field ? `${e.field}: ` : '';
  const message = `${where}${e.message}`;
  if (e.line === undefined) return { editor: 'scenario', message };
  if (e.line >= workloadFrom) return { editor: 'workload', line: e.line - workloadFrom + 1, message };
  return { editor: 'scenario', line: Math.min(e.line, workloadFrom - 2), message };
}

/** The workloads a change can target: the scenario's CloneSets, Advanced StatefulSets and Advanced DaemonSets. */
export function changeableWorkloads(manifests: readonly { object: KubeObject }[]): string[] {
  return manifests
    .map((m) => m.object)
    .filter(
      (o) =>
        o.apiVersion.startsWith('apps.kruise.io/') &&
        ['CloneSet', 'StatefulSet', 'DaemonSet'].includes(o.kind),
    )
    .map((o) => workloadName(o));
}

/** `CloneSet/sample`, or `CloneSet/ns/sample` outside the default namespace. */
export function workloadName(o: KubeObject): string {
  const ns = o.metadata.namespace ?? 'default';
  return ns === 'default' ? `${o.kind}/${o.metadata.name}` : `${o.kind}/${ns}/${o.metadata.name}`;
}

/** An int-or-percent as typed: `3` → 3, `20%` → "20%". */
export function intOrPercent(v: string | number): string | number {
  if (typeof v === 'number') return v;
  const t = v.trim();
  return /^\d+$/.test(t) ? Number(t) : t;
}

/**
 * The merge patch of a change on a workload kind: a CloneSet keeps its rollout knobs under
 * `spec.updateStrategy`, Advanced StatefulSets and DaemonSets under `spec.updateStrategy.rollingUpdate`.
 * Undefined when the kind has no such knob (an Advanced StatefulSet has no maxSurge).
 */
export function strategyPatch(
  kind: string,
  field: Exclude<Change['field'], 'image'>,
  value: string | number,
): unknown {
  const v = intOrPercent(value);
  if (kind === 'CloneSet') return { spec: { updateStrategy: { [field]: v } } };
  if (kind === 'StatefulSet' && field === 'maxSurge') return undefined;
  return { spec: { updateStrategy: { rollingUpdate: { [field]: v } } } };
}

/** A one-line description of a change: `you: partition of CloneSet/sample → 3`. */
export function describeChange(c: Change): string {
  return `you: ${c.field} of ${c.target} → ${c.value}`;
}

/** The step a change becomes, or an error message. */
export function changeStep(
  edit: Edit,
  manifests: readonly { object: KubeObject }[],
  index: number,
): Step | string {
  const c = edit.change;
  const obj = manifests.map((m) => m.object).find((o) => workloadName(o) === c.target);
  if (!obj) return `${c.target} is not a workload of this scenario`;
  const target = {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata.name ?? '',
    namespace: obj.metadata.namespace ?? 'default',
  };
  const common = { index, atMs: edit.atMs, name: describeChange(c) };
  if (c.field === 'image') {
    const image = String(c.value).trim();
    if (image === '') return 'the image is empty';
    return { ...common, action: 'setImage', target, image };
  }
  const patch = strategyPatch(obj.kind, c.field, c.value);
  if (patch === undefined) return `${obj.kind} has no ${c.field}`;
  return { ...common, action: 'patch', target, patchType: 'merge', patch };
}

/** The steps of a run: the scenario's, rewritten by each edit in turn, then a free run after the last one. */
export function stepsWithEdits(
  scenario: Scenario,
  edits: readonly Edit[],
): { steps: Step[]; yours: boolean[] } | string {
  let steps: Step[] = [...scenario.steps];
  let yours: boolean[] = steps.map(() => false);
  for (const edit of edits) {
    const keep = Math.max(0, Math.min(edit.keepSteps, steps.length));
    const step = changeStep(edit, scenario.manifests, keep);
    if (typeof step === 'string') return step;
    steps = [...steps.slice(0, keep), step];
    yours = [...yours.slice(0, keep), true];
  }
  if (edits.length > 0) {
    steps.push({
      index: steps.length,
      action: 'wait',
      durationMs: FREE_RUN_MS,
      name: 'let the change play out',
    });
    yours.push(true);
  }
  return { steps: steps.map((s, index) => ({ ...s, index })), yours };
}

/** Reads a session: the scenario to run, or the errors to show at their lines. */
export function readSession(
  s: Session,
  readFile?: (relativePath: string) => string,
): { scenario: Scenario; yours: boolean[] } | { errors: LineError[] } {
  const { text, workloadFrom } = joinEditors(s);
  const r = parseScenario(text, { fileName: FILE, readFile });
  if (!r.scenario) return { errors: r.errors.map((e) => placeError(e, workloadFrom)) };
  const rewritten = stepsWithEdits(r.scenario, s.edits);
  if (typeof rewritten === 'string') return { errors: [{ editor: 'scenario', message: rewritten }] };
  // The free run after a change is not cut short by the scenario's own maxDuration.
  const maxDurationMs = Math.max(r.scenario.maxDurationMs, ...s.edits.map((e) => e.atMs + FREE_RUN_MS));
  return { scenario: { ...r.scenario, steps: rewritten.steps, maxDurationMs }, yours: rewritten.yours };
}
