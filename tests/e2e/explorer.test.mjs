// The explorer: the keyspace list and its minimap (a jump to a key and to a prefix, the bracket
// of a scan far past the first thousand keys, bad input), the hotspots after sequential writes
// (one hot region, the diagnosis, the heatmap's writes in the last key range), and the views'
// tabs walked with the keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, runCommand, openApp, SHOTS } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const tab = (page, name) => page.locator('.view-tab', { hasText: name }).click();

test('the keyspace: jumps, a scan bracketed past the first thousand keys, bad input', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await runCommand(page, "create 'ks', 'f'");
  const out = await runCommand(page, "generate 'ks', 'user%06d', 20000");
  assert.match(out, /20,?000/);
  await page.waitForFunction(() => document.querySelector('.klist')?.dataset.rows === '20000');
  // Only the rows in view are in the page.
  assert.ok(await page.locator('.krow').count() <= 30);
  // A jump to a key.
  await page.fill('#jump-key', 'user012345');
  await page.press('#jump-key', 'Enter');
  await page.waitForSelector('.krow.focused:has-text("user012345")');
  assert.match(await page.locator('.jump-note').innerText(), /Row 12,346 of 20,000/);
  // A jump to a prefix.
  await page.fill('#jump-key', 'user0150');
  await page.press('#jump-key', 'Enter');
  await page.waitForSelector('.krow.focused:has-text("user015000")');
  assert.match(await page.locator('.jump-note').innerText(), /100 rows start with 'user0150'/);
  // A key that is not there, and a binary one.
  await page.fill('#jump-key', 'user0150005x');
  await page.press('#jump-key', 'Enter');
  await page.waitForFunction(() => /No row is 'user0150005x'.*next row is 'user015001'/.test(document.querySelector('.jump-note')?.textContent));
  await page.fill('#jump-key', '\\xFF\\x00');
  await page.press('#jump-key', 'Enter');
  await page.waitForFunction(() => /No row is '\\xFF\\x00' or after it/.test(document.querySelector('.jump-note')?.textContent));
  // A scan far into the table: its bracket on the minimap, its rows marked in the list.
  await runCommand(page, "scan 'ks', {STARTROW => 'user015000', STOPROW => 'user015100'}");
  await page.waitForFunction(() => document.querySelector('.minimap')?.dataset.readLo === '15000');
  assert.equal(await page.locator('.minimap').getAttribute('data-read-hi'), '15100');
  assert.equal(await page.locator('.minimap').getAttribute('data-read-reversed'), 'false');
  await page.fill('#jump-key', 'user015050');
  await page.press('#jump-key', 'Enter');
  await page.waitForSelector('.krow.focused.read');
  await page.locator('.keyspace').screenshot({ path: path.join(SHOTS, 'e2e-keyspace.png') });
  // A reversed scan is drawn reversed.
  await runCommand(page, "scan 'ks', {STARTROW => 'user000900', STOPROW => 'user000800', REVERSED => true}");
  await page.waitForFunction(() => document.querySelector('.minimap')?.dataset.readReversed === 'true');
  assert.equal(await page.locator('.minimap').getAttribute('data-read-lo'), '801');
  assert.equal(await page.locator('.minimap .bracket.reversed').count(), 1);
  // A LIMIT stops the scan early: the list shades only the rows it read, and says so.
  await runCommand(page, "scan 'ks', {STARTROW => 'user015000', LIMIT => 3}");
  await page.waitForFunction(() => document.querySelector('.minimap')?.dataset.readLo === '15000');
  await page.fill('#jump-key', 'user015000');
  await page.press('#jump-key', 'Enter');
  await page.waitForSelector('.krow.focused.read');
  assert.deepEqual(await page.locator('.krow.read .kk').allInnerTexts(), ['user015000', 'user015001', 'user015002']);
  assert.match(await page.locator('.keyspace p.legend').first().innerText(), /covered rows 15,001 to 20,000 of 20,000 and read only rows 15,001 to 15,003: it examined 3 rows/);
  // The keyboard inside the list: one Tab stop, arrows move, Enter shows the versions.
  await page.locator('.klist').focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await page.waitForSelector('.krow.focused:has-text("user000001")');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#view-tab-4[aria-selected="true"]');
  await page.waitForSelector('table.versions tbody tr');
  // The focus follows to the versions' panel (the list it was in is hidden with its view).
  await page.waitForFunction(() => document.activeElement?.id === 'view-panel-4');
  // A get of a row past the last: it covered none of the rows.
  await tab(page, 'Keyspace');
  await runCommand(page, "get 'ks', 'zzz'");
  await page.locator('.keyspace p.legend', { hasText: 'The last get covered none of the 20,000 rows:' }).waitFor();
  // Emptied since its last read, the table shows no read.
  await runCommand(page, "truncate 'ks'");
  await page.waitForFunction(() => !/The last get/.test(document.querySelector('.keyspace')?.textContent));
  // A table dropped while shown.
  await runCommand(page, "disable 'ks'\ndrop 'ks'");
  await page.waitForFunction(() => /no longer exists|Select or create/.test(document.querySelector('.keyspace, #view-panel-0')?.textContent));
  assert.deepEqual(errors, []);
  await context.close();
});

test('hotspots: sequential writes make one region hot, in words and in the heatmap', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  // Forty writes are too few for the rules: the view says so, not "no hotspot" above a skew
  // line of one region taking them all.
  await runCommand(page, "create 'early', 'd', SPLITS => ['2', '5', '8']");
  const input = page.locator('textarea.input');
  await input.fill(Array.from({ length: 40 }, (_, i) => `put 'early', '${100001 + i}', 'd:a', 'v'`).join('\n'));
  await input.press('Enter');
  await page.locator('.entry .summary', { hasText: '40 puts in' }).waitFor();
  await tab(page, 'Hotspots');
  await page.waitForSelector('.diagnosis');
  assert.equal(await page.locator('.diagnosis').innerText(), 'Too few writes yet to judge the key design: the rules look at 200 or more, and this table has had 40. The skew and the heatmaps below show what there is.');
  await runCommand(page, "create 'events', 'd'");
  await runCommand(page, "generate 'events', '1700000%06d|sensor', 12000");
  await page.waitForSelector('.diagnosis li.growing-key');
  assert.match(await page.locator('.diagnosis li.growing-key').innerText(), /\d+ % of the last 10,000 writes went to the end of the key order, into the one region holding the last keys: the key starts with a timestamp/);
  const writes = page.locator('.heatmap.writes');
  const total = Number(await writes.getAttribute('data-total'));
  const last = Number(await writes.getAttribute('data-last-bucket'));
  assert.equal(total, 12000);
  assert.ok(last / total > 0.95, `${last} of ${total} writes in the last key range`);
  assert.ok(await page.locator('.heatmap.writes .splitmark').count() > 0, 'splits are marked');
  // The split lines are the stretches they cover (overlapping lines merged), cut into dashes by
  // one clip of stripes: disjoint stretches, each at least a line's width (half a pixel), in
  // order, no more than the lines and than two a pixel; the dots, one a place, no more than the
  // splits.
  const marks = await page.evaluate(() => [...document.querySelectorAll('.heatmap .splitmark')].map((g) => {
    const svg = g.ownerSVGElement;
    const line = g.querySelector('.split-line');
    const clip = svg.querySelector(line.getAttribute('clip-path').slice(4, -1));
    return {
      splits: Number(g.dataset.splits),
      width: Number(svg.getAttribute('width')),
      stretches: [...line.getAttribute('d').matchAll(/M([\d.]+) 0H([\d.]+)V192H[\d.]+z/g)].map((m) => [Number(m[1]), Number(m[2])]),
      segments: line.getAttribute('d').split('M').length - 1,
      stripes: clip ? clip.querySelector('path').getAttribute('d').split('M').length - 1 : 0,
      dots: g.querySelector('.split-dot').getAttribute('d').split('M').length - 1,
    };
  }));
  assert.equal(marks.length, 2, 'both heatmaps mark the splits');
  for (const m of marks) {
    assert.ok(m.splits > 0, 'splits counted');
    assert.equal(m.stretches.length, m.segments, 'every line stretch is a rectangle down the map');
    assert.ok(m.stretches.length >= 1 && m.stretches.length <= Math.min(m.splits, 2 * m.width), `${m.stretches.length} stretches for ${m.splits} splits over ${m.width} px`);
    m.stretches.forEach(([a, b], i) => {
      assert.ok(b - a >= 0.5 - 1e-9, `stretch ${a}–${b} at least a line wide`);
      if (i > 0) assert.ok(a > m.stretches[i - 1][1], `stretch ${a}–${b} apart from the one before`);
    });
    assert.equal(m.stripes, 48, 'dashes of 2 px every 4 px down 192 px');
    assert.ok(m.dots >= 1 && m.dots <= m.splits, `${m.dots} dots for ${m.splits} splits`);
  }
  await page.locator('.hotspots').screenshot({ path: path.join(SHOTS, 'e2e-hotspots.png') });
  await tab(page, 'Regions & read');
  assert.equal(await page.locator('.region.hot').count(), 1, 'one hot region');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the views are tabs the keyboard walks', async () => {
  const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
  const { page } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await page.locator('#view-tab-0').focus();
  const names = [];
  for (let i = 0; i < 6; i++) {
    names.push(await page.evaluate(() => document.activeElement.textContent));
    await page.keyboard.press('ArrowRight');
  }
  assert.deepEqual(names, ['Keyspace', 'Hotspots', 'Regions & read', 'LSM', 'Versions', 'Simulate']);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'view-tab-0', 'wraps around');
  await page.keyboard.press('End');
  assert.equal(await page.locator('#view-tab-5').getAttribute('aria-selected'), 'true');
  assert.equal(await page.locator('#view-panel-5').isVisible(), true);
  assert.equal(await page.locator('#view-panel-0').isVisible(), false);
  assert.equal(await page.locator('[role="tab"][tabindex="0"]').count(), 1, 'one Tab stop');
  await context.close();
});

test('at 1280 px the header keeps to one line and every view tab is in sight', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  const got = await page.evaluate(() => {
    const top = document.querySelector('.top');
    const rowGap = parseFloat(getComputedStyle(top).rowGap);
    const strip = document.querySelector('.view-tabs').getBoundingClientRect();
    // One line of controls: the header no taller than its tallest control and its padding.
    const tallest = Math.max(...[...top.children].map((e) => e.getBoundingClientRect().height));
    const padding = parseFloat(getComputedStyle(top).paddingTop) + parseFloat(getComputedStyle(top).paddingBottom);
    return {
      lines: top.getBoundingClientRect().height - padding - 1 > tallest + rowGap ? 2 : 1,
      hidden: [...document.querySelectorAll('.view-tab')].filter((t) => t.getBoundingClientRect().right > strip.right + 1).map((t) => t.textContent),
    };
  });
  assert.equal(got.lines, 1, 'the header\'s controls on one line');
  assert.deepEqual(got.hidden, [], 'tabs past the strip\'s edge');
  assert.deepEqual(errors, []);
  await context.close();
});

test('at 1024 px every view tab is in sight, the row wrapped', async () => {
  const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  const got = await page.evaluate(() => {
    const strip = document.querySelector('.view-tabs').getBoundingClientRect();
    const tabs = [...document.querySelectorAll('.view-tab')];
    return {
      hidden: tabs.filter((t) => { const r = t.getBoundingClientRect(); return r.right > strip.right + 1 || r.bottom > strip.bottom + 1; }).map((t) => t.textContent),
      lines: new Set(tabs.map((t) => t.offsetTop)).size,
    };
  });
  assert.deepEqual(got.hidden, [], 'tabs past the strip\'s edge');
  assert.equal(got.lines, 2, 'six tabs on two lines in the narrower pane');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the version stack writes a marker\'s kind whole, however narrow its table', async () => {
  const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await runCommand(page, "create 'v', {NAME => 'f', VERSIONS => 3}");
  await runCommand(page, "put 'v', 'r', 'f:c', 'a1', 100\nput 'v', 'r', 'f:c', 'a2', 200\nput 'v', 'r', 'f:c', 'a4', 400\ndelete 'v', 'r', 'f:c', 400\nput 'v', 'r', 'f:c', 'a5', 500");
  await runCommand(page, "get 'v', 'r'");
  await tab(page, 'Versions');
  const cell = page.locator('table.versions tr.marker td').nth(2);
  await cell.waitFor();
  assert.equal(await cell.innerText(), 'Delete');
  // One line box for the word (it was broken into "Delet" and "e").
  const lines = await cell.evaluate((td) => { const r = document.createRange(); r.selectNodeContents(td); return r.getClientRects().length; });
  assert.equal(lines, 1, `the marker's kind takes ${lines} lines`);
  // And a marker whose fate is not its own row class (beyond VERSIONS once newer puts come).
  await runCommand(page, "put 'v', 'r', 'f:c', 'a6', 600\nput 'v', 'r', 'f:c', 'a7', 700\nput 'v', 'r', 'f:c', 'a8', 800");
  await runCommand(page, "get 'v', 'r'");
  const beyond = page.locator('table.versions tr[data-kind="Delete"] td.val');
  await beyond.waitFor();
  assert.notEqual(await beyond.evaluate((td) => td.closest('tr').className), 'marker');
  const beyondLines = await beyond.evaluate((td) => { const r = document.createRange(); r.selectNodeContents(td); return r.getClientRects().length; });
  assert.equal(beyondLines, 1, `a marker beyond VERSIONS takes ${beyondLines} lines`);
  // Its time as the console prints it (local time, the header's default), the number as its title.
  const ts = page.locator('table.versions tr[data-kind="Delete"] td.ts');
  assert.match(await ts.innerText(), /^19(69-12-31|70-01-01)T\d\d:\d\d:00\.400$/);
  assert.equal(await ts.getAttribute('title'), '400');
  assert.deepEqual(errors, []);
  await context.close();
});
