// A design never overwrites a table of the person's: opening it asks, "Load as" puts it under
// other names (its access patterns follow), "Replace" drops the person's table only when asked,
// Escape cancels, and "Reset this design" restores the design's tables.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, openApp, runCommand, lastOutput, SHOTS } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const loadedNotes = (page) => page.evaluate(() => [...document.querySelectorAll('.entry .output')].filter((e) => e.textContent.startsWith('Loaded the design')).length);

async function waitLoaded(page, n) {
  await page.waitForFunction((n) => [...document.querySelectorAll('.entry .output')].filter((e) => e.textContent.startsWith('Loaded the design')).length >= n, n);
}

test('a design with the name of a table of yours asks, and your data survives', async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await page.locator('#pref-theme').selectOption('dark');
  await runCommand(page, "create 'blog', 'mine'");
  await runCommand(page, "put 'blog', 'keep', 'mine:q', 'my data'");
  await page.waitForSelector('.status.ok');

  // Opening the design asks; the focus is on the safe choice; Escape cancels.
  await page.locator('.design-item', { hasText: 'A year of blog posts' }).click();
  const dialog = page.locator('[data-testid=clash-dialog]');
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /blog — 1 row/);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.choice), 'rename');
  await page.screenshot({ path: path.join(SHOTS, 'e2e-clash-dark.png') });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await loadedNotes(page), 0);
  assert.equal(await page.locator('.design-card').count(), 0);
  // The focus went back to the design that was clicked.
  assert.match(await page.evaluate(() => document.activeElement?.textContent ?? ''), /A year of blog posts/);

  // Again, in the light theme at 800 px, and Enter loads it under another name.
  await page.locator('#pref-theme').selectOption('light');
  await page.setViewportSize({ width: 800, height: 900 });
  await page.locator('.design-item', { hasText: 'A year of blog posts' }).click();
  await dialog.waitFor();
  await page.screenshot({ path: path.join(SHOTS, 'e2e-clash-light-800.png') });
  await page.keyboard.press('Enter');
  await waitLoaded(page, 1);
  await page.setViewportSize({ width: 1400, height: 900 });
  const card = page.locator('.design-card');
  assert.equal(await card.locator('.table-chip').innerText(), 'blog_2');
  assert.match(await card.innerText(), /blog → blog_2/);
  const before = await page.locator('.entry').count();
  await card.locator('button.pattern', { hasText: 'Posts of December 2022' }).click();
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n, before);
  assert.match(await page.locator('.entry').last().innerText(), /count 'blog_2'/);
  assert.match(await lastOutput(page), /^8\d\d row\(s\)$/m);
  assert.equal(await page.locator('.lesson .claim.broken').count(), 0);
  assert.match(await runCommand(page, "get 'blog', 'keep'"), /mine:q\s+timestamp=[^,]+, value=my data/);
  assert.match(await runCommand(page, "count 'blog'"), /^1 row\(s\)$/m);
  await card.screenshot({ path: path.join(SHOTS, 'e2e-clash-card.png') });

  // After a reload: your table is still yours, the design's is its own (no question).
  await page.waitForSelector('.status.ok');
  await page.reload();
  await page.waitForSelector('.status.ok');
  assert.match(await runCommand(page, "get 'blog', 'keep'"), /value=my data/);
  await page.locator('.design-item', { hasText: 'A year of blog posts' }).click();
  await page.waitForSelector('.design-card');
  assert.equal(await dialog.count(), 0);
  assert.equal(await page.locator('.design-card .table-chip').innerText(), 'blog_2');

  // Reset this design: a row written into the design's table goes, yours stays.
  await runCommand(page, "put 'blog_2', 'zzz-mine', 'cf:t', 'x'");
  assert.match(await runCommand(page, "get 'blog_2', 'zzz-mine'"), /1 row\(s\)/);
  page.once('dialog', (d) => d.accept());
  await page.locator('[data-testid=reset-design]').click();
  await waitLoaded(page, 1);
  assert.match(await runCommand(page, "get 'blog_2', 'zzz-mine'"), /0 row\(s\)/);
  assert.match(await runCommand(page, "get 'blog', 'keep'"), /value=my data/);

  // Replace, chosen with the keyboard: only then is the person's table dropped.
  await runCommand(page, "create 'sg_users', 'mine'");
  await page.locator('.design-item', { hasText: 'Hashed string ids' }).click();
  await dialog.waitFor();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.choice), 'replace');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => [...document.querySelectorAll('.entry .output')].some((e) => /Loaded the design “Hashed string ids[^]*First it dropped the tables sg_users/.test(e.textContent)));
  assert.doesNotMatch(await runCommand(page, "describe 'sg_users'"), /NAME => 'mine'/);
  assert.deepEqual(errors, []);
  await context.close();
});
