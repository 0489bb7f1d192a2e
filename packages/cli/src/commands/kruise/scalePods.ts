// `kruise-ts scale TYPE/NAME --pods a,b [--replicas N]`: delete chosen pods and scale down by as
// many, as kubectl-kruise's `scaledown` does. A CloneSet lists them in
// `spec.scaleStrategy.podsToDelete` (cloneset.md §4.4: the controller deletes exactly those, not the
// ones it would pick); an Advanced StatefulSet adds their ordinals to `spec.reserveOrdinals`
// (statefulset.md §3.2, §3.3: a reserved ordinal's pod is removed and not recreated). Without
// `--pods` it sets `spec.replicas` like `kubectl scale`.
import type { CliIO } from '../../io';
import { CliError } from '../../io';
import { workloadArg } from './rollout';
import {
  type ConnectionOptions,
  expectOk,
  getWorkload,
  jsonPatch,
  KubeFailure,
  withSession,
} from './session';
import { displayName, pluralResource } from './workloads';

type Obj = Record<string, any>;

/** Options of `scale`. */
export interface ScaleOptions extends ConnectionOptions {
  pods?: string;
  replicas?: string;
}

/** The ordinal at the end of an Advanced StatefulSet pod's name (`web-3` → 3), or undefined. */
export function podOrdinal(setName: string, podName: string): number | undefined {
  if (!podName.startsWith(`${setName}-`)) return undefined;
  const tail = podName.slice(setName.length + 1);
  return /^(0|[1-9]\d*)$/.test(tail) ? Number(tail) : undefined;
}

/**
 * The JSON patch that deletes `pods` from the workload `obj` (kind `CloneSet` or `StatefulSet`)
 * and sets its replicas to `replicas` (default: the current count minus the pods not already being
 * deleted), or `{error}`. A `test` of the resourceVersion makes a concurrent change fail the patch.
 *
 * Example: CloneSet `sample` with 5 replicas and no podsToDelete, pods `[sample-a]` → replicas 4 and
 * `scaleStrategy.podsToDelete: ['sample-a']`.
 */
export function scaleDownPatch(
  kind: string,
  obj: Obj,
  pods: readonly string[],
  replicas?: number,
): unknown[] | { error: string } {
  const name = String(obj.metadata?.name ?? '');
  const current = typeof obj.spec?.replicas === 'number' ? obj.spec.replicas : 1;
  const ops: unknown[] = [
    { op: 'test', path: '/metadata/resourceVersion', value: obj.metadata?.resourceVersion },
  ];
  let fresh: number;
  if (kind === 'CloneSet') {
    const listed: string[] = obj.spec?.scaleStrategy?.podsToDelete ?? [];
    const added = pods.filter((p, i) => !listed.includes(p) && pods.indexOf(p) === i);
    fresh = added.length;
    if (obj.spec?.scaleStrategy === undefined)
      ops.push({ op: 'add', path: '/spec/scaleStrategy', value: {} });
    ops.push({ op: 'add', path: '/spec/scaleStrategy/podsToDelete', value: [...listed, ...added] });
  } else if (kind === 'StatefulSet') {
    const reserved: unknown[] = obj.spec?.reserveOrdinals ?? [];
    const ordinals: number[] = [];
    for (const p of pods) {
      const o = podOrdinal(name, p);
      if (o === undefined)
        return { error: `pod "${p}" is not a pod of statefulset "${name}" (expected ${name}-<ordinal>)` };
      if (!reserved.includes(o) && !ordinals.includes(o)) ordinals.push(o);
    }
    fresh = ordinals.length;
    ops.push({ op: 'add', path: '/spec/reserveOrdinals', value: [...reserved, ...ordinals] });
  } else return { error: 'deleting chosen pods works on a CloneSet or an Advanced StatefulSet' };
  const target = replicas ?? Math.max(current - fresh, 0);
  ops.push({ op: 'add', path: '/spec/replicas', value: target });
  return ops;
}

/** `scale TYPE/NAME --pods a,b [--replicas N]` or `scale TYPE/NAME --replicas N`. */
export async function scaleCommand(args: string[], opts: ScaleOptions, io: CliIO): Promise<number> {
  const ref = workloadArg(args);
  let replicas: number | undefined;
  if (opts.replicas !== undefined) {
    if (!/^\d+$/.test(opts.replicas))
      throw new CliError(
        `invalid argument "${opts.replicas}" for "--replicas" flag: must be a non-negative integer`,
      );
    replicas = Number(opts.replicas);
  }
  const pods = (opts.pods ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (opts.pods !== undefined && pods.length === 0) throw new CliError('--pods needs at least one pod name');
  if (pods.length === 0 && replicas === undefined) throw new CliError('give --pods, --replicas or both');
  return withSession(opts, io, async (session) => {
    if (ref.kind.kind !== 'CloneSet' && ref.kind.kind !== 'StatefulSet')
      throw new KubeFailure(`error: ${pluralResource(ref.kind)} "${ref.name}" scaling is not supported`);
    const obj = await getWorkload(session, ref);
    if (pods.length > 0) await checkOwnedPods(session, obj, pods);
    const ops =
      pods.length > 0
        ? scaleDownPatch(ref.kind.kind, obj, pods, replicas)
        : [
            { op: 'test', path: '/metadata/resourceVersion', value: obj.metadata?.resourceVersion },
            { op: 'add', path: '/spec/replicas', value: replicas },
          ];
    if ('error' in ops) throw new KubeFailure(`error: ${ops.error}`);
    await jsonPatch(session, ref, ops);
    io.stdout(`${displayName(ref)} scaled\n`);
    return 0;
  });
}

/** Every named pod must exist and be controlled by the workload; else kubectl-style errors. */
async function checkOwnedPods(
  session: Parameters<Parameters<typeof withSession>[2]>[0],
  obj: Obj,
  pods: readonly string[],
): Promise<void> {
  for (const p of pods) {
    const res = await session.client.request(
      'GET',
      `/api/v1/namespaces/${encodeURIComponent(session.namespace)}/pods/${encodeURIComponent(p)}`,
    );
    const pod = expectOk(res);
    const owned = (pod.metadata?.ownerReferences ?? []).some(
      (o: Obj) => o.controller === true && o.uid === obj.metadata?.uid,
    );
    if (!owned)
      throw new KubeFailure(
        `error: pod "${p}" is not controlled by ${obj.kind ?? ''} "${obj.metadata?.name}"`,
      );
  }
}
