// UnitedDeployment revisions (docs/reference/uniteddeployment.md §9): revision content and name, listing and
// claiming, history cleanup (with quirk Q7), the candidate with rollback and collision handling,
// and the current/updated revisions.
import type { KubeObject } from '@kruise-ts/api';
import {
  type Action,
  chooseUpdateRevision,
  fnv32,
  matchesLabelSelector,
  revisionObject,
  safeEncodeString,
} from '@kruise-ts/core';
import type { ControllerRevision } from 'kubernetes-types/apps/v1.js';
import { canonicalJson } from './json';
import { claimObjects } from './observe';
import { udOwnerReference } from './render';
import type { UnitedDeploymentObject } from './types';
import { LABEL_CONTROLLER_HASH, type SubsetKind, templateOf } from './workloads';

/** §1.1: `revisionHistoryLimit` default. */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/** §9.1: the revision data `{"spec":{"template":{…,"$patch":"replace"}}}` of a UnitedDeployment. */
export function revisionData(ud: UnitedDeploymentObject): { spec: { template: Record<string, unknown> } } {
  const template: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(ud.spec.template ?? {})) if (v != null) template[k] = v;
  return { spec: { template: { ...template, $patch: 'replace' } } };
}

/** The data bytes of a revision (canonical JSON); accepts the data as an object or as raw JSON text. */
export function revisionDataBytes(data: unknown): string {
  if (typeof data === 'string') {
    try {
      return canonicalJson(JSON.parse(data));
    } catch {
      return data;
    }
  }
  return canonicalJson(data ?? null);
}

/**
 * §9.4 hash: FNV-1 32-bit (core's `fnv32`: multiply, then xor — not FNV-1a) over the UTF-8 data
 * bytes followed by the decimal text of `collisionCount`, printed in decimal and passed through
 * core's `safeEncodeString` (each character mapped to `"bcdfghjklmnpqrstvwxz2456789"[code mod 27]`).
 * Equal data and count ⇒ equal hash.
 */
export function hashRevision(dataBytes: string, collisionCount: number): string {
  return safeEncodeString(String(fnv32(`${dataBytes}${collisionCount}`)));
}

/** `<udName>-<hash>`, the name prefix cut to 223 characters (§9.4). */
export function revisionName(udName: string, hash: string): string {
  return `${udName.slice(0, 223)}-${hash}`;
}

/** Kubernetes' history order: revision number, then older creationTimestamp, then name (§9.2). */
export function sortRevisions<T extends ControllerRevision>(revisions: readonly T[]): T[] {
  return [...revisions].sort((a, b) => {
    const d = (a.revision ?? 0) - (b.revision ?? 0);
    if (d !== 0) return d;
    const ta = a.metadata?.creationTimestamp ?? '';
    const tb = b.metadata?.creationTimestamp ?? '';
    if (ta !== tb) return ta < tb ? -1 : 1;
    const na = a.metadata?.name ?? '';
    const nb = b.metadata?.name ?? '';
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
}

/** Outcome of the revision step. */
export interface RevisionsOutcome {
  /** `currentRevision` (§9.7). */
  currentRevision: ControllerRevision;
  /** `updatedRevision` (§9.6); `expectedRevision` is its name. */
  updatedRevision: ControllerRevision;
  /** The local collision count after retries (never persisted, Q3). */
  collisionCount: number;
  /** Claims, cleanup deletes, rollback update or create, in Go's order. */
  actions: Action[];
}

/**
 * The revision step (§9): list and claim the revisions matching the UD selector, delete history
 * beyond `revisionHistoryLimit` (skipping the live ones, Q7), then find or create the revision of
 * the current template. Example: revisions r1 (rev 1, template A) and r2 (rev 2, template B) and a
 * UD back on template A → r1 is "rolled back": updated to revision 3 and used as updatedRevision.
 */
export function manageRevisions(
  ud: UnitedDeploymentObject,
  kind: SubsetKind | undefined,
  revisions: readonly ControllerRevision[],
): RevisionsOutcome {
  const actions: Action[] = [];
  const owner = udOwnerReference(ud);
  // §9.2: listed with the UD selector (so none is ever released), then claimed by controller ref.
  const asKube = revisions
    .map((r): ControllerRevision & KubeObject => ({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      ...r,
      metadata: r.metadata ?? {},
    }))
    .filter((r) => matchesLabelSelector(ud.spec.selector, r.metadata.labels));
  const claim = claimObjects(ud, owner, ud.spec.selector, asKube, {
    adopt: 'AdoptRevision',
    release: 'ReleaseRevision',
  });
  actions.push(...claim.actions);
  let listed: ControllerRevision[] = sortRevisions(claim.claimed);

  // §9.3 cleanup.
  const status = ud.status ?? {};
  const live = new Set([status.currentRevision, status.updateStatus?.updatedRevision].filter(Boolean));
  const limit = ud.spec.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
  const exceed = listed.length - limit;
  if (exceed > 0) {
    for (let i = 0; i < exceed; i++) {
      const r = listed[i];
      if (live.has(r.metadata?.name ?? '')) continue;
      actions.push({ verb: 'delete', target: revisionRef(r), reason: 'CleanupRevision' });
    }
    listed = listed.slice(exceed);
  }

  // §9.4 candidate.
  const data = revisionData(ud);
  const bytes = revisionDataBytes(data);
  const nextNumber = listed.length ? (listed[listed.length - 1].revision ?? 0) + 1 : 1;
  const labels =
    kind === 'CloneSet'
      ? {}
      : { ...(templateOf(ud.spec.template, kind ?? 'StatefulSet').metadata?.labels ?? {}) };
  const udName = ud.metadata.name ?? '';

  // §9.5–9.6 equal revisions, rollback, or create with collision retries (core's rule, with
  // data-only equality; every given revision blocks a name, the listed ones or not: Q8).
  const candidateFor = (collisionCount: number): ControllerRevision => {
    const hash = hashRevision(bytes, collisionCount);
    return {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: revisionName(udName, hash),
        ...(ud.metadata.namespace !== undefined ? { namespace: ud.metadata.namespace } : {}),
        labels: { ...labels, [LABEL_CONTROLLER_HASH]: hash },
        ownerReferences: [owner],
      },
      data,
      revision: nextNumber,
    };
  };
  const choice = chooseUpdateRevision(listed, candidateFor, ud.status?.collisionCount ?? 0, {
    equal: (a, b) => revisionDataBytes(a.data) === revisionDataBytes(b.data),
    taken: revisions,
  });
  const { collisionCount } = choice;
  let updated: ControllerRevision;
  if (choice.kind === 'reuse') {
    const r = choice.old;
    updated = { ...r, revision: nextNumber };
    actions.push({ verb: 'update', object: revisionObject(updated), reason: 'RollbackRevision' });
    listed = listed.map((x) => (x === r ? updated : x));
  } else {
    // `latest`, or `existing` (AlreadyExists with equal data: use it, Q8 for cloneSet templates).
    updated = choice.revision;
    if (choice.kind === 'create')
      actions.push({ verb: 'create', object: revisionObject(updated), reason: 'CreateRevision' });
  }

  // §9.7 current revision.
  const current = listed.find((r) => r.metadata?.name === status.currentRevision) ?? updated;
  return { currentRevision: current, updatedRevision: updated, collisionCount, actions };
}

function revisionRef(r: ControllerRevision) {
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    name: r.metadata?.name ?? '',
    ...(r.metadata?.namespace !== undefined ? { namespace: r.metadata.namespace } : {}),
    ...(r.metadata?.uid !== undefined ? { uid: r.metadata.uid } : {}),
  };
}
