// Runs the real helm binary that scripts/helm/build.sh builds from its Go module, and reads
// manifests (a rendered chart and the kustomize folders, as lists of Kubernetes objects) and the
// chart archive `helm package` writes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parseAllDocuments } from 'yaml';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The chart under test. */
export const CHART = join(ROOT, 'charts/kruise-ts');
/** Where scripts/helm/build.sh puts helm. */
export const HELM = join(
  process.env.KRUISE_TS_BIN_DIR ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kruise-ts/bin'),
  'helm',
);

/** A Kubernetes object as the tests read it. */
export type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  // manifests are walked structurally: any field, any shape
  [field: string]: any;
};

/** Why helm cannot run here, or undefined. */
export function helmMissing(): string | undefined {
  return existsSync(HELM) ? undefined : `${HELM} is missing (build it: bash scripts/helm/build.sh)`;
}

/** The result of one helm command. */
export interface HelmRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs helm with `args` from the repository root. */
export function helm(args: readonly string[]): HelmRun {
  const r = spawnSync(HELM, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The objects of a YAML stream (empty documents dropped); throws on a YAML error. */
export function parseObjects(text: string, source: string): Obj[] {
  const out: Obj[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors[0]?.message}`);
    const o = doc.toJS({ maxAliasCount: -1 }) as Obj | null;
    if (o !== null && o !== undefined) out.push(o);
  }
  return out;
}

/**
 * `helm template` of the chart with `args` (e.g. `['-f', file]` or `['--set', 'a=b']`), as objects;
 * throws with helm's error output when it fails.
 */
export function render(args: readonly string[] = []): Obj[] {
  const r = helm(['template', 'kruise-ts', CHART, '--namespace', 'kruise-system', ...args]);
  if (r.status !== 0) throw new Error(`helm template failed (${r.status}):\n${r.stderr}`);
  return parseObjects(r.stdout, 'helm template');
}

/**
 * The objects `kubectl apply -k <dir>` applies. The kustomizations here only list resources (no
 * patches, generators or name prefixes), so kustomize's output is those files' objects in order;
 * any other field makes this throw rather than guess.
 */
export function kustomizeObjects(dir: string): Obj[] {
  const k = parseObjects(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'), dir)[0] as Obj;
  const extra = Object.keys(k).filter((f) => !['apiVersion', 'kind', 'resources'].includes(f));
  if (extra.length > 0)
    throw new Error(`${dir}/kustomization.yaml has fields this reader does not apply: ${extra}`);
  return (k.resources as string[]).flatMap((f) =>
    parseObjects(readFileSync(join(dir, f), 'utf8'), join(dir, f)),
  );
}

/** `kind/namespace/name`, the identity of an object. */
export const keyOf = (o: Obj): string => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** Whether `o` is a Helm hook (rendered by the chart only, never by kustomize). */
export const isHook = (o: Obj): boolean => o.metadata.annotations?.['helm.sh/hook'] !== undefined;

/** The one object of `kind` named `name`; throws when absent. */
export function find(objs: readonly Obj[], kind: string, name: string): Obj {
  const o = objs.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name} in the rendering`);
  return o;
}

/**
 * The files of the chart archive `helm package` makes of the chart (symbolic links followed,
 * .helmignore applied, as for `helm install` from the folder), by path inside the archive
 * (`kruise-ts/...`); throws with helm's error output when packaging fails.
 */
export function packagedFiles(): Map<string, Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'kruise-ts-helm-package-'));
  try {
    const r = helm(['package', CHART, '--destination', dir]);
    if (r.status !== 0) throw new Error(`helm package failed (${r.status}):\n${r.stderr}`);
    const archive = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    if (!archive) throw new Error(`helm package wrote no .tgz: ${r.stdout}`);
    return untar(gunzipSync(readFileSync(join(dir, archive))));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The regular files of a ustar archive. Each entry is a 512-byte header (name at 0, octal size at
 * 124, type flag at 156, name prefix at 345) followed by its data padded to 512 bytes; helm writes
 * nothing else (no long-name extensions below 100 + 155 characters).
 */
function untar(tar: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const text = (from: number, length: number) =>
    tar.toString('utf8', from, from + length).replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const size = Number.parseInt(text(at + 124, 12).trim() || '0', 8);
    const prefix = text(at + 345, 155);
    const name = prefix ? `${prefix}/${text(at, 100)}` : text(at, 100);
    const type = String.fromCharCode(tar[at + 156] ?? 0);
    if (type === '0' || type === '\0') files.set(name, tar.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}
