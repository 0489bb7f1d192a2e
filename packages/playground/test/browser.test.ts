// The playground in a real browser: Debian's Chromium (/usr/bin/chromium, driven by
// playwright-core; no browser is downloaded) loads the built site from a static server on
// 127.0.0.1 and from file://, plays OpenKruise's sample CloneSet in-place rollout to the end,
// changes the partition mid-rollout and sees the rollout hold at it, opens a share link, shows a
// reader error at its line, stays responsive during a 10,000-pod rollout, and logs no console
// error. A screenshot goes to $PLAYGROUND_SCREENSHOT (default: the OS temp folder) for CI to keep.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingFile, skipWithoutRealTool } from '../../../test/support/realTools';

const CHROMIUM = '/usr/bin/chromium';
const root = fileURLToPath(new URL('..', import.meta.url));
const screenshot = process.env.PLAYGROUND_SCREENSHOT ?? join(tmpdir(), 'kruise-ts-playground.png');
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.png': 'image/png',
};

/** Serves `dir` on 127.0.0.1 at a free port. */
async function serve(dir: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
      .end(readFileSync(file));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return server;
}

/** The CloneSet row of the `kubectl get clonesets` table shown now, first seven cells. */
async function cloneSetRow(page: Page): Promise<string> {
  const text = await page.locator('pre[data-table="kubectl get clonesets"]').textContent();
  return (text ?? '').split('\n')[1].split(/\s+/).slice(0, 7).join(' ');
}

/** Waits for the run to finish with `status`, then moves the clock to its end and waits for it to be drawn. */
async function toTheEnd(page: Page, status = 'passed'): Promise<void> {
  await page.locator(`#status[data-status="${status}"]`).waitFor({ timeout: 60_000 });
  await page.click('#end');
  await page.waitForFunction(() => {
    const max = (document.getElementById('scrub') as HTMLInputElement).max;
    return document.getElementById('tables')?.dataset.t === max;
  });
}

if (!skipWithoutRealTool('playground in Chromium', missingFile(CHROMIUM, existsSync))) {
  describe('playground in Chromium', () => {
    let dist: string;
    let server: Server;
    let url: string;
    let browser: Browser;
    const consoleErrors: string[] = [];

    const open = async (address: string): Promise<Page> => {
      const page = await browser.newPage({ viewport: { width: 1300, height: 1400 } });
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(`${address}: ${m.text()}`);
      });
      page.on('pageerror', (e) => consoleErrors.push(`${address}: ${e.message}`));
      await page.goto(address);
      return page;
    };

    beforeAll(async () => {
      dist = mkdtempSync(join(tmpdir(), 'kruise-ts-playground-'));
      await build({
        root,
        configFile: join(root, 'vite.config.ts'),
        logLevel: 'error',
        build: { outDir: dist, emptyOutDir: true },
      });
      server = await serve(dist);
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((ok) => server?.close(ok));
      if (dist) rmSync(dist, { recursive: true, force: true });
    });

    it('plays the sample CloneSet in-place rollout to the end, every invariant held', async () => {
      const page = await open(url);
      await toTheEnd(page);
      expect(await cloneSetRow(page)).toBe('sample 5 5 5 5 5 5');
      const invariants = page.locator('#invariants li');
      expect(await invariants.count()).toBe(3);
      expect(await page.locator('#invariants li.bad').count()).toBe(0);
      expect(await page.locator('#status').textContent()).toBe('passed');
      // Five pods on the nodes, all of the second revision and ready.
      expect(await page.locator('#nodes .pod').count()).toBe(5);
      expect(await page.locator('#nodes .pod.not-ready').count()).toBe(0);
      expect(await page.locator('#charts svg').count()).toBe(1);
      await page.screenshot({ path: screenshot, fullPage: true });
      await page.close();
    }, 90_000);

    it('holds at a partition changed mid-rollout, and shares the run by URL', async () => {
      const page = await open(url);
      await page.locator('#status[data-status="passed"]').waitFor({ timeout: 60_000 });
      // The clock to the end of step 2 (the image change), then partition 3.
      await page.click('#steps li[data-step="1"]');
      await page.selectOption('#change-field', 'partition');
      await page.fill('#change-value', '3');
      await page.click('#change-apply');
      await toTheEnd(page);
      expect(await cloneSetRow(page)).toBe('sample 5 2 2 2 5 5');
      expect(await page.locator('#steps li.yours').first().textContent()).toContain(
        'partition of CloneSet/sample → 3',
      );
      expect(await page.locator('#invariants li.bad').count()).toBe(0);
      // Halfway through the free run the rollout holds as well.
      const end = Number(await page.locator('#scrub').getAttribute('max'));
      await page.locator('#scrub').evaluate(
        (e, v) => {
          (e as HTMLInputElement).value = String(v);
          e.dispatchEvent(new Event('input'));
        },
        end - 5 * 60_000,
      );
      await page.waitForFunction(
        (t) => Number(document.getElementById('tables')?.dataset.t) <= t,
        end - 5 * 60_000,
      );
      expect(await cloneSetRow(page)).toBe('sample 5 2 2 2 5 5');

      await page.click('#share');
      // the link is encoded (compressed) asynchronously, then written to the address bar
      await page.waitForFunction(() => location.hash.startsWith('#s='), undefined, { timeout: 10_000 });
      const shared = page.url();
      expect(shared).toMatch(/#s=[zj][A-Za-z0-9_-]+$/);
      const again = await open(shared);
      await toTheEnd(again);
      expect(await cloneSetRow(again)).toBe('sample 5 2 2 2 5 5');
      await again.close();
      await page.close();
    }, 120_000);

    it('shows a reader error at its line', async () => {
      const page = await open(url);
      await page.locator('#status[data-status="passed"]').waitFor({ timeout: 60_000 });
      await page.click('#editors summary');
      await page.fill('#workload', 'kind: Service\nmetadata: {name: x}\n  bad: [');
      await page.click('#run');
      await page.locator('#status[data-status="invalid"]').waitFor({ timeout: 30_000 });
      expect(await page.locator('#errors li').first().getAttribute('data-line')).toBe('3');
      expect((await page.locator('#workload-gutter .err').first().textContent())?.trim()).toBe('3');
      await page.close();
    }, 90_000);

    it('works from file://, in a worker', async () => {
      const page = await open(pathToFileURL(join(dist, 'index.html')).href);
      await toTheEnd(page);
      expect(await page.locator('#status').getAttribute('data-where')).toBe('worker');
      expect(await cloneSetRow(page)).toBe('sample 5 5 5 5 5 5');
      await page.close();
    }, 90_000);

    it('stays responsive while a 10,000-pod rollout runs', async () => {
      const page = await open(url);
      await page.locator('#status[data-status="passed"]').waitFor({ timeout: 60_000 });
      await page.click('#editors summary');
      const scenario = await page.inputValue('#scenario');
      await page.fill(
        '#scenario',
        scenario
          .replace('replicas: 5', 'replicas: 10000')
          .replace('count: 3', 'count: 100')
          .replace('{ cpu: "4", memory: 16Gi, pods: 110 }', '{ cpu: "64", memory: 256Gi, pods: 110 }'),
      );
      await page.click('#run');
      await page.locator('#status[data-status="running"]').waitFor();
      expect(await page.locator('#status').getAttribute('data-where')).toBe('worker');
      // While the worker computes, the page's own event loop answers within a frame or so.
      const worstGap = await page.evaluate(async () => {
        let worst = 0;
        let last = performance.now();
        const until = last + 3000;
        while (performance.now() < until) {
          await new Promise((ok) => setTimeout(ok, 10));
          const now = performance.now();
          worst = Math.max(worst, now - last);
          last = now;
        }
        return worst;
      });
      expect(await page.locator('#status').getAttribute('data-status')).toBe('running');
      expect(worstGap).toBeLessThan(500);
      await page.close();
    }, 90_000);

    it('logged no console error', () => {
      expect(consoleErrors).toEqual([]);
    });
  });
}
