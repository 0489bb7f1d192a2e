// How a descriptor names a primary object to enqueue that may not be in the reader yet (a
// NodeImage still to be created, an owner not cached yet). Internal to the descriptors: not
// re-exported by the package.
import type { KubeObject } from '@kruise-ts/api';
import type { KindRef, ObjectReader } from '@kruise-ts/core';

/**
 * The object of `ref`'s kind called `name` as an `enqueueFor` answer: the one `reader` holds, or
 * else its name alone, for a shell that queues names (a NodeImage to create for a new node; an
 * owner not yet in the cache). A shell that finds no such object when it reconciles skips it.
 */
export function objectNamed<T extends KubeObject>(
  reader: ObjectReader,
  ref: KindRef<T>,
  namespace: string | undefined,
  name: string,
): T {
  const found = reader.get(ref, namespace, name);
  if (found) return found;
  const metadata = namespace === undefined ? { name } : { name, namespace };
  // A stand-in that names the object, not a T: a shell reads only its kind, namespace and name
  // (the key to queue) and reconciles what it then finds under that key, so the cast holds.
  return { apiVersion: ref.apiVersion, kind: ref.kind, metadata } as T;
}
