// The gallery: open a design, run its access patterns, see what the views show.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, openApp, lastOutput, SHOTS, violations } from './harness.mjs';


let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

async function openDesign(page, title) {
  await page.locator('.design-item', { hasText: title }).click();
  await page.waitForSelector('.design-card');
  await page.waitForFunction(() => [...document.querySelectorAll('.entry .output')].some((e) => e.textContent.startsWith('Loaded the design')));
}

async function runPattern(page, name) {
  const before = await page.locator('.entry').count();
  await page.locator('button.pattern', { hasText: name }).click();
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n, before);
}

test('a design loads, its patterns run, the views explain them', async () => {
  const context = await browser.newContext({ viewport: { width: 1500, height: 940 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');

  await openDesign(page, 'Reversed domain names');
  assert.match(await page.locator('.design-card').innerText(), /recommended/i);
  // The read meters are on their tab (hidden tabs do no work until shown).
  await page.locator('.view-tab', { hasText: 'Regions & read' }).click();
  await runPattern(page, 'All pages of example.com (reversed keys)');
  assert.match(await lastOutput(page), /^75 row\(s\)$/m);
  assert.match(await page.locator('.meter').first().innerText(), /75 returned of 75 examined/);
  // The card shows the run's numbers and its lesson as relations, each ticked.
  assert.match(await page.locator('.lesson').innerText(), /rows scanned = rows returned \(75 = 75\)/);
  assert.equal(await page.locator('.lesson .claim.broken').count(), 0);
  await runPattern(page, 'The same with plain domain keys');
  assert.match(await page.locator('.meter').first().innerText(), /75 returned of 200 examined/);
  assert.match(await page.locator('.lesson').innerText(), /rows scanned > 2 × rows returned \(200 > 150\)/);
  assert.ok(await page.locator('.lesson .claim.held').count() >= 1);

  await openDesign(page, 'Sequential ids hotspot');
  await page.locator('.table-chip', { hasText: 'sg_seq_rev' }).click();
  await page.locator('.table-chip', { hasText: /^sg_seq$/ }).click();
  await page.locator('.view-tab', { hasText: 'Regions & read' }).click();
  assert.equal(await page.locator('.region.hot').count(), 1, 'one hot region for sequential ids');
  await runPattern(page, 'Forty new users, sequential ids');
  const lesson = await page.locator('.lesson').innerText();
  assert.match(lesson, /busiest region's share of writes\s+100 %/);
  assert.match(lesson, /row mutations\s+40/);
  assert.equal(await page.locator('.lesson .claim.broken').count(), 0);
  await page.screenshot({ path: path.join(SHOTS, 'e2e-gallery-hotspot.png') });

  await openDesign(page, 'How many column families');
  await runPattern(page, 'The same into four even families');
  assert.match(await page.locator('.lesson').innerText(), /runs flushed\s+36 — a: 9/);
  await page.locator('.design-card').screenshot({ path: path.join(SHOTS, 'e2e-gallery-lesson.png') });

  await openDesign(page, 'A year of blog posts');
  await runPattern(page, 'Posts of December 2022');
  assert.match(await lastOutput(page), /^8\d\d row\(s\)$/m);
  await page.locator('.view-tab', { hasText: 'Keyspace' }).click();
  await page.locator('.klist .krow.read').first().click();
  await page.waitForSelector('table.versions tbody tr');
  await page.screenshot({ path: path.join(SHOTS, 'e2e-gallery-blog.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('the size control loads the design again at another size, from the keyboard', async () => {
  const context = await browser.newContext({ viewport: { width: 1500, height: 940 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await openDesign(page, 'Users with follow and fan lists');
  const loaded = page.locator('[data-testid=design-loaded]');
  assert.match(await loaded.innerText(), /wb_user: 500 rows in \d+ regions/);
  const size = page.locator('[data-testid=design-size]');
  assert.equal(await size.locator('button[aria-pressed=true]').innerText(), 'medium');
  await runPattern(page, 'Every user');
  assert.match(await page.locator('.lesson').innerText(), /rows returned\s+500/);

  // Small, chosen with the keyboard: the design's own tables are loaded again, after asking.
  page.once('dialog', (d) => d.accept());
  await size.locator('button[data-size=small]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /wb_user: 125 rows/.test(document.querySelector('[data-testid=design-loaded]')?.textContent ?? ''));
  assert.match(await lastOutput(page), /the small sample/);
  assert.equal(await size.locator('button[aria-pressed=true]').innerText(), 'small');
  assert.equal(await page.locator('.lesson').count(), 0, 'the old numbers are gone');
  await runPattern(page, 'Every user');
  assert.match(await page.locator('.lesson').innerText(), /rows returned\s+125/);
  assert.equal(await page.locator('.lesson .claim.broken').count(), 0);
  assert.deepEqual(await violations(page), [], 'the design card with its size control');
  await page.locator('.design-card').screenshot({ path: path.join(SHOTS, 'e2e-gallery-size.png') });

  // The size is kept across a reload, with the tables loaded at it.
  await page.reload();
  await page.waitForSelector('.status.ok');
  await page.locator('.design-item', { hasText: 'Users with follow and fan lists' }).click();
  await page.waitForSelector('[data-testid=design-loaded]');
  assert.equal(await page.locator('[data-testid=design-size] button[aria-pressed=true]').innerText(), 'small');
  assert.match(await page.locator('[data-testid=design-loaded]').innerText(), /wb_user: 125 rows/);
  assert.deepEqual(errors, []);
  await context.close();
});
