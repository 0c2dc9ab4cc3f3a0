// Accessibility, checked: axe-core finds no serious or critical violation on the page, empty,
// with tables, a design and its tour, an A/B compare, a batch, an open completion list and the
// import and share dialogs, in the light and the dark theme.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, runCommand, openApp, violations } from './harness.mjs';


let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

for (const scheme of ['dark', 'light']) {
  test(`no serious or critical axe violation (${scheme})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: scheme });
    const { page } = await openApp(context, url);
    await page.waitForSelector('.status.ok');
    assert.deepEqual(await violations(page), [], 'empty page');

    await page.locator('.quick').click();
    await page.waitForFunction(() => document.querySelectorAll('.entry').length >= 12);
    await page.locator('.klist .krow').first().click();
    await page.waitForSelector('table.versions tbody tr');
    assert.deepEqual(await violations(page), [], 'after the quick start');

    await page.locator('.design-item').first().click();
    await page.waitForSelector('.design-card');
    await page.locator('.tour-run').click();
    await page.waitForSelector('.tour-claims');
    await page.locator('.compare-item').first().click();
    await page.locator('button.compare-run').click();
    await page.waitForSelector('.compare-side .figures');
    await runCommand(page, "create 'b', 'f'\nput 'b', 'r1', 'f:q', 'v'\nput 'b', 'r2' 'f:q', 'v'");
    await runCommand(page, "sacn 'b'");
    const input = page.locator('textarea.input');
    await input.fill('s');
    await input.press('Tab');
    await page.waitForSelector('.completions');
    assert.deepEqual(await violations(page), [], 'with a design, a batch, an error and completions');

    await input.press('Escape');
    await page.locator('button.import-open').click();
    await page.locator('#import-text').fill(' r1 column=f:q, timestamp=1, value=v\n r2 colum=f:q');
    await page.waitForSelector('.import-error');
    assert.deepEqual(await violations(page), [], 'the import dialog with an error');
    await page.keyboard.press('Escape');
    await page.locator('button.share-open').click();
    await page.waitForSelector('#share-link');
    assert.deepEqual(await violations(page), [], 'the share dialog');
    await page.keyboard.press('Escape');

    // A hot region: its badge leaves the start key readable, and its tile's text keeps its
    // contrast (the dark theme's hottest tile was #e6eef6 on #ff5a3c, 2.6:1).
    await runCommand(page, "create 'hot', 'f', SPLITS => ['m000000000020', 'n']");
    await runCommand(page, "generate 'hot', 'm%012d', 30");
    await page.locator('.view-tab', { hasText: 'Regions & read' }).click();
    const tile = page.locator('.region.hot').first();
    await tile.waitFor();
    const key = await tile.locator('.region-key').boundingBox();
    const badge = await tile.locator('.hot-badge').boundingBox();
    assert.ok(badge.y >= key.y + key.height, `the badge (${badge.y}) is below the start key (${key.y + key.height})`);
    assert.deepEqual(await violations(page), [], 'a hot region');
    // Neighbouring start keys that share a long prefix show what tells them apart.
    await runCommand(page, "create 'spread', 'f', SPLITS => ['user0000100', 'user0000200']");
    await page.locator('button.table-item', { hasText: 'spread' }).click();
    await page.locator('.region-key', { hasText: '…00200' }).waitFor();
    assert.deepEqual(await page.locator('.region-key').allInnerTexts(), ['−∞', 'user0000100', '…00200']);
    assert.equal(await page.locator('.region', { hasText: '…00200' }).getAttribute('title').then((t) => t.split('\n')[0]), '[user0000200, +∞)');
    await context.close();
  });
}
