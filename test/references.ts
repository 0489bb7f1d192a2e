// Reads the repository's own cross-references: relative Markdown links and the `§<id>` rule
// citations in code, tests and docs, and the rule ids each docs/reference page defines. Used by
// repository.test.ts, which fails on any link or citation that names nothing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Folders never scanned: installed packages, build output, generated API docs, git. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'api', '.cache', 'coverage']);
const TEXT_FILE =
  /\.(ts|mts|mjs|js|json|md|yaml|yml|sh|txt|html|css)$|^(run|NOTICE|LICENSE|Dockerfile|\.gitignore)$/;

/** Every text file of the repository below `root`, as paths relative to it (POSIX separators). */
export function repositoryFiles(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const st = statSync(path);
      if (st.isDirectory()) {
        if (SKIPPED_DIRS.has(name) && !(name === 'api' && !path.includes(`${sep}docs${sep}`))) continue;
        visit(path);
      } else if (TEXT_FILE.test(name)) {
        out.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  visit(root);
  return out.sort();
}

/**
 * The id a heading or a rule-table row defines: the first token when it looks like a section
 * number (`7`, `7.3`, `9.3.1`, `B.4`) or a rule label (`R4.8`, `SS-1.2.1`, `AC1.3`, `U4`, `(a)`).
 * Example: `### 7.3 Scaling down` defines `7.3`; `| U4 | only o ... |` defines `U4`.
 */
export function idOf(token: string): string | undefined {
  const t = token.replace(/[.:]$/, '');
  return /^(?:[A-Z]{1,3}-?)?\d+(?:\.\d+)*[a-z]?$|^[A-Z]\.\d+(?:\.\d+)*$|^\([a-z]\)$/.test(t) ? t : undefined;
}

/**
 * The ids one reference page defines: its headings' and rule-table rows' first tokens, and the
 * numbered items of a numbered section's top-level list (item 3 of `## 12. Revisions` is `12.3`,
 * so code may cite a step of a procedure as `§12.3`).
 */
export function definedIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  let fenced = false;
  let section: string | undefined;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(\S+)/.exec(line);
    const row = /^\|\s*\**([^|\s*]+?)\**\s*(?::|\|)/.exec(line);
    const token = heading?.[1] ?? row?.[1];
    const id = token === undefined ? undefined : idOf(token);
    if (heading) section = id !== undefined && /^\d+(\.\d+)*$/.test(id) ? id : undefined;
    if (id !== undefined) ids.add(id);
    const item = /^(\d+)\.\s/.exec(line);
    if (item && section !== undefined) ids.add(`${section}.${item[1]}`);
  }
  return ids;
}

/** GitHub's anchor for a heading text: lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file offers (duplicates get GitHub's `-1`, `-2` suffixes). */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = githubSlug(m[1].replace(/`/g, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** A relative link of a Markdown file that names no file (or no heading) of the repository. */
export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  problem: string;
}

/** Every relative Markdown link in `files` (paths relative to `root`) that does not resolve. */
export function brokenMarkdownLinks(root: string, files: readonly string[]): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const file of files.filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(join(root, file), 'utf8');
    let fenced = false;
    text.split('\n').forEach((line, i) => {
      if (line.trimStart().startsWith('```')) fenced = !fenced;
      if (fenced) return;
      const code = line.replace(/`[^`]*`/g, '');
      for (const m of code.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
        const [pathPart, anchor] = target.split('#');
        const targetFile = pathPart === '' ? join(root, file) : resolve(dirname(join(root, file)), pathPart);
        const report = (problem: string) => broken.push({ file, line: i + 1, target, problem });
        if (!isInside(root, targetFile)) {
          report('points outside the repository');
          continue;
        }
        let st: ReturnType<typeof statSync> | undefined;
        try {
          st = statSync(targetFile);
        } catch {
          report('no such file');
          continue;
        }
        if (anchor && st.isFile() && targetFile.endsWith('.md')) {
          if (!anchorsOf(readFileSync(targetFile, 'utf8')).has(anchor)) report('no such heading');
        }
      }
    });
  }
  return broken;
}

/** Whether `path` lies inside `root`. */
export function isInside(root: string, path: string): boolean {
  const r = relative(root, path);
  return r === '' || (!r.startsWith('..') && !r.startsWith(sep));
}

/** The reference pages a citation can name, by file name without `.md`. */
export const REFERENCE_PAGES = [
  'core',
  'cloneset',
  'statefulset',
  'daemonset',
  'sidecarset',
  'uniteddeployment',
  'advancedcronjob',
  'daemon',
  'operator',
  'crds',
] as const;

/** The page a bare `§7.3` means in a file of each package (its controller's rules). */
const PACKAGE_PAGES: Record<string, string> = {
  core: 'core',
  cloneset: 'cloneset',
  statefulset: 'statefulset',
  daemonset: 'daemonset',
  sidecarset: 'sidecarset',
  uniteddeployment: 'uniteddeployment',
  nodeops: 'daemon',
  daemon: 'daemon',
  operator: 'operator',
};

/** The page a bare citation in `file` refers to when the line names none. */
export function defaultPageOf(file: string): string | undefined {
  const parts = file.split('/');
  if (parts[0] === 'packages') return PACKAGE_PAGES[parts[1]];
  if (parts[0] === 'docs' && parts[1] === 'reference') {
    const page = parts[2].replace(/\.md$/, '');
    return (REFERENCE_PAGES as readonly string[]).includes(page) ? page : undefined;
  }
  if (parts[0] === 'testdata' && parts[1] === 'upstream' && parts.length > 3) return PACKAGE_PAGES[parts[2]];
  return undefined;
}

/** One `§<id>` citation and the page it was resolved against. */
export interface Citation {
  file: string;
  line: number;
  id: string;
  page: string | undefined;
}

const PAGE_OR_CITATION = new RegExp(
  `\\b(${REFERENCE_PAGES.join('|')})\\.md\\b|§\\s?((?:[A-Z]{1,3}-?)?\\d+(?:\\.\\d+)*[a-z]?|[A-Z]\\.\\d+(?:\\.\\d+)*|\\([a-z]\\))`,
  'g',
);

/**
 * Every `§<id>` citation in `text`. A citation belongs to the page named last before it on the
 * same line (`docs/reference/cloneset.md §7.3`, `core.md §8 and §9`). With none on the line it
 * belongs to the file's own page (a CloneSet source file's `§7.3` is cloneset.md's 7.3), or, in
 * a file that has no page of its own (api, sim, examples), to the page the file named last.
 */
export function citationsIn(file: string, text: string): Citation[] {
  const out: Citation[] = [];
  const own = defaultPageOf(file);
  let lastNamed: string | undefined;
  // In Markdown, an inline code span shows the syntax (`§7.3`) rather than citing a rule.
  const markdown = file.endsWith('.md');
  text.split('\n').forEach((raw, i) => {
    const line = markdown ? raw.replace(/`[^`]*§[^`]*`/g, '') : raw;
    let page = own ?? lastNamed;
    for (const m of line.matchAll(PAGE_OR_CITATION)) {
      if (m[1] !== undefined) {
        page = m[1];
        lastNamed = m[1];
      } else out.push({ file, line: i + 1, id: m[2].replace(/\.$/, ''), page });
    }
  });
  return out;
}

/** A place where a file reaches outside the repository. */
export interface OutsideReference {
  file: string;
  line: number;
  text: string;
}

/**
 * Names of folders that exist only beside a checkout on our own machines, never in a clone: the
 * shared specs, design notes and upstream cases the reference pages and testdata/ replace.
 */
/** The folder beside a checkout on our own machines (spelled in two parts so this file names none). */
const SHARED = ['sha', 'red'].join('');
const OUTSIDE_FOLDERS = new RegExp(
  [
    String.raw`\.\.\/${SHARED}\b`,
    String.raw`\b${SHARED}\/(?:spec|upstream-cases|design|guides)\b`,
    String.raw`\bdesign\/(?:API|ARCHITECTURE)\.md`,
    String.raw`(?:^|[^\w/.-])spec\/[a-z]+\.md`,
  ].join('|'),
);

/**
 * Every line that names a folder outside the repository, or holds a relative path literal
 * (`'../../../x'` in code, `../x` in a shell script) that climbs above the repository root from
 * the file's own folder. Example: in packages/core/test/a.ts, `'../../../testdata/x.json'`
 * stays inside (it resolves to testdata/x.json) and `'../../../../elsewhere/x'` does not.
 */
export function outsideReferences(root: string, files: readonly string[]): OutsideReference[] {
  const out: OutsideReference[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    text.split('\n').forEach((line, i) => {
      if (OUTSIDE_FOLDERS.test(line)) {
        out.push({ file, line: i + 1, text: line.trim() });
        return;
      }
      for (const m of line.matchAll(/(?:^|[\s'"`(=])((?:\.\.\/)+)[\w.@-]/g)) {
        if (!isInside(root, resolve(dirname(join(root, file)), m[1]))) {
          out.push({ file, line: i + 1, text: line.trim() });
          return;
        }
      }
    });
  }
  return out;
}
