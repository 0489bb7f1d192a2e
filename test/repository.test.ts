// The repository stands on its own: nothing tracked reads or links a folder outside it, every
// relative Markdown link names a file (and heading) that exists, and every `§<id>` citation in
// code, tests and docs names a heading or rule of a docs/reference page.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  anchorsOf,
  brokenMarkdownLinks,
  citationsIn,
  definedIds,
  idOf,
  outsideReferences,
  REFERENCE_PAGES,
  repositoryFiles,
} from './references';

const root = fileURLToPath(new URL('..', import.meta.url));
const files = repositoryFiles(root).filter((f) => !f.startsWith('docs/api/'));
// This folder's own files explain the citation syntax with examples; they cite nothing.
const scanned = files.filter((f) => !f.startsWith('test/'));

describe('the checker', () => {
  it('reads ids from headings, rule-table rows and the numbered items of a numbered section', () => {
    const ids = definedIds(
      [
        '## 12. Revisions',
        '1. Revision data ...',
        '2. List owned revisions ...',
        '### 7.3 Scaling down',
        '#### R4.8 Partition',
        '| U4 | only o usable | replace now |',
        '| M1: shouldRun | needs a pod |',
        '#### SS-1.2.1 Update strategy defaults',
      ].join('\n'),
    );
    expect([...ids].sort()).toEqual(['12', '12.1', '12.2', '7.3', 'M1', 'R4.8', 'SS-1.2.1', 'U4'].sort());
    expect(idOf('Scaling')).toBeUndefined();
  });

  it('resolves a citation against the page named on its line, else the file’s own page', () => {
    const text = 'see docs/reference/core.md §8 and §9\nthen §7.3 here';
    expect(citationsIn('packages/cloneset/src/x.ts', text).map((c) => `${c.page}:${c.id}`)).toEqual([
      'core:8',
      'core:9',
      'cloneset:7.3',
    ]);
    expect(citationsIn('packages/sim/src/x.ts', text).map((c) => `${c.page}:${c.id}`)).toEqual([
      'core:8',
      'core:9',
      'core:7.3',
    ]);
  });

  it('gives headings GitHub’s anchors', () => {
    expect([...anchorsOf('## 7.3 Scaling `down`\n## Terms\n## Terms')]).toEqual([
      '73-scaling-down',
      'terms',
      'terms-1',
    ]);
  });

  it('finds a folder outside the repository, a path that climbs out, and a broken link', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kruise-ts-refs-'));
    try {
      mkdirSync(join(dir, 'packages/x/test'), { recursive: true });
      mkdirSync(join(dir, 'testdata'), { recursive: true });
      writeFileSync(join(dir, 'testdata/a.json'), '{}');
      writeFileSync(
        join(dir, 'packages/x/test/a.ts'),
        [
          "const ok = new URL('../../../testdata/a.json', import.meta.url);",
          "const out = new URL('../../../../elsewhere/a.json', import.meta.url);",
          '// the rules are in spec/cloneset.md',
          `// see ../${['sha', 'red'].join('')}/upstream-cases`,
        ].join('\n'),
      );
      writeFileSync(join(dir, 'README.md'), '[ok](testdata/a.json) [gone](docs/none.md) [up](../x.md)\n');
      expect(outsideReferences(dir, ['packages/x/test/a.ts']).map((r) => r.line)).toEqual([2, 3, 4]);
      expect(brokenMarkdownLinks(dir, ['README.md']).map((b) => [b.target, b.problem])).toEqual([
        ['docs/none.md', 'no such file'],
        ['../x.md', 'points outside the repository'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the repository stands alone', () => {
  it('scans the whole tree', () => {
    expect(scanned.length).toBeGreaterThan(500);
    expect(scanned).toContain('README.md');
  });

  it('no file names a folder outside the repository or a path above its root', () => {
    expect(outsideReferences(root, scanned)).toEqual([]);
  });

  it('every relative Markdown link resolves to a file and heading of the repository', () => {
    expect(brokenMarkdownLinks(root, files)).toEqual([]);
  });

  it('every reference page exists', () => {
    for (const page of REFERENCE_PAGES)
      expect(existsSync(join(root, 'docs/reference', `${page}.md`)), page).toBe(true);
  });

  it('every § citation names a heading or rule of a reference page', () => {
    const ids = new Map(
      REFERENCE_PAGES.map((p) => [
        p as string,
        definedIds(readFileSync(join(root, 'docs/reference', `${p}.md`), 'utf8')),
      ]),
    );
    const unresolved: string[] = [];
    let count = 0;
    for (const file of scanned) {
      for (const c of citationsIn(file, readFileSync(join(root, file), 'utf8'))) {
        count++;
        if (c.page === undefined) unresolved.push(`${file}:${c.line} §${c.id} (no page named)`);
        else if (!ids.get(c.page)?.has(c.id))
          unresolved.push(`${file}:${c.line} §${c.id} (not in ${c.page}.md)`);
      }
    }
    expect(unresolved).toEqual([]);
    expect(count).toBeGreaterThan(2000);
  });
});
