// Benchmark of the explorer's views against the release build (prints figures; not a test).
//
//   bash scripts/dev.sh bench-build && node tests/e2e/bench-explorer.mjs [CELLS]
//
// Loads CELLS (default 1,000,000) cells with `generate`, then after a put, a get, a LIMIT scan,
// a flush, a compaction and a split prints the script time the keyspace and hotspots views
// spent (summed over their renders, from the page's `window.__rowkeyViewMs`), then the frame
// intervals of a scripted 5-second scroll of the keyspace list (median, p95) and the time a
// jump to a key takes to land (Enter to the row in view plus one frame).
// Goals: 16 ms of view script after a put, get or LIMIT scan; 100 ms after a flush, compaction
// or split; a scroll p95 of 33 ms; a jump within 100 ms. Then, with Hotspots already shown, five
// puts, gets and scans each: Enter to frame and the hotspots view's script.
import { serve, launch, openApp, timedCommand, BENCH_DIST } from './harness.mjs';

const CELLS = Number(process.argv[2] || 1_000_000);
const COLUMNS = 4;
const ROWS = Math.ceil(CELLS / COLUMNS);

const timed = timedCommand;

const took = "return /Took|row\\(s\\)|written|Created/.test(entry.textContent) && !entry.querySelector('.progress')";

const { server, url } = await serve(undefined, {}, BENCH_DIST);
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
// `?bench`: the page exposes `rowkeyBench`, whose `memoryBytes()` the crash report reads.
const { page } = await openApp(context, `${url}?bench`);
// A tab that runs out of memory closes its page: say so, with the WebAssembly memory last seen.
let memory = 0;
const watch = setInterval(() => page.evaluate(() => window.rowkeyBench?.memoryBytes() ?? 0).then((m) => { memory = m; }, () => {}), 5000);
page.on('crash', () => {
  console.log(`the tab crashed (out of memory?) with ${(memory / 1048576).toFixed(0)} MB of WebAssembly memory at the last look`);
  process.exit(1);
});
await page.waitForSelector('.status.ok');
const columns = Array.from({ length: COLUMNS }, (_, i) => `'f:c${i}'`).join(', ');
const started = Date.now();
await timed(page, "create 'bench', 'f'", took);
await timed(page, `generate 'bench', 'row%08d', ${ROWS}, {COLUMNS => [${columns}], VALUE_SIZE => 16, ORDER => 'random'}`, "return /written/.test(entry.textContent) && !entry.querySelector('.progress')");
console.log(`loaded ${CELLS.toLocaleString('en')} cells (${ROWS.toLocaleString('en')} rows) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
await page.waitForSelector('.status.ok', { timeout: 600_000 });

// Each round with one view's tab shown (a hidden view does no work until shown).
const steps = (round) => [
  ['put', `put 'bench', 'row0005000${round}', 'f:c1', 'new value'`, 16],
  ['get', `get 'bench', 'row0005000${round}'`, 16],
  ['scan LIMIT 10', `scan 'bench', {STARTROW => 'row0012000${round}', LIMIT => 10}`, 16],
  ['flush', "flush 'bench'", 100],
  ['compact', "compact 'bench'", 100],
  ['split', `split 'bench', 'row0015000${round + 1}'`, 100],
];
const fmt = (x) => (x === undefined ? '   -   ' : `${x.toFixed(1).padStart(6)} ms`);
for (const [round, view] of [[0, 'Keyspace'], [1, 'Hotspots']]) {
  await page.locator('.view-tab', { hasText: view }).click();
  console.log(`${view} shown:`);
  console.log('command          keyspace  hotspots   goal     Enter to frame');
  for (const [name, text, goal] of steps(round)) {
    const { total, views } = await timed(page, text, took);
    const worst = Math.max(views.keyspace ?? 0, views.hotspots ?? 0);
    console.log(`${name.padEnd(15)} ${fmt(views.keyspace)} ${fmt(views.hotspots)}  ${String(goal).padStart(4)} ms  ${fmt(total)}  ${worst <= goal ? 'ok' : 'OVER'}`);
    await page.waitForSelector('.status.ok', { timeout: 600_000 });
  }
}
// Each round's put lands just after its tab was shown, so its frame also paints the whole view
// the tab brought up. With Hotspots already on screen, five of each command: Enter to the frame
// and the view's script, each.
console.log('Hotspots already shown, five of each (Enter to frame / hotspots script):');
for (const [name, text, goal] of [
  ['put', (i) => `put 'bench', 'row0005100${i}', 'f:c1', 'new value'`, 16],
  ['get', (i) => `get 'bench', 'row0005100${i}'`, 16],
  ['scan LIMIT 10', (i) => `scan 'bench', {STARTROW => 'row0012100${i}', LIMIT => 10}`, 16],
]) {
  const runs = [];
  for (let i = 0; i < 5; i++) {
    const { total, views } = await timed(page, text(i), took);
    runs.push([total, views.hotspots ?? 0]);
    await page.waitForSelector('.status.ok', { timeout: 600_000 });
  }
  const worst = Math.max(...runs.map((r) => r[1]));
  console.log(`${name.padEnd(15)} ${runs.map(([t, v]) => `${t.toFixed(1)} / ${v.toFixed(1)}`).join(', ')} ms  ${worst <= goal ? 'ok' : 'OVER'}`);
}
await page.locator('.view-tab', { hasText: 'Keyspace' }).click();

// A scripted 5-second scroll through the whole list.
const frames = await page.evaluate(() => new Promise((resolve) => {
  const list = document.querySelector('.klist');
  const max = list.scrollHeight - list.clientHeight;
  const gaps = [];
  let last = performance.now();
  const t0 = last;
  const step = (now) => {
    gaps.push(now - last);
    last = now;
    const f = (now - t0) / 5000;
    list.scrollTop = Math.min(1, f) * max;
    if (f < 1) requestAnimationFrame(step); else resolve(gaps.slice(1));
  };
  requestAnimationFrame(step);
}));
frames.sort((a, b) => a - b);
const q = (p) => frames[Math.min(frames.length - 1, Math.floor(p * frames.length))];
console.log(`scroll: ${frames.length} frames, median ${q(0.5).toFixed(1)} ms, p95 ${q(0.95).toFixed(1)} ms (goal 33 ms) ${q(0.95) <= 33 ? 'ok' : 'OVER'}`);

// A jump to a key.
const jumps = [];
for (const key of ['row00123456', 'row00000007', 'row00249999', 'row0020']) {
  jumps.push(await page.evaluate((key) => new Promise((resolve) => {
    const input = document.querySelector('#jump-key');
    input.value = key;
    const t0 = performance.now();
    input.form.requestSubmit();
    const check = () => {
      const f = document.querySelector('.krow.focused .kk');
      if (f && f.textContent.startsWith(key)) requestAnimationFrame(() => resolve(performance.now() - t0));
      else requestAnimationFrame(check);
    };
    check();
  }), key));
}
console.log(`jump to a key: ${jumps.map((j) => `${j.toFixed(1)} ms`).join(', ')} (goal 100 ms) ${Math.max(...jumps) <= 100 ? 'ok' : 'OVER'}`);
clearInterval(watch);
await browser.close();
server.close();
