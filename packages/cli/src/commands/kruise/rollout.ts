// `kruise-ts rollout status|history|undo|pause|resume`: kubectl-kruise's rollout commands for
// CloneSet, Advanced StatefulSet and Advanced DaemonSet (status also for SidecarSet and
// UnitedDeployment), against any cluster the kubeconfig names. Output and exit codes follow
// `kubectl rollout`: one line per answer (`cloneset.apps.kruise.io/sample paused`), errors on
// stderr with exit code 1, `rollout status` exits 0 once the rollout is done and 1 on a timeout.
// The decisions are pure functions (./rolloutStatus, ./revisions); this module fetches and patches.
import type { CliIO } from '../../io';
import { CliError } from '../../io';
import { parseDuration } from './duration';
import { chooseUndo, describeTemplate, historyTable, ownedRevisions } from './revisions';
import { rolloutStatus } from './rolloutStatus';
import {
  type ConnectionOptions,
  expectOk,
  getWorkload,
  jsonPatch,
  KubeFailure,
  mergePatch,
  type Session,
  withSession,
  workloadPath,
} from './session';
import { displayName, parseWorkloadArgs, pluralResource, type WorkloadRef } from './workloads';

/** Reads the TYPE/NAME arguments; a bad one is a usage error (exit 2). */
export function workloadArg(args: readonly string[]): WorkloadRef {
  const r = parseWorkloadArgs(args);
  if ('error' in r) throw new CliError(r.error);
  return r.ref;
}

function need(ref: WorkloadRef, ok: boolean, what: string): void {
  if (!ok) throw new KubeFailure(`error: ${pluralResource(ref.kind)} "${ref.name}" ${what} is not supported`);
}

/** Options of `rollout status`. */
export interface StatusOptions extends ConnectionOptions {
  /** `true` (default) waits until the rollout is done; `false` prints the status once. */
  watch?: boolean | string;
  /** A Go duration; `0` (default) waits forever. */
  timeout?: string;
}

function parseBool(flag: string, v: boolean | string | undefined, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new CliError(`invalid argument "${v}" for "${flag}" flag: must be true or false`);
}

/**
 * Waits for the rollout of `ref`, printing each new progress line. Resolves `'done'`, `'timeout'`
 * or `{error}`. It reads the object, then follows a watch on it (re-reading when the stream ends).
 */
function followRollout(
  session: Session,
  ref: WorkloadRef,
  timeoutMs: number,
  print: (line: string) => void,
): Promise<'done' | 'timeout' | { error: string }> {
  return new Promise((resolve, reject) => {
    let finished = false;
    let last = '';
    let stopWatch: (() => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    let retry: NodeJS.Timeout | undefined;
    const finish = (r: 'done' | 'timeout' | { error: string }) => {
      if (finished) return;
      finished = true;
      stopWatch?.();
      clearTimeout(timer);
      clearTimeout(retry);
      resolve(r);
    };
    const judge = (obj: unknown): void => {
      const v = rolloutStatus(ref.kind, obj as Record<string, unknown>);
      if ('error' in v) {
        finish({ error: v.error });
        return;
      }
      if (v.message !== last) {
        last = v.message;
        print(v.message);
      }
      if (v.done) finish('done');
    };
    if (timeoutMs > 0) timer = setTimeout(() => finish('timeout'), timeoutMs);
    const round = async (): Promise<void> => {
      if (finished) return;
      const obj = await getWorkload(session, ref);
      judge(obj);
      if (finished) return;
      const handle = session.client.watch(
        workloadPath(ref.kind, session.namespace),
        {
          fieldSelector: `metadata.name=${ref.name}`,
          resourceVersion: obj.metadata?.resourceVersion,
        },
        (ev) => {
          if (ev.type === 'ADDED' || ev.type === 'MODIFIED') judge(ev.object);
          else if (ev.type === 'DELETED')
            finish({
              error: `${pluralResource(ref.kind)} "${ref.name}" was deleted while waiting for its rollout`,
            });
        },
        () => {
          // The stream ended (the server's watch timeout, a 410, a dropped connection): read again.
          if (!finished) retry = setTimeout(() => round().catch(fail), 500);
        },
      );
      stopWatch = () => handle.stop();
    };
    const fail = (e: unknown) => {
      if (finished) return;
      finished = true;
      stopWatch?.();
      clearTimeout(timer);
      reject(e);
    };
    round().catch(fail);
  });
}

/** `rollout status TYPE/NAME [--watch=false] [--timeout 5m]`. */
export async function rolloutStatusCommand(args: string[], opts: StatusOptions, io: CliIO): Promise<number> {
  const ref = workloadArg(args);
  const watch = parseBool('--watch', opts.watch, true);
  const timeout = parseDuration(opts.timeout ?? '0s');
  if (typeof timeout !== 'number')
    throw new CliError(`invalid argument "${opts.timeout}" for "--timeout" flag: ${timeout.error}`);
  return withSession(opts, io, async (session) => {
    if (!watch) {
      const v = rolloutStatus(ref.kind, await getWorkload(session, ref));
      if ('error' in v) throw new KubeFailure(`error: ${v.error}`);
      io.stdout(`${v.message}\n`);
      return 0;
    }
    const r = await followRollout(session, ref, timeout, (line) => io.stdout(`${line}\n`));
    if (r === 'done') return 0;
    if (r === 'timeout') throw new KubeFailure('error: timed out waiting for the condition');
    throw new KubeFailure(`error: ${r.error}`);
  });
}

async function listRevisions(session: Session, ref: WorkloadRef, obj: any): Promise<Record<string, any>[]> {
  const matchLabels = obj.spec?.selector?.matchLabels ?? {};
  const selector =
    typeof obj.status?.labelSelector === 'string' && obj.status.labelSelector
      ? obj.status.labelSelector
      : Object.entries(matchLabels)
          .map(([k, v]) => `${k}=${v}`)
          .join(',');
  const ns = ref.kind.namespaced ? `/namespaces/${encodeURIComponent(session.namespace)}` : '';
  const list = expectOk(
    await session.client.request('GET', `/apis/apps/v1${ns}/controllerrevisions`, {
      query: selector ? { labelSelector: selector } : {},
    }),
  );
  return ownedRevisions(list?.items ?? [], String(obj.metadata?.uid ?? ''));
}

/** Options of `rollout history`. */
export interface HistoryOptions extends ConnectionOptions {
  revision?: string;
}

function wholeNumber(flag: string, v: string | undefined): number {
  if (v === undefined) return 0;
  if (!/^\d+$/.test(v))
    throw new CliError(`invalid argument "${v}" for "${flag}" flag: must be a non-negative integer`);
  return Number(v);
}

/** `rollout history TYPE/NAME [--revision N]`. */
export async function rolloutHistoryCommand(
  args: string[],
  opts: HistoryOptions,
  io: CliIO,
): Promise<number> {
  const ref = workloadArg(args);
  const revision = wholeNumber('--revision', opts.revision);
  return withSession(opts, io, async (session) => {
    need(ref, ref.kind.revisions, 'history');
    const obj = await getWorkload(session, ref);
    const revisions = await listRevisions(session, ref, obj);
    if (revision > 0) {
      const r = revisions.find((x) => Number(x.revision) === revision);
      const template = r?.data?.spec?.template;
      if (!r || !template) throw new KubeFailure('error: unable to find the specified revision');
      const { $patch: _directive, ...plain } = template;
      io.stdout(`${displayName(ref)} with revision #${revision}\n${describeTemplate(plain)}\n`);
      return 0;
    }
    io.stdout(`${displayName(ref)}\n`);
    io.stdout(revisions.length === 0 ? 'No rollout history found.\n' : historyTable(revisions));
    return 0;
  });
}

/** Options of `rollout undo`. */
export interface UndoOptions extends ConnectionOptions {
  toRevision?: string;
}

/** `rollout undo TYPE/NAME [--to-revision N]`: puts an earlier revision's pod template back. */
export async function rolloutUndoCommand(args: string[], opts: UndoOptions, io: CliIO): Promise<number> {
  const ref = workloadArg(args);
  const toRevision = wholeNumber('--to-revision', opts.toRevision);
  return withSession(opts, io, async (session) => {
    need(ref, ref.kind.revisions, 'rollback');
    const obj = await getWorkload(session, ref);
    const revisions = await listRevisions(session, ref, obj);
    const what = `${ref.kind.noun} "${ref.name}"`;
    const choice = chooseUndo(revisions, obj.spec?.template, toRevision, what);
    if ('error' in choice) throw new KubeFailure(`error: ${choice.error}`);
    if ('skip' in choice) {
      io.stdout(
        `${displayName(ref)} skipped rollback (current template already matches revision ${choice.skip.revision})\n`,
      );
      return 0;
    }
    // The test makes the patch fail rather than overwrite a change made since the read.
    await jsonPatch(session, ref, [
      { op: 'test', path: '/metadata/resourceVersion', value: obj.metadata?.resourceVersion },
      { op: 'replace', path: '/spec/template', value: choice.rollback.template },
    ]);
    io.stdout(`${displayName(ref)} rolled back\n`);
    return 0;
  });
}

function nested(path: readonly string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;
}

function valueAt(obj: any, path: readonly string[]): unknown {
  return path.reduce((o, k) => (o === null || typeof o !== 'object' ? undefined : o[k]), obj);
}

/** `rollout pause` (`paused = true`) and `rollout resume` (`paused = false`). */
export async function rolloutPauseCommand(
  args: string[],
  opts: ConnectionOptions,
  io: CliIO,
  paused: boolean,
): Promise<number> {
  const ref = workloadArg(args);
  return withSession(opts, io, async (session) => {
    const path = ref.kind.pausePath;
    need(ref, path !== undefined, paused ? 'pausing' : 'resuming');
    const specPath = ['spec', ...(path ?? [])];
    const obj = await getWorkload(session, ref);
    const now = valueAt(obj, specPath) === true;
    if (now === paused) {
      io.stdout(`${displayName(ref)} already ${paused ? 'paused' : 'resumed'}\n`);
      return 0;
    }
    await mergePatch(session, ref, nested(specPath, paused));
    io.stdout(`${displayName(ref)} ${paused ? 'paused' : 'resumed'}\n`);
    return 0;
  });
}
