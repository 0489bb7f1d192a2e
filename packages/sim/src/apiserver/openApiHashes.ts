// The hash of each group-version's OpenAPI document that `/openapi/v3` lists (kubectl reads the
// root on many commands, then fetches a document only when its hash changed). Hashing a document
// means building and serialising it, so each server keeps the hashes it computed until its
// registry changes (a CRD added, changed or removed bumps the registry's generation). One per
// server: two servers in one process never share it.
import { contentHash, openApiDoc } from './discovery';
import type { Registry } from './registry';

/** The OpenAPI document hashes of one server, valid for one generation of its registry. */
export class OpenApiHashes {
  /** The registry generation `byGroupVersion` was computed at (-1: none yet). */
  private generation = -1;
  private readonly byGroupVersion = new Map<string, string>();

  /** The hash of `gv` (`api/<v>` or `apis/<g>/<v>`) as `reg` serves it now. */
  hashFor(reg: Registry, gv: string): string {
    if (this.generation !== reg.generation) {
      this.byGroupVersion.clear();
      this.generation = reg.generation;
    }
    let h = this.byGroupVersion.get(gv);
    if (h === undefined) {
      const p = gv.split('/');
      h = contentHash(p[0] === 'api' ? openApiDoc(reg, '', p[1]) : openApiDoc(reg, p[1], p[2]));
      this.byGroupVersion.set(gv, h);
    }
    return h;
  }
}
