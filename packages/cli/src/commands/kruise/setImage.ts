// `kruise-ts set image TYPE/NAME CONTAINER=IMAGE ...`: kubectl-kruise's `set image` for CloneSet,
// Advanced StatefulSet and Advanced DaemonSet. `*=IMAGE` sets every container. The change is one
// JSON patch whose `test` operations pin each container's name, so a template reordered since the
// read fails instead of giving an image to the wrong container. With an in-place update strategy
// the pods then update in place (cloneset.md §10).
import type { CliIO } from '../../io';
import { CliError } from '../../io';
import { workloadArg } from './rollout';
import { type ConnectionOptions, getWorkload, jsonPatch, KubeFailure, withSession } from './session';
import { displayName, pluralResource } from './workloads';

/** One `CONTAINER=IMAGE` argument. */
export interface ImageUpdate {
  container: string;
  image: string;
}

/** Reads `CONTAINER=IMAGE` arguments; `{error}` for a malformed one or none. */
export function parseImageArgs(args: readonly string[]): ImageUpdate[] | { error: string } {
  if (args.length === 0) return { error: 'at least one image update is required' };
  const out: ImageUpdate[] = [];
  for (const a of args) {
    const i = a.indexOf('=');
    if (i <= 0 || i === a.length - 1)
      return { error: `invalid image argument "${a}": expected CONTAINER=IMAGE` };
    out.push({ container: a.slice(0, i), image: a.slice(i + 1) });
  }
  return out;
}

type Obj = Record<string, any>;

/**
 * The JSON patch operations that give the template's containers (init containers included) their
 * new images, or `{error}` for a container the template does not have. An update that changes
 * nothing adds no operation.
 *
 * Example: a template with container `nginx` on `nginx:alpine` and `[{container: 'nginx', image:
 * 'nginx:1.25'}]` → a `test` of `/spec/template/spec/containers/0/name` and a `replace` of
 * `/spec/template/spec/containers/0/image`.
 */
export function imagePatch(
  template: Obj | undefined,
  updates: readonly ImageUpdate[],
): unknown[] | { error: string } {
  const lists: [string, Obj[]][] = [
    ['initContainers', template?.spec?.initContainers ?? []],
    ['containers', template?.spec?.containers ?? []],
  ];
  const ops: unknown[] = [];
  for (const u of updates) {
    let found = false;
    for (const [field, containers] of lists)
      containers.forEach((c, i) => {
        if (u.container !== '*' && c.name !== u.container) return;
        found = true;
        if (c.image === u.image) return;
        const at = `/spec/template/spec/${field}/${i}`;
        ops.push({ op: 'test', path: `${at}/name`, value: c.name });
        ops.push({ op: 'replace', path: `${at}/image`, value: u.image });
      });
    if (!found) return { error: `unable to find container named "${u.container}"` };
  }
  return ops;
}

/** `set image TYPE/NAME CONTAINER=IMAGE ...`. */
export async function setImageCommand(args: string[], opts: ConnectionOptions, io: CliIO): Promise<number> {
  const split = args.findIndex((a) => a.includes('='));
  const target = split < 0 ? args : args.slice(0, split);
  const ref = workloadArg(target);
  const updates = parseImageArgs(split < 0 ? [] : args.slice(split));
  if ('error' in updates) throw new CliError(updates.error);
  return withSession(opts, io, async (session) => {
    if (!ref.kind.template)
      throw new KubeFailure(
        `error: ${pluralResource(ref.kind)} "${ref.name}" setting images is not supported`,
      );
    const obj = await getWorkload(session, ref);
    const ops = imagePatch(obj.spec?.template, updates);
    if ('error' in ops) throw new KubeFailure(`error: ${ops.error}`);
    if (ops.length > 0) await jsonPatch(session, ref, ops);
    io.stdout(`${displayName(ref)} image updated\n`);
    return 0;
  });
}
