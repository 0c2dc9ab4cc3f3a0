// Ten million cells in one tab (prints figures; not a test).
//
//   bash scripts/dev.sh build && node tests/e2e/bench-ten-million.mjs [CELLS]
//
// In the release page: `generate` writes CELLS (default 10,000,000) cells in rows of 10 columns,
// then, each timed from the Enter keydown to the output plus one frame: a `get` of one row and a
// `scan` with `LIMIT => 10`, and a `count` of every row; each view's tab shown in turn (time to its panel's first paint,
// a screenshot of each in target/); then the page is reloaded and the same get and scan must
// answer the same rows from what IndexedDB restored. Prints how long each step took, the
// JavaScript heap, the origin's IndexedDB usage (`navigator.storage.estimate()`) and, in a build
// with the benchmarks' hooks (`bash scripts/dev.sh bench-build`, served with
// ROWKEY_DIST=target/bench-dist), the WebAssembly memory; and which limit stopped it if one did.
import os from 'node:os';
import path from 'node:path';
import { serve, launch, openApp, timedCommand, SHOTS } from './harness.mjs';

const CELLS = Number(process.argv[2] || 10_000_000);
const COLUMNS = 10;
const ROWS = Math.ceil(CELLS / COLUMNS);
const rowsDone = 'return /row\\(s\\)/.test(entry.textContent)';
const written = "return /written/.test(entry.textContent) && !entry.querySelector('.progress')";
const mb = (b) => `${(b / 1048576).toFixed(0)} MB`;
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;

const figures = async (page) => {
  const { wasm, heap, idb, quota } = await page.evaluate(async () => {
    const e = await navigator.storage.estimate();
    return { wasm: window.rowkeyBench?.memoryBytes() ?? 0, heap: performance.memory?.usedJSHeapSize ?? 0, idb: e.usage ?? 0, quota: e.quota ?? 0 };
  });
  const memory = wasm ? `WebAssembly memory ${mb(wasm)}, ` : '';
  return `${memory}JS heap ${mb(heap)}, IndexedDB ${mb(idb)} of a ${mb(quota)} quota`;
};
const lastText = (page) => page.locator('.entry').last().innerText();

const loadBefore = os.loadavg();
const { server, url } = await serve();
const browser = await launch(['--enable-precise-memory-info']);
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
// `?bench`: a build with the benchmarks' hooks (dev.sh bench-build) reports its WebAssembly memory.
const { page, errors } = await openApp(context, `${url}?bench`);
let crashed = null;
page.on('crash', () => { crashed = 'the tab crashed (out of memory?)'; });
await page.waitForSelector('.status.ok');

const row = `row${String(Math.floor(ROWS / 2)).padStart(8, '0')}`;
const get = `get 'bench', '${row}'`;
const scan = "scan 'bench', {LIMIT => 10}";
try {
  const columns = Array.from({ length: COLUMNS }, (_, i) => `'f:c${i}'`).join(', ');
  await timedCommand(page, "create 'bench', 'f'", 'return /Created table/.test(entry.textContent)');
  const started = Date.now();
  const load = await timedCommand(page, `generate 'bench', 'row%08d', ${ROWS}, {COLUMNS => [${columns}], VALUE_SIZE => 16}`, written);
  console.log(`generate ${CELLS.toLocaleString('en')} cells: ${s(load.total)}; ${(await lastText(page)).split('\n').filter((l) => /written/.test(l)).join(' ')}`);
  await page.waitForSelector('.status.ok', { timeout: 1_800_000 });
  console.log(`saved to IndexedDB ${s(Date.now() - started - load.total)} after the output; ${await figures(page)}`);

  const getMs = await timedCommand(page, get, rowsDone);
  const getOut = await lastText(page);
  const scanMs = await timedCommand(page, scan, rowsDone);
  const scanOut = await lastText(page);
  console.log(`get of a row: ${getMs.total.toFixed(1)} ms; scan LIMIT 10: ${scanMs.total.toFixed(1)} ms (Enter to text + 1 frame)`);
  // `count` reads every row (each handed over as it is read, its first cell only) and prints
  // every thousandth. Its output is long enough for the console to show it in part (its last
  // lines may be out of the page): the first `Current count` line marks it done.
  const countMs = await timedCommand(page, "count 'bench'", 'return /Current count|row\\(s\\)/.test(entry.textContent)');
  console.log(`count: ${s(countMs.total)} (Enter to text + 1 frame); ${await figures(page)}`);

  const tabs = await page.locator('.view-tab').allInnerTexts();
  for (const [i, name] of tabs.entries()) {
    const t0 = Date.now();
    await page.locator(`#view-tab-${i}`).click();
    await page.locator(`#view-panel-${i}`).waitFor({ state: 'visible' });
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
    const shot = path.join(SHOTS, `ten-million-view-${i}.png`);
    await page.screenshot({ path: shot });
    console.log(`view ${name.trim()}: shown in ${Date.now() - t0} ms (${shot})`);
  }

  const t0 = Date.now();
  await page.reload();
  await page.waitForSelector('.status.ok', { timeout: 1_800_000 });
  console.log(`reload to restored: ${s(Date.now() - t0)}; ${await figures(page)}`);
  const getAgain = await timedCommand(page, get, rowsDone);
  const getBack = await lastText(page);
  const scanAgain = await timedCommand(page, scan, rowsDone);
  const scanBack = await lastText(page);
  // The cells' lines (indented: row or column, timestamp, value); prompts and timings differ.
  const body = (t) => t.split('\n').filter((l) => l.startsWith(' ')).join('\n');
  const same = body(getOut).length > 0 && body(getBack) === body(getOut) && body(scanBack) === body(scanOut);
  console.log(`after the reload: get ${getAgain.total.toFixed(1)} ms, scan ${scanAgain.total.toFixed(1)} ms; ${same ? 'the same rows back' : 'DIFFERENT rows back'}`);
  if (!same) console.log(`before:\n${getOut}\n${scanOut}\nafter:\n${getBack}\n${scanBack}`);
} catch (e) {
  console.log(`stopped: ${crashed ?? e.message.split('\n')[0]}`);
}
if (errors.length) console.log('page errors:', errors);
console.log(`Chromium ${browser.version()}; ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}; load average ${loadBefore.map((x) => x.toFixed(2)).join(' ')} before, ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} after`);
await browser.close();
server.close();
