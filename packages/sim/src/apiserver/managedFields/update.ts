// Ownership of ordinary writes (create, update, JSON/merge/strategic patches, the scale
// subresource): an Update entry of the writing manager records every field the write added or
// modified, and those fields leave every other manager (an update always wins: only apply can
// conflict); fields the write removed leave every manager. The writer's entry is stamped with the
// time only when its set changed.
//
// The managedFields a request sends are honoured as kube-apiserver does: left out, sent back
// unchanged or sent as `[]`, the stored entries stay; `[{}]` strips them all (nothing is
// recorded); any other list replaces them before this write is recorded.
import type { KubeObject } from '@kruise-ts/api';
import { decodeEntries, entryId, type ManagerEntry, ownableView, stripUnowned, withEntries } from './entries';
import { difference, type FieldSet, union } from './fieldSet';
import type { FieldType } from './listKeys';
import { compare, FieldStructureError, jsonEqual } from './walk';

/** What recording an update needs. */
export interface UpdateRequest {
  /** The structure of the resource's objects (listKeys.ts `resourceType`). */
  type: FieldType;
  /** The stored object at the request's version; undefined on create. */
  live: KubeObject | undefined;
  /** The object as the write leaves it (before admission). */
  next: KubeObject;
  manager: string;
  /** The request's apiVersion. */
  apiVersion: string;
  /** `scale` for the scale subresource; undefined for the main resource. */
  subresource?: string;
  now: string;
  /** The resource has a status subresource: a main-resource write does not own status. */
  statusSubresource: boolean;
}

/** `req.next` with managedFields updated for this write (see the header). Never throws. */
export function recordUpdate(req: UpdateRequest): KubeObject {
  const { live, next } = req;
  const sent = (next.metadata as { managedFields?: unknown }).managedFields;
  const stored = (live?.metadata as { managedFields?: unknown } | undefined)?.managedFields;
  if (Array.isArray(sent) && sent.length > 0 && sent.every((e) => jsonEqual(e, {})))
    return withEntries(next, []);
  const fromRequest =
    Array.isArray(sent) && sent.length > 0 && !jsonEqual(sent, stored) ? decodeEntries(next) : undefined;
  const entries = fromRequest ?? decodeEntries(live);
  const withoutStatus = req.statusSubresource && req.subresource !== 'status';
  let cmp: ReturnType<typeof compare>;
  try {
    cmp = compare(ownableView(live, withoutStatus), ownableView(next, withoutStatus), req.type);
  } catch (e) {
    // an object the structure cannot describe keeps the entries it had (kube-apiserver logs
    // the failure and lets the write through)
    if (e instanceof FieldStructureError) return withEntries(next, entries);
    throw e;
  }
  const changed = union(cmp.added, cmp.modified);
  const lost = union(changed, cmp.removed);
  const me: ManagerEntry = {
    manager: req.manager,
    operation: 'Update',
    apiVersion: req.apiVersion,
    set: new Set(),
  };
  if (req.subresource) me.subresource = req.subresource;
  const myId = entryId(me);
  const previous = entries.find((e) => entryId(e) === myId);
  const others = entries
    .filter((e) => entryId(e) !== myId)
    .map((e) => ({ ...e, set: difference(e.set, lost) }));
  me.set = stripUnowned(union(difference(previous?.set ?? new Set(), cmp.removed), changed));
  me.time = previous && sameSet(previous.set, me.set) ? previous.time : req.now;
  return withEntries(next, [...others, me]);
}

function sameSet(a: FieldSet, b: FieldSet): boolean {
  if (a.size !== b.size) return false;
  for (const m of a) if (!b.has(m)) return false;
  return true;
}
