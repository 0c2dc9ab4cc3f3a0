// The Hotspots view shown for the first time after `generate` of 200,000 rows: the time from
// the click on its tab to the frame after, the view's own drawing time (`window.__rowkeyViewMs`,
// which only the benchmark build fills), and a CPU profile of the page over it (inclusive shares
// by function; the modules carry no names, so the functions show as `wasm-function[N]`).
//
//   bash scripts/dev.sh bench-build
//   ROWKEY_DIST=target/bench-dist node tests/e2e/bench-hotspots-first.mjs
import { serve, launch, openApp, runCommand } from './harness.mjs';
const { server, url } = await serve(); const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
const { page } = await openApp(context, url + '?bench');
await page.waitForSelector('.status.ok');
await runCommand(page, "create 'big','f'");
await runCommand(page, "generate 'big','k%07d',200000");
await page.waitForFunction(() => document.querySelector('.status.ok'), null, { timeout: 120000 });
await page.waitForTimeout(1000);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
await page.evaluate(() => { window.__rowkeyViewMs = {}; });
const t0 = Date.now();
await page.locator('.view-tab', { hasText: 'Hotspots' }).click();
await page.waitForSelector('.hotspots .skew');
await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
console.log('click to frame', Date.now() - t0, 'ms');
const { profile } = await cdp.send('Profiler.stop');
const byId = new Map(profile.nodes.map((n) => [n.id, n])); const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const counts = new Map(); for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
const incl = new Map(); let total = 0;
for (const [id, c] of counts) { total += c; const names = new Set(); let x = id; while (x !== undefined) { const n = byId.get(x); names.add(n.callFrame.functionName || '(anon)'); x = parent.get(x); } for (const nm of names) incl.set(nm, (incl.get(nm) ?? 0) + c); }
for (const [n, c] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${(100 * c / total).toFixed(1).padStart(5)}%  ${n.slice(0, 140)}`);
console.log(await page.locator('.hotspots .skew').innerText()); console.log(JSON.stringify(await page.evaluate(() => window.__rowkeyViewMs)));
await browser.close(); server.close();
