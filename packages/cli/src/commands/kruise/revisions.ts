// A workload's pod template history as `rollout history` and `rollout undo` read it: the
// ControllerRevisions the workload owns, ordered as the controllers order them (revision number,
// then creation time, then name: cloneset.md §12, statefulset.md §R4.3), the history table, and
// the choice of the revision `undo` goes back to. Pure: the commands fetch the objects.
//
// Each revision stores `{"spec":{"template":{...,"$patch":"replace"}}}`; going back means putting
// that template into the workload's spec, after which the controller reuses the old revision
// under the next number (cloneset.md §12, statefulset.md §R4.4, daemonset.md §12).
import { canonicalJSON } from '@kruise-ts/core';

type Obj = Record<string, any>;

/** The annotation whose value `rollout history` shows as CHANGE-CAUSE. */
export const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';

/** The revisions among `revisions` whose controller owner has `ownerUid`, in history order. */
export function ownedRevisions(revisions: readonly Obj[], ownerUid: string): Obj[] {
  return revisions
    .filter((r) =>
      (r.metadata?.ownerReferences ?? []).some((o: Obj) => o.controller === true && o.uid === ownerUid),
    )
    .sort((a, b) => {
      const byNumber = Number(a.revision ?? 0) - Number(b.revision ?? 0);
      if (byNumber !== 0) return byNumber;
      const at = String(a.metadata?.creationTimestamp ?? '');
      const bt = String(b.metadata?.creationTimestamp ?? '');
      if (at !== bt) return at < bt ? -1 : 1;
      return String(a.metadata?.name).localeCompare(String(b.metadata?.name));
    });
}

/**
 * The `REVISION  CHANGE-CAUSE` table of `rollout history`, one row per revision (CHANGE-CAUSE is
 * the revision's `kubernetes.io/change-cause` annotation, `<none>` without it), ending in a blank
 * line as kubectl's does.
 */
export function historyTable(revisions: readonly Obj[]): string {
  const rows = revisions.map((r) => [
    String(r.revision ?? 0),
    String(r.metadata?.annotations?.[CHANGE_CAUSE_ANNOTATION] ?? '<none>'),
  ]);
  const width = Math.max('REVISION'.length, ...rows.map(([n]) => n.length));
  const line = (a: string, b: string) => `${a.padEnd(width)}  ${b}`.trimEnd();
  return `${[line('REVISION', 'CHANGE-CAUSE'), ...rows.map(([a, b]) => line(a, b))].join('\n')}\n\n`;
}

/** The pod template a revision stores (without the `$patch` directive), or undefined. */
export function revisionTemplate(revision: Obj): Obj | undefined {
  const t = revision.data?.spec?.template;
  if (t === null || typeof t !== 'object' || Array.isArray(t)) return undefined;
  const { $patch: _directive, ...template } = t as Obj;
  return template;
}

/** Whether two pod templates have the same content (canonical JSON: key order does not count). */
export function sameTemplate(a: unknown, b: unknown): boolean {
  return canonicalJSON(a) === canonicalJSON(b);
}

/** What `rollout undo` does: put `template` back, skip (already there), or fail. */
export type UndoChoice =
  | { rollback: { revision: number; template: Obj } }
  | { skip: { revision: number } }
  | { error: string };

/**
 * Chooses the revision `rollout undo` returns to. `revisions` are the workload's own, in history
 * order (`ownedRevisions`); `toRevision` 0 means the one before the latest; `currentTemplate` is
 * the workload's `spec.template`. Messages are kubectl's.
 *
 * Example: revisions #1 (nginx:alpine) and #2 (nginx:1.25), current template nginx:1.25,
 * toRevision 0 → `{rollback: {revision: 1, template: <#1's template>}}`; toRevision 2 →
 * `{skip: {revision: 2}}`; toRevision 7 → `{error: 'unable to find specified revision 7 in history'}`.
 */
export function chooseUndo(
  revisions: readonly Obj[],
  currentTemplate: unknown,
  toRevision: number,
  what: string,
): UndoChoice {
  if (!Number.isInteger(toRevision) || toRevision < 0)
    return { error: `--to-revision must be a non-negative integer, got ${toRevision}` };
  if (revisions.length === 0) return { error: `no rollout history found for ${what}` };
  let chosen: Obj | undefined;
  if (toRevision === 0) {
    if (revisions.length < 2) return { error: 'no last revision to roll back to' };
    chosen = revisions[revisions.length - 2];
  } else {
    chosen = revisions.find((r) => Number(r.revision) === toRevision);
    if (!chosen) return { error: `unable to find specified revision ${toRevision} in history` };
  }
  const revision = Number(chosen.revision ?? 0);
  const template = revisionTemplate(chosen);
  if (!template) return { error: `revision ${revision} (${chosen.metadata?.name}) holds no pod template` };
  if (sameTemplate(template, currentTemplate)) return { skip: { revision } };
  return { rollback: { revision, template } };
}

/**
 * A pod template as `rollout history --revision` shows it: labels, annotations and each
 * container's image, ports and environment, indented under `Pod Template:`.
 */
export function describeTemplate(template: Obj): string {
  const pairs = (m: Obj | undefined, sep: string): string[] =>
    m && Object.keys(m).length > 0
      ? Object.keys(m)
          .sort()
          .map((k) => `${k}${sep}${m[k]}`)
      : ['<none>'];
  const out: string[] = ['Pod Template:'];
  const field = (indent: string, label: string, values: string[]) => {
    out.push(`${indent}${`${label}:`.padEnd(14)}${values[0]}`);
    for (const v of values.slice(1)) out.push(`${indent}${''.padEnd(14)}${v}`);
  };
  field('  ', 'Labels', pairs(template.metadata?.labels, '='));
  field('  ', 'Annotations', pairs(template.metadata?.annotations, ': '));
  const sections: [string, Obj[]][] = [
    ['Init Containers', template.spec?.initContainers ?? []],
    ['Containers', template.spec?.containers ?? []],
  ];
  for (const [title, containers] of sections) {
    if (title === 'Init Containers' && containers.length === 0) continue;
    out.push(`  ${title}:`);
    if (containers.length === 0) out.push('   <none>');
    for (const c of containers) {
      out.push(`   ${c.name}:`);
      field('    ', 'Image', [String(c.image ?? '<none>')]);
      const ports = (c.ports ?? []).map((p: Obj) => `${p.containerPort}/${p.protocol ?? 'TCP'}`);
      field('    ', 'Port', ports.length > 0 ? [ports.join(', ')] : ['<none>']);
      const env = (c.env ?? []).map((e: Obj) => `${e.name}=${e.value ?? '<set from a source>'}`);
      field('    ', 'Environment', env.length > 0 ? env : ['<none>']);
    }
  }
  return `${out.join('\n')}\n`;
}
