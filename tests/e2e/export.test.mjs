// The explorer's pictures as files, and what a filtered read drew: on a seeded table every
// export button gives a standalone SVG (xmlns, the caption, as many region bands, heatmap
// cells, runs and version marks as the page shows) and a PNG at twice its width; the buttons
// work from the keyboard; a filtered scan shows the engine's ROWS_FILTERED on the keyspace map
// and in the read view; the write heatmap's time axis is in seconds once writes are seconds
// apart, in ticks when they all ran in one millisecond. Screenshots of the views in both themes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { serve, launch, runCommand, openApp, SHOTS } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const tab = (page, name) => page.locator('.view-tab', { hasText: name }).click();

/** Clicks (or, with `key`, presses Enter on the focused) export button; the file's name and bytes. */
async function exported(page, button, key = false) {
  const failed = page.waitForFunction(() => [...document.querySelectorAll('.export-failure')].map((e) => e.textContent).join(''), null, { timeout: 30_000 })
    .then(async (h) => { throw new Error(`the export failed: ${await h.jsonValue()}`); });
  const [download] = await Promise.all([
    Promise.race([page.waitForEvent('download'), failed]),
    key ? page.keyboard.press('Enter') : page.locator(button).click(),
  ]);
  failed.catch(() => {});
  const bytes = await fs.readFile(await download.path());
  return { name: download.suggestedFilename(), bytes };
}

/** The exported SVG parsed in the page: its title, size, text and how many elements match each selector. */
function inspect(page, text, selectors) {
  return page.evaluate(([text, selectors]) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const root = doc.documentElement;
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      xmlns: root.namespaceURI,
      title: root.querySelector(':scope > title')?.textContent,
      caption: [...root.querySelectorAll(':scope > text.caption tspan')].map((t) => t.textContent).join(' '),
      width: Number(root.getAttribute('width')),
      counts: Object.fromEntries(selectors.map((s) => [s, root.querySelectorAll(s).length])),
      styled: root.querySelectorAll('[style*="fill:"]').length,
    };
  }, [text, selectors]);
}

function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Exports one figure both ways and checks the pair; returns the parsed SVG. */
async function both(page, figure, what, file, selectors) {
  const svg = await exported(page, `${figure} .export-button[aria-label="Export ${what} as SVG"]`);
  assert.equal(svg.name, `${file}.svg`);
  const text = svg.bytes.toString('utf8');
  assert.ok(text.startsWith('<svg'), `${file}.svg starts with <svg`);
  assert.match(text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  const parsed = await inspect(page, text, selectors);
  assert.equal(parsed.error, null, `${file}.svg parses`);
  assert.equal(parsed.xmlns, 'http://www.w3.org/2000/svg');
  assert.equal(parsed.caption, parsed.title, 'the caption is the title and the text under the picture');
  assert.ok(parsed.styled > 0, 'computed styles are inlined');
  const png = await exported(page, `${figure} .export-button[aria-label="Export ${what} as PNG"]`);
  assert.equal(png.name, `${file}.png`);
  const size = pngSize(png.bytes);
  assert.equal(size.width, 2 * parsed.width, `${file}.png is twice the SVG's width`);
  return { text, parsed, png: png.bytes };
}

test('every picture exports as SVG and PNG; a filtered scan draws its rows filtered', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  // One version: a value filter sees row01500's newest value only. With more versions it would
  // match the older x too unless both puts landed in one millisecond (see engine_filters.rs).
  await runCommand(page, "create 'ex', 'f'");
  await runCommand(page, "generate 'ex', 'row%05d', 3000, {COLUMNS => ['f:a']}");
  // Writes seconds after the generate: the write heatmap's columns now carry wall-clock times.
  await page.waitForTimeout(1200);
  await runCommand(page, "put 'ex', 'row00010', 'f:a', 'x'");
  await page.waitForTimeout(1200);
  await runCommand(page, "put 'ex', 'row01500', 'f:a', 'x'\nput 'ex', 'row02990', 'f:a', 'x'\nput 'ex', 'row01500', 'f:a', 'y'");

  // A filtered scan: the engine's ROWS_FILTERED, as the shell prints it, drawn in the views.
  const out = await runCommand(page, `scan 'ex', {FILTER => "ValueFilter(=, 'binary:x')", METRICS => ['ROWS_FILTERED', 'ROWS_SCANNED']}`);
  const filtered = Number(out.match(/ROWS_FILTERED (\d+)/)[1]);
  const scanned = Number(out.match(/ROWS_SCANNED (\d+)/)[1]);
  assert.match(out, /2 row\(s\)/);
  assert.equal(scanned, 3000);
  assert.equal(filtered, 2998);
  await tab(page, 'Keyspace');
  const map = page.locator('.minimap');
  await page.waitForFunction((n) => document.querySelector('.minimap')?.dataset.rowsFiltered === String(n), filtered);
  assert.equal(await map.getAttribute('data-rows-scanned'), String(scanned));
  assert.equal(await map.getAttribute('data-rows-returned'), '2');
  assert.ok(await page.locator('.minimap .rows-filtered rect').count() > 0, 'filtered rows marked on the map');
  assert.ok(await page.locator('.minimap .rows-returned rect').count() >= 2, 'the two returned rows marked apart');
  assert.match(await page.locator('.rows-legend').innerText(), /2 rows returned\s+2,998 rows filtered \(ROWS_FILTERED\)\s+of 3,000 scanned/);
  await tab(page, 'Regions & read');
  const meter = page.locator('.meter.rows');
  assert.equal(await meter.getAttribute('data-rows-filtered'), String(filtered));
  assert.match(await meter.innerText(), /2 returned of 3,000 examined, 2,998 filtered/);

  // The keyspace map.
  await tab(page, 'Keyspace');
  const regions = Number(await map.getAttribute('data-regions'));
  assert.ok(regions > 1, `several regions (${regions})`);
  const keyspace = await both(page, '.minimap-figure', 'the keyspace map', 'rowkey-ex-keyspace', ['rect.band', '.rows-filtered rect']);
  assert.equal(keyspace.parsed.counts['rect.band'], regions, 'one band per region');
  assert.equal(keyspace.parsed.counts['.rows-filtered rect'], await page.locator('.minimap .rows-filtered rect').count());
  assert.match(keyspace.parsed.title, /^Keyspace of ex: \d+ regions over 3,000 stored rows in byte order\. The last scan .* filtered 2,998/);
  await fs.writeFile(path.join(SHOTS, 'e2e-export-keyspace.png'), keyspace.png);

  // The heatmaps: seconds on the write heatmap's axis, as many cells as the page draws.
  await tab(page, 'Hotspots');
  const writes = page.locator('.heatmap.writes');
  assert.equal(await writes.getAttribute('data-axis'), 'seconds');
  const labels = await page.locator('.heatmap.writes .axis text').allTextContents();
  assert.equal(labels[0], '0 s');
  assert.ok(labels.length >= 2 && labels.every((l) => /^\d+(\.\d+)? s$/.test(l)), labels.join(', '));
  assert.match(await writes.locator('figcaption').innerText(), /\d\.\d s of wall-clock time/);
  for (const [kind, what, file] of [['writes', 'the write heatmap', 'rowkey-ex-write-heatmap'], ['reads', 'the read heatmap', 'rowkey-ex-read-heatmap']]) {
    const got = await both(page, `.heatmap.${kind}`, what, file, ['g.cells path', '.axis text']);
    assert.equal(got.parsed.counts['g.cells path'], await page.locator(`.heatmap.${kind} g.cells path`).count());
    assert.ok(Number(await page.locator(`.heatmap.${kind} g.cells`).getAttribute('data-cells')) > 0, 'cells drawn');
    assert.equal(got.parsed.title, await page.locator(`.heatmap.${kind} figcaption`).innerText());
    if (kind === 'writes') await fs.writeFile(path.join(SHOTS, 'e2e-export-heatmap.png'), got.png);
  }

  // The keyboard: from the view's tab, Tab reaches the export buttons and Enter exports.
  await page.locator('#view-tab-1').focus();
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') === 'Export the write heatmap as SVG');
  }
  assert.ok(reached, 'Tab reaches the write heatmap\'s SVG button');
  const byKey = await exported(page, null, true);
  assert.equal(byKey.name, 'rowkey-ex-write-heatmap.svg');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Export the write heatmap as PNG');
  assert.equal((await exported(page, null, true)).name, 'rowkey-ex-write-heatmap.png');

  assert.deepEqual(errors, []);
  await context.close();
});

// Chromium lets one tab start ten downloads without asking, then waits for the person's leave
// (which a headless run never gives): the LSM picture and the version stacks export from a tab
// of their own.
test('the LSM picture and the version stacks export as SVG and PNG', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await runCommand(page, "create 'ex', {NAME => 'f', VERSIONS => 3}");
  await runCommand(page, "generate 'ex', 'row%05d', 3000, {COLUMNS => ['f:a']}");
  await runCommand(page, "put 'ex', 'row01500', 'f:a', 'x'\nput 'ex', 'row01500', 'f:a', 'y'");

  // The LSM picture.
  await runCommand(page, "flush 'ex'");
  await tab(page, 'LSM');
  const lsm = page.locator('.lsm-figure');
  const region = await page.locator('.lsm-nav span').innerText();
  const n = Number(region.match(/^region (\d+)/)[1]);
  const got = await both(page, '.lsm-figure', 'the LSM picture', `rowkey-ex-lsm-region-${n}`, ['g.run']);
  assert.equal(got.parsed.counts['g.run'], Number(await lsm.getAttribute('data-runs')));
  assert.ok((await lsm.locator('figcaption').innerText()).startsWith(got.parsed.title));

  // The version stacks, now and before the last flush.
  await runCommand(page, "get 'ex', 'row01500'");
  await tab(page, 'Versions');
  await page.waitForSelector('.stack-figure[data-stack="now"] g.mark');
  await runCommand(page, "put 'ex', 'row01500', 'f:a', 'z'\nflush 'ex'");
  await page.waitForSelector('.stack-figure[data-stack="before"] g.mark');
  // Once the flush is saved and the views have settled, as a person would find them.
  await page.waitForSelector('.status.ok');
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  for (const [which, what] of [['now', 'the version stack'], ['before', 'the version stack before the last rewrite']]) {
    const figure = `.stack-figure[data-stack="${which}"]`;
    const stack = await both(page, figure, what, `rowkey-ex-versions-${which}`, ['g.mark']);
    assert.equal(stack.parsed.counts['g.mark'], await page.locator(`${figure} g.mark`).count());
    assert.ok((await page.locator(`${figure} figcaption`).innerText()).startsWith(stack.parsed.title));
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the heatmap counts ticks when its writes ran in one millisecond', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await runCommand(page, "create 'one', 'f'");
  await runCommand(page, "put 'one', 'k1', 'f:a', '1'");
  await tab(page, 'Hotspots');
  const writes = page.locator('.heatmap.writes');
  await page.waitForFunction(() => document.querySelector('.heatmap.writes')?.dataset.total === '1');
  assert.equal(await writes.getAttribute('data-axis'), 'ticks');
  assert.match((await page.locator('.heatmap.writes .axis text').allTextContents())[0], /^tick \d/);
  assert.doesNotMatch(await writes.locator('figcaption').innerText(), /wall-clock/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a heatmap of a few writes labels its time axis without one label over another', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await runCommand(page, "create 'few', 'f'");
  for (let i = 0; i < 8; i++) await runCommand(page, `put 'few', 'k${i}', 'f:a', '${i}'`);
  await tab(page, 'Hotspots');
  await page.waitForFunction(() => document.querySelector('.heatmap.writes')?.dataset.total === '8');
  const boxes = await page.locator('.heatmap.writes .axis text').evaluateAll((ts) => ts.map((t) => { const r = t.getBoundingClientRect(); return [r.left, r.right, t.textContent]; }));
  assert.ok(boxes.length >= 1, JSON.stringify(boxes));
  assert.equal(boxes[0][2], '0 s');
  for (let i = 1; i < boxes.length; i++) assert.ok(boxes[i][0] >= boxes[i - 1][1] - 0.5, `"${boxes[i - 1][2]}" and "${boxes[i][2]}" overlap: ${JSON.stringify(boxes)}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the views with their export buttons and rows-filtered marks, light and dark', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await runCommand(page, "create 'shots', 'f'");
  await runCommand(page, "generate 'shots', 'user%05d', 4000");
  await page.waitForTimeout(1100);
  await runCommand(page, "put 'shots', 'user01000', 'f:v', 'x'\nput 'shots', 'user03000', 'f:v', 'x'");
  await runCommand(page, `scan 'shots', {STARTROW => 'user00500', STOPROW => 'user03500', FILTER => "ValueFilter(=, 'binary:x')"}`);
  for (const theme of ['light', 'dark']) {
    await page.selectOption('#pref-theme', theme);
    for (const [name, selector, file] of [['Keyspace', '.keyspace', 'keyspace'], ['Hotspots', '.hotspots', 'hotspots'], ['Regions & read', '#view-panel-2', 'read'], ['LSM', '.lsm', 'lsm']]) {
      await tab(page, name);
      await page.locator(selector).screenshot({ path: path.join(SHOTS, `e2e-export-${file}-${theme}.png`) });
    }
  }
  await runCommand(page, "get 'shots', 'user01000'");
  for (const theme of ['light', 'dark']) {
    await page.selectOption('#pref-theme', theme);
    await tab(page, 'Versions');
    await page.locator('.stacks').screenshot({ path: path.join(SHOTS, `e2e-export-versions-${theme}.png`) });
  }
  assert.deepEqual(errors, []);
  await context.close();
});
