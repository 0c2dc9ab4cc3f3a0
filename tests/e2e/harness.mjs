// Shared by the end-to-end tests: a static server for dist/ under a sub-path (proving the build
// is relocatable) and a headless Chromium driven by playwright-core.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);
export const DIST = process.env.ROWKEY_DIST ? path.resolve(process.env.ROWKEY_DIST) : path.join(ROOT, 'dist');
export const SHOTS = path.join(ROOT, 'target');
/**
 * The build the browser benchmarks serve: the release build with the `bench` feature
 * (`bash scripts/dev.sh bench-build`), whose page has the `rowkeyBench` hook and records the
 * views' render times; ROWKEY_DIST=DIR serves another.
 */
export const BENCH_DIST = process.env.ROWKEY_DIST ? path.resolve(process.env.ROWKEY_DIST) : path.join(ROOT, 'target', 'bench-dist');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };

/**
 * Serves dist/ (or `dist`) at http://127.0.0.1:PORT/some/sub/path/; `mounts`
 * ({ '/vendor/x/': dir }) serves other directories beside it (the benchmarks' JavaScript
 * stores, never part of dist/).
 */
export async function serve(prefix = '/tools/rowkey/', mounts = {}, dist = DIST) {
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`no build in ${dist}: run bash scripts/dev.sh ${dist === BENCH_DIST ? 'bench-build' : 'build'}`);
  }
  const roots = [[prefix, dist], ...Object.entries(mounts).map(([p, dir]) => [p, path.resolve(dir)])];
  // How many times each path was asked for.
  const requests = new Map();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    requests.set(url.pathname, (requests.get(url.pathname) ?? 0) + 1);
    const root = roots.find(([p]) => url.pathname.startsWith(p));
    if (!root) { res.writeHead(404); res.end(); return; }
    let file = path.join(root[1], decodeURIComponent(url.pathname.slice(root[0].length)) || 'index.html');
    if (!file.startsWith(root[1])) { res.writeHead(403); res.end(); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { server, url: `http://127.0.0.1:${port}${prefix}`, requests };
}

/** Headless Chromium; `extraArgs` are added to its command line. */
export async function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', ...extraArgs],
  });
}

/** The benchmarks' build opened with `?bench`, once its `window.rowkeyBench` hook is there. */
export async function openBench(browser, url) {
  const page = await browser.newPage();
  await page.goto(`${url}?bench`);
  await page.waitForFunction(() => typeof window.rowkeyBench?.persist === 'function', null, { timeout: 30_000 })
    .catch(() => { throw new Error('the page has no rowkeyBench hook: serve a build made with bash scripts/dev.sh bench-build'); });
  return page;
}

/** Types one command into the console and waits for its entry to appear. */
export async function runCommand(page, text) {
  const before = await page.locator('.entry').count();
  const input = page.locator('textarea.input');
  await input.fill(text);
  await input.press('Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n, before);
  // A long command (generate, a batch) shows its entry at once with a progress bar: wait for it
  // to finish.
  await page.waitForFunction(() => { const e = [...document.querySelectorAll('.entry')].pop(); return e && !e.querySelector('.progress'); }, null, { timeout: 120_000 });
  return lastOutput(page);
}

/** The last entry's output: as shown, or, when it is long and virtualized, as its copy gives it. */
export async function lastOutput(page) {
  const entry = page.locator('.entry').last();
  if (await entry.locator('.vtext').count()) {
    await entry.locator('button.tool', { hasText: 'copy' }).click();
    return page.evaluate(() => navigator.clipboard.readText());
  }
  return entry.locator('.output').first().innerText();
}

export async function openApp(context, url) {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForSelector('textarea.input');
  return { page, errors };
}

/** Runs one command; resolves with view times and Enter-to-frame time once `doneSource` holds. */
export function timedCommand(page, text, doneSource) {
  return page.evaluate(([text, doneSource]) => new Promise((resolve) => {
    const done = new Function('entry', doneSource);
    const input = document.querySelector('textarea.input');
    const before = document.querySelectorAll('.entry').length;
    window.__rowkeyViewMs = {};
    let t0 = 0;
    const check = () => {
      const entries = document.querySelectorAll('.entry');
      const last = entries[entries.length - 1];
      if (entries.length > before && done(last)) {
        observer.disconnect();
        requestAnimationFrame(() => { const total = performance.now() - t0; setTimeout(() => resolve({ total, views: { ...window.__rowkeyViewMs } }), 50); });
        return true;
      }
      return false;
    };
    const observer = new MutationObserver(check);
    observer.observe(document.querySelector('.scrollback'), { childList: true, subtree: true, characterData: true });
    input.value = text;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    t0 = performance.now();
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    check();
  }), [text, doneSource]);
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The serious and critical axe-core violations on the page, each as "rule: target (summary)". */
export async function violations(page) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} (${n.failureSummary?.split('\n')[1]?.trim()})`));
}
