// The LSM view and the version stacks: a run appears after a flush and runs merge after a
// major compaction; a masked cell shows masked before major_compact and is gone after; a row
// whose cells are all deleted shows its markers; a table dropped while shown gets a message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, runCommand, openApp, SHOTS } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

/** The runs the LSM view draws: ids, cells. */
async function runs(page) {
  return page.$$eval('.lsm .run', (gs) => gs.map((g) => ({ id: g.dataset.runId, cells: Number(g.dataset.cells), first: g.dataset.first, last: g.dataset.last })));
}

/** The rows of the version stack "now" (or "before"): column, ts, kind, fate, place. */
async function stack(page, which = 'now') {
  return page.$$eval(`.stacks figure[data-stack="${which}"] tbody tr`, (trs) => trs.map((tr) => ({
    column: tr.dataset.column, ts: tr.dataset.ts, kind: tr.dataset.kind, fate: tr.dataset.fate, part: tr.dataset.part,
  })));
}

/** Shows one of the views' tabs. */
const tab = (page, name) => page.locator('.view-tab', { hasText: name }).click();

test('a run appears after flush and runs merge after major_compact', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await runCommand(page, "create 'lsm', {NAME => 'f', VERSIONS => 1}");
  // A hidden tab does no work: the LSM view is read on its tab.
  await tab(page, 'LSM');
  await runCommand(page, "put 'lsm', 'a', 'f:q', '1'");
  await runCommand(page, "put 'lsm', 'c', 'f:q', '2'");
  assert.deepEqual(await runs(page), [], 'nothing flushed yet');
  assert.match(await page.locator('.lsm .family').first().getAttribute('data-memstore-cells'), /^2$/);
  await runCommand(page, "flush 'lsm'");
  let drawn = await runs(page);
  assert.equal(drawn.length, 1);
  assert.deepEqual([drawn[0].cells, drawn[0].first, drawn[0].last], [2, 'a', 'c']);
  const flushEvent = page.locator('.lsm-event').first();
  assert.equal(await flushEvent.getAttribute('data-kind'), 'flush');
  assert.equal(await flushEvent.getAttribute('data-outputs'), drawn[0].id);
  await runCommand(page, "put 'lsm', 'a', 'f:q', '3'");
  await runCommand(page, "flush 'lsm'");
  drawn = await runs(page);
  assert.equal(drawn.length, 2);
  await runCommand(page, "major_compact 'lsm'");
  const merged = await runs(page);
  assert.equal(merged.length, 1, 'one run after major_compact');
  assert.equal(merged[0].cells, 2, 'the older a is gone');
  const ev = page.locator('.lsm-event').first();
  assert.equal(await ev.getAttribute('data-kind'), 'major compaction');
  assert.deepEqual((await ev.getAttribute('data-inputs')).split(' ').sort(), drawn.map((r) => r.id).sort());
  assert.equal(await ev.getAttribute('data-dropped'), '1');
  assert.match(await ev.innerText(), /1 beyond VERSIONS/);
  // Each event named by its count, the runs by their "#": one numbering each.
  assert.match(await ev.innerText(), /^event \d+: major compaction of f: run #\d+ \(1 cell, 24 B\), run #\d+ \(2 cells, 48 B\) → run #\d+/);
  assert.equal(await ev.evaluate((li) => getComputedStyle(li).listStyleType), 'none');
  // Keyboard: the figure moves between regions with the arrow keys.
  await runCommand(page, "split 'lsm', 'b'");
  await tab(page, 'LSM');
  await page.locator('.lsm-figure').focus();
  const first = await page.locator('.lsm-figure').getAttribute('data-region-id');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((id) => document.querySelector('.lsm-figure').dataset.regionId !== id, first);
  assert.equal(await page.locator('.lsm-figure').getAttribute('data-regions'), '2');
  await page.selectOption('#pref-theme', 'dark');
  await tab(page, 'LSM');
  await page.locator('.lsm').screenshot({ path: path.join(SHOTS, 'e2e-lsm-dark.png') });
  await tab(page, 'Versions');
  await page.locator('.stacks').screenshot({ path: path.join(SHOTS, 'e2e-stacks-dark.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a masked cell shows masked before major_compact and is gone after', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, colorScheme: 'light' });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await page.selectOption('#pref-theme', 'light');
  await runCommand(page, "create 'vs', {NAME => 'f', VERSIONS => 3}");
  await tab(page, 'Versions');
  await runCommand(page, "put 'vs', 'r1', 'f:a', 'one', 10");
  await runCommand(page, "put 'vs', 'r1', 'f:a', 'two', 20");
  await runCommand(page, "put 'vs', 'r1', 'f:a', 'three', 30");
  await runCommand(page, "delete 'vs', 'r1', 'f:a', 20");
  await runCommand(page, "get 'vs', 'r1'");
  let now = await stack(page);
  const masked = now.find((c) => c.ts === '20' && c.kind === 'Put');
  assert.equal(masked?.fate, 'masked');
  assert.equal(masked?.part, 'memstore');
  assert.ok(now.some((c) => c.ts === '20' && c.kind === 'Delete' && c.fate === 'marker'));
  // In the memstore it goes at the flush (a run's goes when a compaction rewrites the run).
  assert.match(await page.locator('.stacks tr.masked .state').first().innerText(), /masked by the Delete at 20; goes at the next flush$/);
  assert.equal(await page.locator('.stacks .mark.masked').count(), 1, 'drawn masked');
  // A flush drops the masked version and keeps the marker; the stack before it stays on show.
  await runCommand(page, "flush 'vs'");
  now = await stack(page);
  assert.ok(!now.some((c) => c.ts === '20' && c.kind === 'Put'));
  assert.ok(now.every((c) => c.part.startsWith('run #')));
  const before = await stack(page, 'before');
  assert.ok(before.some((c) => c.ts === '20' && c.kind === 'Put' && c.fate === 'masked'), 'before the flush it was there, masked');
  await tab(page, 'Versions');
  await page.locator('.stacks').screenshot({ path: path.join(SHOTS, 'e2e-stacks-light.png') });
  await runCommand(page, "major_compact 'vs'");
  now = await stack(page);
  assert.deepEqual(now.map((c) => [c.ts, c.kind, c.fate]), [['30', 'Put', 'visible'], ['10', 'Put', 'visible']], 'the marker is purged');
  assert.match(await page.locator('.stacks figure[data-stack="before"] figcaption').innerText(), /major compaction/);
  await tab(page, 'LSM');
  await page.locator('.lsm').screenshot({ path: path.join(SHOTS, 'e2e-lsm-light.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('a row whose cells are all deleted shows its markers; a dropped table gets a message', async () => {
  const context = await browser.newContext({ viewport: { width: 800, height: 1000 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await runCommand(page, "create 'gone', 'f', 'g'");
  await tab(page, 'Versions');
  await runCommand(page, "put 'gone', 'r', 'f:a', 'x'");
  await runCommand(page, "put 'gone', 'r', 'g:b', 'y'");
  await runCommand(page, "deleteall 'gone', 'r'");
  const out = await runCommand(page, "get 'gone', 'r'");
  assert.match(out, /0 row/);
  const now = await stack(page);
  assert.deepEqual(now.filter((c) => c.kind === 'DeleteFamily').map((c) => c.fate), ['marker', 'marker']);
  assert.deepEqual(now.filter((c) => c.kind === 'Put').map((c) => c.fate), ['masked', 'masked']);
  assert.equal(await page.locator('.stacks .mark.DeleteFamily').count(), 2, 'each family marker is drawn');
  await tab(page, 'Versions');
  await page.locator('.stacks').screenshot({ path: path.join(SHOTS, 'e2e-stacks-narrow.png') });
  // Both views have shown the table; it is dropped while the LSM tab is chosen.
  await tab(page, 'LSM');
  await page.waitForSelector('.lsm .family');
  await runCommand(page, "disable 'gone'");
  await runCommand(page, "drop 'gone'");
  await page.waitForSelector('.lsm .notice');
  assert.match(await page.locator('.lsm .notice').innerText(), /Table 'gone' was dropped while shown/);
  await tab(page, 'Versions');
  await page.waitForSelector('.stacks .notice');
  assert.match(await page.locator('.stacks .notice').innerText(), /Table 'gone' was dropped while shown/);
  assert.deepEqual(errors, []);
  await context.close();
});
