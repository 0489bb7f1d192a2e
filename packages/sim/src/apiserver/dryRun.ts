// Dry runs (`dryRun=All`), as kube-apiserver runs them: the request goes through everything a
// real write goes through — decoding, metadata validation, the admission chain (built-in
// defaulting, validation and mutation, or the external webhooks, which are told `dryRun: true`),
// uid and resourceVersion preconditions, DELETE admission — and stops just before storage. So
// nothing is stored, no controller or watch sees a change and no resourceVersion is consumed.
//
// Where the flag comes from: the query (`?dryRun=All`, how kubectl sends create, replace, patch
// and apply) or, for DELETE and DELETE of a collection, the DeleteOptions body (`{"dryRun":
// ["All"]}`, how kubectl sends `delete --dry-run=server`). A create, update or patch body is the
// object itself, so their options come from the query only, as in kube-apiserver. `All` is the
// only value Kubernetes defines; any other value is refused with the 422 kube-apiserver sends
// (`CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"x"}: …`).
//
// What a dry run answers: a create gets the object as it would be stored (generated name, uid,
// creationTimestamp, defaults) without a resourceVersion; an update, patch or status write the
// object at the stored resourceVersion; a delete the object (with its deletionTimestamp when the
// delete would only mark it). The store does the stopping (`create`/`update` with `dryRun`,
// `delete` with `{dryRun: true}`); writes.ts and deletes.ts pass the flag this module reads.
import { type StatusObject, status } from './status';

/** The options kind kube-apiserver validates for each method. */
const OPTIONS_KIND: Record<string, string> = {
  POST: 'CreateOptions',
  PUT: 'UpdateOptions',
  PATCH: 'PatchOptions',
  DELETE: 'DeleteOptions',
};

/** Go's `%#v` of a string slice: `[]string{"a", "b"}`. */
const goStrings = (values: string[]): string =>
  `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;

/**
 * Whether a write is a dry run: `dryRun` query values, plus a DELETE body's `dryRun` list. Every
 * value must be `All`; anything else is the 422 of kube-apiserver's options validation.
 *
 * Example: `DELETE …/clonesets/sample` with body `{"kind":"DeleteOptions","dryRun":["All"]}` → true;
 * `POST …?dryRun=yes` → 422 `CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value:
 * []string{"yes"}: supported values: "All"`.
 */
export function dryRunOf(method: string, query: URLSearchParams, body: string): boolean | StatusObject {
  const values = query.getAll('dryRun');
  if (method === 'DELETE' && body.trim() !== '') {
    try {
      const opts = JSON.parse(body) as { dryRun?: unknown } | null;
      const d = opts !== null && typeof opts === 'object' ? opts.dryRun : undefined;
      // a malformed body is deletes.ts's 400; here only a well-formed list counts
      if (Array.isArray(d)) for (const v of d) values.push(String(v));
    } catch {
      // deletes.ts answers the decoding error
    }
  }
  if (values.length === 0) return false;
  if (values.every((v) => v === 'All')) return true;
  const kind = OPTIONS_KIND[method] ?? 'CreateOptions';
  const detail = `Unsupported value: ${goStrings(values)}: supported values: "All"`;
  return status(422, 'Invalid', `${kind}.meta.k8s.io "" is invalid: dryRun: ${detail}`, {
    group: 'meta.k8s.io',
    kind,
    causes: [{ reason: 'FieldValueNotSupported', message: detail, field: 'dryRun' }],
  });
}
