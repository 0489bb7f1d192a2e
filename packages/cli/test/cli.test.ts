// The kruise-ts command line, run in-process through main(argv, io), plus one real spawn.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type CliIO, main } from '../src/index';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

function capture(cwd = repo): {
  io: CliIO;
  out: () => string;
  err: () => string;
  files: Map<string, string>;
} {
  let out = '';
  let err = '';
  const files = new Map<string, string>();
  const io: CliIO = {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    cwd,
    isTTY: false,
    readFile: (p) => readFileSync(p, 'utf8'),
    writeFile: (p, t) => {
      files.set(p, t);
    },
  };
  return { io, out: () => out, err: () => err, files };
}

describe('kruise-ts sim', () => {
  it('runs the example scenario: kubectl-style table rows, step lines and a PASSED summary (exit 0)', async () => {
    const c = capture();
    expect(await main(['sim', 'examples/scenarios/cloneset-inplace.yaml'], c.io)).toBe(0);
    const out = c.out();
    expect(out).toContain(
      'NAME     DESIRED   UPDATED   UPDATED_READY   UPDATED_AVAILABLE   READY   TOTAL   AGE',
    );
    expect(out).toMatch(/\nsample {3}5 {9}5 {9}5 {15}5 {19}5 {7}5 {7}\d+s\n/);
    expect(out).toContain('-- 0s step 1/6: wait for CloneSet/default/sample Available');
    expect(out).toContain('Summary of cloneset-inplace: PASSED');
    expect(out).toMatch(/lowest availability\s+4\/5 \(80%\)/);
    expect(out).toMatch(/pods updated in place\s+5/);
  });

  it('on a terminal, redraws one progress line in place (simulated time, step, updated/ready counts)', async () => {
    const c = capture();
    expect(await main(['sim', 'examples/scenarios/cloneset-inplace.yaml'], { ...c.io, isTTY: true })).toBe(0);
    const out = c.out();
    expect(out).toContain(
      '\r\x1b[K[1m23s] step 6/6: wait for CloneSet/default/sample RolledOut | sample: 5/5 updated, 5/5 ready',
    );
    expect(out).not.toContain('-- 0s step 1/6');
  });

  it('--json prints the event log as JSON lines (summary on stderr)', async () => {
    const c = capture();
    expect(await main(['sim', 'examples/scenarios/cloneset-inplace.yaml', '--json'], c.io)).toBe(0);
    const lines = c.out().trimEnd().split('\n');
    const records = lines.map((l) => JSON.parse(l));
    expect(records[0]).toMatchObject({ t: 0, type: 'Apply', object: 'CloneSet/default/sample' });
    expect(records.every((r) => typeof r.t === 'number' && typeof r.type === 'string')).toBe(true);
    expect(c.err()).toContain('Summary of cloneset-inplace: PASSED');
  });

  it('--report writes one HTML page', async () => {
    const c = capture();
    const dir = mkdtempSync(join(tmpdir(), 'kts-'));
    expect(
      await main(
        ['sim', 'examples/scenarios/cloneset-inplace.yaml', '--quiet', '--report', join(dir, 'out.html')],
        c.io,
      ),
    ).toBe(0);
    const html = c.files.get(join(dir, 'out.html'));
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('<svg');
    expect(c.err()).toContain('report written to');
  });

  it('stops on a bad scenario with file:line and field (exit 2)', async () => {
    const c = capture();
    const dir = mkdtempSync(join(tmpdir(), 'kts-'));
    const file = join(dir, 'bad.yaml');
    const io = {
      ...c.io,
      readFile: (p: string) =>
        p === file
          ? 'apiVersion: sim.kruise-ts.io/v1alpha1\nkind: Scenario\nspec:\n  stepz: []\n'
          : readFileSync(p, 'utf8'),
    };
    expect(await main(['sim', file], io)).toBe(2);
    expect(c.err()).toContain(`error: ${file}:4 (document 0): spec.stepz: unknown field "stepz"`);
    expect(c.err()).toContain('nothing was run');
  });

  it('reports a missing file and a bad --seed as usage errors (exit 2)', async () => {
    const c = capture();
    expect(await main(['sim', 'no/such.yaml'], c.io)).toBe(2);
    expect(c.err()).toMatch(/^error: cannot read scenario no\/such\.yaml/);
    const d = capture();
    expect(await main(['sim', 'examples/scenarios/cloneset-inplace.yaml', '--seed', 'x'], d.io)).toBe(2);
    expect(d.err()).toContain('--seed must be an integer');
  });
});

describe('kruise-ts demo', () => {
  it('runs examples/scenarios/cloneset-inplace.yaml', async () => {
    const c = capture('/');
    expect(await main(['demo', '--quiet'], c.io)).toBe(0);
    expect(c.out()).toContain('Summary of cloneset-inplace: PASSED');
  });
});

describe('kruise-ts reconcile', () => {
  it('prints the actions one reconcile would take (dry run)', async () => {
    const c = capture();
    expect(await main(['reconcile', '-f', 'packages/cli/test/fixtures/cloneset.yaml'], c.io)).toBe(0);
    const out = c.out();
    expect(out).toContain('# dry run at 2024-05-01T10:00:00Z');
    expect(out).toMatch(/CloneSet\/default\/sample: \d+ actions/);
    expect(out).toMatch(/create {7}ControllerRevision sample-/);
    expect(out.match(/create {7}Pod sample-/g)?.length).toBe(2);
  });

  it('-o json prints machine-readable reports', async () => {
    const c = capture();
    expect(
      await main(['reconcile', '-f', 'packages/cli/test/fixtures/cloneset.yaml', '-o', 'json'], c.io),
    ).toBe(0);
    const [rep] = JSON.parse(c.out());
    expect(rep.object).toBe('CloneSet/default/sample');
    expect(
      rep.actions.filter(
        (a: { verb: string; object?: { kind: string } }) => a.verb === 'create' && a.object?.kind === 'Pod',
      ),
    ).toHaveLength(2);
  });

  it('rejects an invalid CloneSet like an API server 422 (exit 1)', async () => {
    const c = capture();
    expect(await main(['reconcile', '-f', 'packages/cli/test/fixtures/bad-replicas.yaml'], c.io)).toBe(1);
    expect(c.err()).toBe(
      'error: The CloneSet "sample" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n',
    );
  });

  it('requires -f (exit 2)', async () => {
    const c = capture();
    expect(await main(['reconcile'], c.io)).toBe(2);
    expect(c.err()).toContain("required option '-f, --file <manifest>' not specified");
  });
});

describe('help and usage', () => {
  it('prints help (exit 0) and rejects an unknown command (exit 2)', async () => {
    const c = capture();
    expect(await main(['--help'], c.io)).toBe(0);
    expect(c.out()).toContain('Usage: kruise-ts [options] [command]');
    expect(c.out()).toMatch(/sim \[options\] <scenario\.yaml>/);
    const d = capture();
    expect(await main(['simulate'], d.io)).toBe(2);
    expect(d.err()).toContain("unknown command 'simulate'");
  });
});

describe('the real executable', () => {
  it('npx tsx --conditions=@kruise-ts/source packages/cli/src/bin.ts sim examples/scenarios/cloneset-inplace.yaml', () => {
    const out = execFileSync(
      'npx',
      [
        'tsx',
        '--conditions=@kruise-ts/source',
        'packages/cli/src/bin.ts',
        'sim',
        'examples/scenarios/cloneset-inplace.yaml',
      ],
      { cwd: repo, encoding: 'utf8', timeout: 60_000 },
    );
    expect(out).toContain('UPDATED_AVAILABLE');
    expect(out).toContain('Summary of cloneset-inplace: PASSED');
  });
});
