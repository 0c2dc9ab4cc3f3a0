// Benchmark of the LSM view and the version stacks against the release build (prints figures;
// not a test).
//
//   bash scripts/dev.sh bench-build && node tests/e2e/bench-lsm.mjs [CELLS]
//
// Loads CELLS (default 1,000,000) cells with `generate`, then for a put, a get, a flush, a
// compaction, a major compaction and a split prints the script time the two views spent
// re-rendering after the command (summed over their renders, read from the page's
// `window.__rowkeyViewMs`; the views' own code, not Yew's diff and DOM patch), and the whole
// time from Enter to the output plus one frame (engine, every view, layout).
// Goals: at most 16 ms of view script after a put or get, 100 ms after a flush, compaction
// or split.
import { serve, launch, openApp, timedCommand, BENCH_DIST } from './harness.mjs';

const CELLS = Number(process.argv[2] || 1_000_000);
const COLUMNS = 10;
const ROWS = Math.ceil(CELLS / COLUMNS);

const timed = timedCommand;

const took = "return /Took|row\\(s\\)|written|Created/.test(entry.textContent) && !entry.querySelector('.progress')";

const { server, url } = await serve(undefined, {}, BENCH_DIST);
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
const { page } = await openApp(context, url);
await page.waitForSelector('.status.ok');
const columns = Array.from({ length: COLUMNS }, (_, i) => `'f:c${i}'`).join(', ');
const started = Date.now();
await timed(page, "create 'bench', {NAME => 'f', VERSIONS => 3}", took);
await timed(page, `generate 'bench', 'row%08d', ${ROWS}, {COLUMNS => [${columns}], VALUE_SIZE => 16}`, "return /written/.test(entry.textContent) && !entry.querySelector('.progress')");
console.log(`loaded ${CELLS.toLocaleString('en')} cells in ${((Date.now() - started) / 1000).toFixed(1)} s`);
await page.waitForSelector('.status.ok', { timeout: 600_000 });

// Each round with one view's tab shown (a hidden view does no work until shown).
const steps = (round) => [
  ['put', `put 'bench', 'row0005000${round}', 'f:c1', 'new value'`, 16],
  ['get', `get 'bench', 'row0005000${round}'`, 16],
  ['delete', `delete 'bench', 'row0005000${round}', 'f:c2'`, 16],
  ['flush', "flush 'bench'", 100],
  ['compact', "compact 'bench'", 100],
  ['major_compact', "major_compact 'bench'", 100],
  ['split', `split 'bench', 'row0006000${round}'`, 100],
];
const fmt = (x) => (x === undefined ? '   -   ' : `${x.toFixed(1).padStart(6)} ms`);
for (const [round, view] of [[0, 'LSM'], [1, 'Versions']]) {
  await page.locator('.view-tab', { hasText: view }).click();
  await timed(page, `get 'bench', 'row0005000${round}'`, took);
  console.log(`${view} shown:`);
  console.log('command         LSM view   stacks    goal     Enter to frame');
  for (const [name, text, goal] of steps(round)) {
    const { total, views } = await timed(page, text, took);
    const worst = Math.max(views.lsm ?? 0, views.stacks ?? 0);
    console.log(`${name.padEnd(15)} ${fmt(views.lsm)} ${fmt(views.stacks)}  ${String(goal).padStart(4)} ms  ${fmt(total)}  ${worst <= goal ? 'ok' : 'OVER'}`);
    await page.waitForSelector('.status.ok', { timeout: 600_000 });
  }
}
await browser.close();
server.close();
