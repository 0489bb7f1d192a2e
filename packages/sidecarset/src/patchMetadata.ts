// `patchPodMetadata` (docs/reference/sidecarset.md SS-4.3): applying a SidecarSet's annotation
// patches to a pod with the Retain / Overwrite / MergePatchJson policies.
import type { SidecarSetPatchPodMetadata } from '@kruise-ts/api';
import { goMergePatch } from './mergePatchJson';

/** The result of {@link patchPodMetadata}. */
export type PatchPodMetadataResult =
  | { annotations: Record<string, string>; changed: boolean; error?: undefined }
  | { error: string };

/**
 * SS-4.3.1: applies patches in list order (keys within one entry are independent):
 * - `Retain` or empty policy: set `k=v` only if the pod has no `k`;
 * - `Overwrite`: always set `k=v`;
 * - `MergePatchJson`: if the pod has a non-empty value, replace it by the RFC 7386 merge of the
 *   old value with `v` (Go byte layout, see `goMergePatch`); otherwise set `v` verbatim. An old
 *   value that is not JSON, or a patch that is neither an object nor an array, is an error
 *   (the webhook rejects the pod);
 * - unknown policies are ignored.
 *
 * `changed` is false when the resulting map equals the input (the upstream `skip`).
 *
 * Example (upstream `TestPatchPodMetadata`): pod `{key1: old, key2: old}`, patches
 * `[Retain key1=value1, Overwrite key2=value2]` → `{key1: old, key2: value2}`, changed.
 */
export function patchPodMetadata(
  annotations: Readonly<Record<string, string>> | null | undefined,
  patches: readonly SidecarSetPatchPodMetadata[] | null | undefined,
): PatchPodMetadataResult {
  const out: Record<string, string> = Object.assign({}, annotations);
  let changed = false;
  for (const patch of patches ?? []) {
    const policy = patch.patchPolicy ?? '';
    const annotations = patch.annotations ?? {};
    for (const k in annotations) {
      const v = annotations[k];
      switch (policy) {
        case '':
        case 'Retain':
          if (!Object.hasOwn(out, k)) {
            out[k] = v;
            changed = true;
          }
          break;
        case 'Overwrite':
          if (out[k] !== v || !Object.hasOwn(out, k)) changed = true;
          out[k] = v;
          break;
        case 'MergePatchJson': {
          const old = out[k];
          if (old === undefined || old === '') {
            if (old !== v || !Object.hasOwn(out, k)) changed = true;
            out[k] = v;
            break;
          }
          const merged = goMergePatch(old, v);
          if ('error' in merged) {
            return { error: `failed to merge annotation ${k}: ${merged.error}` };
          }
          if (old !== merged.value) changed = true;
          out[k] = merged.value;
          break;
        }
        default:
          break;
      }
    }
  }
  return { annotations: out, changed };
}
