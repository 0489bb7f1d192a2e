// The workload kinds kubectl-kruise's commands act on, and how a command line names one of them
// (`cloneset/sample`, `clone sample`, `asts/web`, `statefulset.apps.kruise.io/web`, ...). Pure: the
// table and the parser, no I/O. Each kind says where its pause switch lives, so the commands never
// branch on a kind's name for that.

/** One workload kind these commands know. */
export interface WorkloadKind {
  /** The Kind, e.g. `CloneSet`. */
  kind: string;
  group: string;
  version: string;
  plural: string;
  namespaced: boolean;
  /** How kubectl prints the resource in `<resource>/<name> paused`: `cloneset.apps.kruise.io`. */
  resource: string;
  /** The words a user may type for it (singular, plural, short names, with or without the group). */
  aliases: string[];
  /** The lowercase words of kubectl's progress messages: `cloneset`, `daemon set`. */
  noun: string;
  /** Path of `paused` under `spec`, or undefined when the kind cannot be paused by these commands. */
  pausePath?: string[];
  /** Whether the kind keeps a pod template history in ControllerRevisions (history, undo). */
  revisions: boolean;
  /** Whether `set image` and `scale` apply (the kind has `spec.template`; `scale` needs replicas). */
  template: boolean;
}

const group = 'apps.kruise.io';

function names(singular: string, short: string[]): string[] {
  const plural = `${singular}s`;
  return [singular, plural, ...short].flatMap((n) => [n, `${n}.${group}`]);
}

/** The kinds, in the order the help text lists them. */
export const WORKLOAD_KINDS: readonly WorkloadKind[] = [
  {
    kind: 'CloneSet',
    group,
    version: 'v1alpha1',
    plural: 'clonesets',
    namespaced: true,
    resource: 'cloneset.apps.kruise.io',
    aliases: names('cloneset', ['clone']),
    noun: 'cloneset',
    pausePath: ['updateStrategy', 'paused'],
    revisions: true,
    template: true,
  },
  {
    kind: 'StatefulSet',
    group,
    version: 'v1beta1',
    plural: 'statefulsets',
    namespaced: true,
    resource: 'statefulset.apps.kruise.io',
    aliases: [...names('statefulset', ['sts', 'asts']), 'advancedstatefulset', 'advancedstatefulsets'],
    noun: 'statefulset',
    pausePath: ['updateStrategy', 'rollingUpdate', 'paused'],
    revisions: true,
    template: true,
  },
  {
    kind: 'DaemonSet',
    group,
    version: 'v1alpha1',
    plural: 'daemonsets',
    namespaced: true,
    resource: 'daemonset.apps.kruise.io',
    aliases: [...names('daemonset', ['daemon', 'ads']), 'advanceddaemonset', 'advanceddaemonsets'],
    noun: 'daemon set',
    pausePath: ['updateStrategy', 'rollingUpdate', 'paused'],
    revisions: true,
    template: true,
  },
  {
    kind: 'SidecarSet',
    group,
    version: 'v1alpha1',
    plural: 'sidecarsets',
    namespaced: false,
    resource: 'sidecarset.apps.kruise.io',
    aliases: names('sidecarset', []),
    noun: 'sidecarset',
    revisions: false,
    template: false,
  },
  {
    kind: 'UnitedDeployment',
    group,
    version: 'v1alpha1',
    plural: 'uniteddeployments',
    namespaced: true,
    resource: 'uniteddeployment.apps.kruise.io',
    aliases: names('uniteddeployment', ['ud']),
    noun: 'uniteddeployment',
    revisions: false,
    template: false,
  },
];

/** A workload named on the command line. */
export interface WorkloadRef {
  kind: WorkloadKind;
  name: string;
}

/**
 * Reads `TYPE/NAME` or `TYPE NAME` as kubectl does. Answers `{error}` (in kubectl's wording) for a
 * missing name, an unknown type or extra arguments. Types are matched case-insensitively; a
 * `statefulset` or `daemonset` is Kruise's Advanced one (these commands know no other).
 *
 * Example: `parseWorkloadArgs(['clone/sample'])` → `{ref: {kind: CloneSet, name: 'sample'}}`.
 */
export function parseWorkloadArgs(args: readonly string[]): { ref: WorkloadRef } | { error: string } {
  let type: string;
  let name: string | undefined;
  if (args.length === 0) return { error: 'required resource not specified' };
  if (args[0].includes('/')) {
    if (args.length > 1)
      return {
        error: `there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kruise-ts rollout status cloneset/sample' instead of 'kruise-ts rollout status cloneset cloneset/sample')`,
      };
    const i = args[0].indexOf('/');
    type = args[0].slice(0, i);
    name = args[0].slice(i + 1);
  } else {
    if (args.length > 2) return { error: 'expected one resource: TYPE NAME or TYPE/NAME' };
    type = args[0];
    name = args[1];
  }
  const kind = findKind(type);
  if (!kind)
    return {
      error: `the server doesn't have a resource type "${type}" these commands act on (${kindList()})`,
    };
  if (!name) return { error: `resource name may not be empty (e.g. ${kind.aliases[0]}/sample)` };
  return { ref: { kind, name } };
}

/** The kind a user's type word names, or undefined. */
export function findKind(type: string): WorkloadKind | undefined {
  const t = type.toLowerCase();
  return WORKLOAD_KINDS.find((k) => k.aliases.includes(t));
}

function kindList(): string {
  return WORKLOAD_KINDS.map((k) => k.aliases[0]).join(', ');
}

/** `cloneset.apps.kruise.io/sample`: how kubectl names an object in its one-line answers. */
export function displayName(ref: WorkloadRef): string {
  return `${ref.kind.resource}/${ref.name}`;
}

/** `clonesets.apps.kruise.io`: the resource of kubectl's error messages. */
export function pluralResource(kind: WorkloadKind): string {
  return `${kind.plural}.${kind.group}`;
}
