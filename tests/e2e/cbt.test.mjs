// Bigtable in the page: the console's dialect switch, a Bigtable table created and read with
// cbt's lines beside an HBase table on the one engine, cbt's dates in the browser's zone, the
// timestamp lint under the input before a line runs, the regions view naming tablets, the table and the history's dialects kept
// across a reload, the delete-models comparison side by side (stacked on a phone), an export
// replayed (the script line by line, the CSV through cbt mode's file input), and the gallery's
// patterns as cbt lines.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, openApp, runCommand, lastOutput, SHOTS } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const saved = (page) => page.waitForSelector('.status.ok', { timeout: 20000 });
const prompt = (page) => page.locator('.input-row .prompt').innerText();

for (const scheme of ['dark', 'light']) {
  test(`a Bigtable table created and read in cbt mode, kept across a reload (${scheme})`, async () => {
    // India's zone (+05:30) shows that cbt's dates print in the browser's zone.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: scheme, timezoneId: 'Asia/Kolkata' });
    const { page, errors } = await openApp(context, url);
    await saved(page);
    await runCommand(page, "create 'hb', 'f'");
    assert.match(await prompt(page), /^hbase:\d{3}:0>$/);

    await page.locator('.dialect-switch button', { hasText: 'cbt' }).click();
    assert.equal(await prompt(page), 'cbt>');
    assert.equal(await page.locator('.dialect-switch button[aria-pressed="true"]').innerText(), 'cbt');
    assert.equal(await runCommand(page, 'createtable bt families=cf'), '');

    // The lint warns before the line runs.
    const input = page.locator('textarea.input');
    await input.fill('set bt r1 cf:a=hello@1700000000000');
    await page.waitForSelector('ul.lint');
    assert.equal(await page.locator('ul.lint').innerText(), 'line 1: timestamp 1700000000000 looks like epoch milliseconds; Bigtable counts microseconds, so it reads as 1970/01/20-16:13:20.000000 (write 1700000000000000 for that moment)');
    await input.press('Enter');
    await page.waitForFunction(() => !document.querySelector('ul.lint'));
    const lookup = (await runCommand(page, 'lookup bt r1')).trimEnd();
    assert.equal(lookup, '----------------------------------------\nr1\n  cf:a                                     @ 1970/01/20-21:43:20.000000\n    "hello"');
    assert.match(await page.locator('.entry').last().locator('.prompt').first().innerText(), /^cbt> $/);
    // Every table, the HBase table `hb` too: cbt reads and writes it as well.
    assert.equal((await runCommand(page, 'ls')).trimEnd(), 'bt\nhb');
    // The regions view speaks of a Bigtable table's tablets, of an HBase table's regions.
    await page.locator('.table-item', { hasText: 'bt' }).click();
    await page.locator('.view-tab', { hasText: 'Regions & read' }).click();
    await page.waitForSelector('.region-strip[aria-label="Tablets"]');
    assert.equal(await page.locator('.view h3', { hasText: 'Tablets of' }).innerText(), 'Tablets of bt (1)');
    await page.locator('.view', { has: page.locator('.region-strip') }).screenshot({ path: path.join(SHOTS, `e2e-cbt-tablets-${scheme}.png`) });
    await page.locator('.table-item', { hasText: 'hb' }).click();
    await page.waitForSelector('.region-strip[aria-label="Regions"]');
    await page.locator('.console-pane').screenshot({ path: path.join(SHOTS, `e2e-cbt-console-${scheme}.png`) });

    // Alt+M: back to the HBase shell, which sees both tables.
    await input.press('Alt+KeyM');
    await page.waitForFunction(() => document.querySelector('.input-row .prompt').textContent.startsWith('hbase:'));
    assert.match(await runCommand(page, 'list'), /^TABLE\nbt\nhb\n2 row\(s\)/);

    // A reload keeps the Bigtable table with its rules and each history line's dialect.
    await saved(page);
    await page.reload();
    await saved(page);
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'list');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'ls');
    assert.equal(await prompt(page), 'cbt>', 'a cbt line from the history runs as cbt');
    await input.fill('');
    await runCommand(page, 'deleterow bt r1');
    await runCommand(page, 'set bt r1 cf:a=old@1000');
    assert.equal((await runCommand(page, 'lookup bt r1')).trimEnd(), '----------------------------------------\nr1\n  cf:a                                     @ 1970/01/01-05:30:00.001000\n    "old"',
      'no delete marker: the older write is visible at once after the reload');
    // The console reopens in the dialect the person switched it to last.
    await page.locator('.dialect-switch button', { hasText: 'cbt' }).click();
    await saved(page);
    await page.reload();
    await saved(page);
    assert.equal(await prompt(page), 'cbt>', 'the page reopens in cbt mode');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`a gallery design loaded in cbt mode is Bigtable tables (${scheme})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1500, height: 940 }, colorScheme: scheme });
    const { page, errors } = await openApp(context, url);
    await saved(page);
    await page.locator('.dialect-switch button', { hasText: 'cbt' }).click();
    await page.locator('.design-item', { hasText: 'Reversed domain names' }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('.entry .output')].some((e) => e.textContent.startsWith('Loaded the design')));
    const note = await page.locator('.entry .output', { hasText: 'Loaded the design' }).last().innerText();
    assert.match(note, /tables sg_domain, sg_domain_plain as Bigtable tables/);
    assert.equal((await runCommand(page, 'ls')).trimEnd(), 'sg_domain\nsg_domain_plain');
    // The design's lesson in cbt's words: one site's pages under one prefix.
    assert.equal((await runCommand(page, 'count sg_domain prefix=com.example.')).trimEnd(), '75');
    await page.locator('.view-tab', { hasText: 'Regions & read' }).click();
    await page.waitForSelector('.region-strip[aria-label="Tablets"]');
    await page.locator('.view-tab', { hasText: 'Hotspots' }).click();
    assert.match(await page.locator('.skew').innerText(), /^Skew over the last [\d,]+ operations: tablet \d+ of \d+ took/);
    await page.locator('.console-pane').screenshot({ path: path.join(SHOTS, `e2e-cbt-design-${scheme}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`the two delete models side by side at 1440 px, stacked at 390 px (${scheme})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: scheme });
    const { page, errors } = await openApp(context, url);
    await saved(page);
    await page.locator('.compare-item', { hasText: 'Delete models' }).click();
    await page.waitForSelector('.delete-models .dm-steps');
    assert.equal(await page.locator('.delete-models .claim.held').count(), 3);
    assert.equal(await page.locator('.delete-models .claim.broken').count(), 0);
    const a = page.locator('.delete-models .compare-side').nth(0);
    const b = page.locator('.delete-models .compare-side').nth(1);
    assert.deepEqual(await a.locator('.dm-visible').allInnerTexts(), [0, 1, 0, 0, 0, 0, 0, 1, 1].map((n) => `cells a read returns: ${n}`));
    assert.deepEqual(await b.locator('.dm-visible').allInnerTexts(), [0, 1, 0, 1, 1].map((n) => `cells a read returns: ${n}`));
    assert.match(await b.locator('.dm-step').last().innerText(), /cbt>\s+lookup bt r1[\s\S]*"old"/);
    // Side by side: B starts right of A, level with it, and each side is at least 300 px wide.
    let [ba, bb] = [await a.boundingBox(), await b.boundingBox()];
    assert.ok(bb.x >= ba.x + ba.width, `B (x ${bb.x}) is right of A (${ba.x} + ${ba.width})`);
    assert.equal(Math.round(bb.y), Math.round(ba.y));
    assert.ok(ba.width >= 300 && bb.width >= 300, `sides ${ba.width} and ${bb.width} px wide`);
    await page.screenshot({ path: path.join(SHOTS, `e2e-delete-models-1440-${scheme}.png`) });
    // On a phone the sides stack: B below A, each the card's width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.delete-models').scrollIntoViewIfNeeded();
    [ba, bb] = [await a.boundingBox(), await b.boundingBox()];
    assert.ok(bb.y >= ba.y + ba.height, `B (y ${bb.y}) is below A (${ba.y} + ${ba.height})`);
    assert.equal(Math.round(bb.x), Math.round(ba.x));
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'nothing wider than the phone');
    await page.locator('.delete-models').screenshot({ path: path.join(SHOTS, `e2e-delete-models-390-${scheme}.png`) });
    // Nothing of it reached the person's engine.
    await page.setViewportSize({ width: 1440, height: 900 });
    assert.match(await runCommand(page, 'list'), /^0 row\(s\)$/m);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`a Bigtable table exported and replayed: the script line by line, the CSV through the import file (${scheme})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: scheme, timezoneId: 'UTC' });
    const { page, errors } = await openApp(context, url);
    await saved(page);
    await page.locator('.dialect-switch button', { hasText: 'cbt' }).click();
    await runCommand(page, 'createtable bt families=cf:maxversions=2,meta splits=m');
    await runCommand(page, "set bt a1 cf:x=one@1000 cf:x=two@2000 meta:n='a b'@3000");
    await runCommand(page, 'set bt z9 cf:y=$\'\\x01\\xff\'@4000');
    const before = await runCommand(page, 'read bt');
    assert.match(before, /^-{40}\na1\n/);
    const script = (await runCommand(page, 'export bt')).trimEnd();
    const lines = script.split('\n');
    assert.equal(lines[0], 'createtable bt families=cf:maxversions=2,meta splits=m');
    // Replayed into a fresh table of the same name, one line at a time, as a shell runs it.
    await runCommand(page, 'deletetable bt');
    for (const line of lines) assert.equal(await runCommand(page, line), '', line);
    assert.equal(await runCommand(page, 'read bt'), before, 'the script reads back what was written');

    // The CSV: given as a file, the import line waits in the input until it is run. (The
    // console shows text: a CSV copied from it cannot carry z9's byte 0xff, so z9 goes first.)
    await runCommand(page, 'deleterow bt z9');
    const csv = await runCommand(page, 'export bt format=csv');
    await runCommand(page, 'createtable copy families=cf,meta');
    await page.locator('.table-item', { hasText: 'copy' }).click();
    await page.locator('.cbt-file input[type=file]').setInputFiles({ name: 'bt.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const input = page.locator('textarea.input');
    await page.waitForFunction(() => document.querySelector('textarea.input').value.startsWith('import '));
    assert.equal(await input.inputValue(), 'import copy bt.csv');
    assert.match((await page.locator('.entry .output').last().innerText()).trimEnd(), /^bt\.csv \(\d+ B\) is ready for cbt's import; nothing is imported until an import line naming it runs\.$/);
    assert.equal((await runCommand(page, 'count copy')).trimEnd(), '0', 'choosing a file changed nothing');
    await runCommand(page, 'import copy bt.csv timestamp=value-encoded');
    assert.equal((await runCommand(page, 'count copy')).trimEnd(), '1');
    // The CSV holds each column's newest cell: what a read of one version per column gives.
    assert.equal(await runCommand(page, 'read copy'), await runCommand(page, 'read bt cells-per-column=1'));
    await page.locator('.console-pane').screenshot({ path: path.join(SHOTS, `e2e-cbt-replay-${scheme}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`cbt mode: patterns run cbt lines or say why not; the LSM view and help speak cbt (${scheme})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: scheme });
    const { page, errors } = await openApp(context, url);
    await saved(page);
    await page.locator('.dialect-switch button', { hasText: 'cbt' }).click();
    await page.locator('.design-item', { hasText: 'Reversed domain names' }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('.entry .output')].some((e) => e.textContent.startsWith('Loaded the design')));
    await page.locator('button.pattern', { hasText: 'All pages of example.com' }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('.entry')].pop()?.textContent.includes('count sg_domain prefix=com.example.'));
    assert.match(await page.locator('.entry').last().innerText(), /^cbt>\s+count sg_domain prefix=com\.example\.\n/);
    assert.equal((await lastOutput(page)).trimEnd(), '75');
    assert.match(await page.locator('[data-testid=design-loaded]').innerText(), /^sg_domain: 200 rows in \d+ tablets; sg_domain_plain: 200 rows in 1 tablet$/);
    // The filtered pattern has no cbt line: no button, and the card says why.
    assert.equal(await page.locator('button.pattern', { hasText: 'The same with plain domain keys' }).count(), 0);
    assert.equal(await page.locator('.pattern-off').first().innerText(), "Not in cbt: count: cbt's count takes only prefix=, not FILTER. Switch the console to HBase to run it.");
    // The tour's steps are the design's HBase lines, and its button says they run as such.
    assert.match(await page.locator('.tour-run').innerText(), /^Run this step as HBase lines, show \w/);
    await page.locator('.design-card').screenshot({ path: path.join(SHOTS, `e2e-cbt-patterns-${scheme}.png`) });
    // The LSM view names a Bigtable table's tablets and write buffers.
    await page.locator('.view-tab', { hasText: 'LSM' }).click();
    assert.match(await page.locator('.lsm-nav span').innerText(), /^tablet 1 of \d+ · id \d+ · /);
    assert.match(await page.locator('.lsm-figure figcaption').innerText(), /^Tablet 1 of \d+ of sg_domain, .*write buffers/);
    await page.locator('.view.lsm').screenshot({ path: path.join(SHOTS, `e2e-cbt-lsm-${scheme}.png`) });
    // help lists the newer commands beside cbt 1.23.2's.
    const help = await runCommand(page, 'help');
    assert.match(help, /\ncbt checkandmutate\s+Set a value based on the presence/);
    assert.match(help, /\ncbt samplerowkeys\s+Sample the row keys in a table/);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
