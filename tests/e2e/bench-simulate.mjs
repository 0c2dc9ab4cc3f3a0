// Benchmark of the Simulate view on the simulator's benchmark workload (prints figures; not a
// test).
//
//   bash scripts/dev.sh bench-build && node tests/e2e/bench-simulate.mjs [WORKLOAD.json] [ROUNDS]
//   ROWKEY_DIST=dist node tests/e2e/bench-simulate.mjs        # the release build as shipped
//
// Pastes WORKLOAD (default benches/simulate_workload.json: 864 million operations over 24
// simulated hours, 16 region servers) into the view's JSON box, then ROUNDS times (default 2):
// clicks Run and times it to the report in the page (the Run click to the status line that says
// "Simulated"), with the page's own figures (its wall time in the status line and the longest
// slice it held the page, `data-longest-slice-ms`) and the longest task Chromium saw on the
// main thread; drills into the busiest key prefix and zooms in, reading the page's
// `redrawn in N ms`, plus the main thread's longest task until the drill-down's prefixes are
// listed; then opens the run's sample in the console and times the click to its banner (the
// sample is built in slices between frames), with the page's longest slice of that build.
// Goals: the run within 10 s, no slice above ~50 ms, a redraw within 100 ms.
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, openApp, BENCH_DIST } from './harness.mjs';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);
const FILE = process.argv[2] || path.join(ROOT, 'benches', 'simulate_workload.json');
const ROUNDS = Number(process.argv[3] || 2);
const workload = fs.readFileSync(FILE, 'utf8');

const { server, url } = await serve(undefined, {}, BENCH_DIST);
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
const { page, errors } = await openApp(context, url);
await page.waitForSelector('.status.ok');
// The main thread's tasks of 50 ms or more, as Chromium reports them.
await page.evaluate(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
    .observe({ type: 'longtask', buffered: false });
});
const longest = () => page.evaluate(() => { const l = window.__longTasks; window.__longTasks = []; return Math.max(0, ...l); });

await page.locator('#view-tab-5').click();
const view = page.locator('.simulate-view');
await view.waitFor();
const json = view.locator('textarea.sim-json');
await json.fill(workload);
await json.press('Tab');
const error = await view.locator('#sim-json-error').innerText();
if (error) throw new Error(`the workload does not read: ${error}`);
const w = JSON.parse(workload);
console.log(`${path.basename(FILE)}: ${w.duration_ms / 3_600_000} simulated hours, ${w.cluster.region_servers} region servers`);

const status = view.locator('.sim-status');
for (let round = 1; round <= ROUNDS; round++) {
  await longest();
  const t0 = Date.now();
  await view.locator('.sim-run-button').click();
  await status.filter({ hasText: /^Simulated / }).waitFor({ timeout: 600_000 });
  const took = (Date.now() - t0) / 1000;
  const line = await status.innerText();
  const slice = Number(await status.getAttribute('data-longest-slice-ms'));
  const long = await longest();
  console.log(`run ${round}: Run to the report ${took.toFixed(1)} s (the page: "${line}"), longest slice ${slice} ms, longest main-thread task ${long.toFixed(0)} ms  ${took <= 10 ? 'ok' : 'OVER 10 s'}`);
}

// A drill-down into the busiest prefix, then a zoom; the page times each redraw.
const timing = view.locator('.keyvis-timing');
const redrawMs = async () => Number((await timing.innerText()).match(/redrawn in ([\d,]+) ms/)[1].replace(/,/g, ''));
const redraws = async () => Number(await timing.getAttribute('data-redraws'));
await view.locator('.prefixes button.drill').first().waitFor();
for (let round = 1; round <= ROUNDS; round++) {
  await longest();
  const prefix = await view.locator('.prefixes button.drill code').first().innerText();
  let n = await redraws();
  await view.locator('.prefixes button.drill').first().click();
  await page.waitForFunction((n) => Number(document.querySelector('.keyvis-timing')?.dataset.redraws) > n, n);
  const drill = await redrawMs();
  // The next level's prefixes are listed after the heatmap is painted.
  await page.waitForTimeout(500);
  const drillTask = await longest();
  n = await redraws();
  await view.locator('button', { hasText: 'Zoom in' }).click();
  await page.waitForFunction((n) => Number(document.querySelector('.keyvis-timing')?.dataset.redraws) > n, n);
  const zoom = await redrawMs();
  console.log(`drill-down into ${prefix}: redrawn in ${drill} ms (longest main-thread task until its prefixes are listed ${drillTask.toFixed(0)} ms); zoom: redrawn in ${zoom} ms  ${drill <= 100 && zoom <= 100 ? 'ok' : 'OVER 100 ms'}`);
  await view.locator('button', { hasText: 'Zoom out' }).click();
  // Back to the whole table for the next round.
  await view.locator('.crumbs button', { hasText: 'whole table' }).click();
  await page.waitForTimeout(500);
}

// The sample, built on the click.
await longest();
const t1 = await page.evaluate(() => performance.now());
await view.locator('[data-testid=open-sample]').click();
await page.locator('.sample-banner').waitFor({ timeout: 120_000 });
const opened = await page.evaluate((t1) => performance.now() - t1, t1);
const sampleTask = await longest();
// A build that makes the sample in one call on the click has no status of its own.
const sampleStatus = view.locator('.sample-status');
const built = (await sampleStatus.count())
  ? ` (the page: "${await sampleStatus.innerText()}", longest slice ${await sampleStatus.getAttribute('data-longest-slice-ms')} ms)`
  : ' (built in one call on the click)';
console.log(`the sample opened in the console: click to banner ${opened.toFixed(0)} ms${built}, longest main-thread task ${sampleTask.toFixed(0)} ms`);
console.log((await page.locator('.sample-banner .sample-ratios').innerText()).trim());
if (errors.length) console.log(`page errors: ${errors.join('; ')}`);
await browser.close();
server.close();
