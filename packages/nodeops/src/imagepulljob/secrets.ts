// Pull secrets of an ImagePullJob (docs/reference/daemon.md §4.5): copies of the job's Secrets in the
// `kruise-daemon-config` namespace, shared between jobs through a references annotation, and
// their release when a job stops using them.
import {
  ANNOTATION_IMAGEPULLJOB_REFERENCES,
  ANNOTATION_IMAGEPULLJOB_SOURCE_KEY,
  type ImagePullJob,
  KRUISE_DAEMON_CONFIG_NAMESPACE,
  type KubeObject,
  LABEL_IMAGEPULLJOB_SOURCE_UID,
  type ReferenceObject,
} from '@kruise-ts/api';
import { type Action, generateName, type Rng, refOf } from '@kruise-ts/core';
import type { Namespace, Secret } from 'kubernetes-types/core/v1.js';
import { byString, sameJSON } from '../util';

/** The outcome of {@link syncPullSecrets}. */
export interface SecretSyncResult {
  /** Creates, updates and deletes of copies, in order. */
  actions: Action[];
  /** The references to write into NodeImages (`{namespace, name}`). */
  references: ReferenceObject[];
  /** Set when the sync failed (e.g. the daemon-config namespace is missing). */
  error?: string;
}

/** Options of the secret sync. */
export interface SecretSyncOptions {
  /** Namespace of the copies (env `KRUISE_DAEMON_CONFIG_NS` upstream); default `kruise-daemon-config`. */
  daemonConfigNamespace?: string;
  /** The cluster's namespaces; when given, the copies' namespace must be among them. */
  namespaces?: readonly Namespace[];
  /** Generator for the copies' `generateName` suffixes. */
  rng: Rng;
}

type SecretObject = Secret & KubeObject;

const jobKey = (job: ImagePullJob) => `${job.metadata.namespace ?? ''}/${job.metadata.name ?? ''}`;

/** The comma-joined `references` annotation as a list. */
export function secretReferences(secret: Secret): string[] {
  const v = secret.metadata?.annotations?.[ANNOTATION_IMAGEPULLJOB_REFERENCES] ?? '';
  return v.split(',').filter((s) => s !== '');
}

function asObject(s: Secret): SecretObject {
  return { ...s, apiVersion: s.apiVersion ?? 'v1', kind: s.kind ?? 'Secret', metadata: s.metadata ?? {} };
}

function withReferences(s: Secret, refs: string[]): SecretObject {
  const o = asObject(s);
  return {
    ...o,
    metadata: {
      ...o.metadata,
      annotations: {
        ...(o.metadata.annotations ?? {}),
        [ANNOTATION_IMAGEPULLJOB_REFERENCES]: refs.join(','),
      },
    },
  };
}

/**
 * §4.5 item 3, releasing copies: the job is removed from each copy's references (update); a
 * copy left with no reference is deleted. **Quirk:** the loop returns at the first copy that
 * is still referenced by another job, so later copies wait for another round.
 *
 * Example: copies A (refs `ns/j1`) and B (refs `ns/j1,ns/j2`), C (refs `ns/j1`), released for
 * `ns/j1` in name order → delete A, update B to `ns/j2`, stop (C is left for later).
 */
export function releaseSecretCopies(job: ImagePullJob, copies: readonly Secret[]): Action[] {
  const key = jobKey(job);
  const actions: Action[] = [];
  const sorted = [...copies].sort((a, b) => byString(a.metadata?.name ?? '', b.metadata?.name ?? ''));
  for (const c of sorted) {
    const rest = secretReferences(c).filter((r) => r !== key);
    if (rest.length > 0) {
      actions.push({ verb: 'update', object: withReferences(c, rest), reason: 'ReleaseSecretCopy' });
      return actions;
    }
    actions.push({ verb: 'delete', target: refOf(asObject(c)), reason: 'DeleteSecretCopy' });
  }
  return actions;
}

/** The copies in the daemon-config namespace whose references name this job. */
export function jobSecretCopies(job: ImagePullJob, secrets: readonly Secret[], daemonNs: string): Secret[] {
  const key = jobKey(job);
  return secrets.filter((s) => s.metadata?.namespace === daemonNs && secretReferences(s).includes(key));
}

/**
 * §4.5 `syncSecrets`: the secret references a job's NodeImage entries carry.
 *
 * - A job in the daemon-config namespace references its Secrets directly, without copies.
 * - Otherwise copies whose source is no longer in `pullSecrets` are released; a deleting or
 *   completed job releases all its copies and gets no references; the namespace must exist;
 *   then each existing source Secret gets a copy (`generateName "<source>-"`, the source's
 *   labels plus the source-uid label, its annotations plus source-key and references, same
 *   type and data), and a copy whose data differs or that does not list the job is updated.
 */
export function syncPullSecrets(
  job: ImagePullJob,
  secrets: readonly Secret[],
  opts: SecretSyncOptions,
): SecretSyncResult {
  const daemonNs = opts.daemonConfigNamespace ?? KRUISE_DAEMON_CONFIG_NAMESPACE;
  const jobNs = job.metadata.namespace ?? '';
  const pullSecrets = job.spec.pullSecrets ?? [];
  if (jobNs === daemonNs) {
    return { actions: [], references: pullSecrets.map((name) => ({ namespace: jobNs, name })) };
  }
  const key = jobKey(job);
  const mine = jobSecretCopies(job, secrets, daemonNs);
  const wanted = new Set(pullSecrets.map((n) => `${jobNs}/${n}`));
  const actions: Action[] = [];
  const stale = mine.filter(
    (c) => !wanted.has(c.metadata?.annotations?.[ANNOTATION_IMAGEPULLJOB_SOURCE_KEY] ?? ''),
  );
  if (stale.length > 0) actions.push(...releaseSecretCopies(job, stale));
  if (job.metadata.deletionTimestamp || job.status?.completionTime) {
    const left = mine.filter((c) => !stale.includes(c));
    return { actions: [...actions, ...releaseSecretCopies(job, left)], references: [] };
  }
  if (opts.namespaces && !opts.namespaces.some((n) => n.metadata?.name === daemonNs)) {
    return { actions, references: [], error: `namespaces "${daemonNs}" not found` };
  }
  const references: ReferenceObject[] = [];
  const copies = secrets
    .filter((s) => s.metadata?.namespace === daemonNs && !stale.includes(s))
    .sort((a, b) => byString(a.metadata?.name ?? '', b.metadata?.name ?? ''));
  for (const name of pullSecrets) {
    const source = secrets.find((s) => s.metadata?.namespace === jobNs && s.metadata?.name === name);
    if (!source) continue;
    const uid = source.metadata?.uid ?? '';
    const candidates = copies.filter((c) => c.metadata?.labels?.[LABEL_IMAGEPULLJOB_SOURCE_UID] === uid);
    const copy = candidates.find((c) => secretReferences(c).includes(key)) ?? candidates[0];
    if (!copy) {
      const copyName = generateName(`${name}-`, opts.rng);
      const object: SecretObject = {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: copyName,
          generateName: `${name}-`,
          namespace: daemonNs,
          labels: { ...(source.metadata?.labels ?? {}), [LABEL_IMAGEPULLJOB_SOURCE_UID]: uid },
          annotations: {
            ...(source.metadata?.annotations ?? {}),
            [ANNOTATION_IMAGEPULLJOB_SOURCE_KEY]: `${jobNs}/${name}`,
            [ANNOTATION_IMAGEPULLJOB_REFERENCES]: key,
          },
        },
      };
      if (source.type !== undefined) object.type = source.type;
      if (source.data !== undefined) object.data = { ...source.data };
      actions.push({ verb: 'create', object, reason: 'CreateSecretCopy' });
      references.push({ namespace: daemonNs, name: copyName });
      continue;
    }
    const refs = secretReferences(copy);
    const dataDiffers = !sameJSON(copy.data ?? {}, source.data ?? {}) || copy.stringData !== undefined;
    if (dataDiffers || !refs.includes(key)) {
      const updated = withReferences(copy, refs.includes(key) ? refs : [...refs, key]);
      const { stringData: _sd, ...rest } = updated;
      const object: SecretObject = { ...rest, data: { ...(source.data ?? {}) } };
      actions.push({ verb: 'update', object, reason: 'UpdateSecretCopy' });
    }
    references.push({ namespace: daemonNs, name: copy.metadata?.name ?? '' });
  }
  return { actions, references };
}
