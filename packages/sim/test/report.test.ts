// Tables, durations, summary and the HTML report.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formatDuration, humanDuration, parseDuration, VirtualClock } from '@kruise-ts/cluster';
import { describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../src/report/html';
import { formatSummary, summarize } from '../src/report/summary';
import { CLONESET_COLUMNS, cloneSetRow, formatTable } from '../src/report/table';
import { runScenario } from '../src/scenario/run';

describe('time', () => {
  it('parses durations: 1m30s → 90000 ms, 500ms, 2.5 (seconds), rejects "soon"', () => {
    expect([
      parseDuration('1m30s'),
      parseDuration('500ms'),
      parseDuration(2.5),
      parseDuration('2h'),
      parseDuration('soon'),
      parseDuration(''),
    ]).toEqual([90_000, 500, 2500, 7_200_000, undefined, undefined]);
  });

  it('formats kubectl AGE like HumanDuration: 119s, 2m5s, 10m, 95m, 4h10m, 30h, 3d4h, 10d', () => {
    const s = 1000;
    expect(
      [
        119 * s,
        125 * s,
        600 * s,
        95 * 60 * s,
        (4 * 3600 + 600) * s,
        30 * 3600 * s,
        76 * 3600 * s,
        240 * 3600 * s,
      ].map(humanDuration),
    ).toEqual(['119s', '2m5s', '10m', '95m', '4h10m', '30h', '3d4h', '10d']);
  });

  it('formats summary durations: 45s, 1m23s, 1h0m5s', () => {
    expect([
      formatDuration(45_000),
      formatDuration(83_000),
      formatDuration(3_605_000),
      formatDuration(1500),
    ]).toEqual(['45s', '1m23s', '1h0m5s', '1.5s']);
  });

  it('renders the virtual clock at second precision: 61.5 s after the start is 00:01:01Z', () => {
    const c = new VirtualClock('2024-01-01T00:00:00Z');
    c.advanceTo(61_500);
    expect(c.now()).toBe('2024-01-01T00:01:01Z');
  });
});

describe('kubectl get clone table', () => {
  it('prints OpenKruise v1.8.2 printer columns with kubectl spacing', () => {
    const cs = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'sample', creationTimestamp: '2024-01-01T00:00:00Z' },
      spec: { replicas: 5 },
      status: {
        replicas: 5,
        readyReplicas: 4,
        updatedReplicas: 3,
        updatedReadyReplicas: 2,
        updatedAvailableReplicas: 2,
      },
    };
    const row = cloneSetRow(cs, Date.parse('2024-01-01T00:01:23Z'));
    expect(row).toEqual(['sample', '5', '3', '2', '2', '4', '5', '83s']);
    expect(formatTable(CLONESET_COLUMNS, [row])).toBe(
      [
        'NAME     DESIRED   UPDATED   UPDATED_READY   UPDATED_AVAILABLE   READY   TOTAL   AGE',
        'sample   5         3         2               2                   4       5       83s',
      ].join('\n'),
    );
    expect(cloneSetRow({ ...cs, status: undefined }, 0).slice(2, 7)).toEqual([
      '<none>',
      '<none>',
      '<none>',
      '<none>',
      '<none>',
    ]);
  });
});

describe('summary and HTML report of the example', () => {
  const text = readFileSync(
    fileURLToPath(new URL('../../../examples/scenarios/cloneset-inplace.yaml', import.meta.url)),
    'utf8',
  );
  const r = runScenario(text);

  it('summarises duration, lowest availability, pods created/deleted/updated in place and invariants', () => {
    const s = summarize(r);
    expect(s).toMatchObject({
      status: 'passed',
      podsCreated: 5,
      podsDeleted: 0,
      podsUpdatedInPlace: 5,
      steps: { total: 6, done: 6, failed: 0, skipped: 0 },
    });
    // maxUnavailable 1 of 5: never fewer than 4 available after the first full availability.
    expect(s.lowest).toMatchObject({ object: 'CloneSet/default/sample', available: 4, desired: 5 });
    const out = formatSummary(s);
    expect(out).toContain('pods updated in place     5');
    expect(out).toContain('invariant maxUnavailable  ok (checked');
  });

  it('writes one self-contained page: inline SVG timeline, event table, one inline script, no external resources', () => {
    const html = renderHtmlReport(r, { wallMs: 123 });
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<svg');
    expect(html).toContain('<polygon');
    expect(html).toContain('CloneSet/default/sample');
    expect(html).toContain('<table class="events">');
    expect(html).not.toMatch(/<script [^>]*src|<link|src="http|href="http/);
    expect(html.match(/<script>/g)).toHaveLength(1); // the event filter
  });
});
