// The HTML reports in a real browser (Debian's chromium, headless): every example scenario's report
// and a forecast's load without a script error, show each workload's timeline (and lanes), and
// the event filter works (a `#filter=` link hides the objects that do not match).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readManifests } from '@kruise-ts/api';
import { describe, expect, it } from 'vitest';
import { missingFile, skipWithoutRealTool } from '../../../../test/support/realTools';
import { forecastAnswers } from '../../src/forecast/format';
import { findTarget, readLiveState } from '../../src/forecast/liveState';
import { runForecast } from '../../src/forecast/run';
import { renderHtmlReport } from '../../src/report/html';
import { runScenario } from '../../src/scenario/run';

const CHROMIUM = '/usr/bin/chromium';
const examples = fileURLToPath(new URL('../../../../examples/', import.meta.url));

/** The DOM after the page's scripts ran, and the browser's console lines. */
function render(html: string, hash = ''): { dom: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kts-report-'));
  const file = join(dir, 'report.html');
  writeFileSync(file, html);
  const r = spawnSync(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--enable-logging=stderr',
      '--v=0',
      '--virtual-time-budget=3000',
      '--dump-dom',
      `${pathToFileURL(file).href}${hash}`,
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  return { dom: r.stdout, log: r.stderr };
}

/** Console errors of the page (chromium logs them as `CONSOLE(...)` / `Uncaught ...`). */
const scriptErrors = (log: string) =>
  log.split('\n').filter((l) => /Uncaught|CONSOLE.*(Error|error)/.test(l));

if (!skipWithoutRealTool('HTML reports in headless Chromium', missingFile(CHROMIUM, existsSync))) {
  describe('HTML reports in headless Chromium', () => {
    const scenarios = [
      ['cloneset-inplace.yaml', ['CloneSet']],
      ['daemonset-surge.yaml', ['DaemonSet']],
      ['statefulset-reserve.yaml', ['StatefulSet']],
      ['sidecarset-upgrade.yaml', ['SidecarSet', 'CloneSet']],
      ['uniteddeployment-adaptive.yaml', ['UnitedDeployment']],
      ['imagepulljob-prewarm.yaml', ['ImagePullJob', 'StatefulSet', 'ContainerRecreateRequest']],
    ] as const;
    it.each(scenarios)(
      "%s: no script error, each workload's timeline drawn",
      (file, kinds) => {
        const r = runScenario(readFileSync(`${examples}scenarios/${file}`, 'utf8'), { fileName: file });
        const { dom, log } = render(renderHtmlReport(r));
        expect(scriptErrors(log)).toEqual([]);
        for (const k of kinds)
          expect(dom).toMatch(
            new RegExp(`<section class="workload" data-kind="${k}">[\\s\\S]*?<svg[^>]*class="timeline"`),
          );
        expect(dom).toMatch(/<span id="event-count">\d+ objects<\/span>/);
      },
      120_000,
    );

    it('sees a script error when there is one (the check can fail)', () => {
      const { log } = render('<!DOCTYPE html><html><body><script>undefinedFn()</script></body></html>');
      expect(scriptErrors(log).join('\n')).toContain('Uncaught ReferenceError: undefinedFn is not defined');
    }, 60_000);

    it('the event filter: #filter=invariant shows only the objects whose events mention it', () => {
      const r = runScenario(readFileSync(`${examples}scenarios/cloneset-inplace.yaml`, 'utf8'));
      const { dom, log } = render(renderHtmlReport(r), '#filter=invariant');
      expect(scriptErrors(log)).toEqual([]);
      const shown = dom.match(/<details class="obj[^"]*" data-text="[^"]*"[^>]*>/g) ?? [];
      expect(shown.length).toBeGreaterThan(2);
      const visible = shown.filter((d) => !/ hidden(=""|>| )/.test(d));
      expect(visible.length).toBeLessThan(shown.length);
      expect(dom).toMatch(/<span id="event-count">\d+ objects<\/span>/);
    }, 60_000);

    it("a forecast's report: its answers on top, the timeline and lanes drawn", () => {
      const state = readLiveState(
        readManifests(readFileSync(`${examples}forecast/sample-state.yaml`, 'utf8'), {
          acceptKind: () => true,
        }).objects,
      );
      const f = runForecast(state, findTarget(state).target!, { setImages: { nginx: 'nginx:1.27-alpine' } });
      const { dom, log } = render(renderHtmlReport(f.run!, { answers: forecastAnswers(f) }));
      expect(scriptErrors(log)).toEqual([]);
      expect(dom).toContain('<dt>Expected duration</dt>');
      expect(dom).toContain('class="lanes"');
    }, 60_000);
  });
}
