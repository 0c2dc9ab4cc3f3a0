// Benchmark of the console against the release build (prints figures; not a test).
//
//   bash scripts/dev.sh build && node tests/e2e/bench-console.mjs [CELLS]
//
// With CELLS (default 1,000,000) loaded, times in the page, from the Enter keydown to the output
// text plus one animation frame: a `scan` with `LIMIT => 10`, 10 runs, median and p95; a key
// press in an input of 10 lines, from the keydown to the next frame after its input event, 100
// presses, median and p95; a 50,000-line paste, from Enter to its summary, against the time
// the engine took (the summary's own figure).
//
// ROWKEY_LOAD=paste loads the cells by pasting `put` lines instead of Rowkey's generator (for
// builds without it); ROWKEY_DIST=DIR serves another build.
import { serve, launch, openApp, timedCommand } from './harness.mjs';

const CELLS = Number(process.argv[2] || 1_000_000);
const COLUMNS = 10;
const ROWS = Math.ceil(CELLS / COLUMNS);
const LOAD = process.env.ROWKEY_LOAD || 'generate';

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { median: at(0.5), p95: at(0.95), max: s[s.length - 1] };
};
const ms = (x) => `${x.toFixed(1)} ms`;

/** Enter to the output text plus one frame, in ms (the harness's `timedCommand`). */
const timed = async (page, text, doneSource) => (await timedCommand(page, text, doneSource)).total;

const rowsDone = "return /row\\(s\\)/.test(entry.textContent)";
const batchDone = "const s = entry.querySelector('.summary .figure'); return !!s && !/so far/.test(s.textContent) && !entry.querySelector('.progress')";

async function load(page) {
  const started = Date.now();
  if (LOAD === 'paste') {
    await timed(page, "create 'bench', 'f'", rowsDone.replace('row\\\\(s\\\\)', 'Created table'));
    const chunk = 50_000;
    for (let from = 0; from < ROWS * COLUMNS; from += chunk) {
      const lines = [];
      for (let i = from; i < Math.min(from + chunk, ROWS * COLUMNS); i++) {
        const row = Math.floor(i / COLUMNS);
        lines.push(`put 'bench', 'row${String(row).padStart(8, '0')}', 'f:c${i % COLUMNS}', 'value-${String(i).padStart(10, '0')}'`);
      }
      await timed(page, lines.join('\n'), batchDone);
    }
  } else {
    const columns = Array.from({ length: COLUMNS }, (_, i) => `'f:c${i}'`).join(', ');
    await timed(page, "create 'bench', 'f'", "return /Created table/.test(entry.textContent)");
    await timed(page, `generate 'bench', 'row%08d', ${ROWS}, {COLUMNS => [${columns}], VALUE_SIZE => 16}`, "return /written/.test(entry.textContent) && !entry.querySelector('.progress')");
  }
  return (Date.now() - started) / 1000;
}

const { server, url } = await serve();
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
const { page, errors } = await openApp(context, url);
await page.waitForSelector('.status.ok');

const loadSeconds = await load(page);
await page.waitForSelector('.status.ok', { timeout: 600_000 });
const memory = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
console.log(`loaded ${CELLS.toLocaleString('en')} cells (${LOAD}) in ${loadSeconds.toFixed(1)} s; JS heap ${(memory / 1048576).toFixed(0)} MB`);

const scans = [];
for (let i = 0; i < 10; i++) scans.push(await timed(page, "scan 'bench', {LIMIT => 10}", rowsDone));
const s = stats(scans);
console.log(`scan LIMIT 10, Enter to text + 1 frame: median ${ms(s.median)}, p95 ${ms(s.p95)} (goal 50 / 100 ms)`);

// Key presses into an input of 10 lines.
await page.evaluate(() => {
  window.__keys = [];
  const input = document.querySelector('textarea.input');
  let down = 0;
  input.addEventListener('keydown', (e) => { down = performance.now(); }, { capture: true });
  input.addEventListener('input', () => {
    // Only input that a key press made (not the fill that set up the 10 lines).
    if (!down) return;
    const t = down;
    down = 0;
    requestAnimationFrame(() => window.__keys.push(performance.now() - t));
  });
});
const input = page.locator('textarea.input');
await input.fill(Array.from({ length: 9 }, (_, i) => `put 'bench', 'row${i}', 'f:c1', 'value ${i}',`).join('\n') + '\n');
await input.focus();
await page.keyboard.type("scan 'bench', {LIMIT => 10, COLUMNS => ['f:c1', 'f:c2'], REVERSED => true}".padEnd(100, ' '), { delay: 5 });
const keys = stats(await page.evaluate(() => window.__keys));
console.log(`key press in a 10-line input, keydown to next frame: median ${ms(keys.median)}, p95 ${ms(keys.p95)} over ${(await page.evaluate(() => window.__keys.length))} presses (goal p95 16 ms)`);
await input.fill('');

// A 50,000-line paste into a fresh table.
await timed(page, "create 'paste', 'f'", "return /Created table/.test(entry.textContent)");
const lines = Array.from({ length: 50_000 }, (_, i) => `put 'paste', 'p${String(i).padStart(6, '0')}', 'f:q', 'v${i}'`);
const wall = await timed(page, lines.join('\n'), batchDone);
const summary = await page.locator('.entry .summary .figure').last().innerText().catch(() => '');
const engine = Number((summary.match(/in ([\d.]+) s/) || [])[1] || NaN) * 1000;
console.log(`50,000-line paste: summary "${summary}" shown ${ms(wall)} after Enter; engine ${ms(engine)}; shown ${ms(wall - engine)} after the engine finished (goal 1 s)`);
if (errors.length) console.log('page errors:', errors);
await browser.close();
server.close();
