// The repository's example scenarios (examples/scenarios/*.yaml) and manifests, bundled into the
// page as text at build time, so the playground works offline and from file://.

const files = import.meta.glob('../../../examples/**/*.yaml', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

/** Bundled files by their path under examples/ (`scenarios/cloneset-inplace.yaml`). */
const byPath = new Map(Object.entries(files).map(([k, v]) => [k.replace(/^(\.\.\/)+examples\//, ''), v]));

/** The example scenarios, by name (`cloneset-inplace`), the sample CloneSet in-place rollout first. */
export const EXAMPLES: { name: string; text: string }[] = [...byPath.entries()]
  .filter(([path]) => path.startsWith('scenarios/'))
  .map(([path, text]) => ({ name: path.replace(/^scenarios\/|\.yaml$/g, ''), text }))
  .sort((a, b) =>
    a.name === 'cloneset-inplace' ? -1 : b.name === 'cloneset-inplace' ? 1 : a.name.localeCompare(b.name),
  );

/** The default example: OpenKruise's sample CloneSet rolled in place. */
export const DEFAULT_EXAMPLE = 'cloneset-inplace';

/**
 * The scenario reader's file access (`manifestFiles`, `apply: {file}`): a path relative to
 * examples/scenarios/ among the bundled examples. There is no other file access in a page.
 */
export function readExampleFile(relativePath: string): string {
  const parts: string[] = ['scenarios'];
  for (const p of relativePath.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.' && p !== '') parts.push(p);
  }
  const text = byPath.get(parts.join('/'));
  if (text === undefined)
    throw new Error(
      'a page reads no files: paste the manifests into the workload box, or inline them in spec.manifests',
    );
  return text;
}
