// Every design's guided tour, on one page: each design opened in turn, each step run with its
// button; the step's number is shown with its relation holding, and the views pane turned to
// the view the step names.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, openApp, SHOTS } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

/**
 * Runs the tour step on show with its button, in the page (one round trip a step): resolves
 * with the step counter, the relations the step states, the numbers shown once it ran, how
 * many relations broke, the view the button named and the view the pane shows.
 */
function runStep(page) {
  return page.evaluate(() => new Promise((resolve, reject) => {
    const q = (s) => document.querySelector(s);
    const run = q('.tour-run');
    const view = run.textContent.replace(/^Run this step, show /, '');
    const count = q('.tour-count').textContent;
    const shows = q('.tour-shows').textContent.replace(/^Shows: /, '').split('; ');
    const t0 = performance.now();
    let shown = 0;
    run.click();
    const check = () => {
      const items = [...document.querySelectorAll('.tour-claims .claim')];
      const turned = q('.view-tab[aria-selected="true"]').textContent === view;
      // The numbers show, and the pane turns to the step's view (a render later).
      if (items.length && !shown) shown = performance.now();
      if (items.length && (turned || performance.now() - shown > 10000)) {
        resolve({
          count, shows, view,
          numbers: items.map((li) => li.lastChild.textContent),
          broken: document.querySelectorAll('.tour-claims .claim.broken').length,
          tab: q('.view-tab[aria-selected="true"]').textContent,
          ms: performance.now() - t0,
        });
      } else if (performance.now() - t0 > 60000) reject(new Error(`${count}: no numbers after a minute`));
      else requestAnimationFrame(check);
    };
    check();
  }));
}

test('every design\'s tour runs, each step showing its number', async () => {
  const context = await browser.newContext({ viewport: { width: 1500, height: 940 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  const designs = await page.locator('.design-item:not(.compare-item)').count();
  // The 34 designs of the documents and their topics, and five more: a secondary index, random
  // salt, colliding keys, one-to-many and unfollow.
  assert.ok(designs >= 39, `${designs} designs`);
  let steps = 0;
  for (let d = 0; d < designs; d++) {
    const item = page.locator('.design-item:not(.compare-item)').nth(d);
    const title = (await item.innerText()).replace(/\s*\([^)]*\)\s*$/, '').trim();
    await item.click();
    await page.waitForFunction((t) => document.querySelector('.design-title')?.textContent === t, title);
    await page.waitForSelector('.tour-count');
    const count = await page.locator('.tour-count').innerText();
    const [, first, total] = count.match(/^Step (\d+) of (\d+)$/);
    assert.equal(first, '1', `${title}: the tour starts at step 1`);
    assert.ok(+total >= 3 && +total <= 7, `${title}: ${total} steps`);
    const started = Date.now();
    const inPage = [];
    for (let s = 1; s <= +total; s++) {
      const r = await runStep(page);
      const where = `${title} step ${s}`;
      inPage.push(Math.round(r.ms));
      assert.equal(r.count, `Step ${s} of ${total}`);
      assert.equal(r.tab, r.view, `${where}: the views pane shows ${r.view}`);
      assert.equal(r.numbers.length, r.shows.length, `${where}: one number per relation`);
      r.numbers.forEach((line, i) => {
        // "rows scanned = rows returned (75 = 75)": the relation with the figures measured.
        assert.ok(line.includes(r.shows[i]), `${where}: ${line} states ${r.shows[i]}`);
        assert.match(line, /\(-?[\d.]+ [=<>≤≥] -?[\d.]+\)$/, `${where}: ${line}`);
      });
      // Every claim holds in the page as in the native tour test (tests/tours.rs), although the
      // page runs the whole gallery in one engine (tests/design_history.rs).
      assert.equal(r.broken, 0, `${where}: ${r.numbers.join('; ')}`);
      steps++;
      if (s < +total) await page.locator('.tour-next').click();
      else assert.ok(await page.locator('.tour-next').isDisabled(), 'Next ends at the last step');
    }
    console.log(`${title}: ${total} steps in ${Date.now() - started} ms (in the page: ${inPage.join(', ')} ms)`);
  }
  assert.ok(steps >= 3 * designs, `${steps} steps`);
  assert.deepEqual(errors, []);
  await context.close();
});

for (const scheme of ['dark', 'light']) {
  test(`the tour at 800 px, by keyboard (${scheme})`, async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 1000 }, colorScheme: scheme });
    const { page, errors } = await openApp(context, url);
    await page.waitForSelector('.status.ok');
    await page.locator('.design-item', { hasText: 'A year of blog posts' }).click();
    await page.waitForSelector('.tour-run');
    // Next, Next, Next from the keyboard, then run the step: the writes' hotspot.
    await page.locator('.tour-next').focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('Enter');
    assert.equal(await page.locator('.tour-count').innerText(), 'Step 5 of 5');
    await page.locator('.tour-back').focus();
    await page.keyboard.press('Enter');
    await page.locator('.tour-next').focus();
    await page.keyboard.press('Enter');
    await page.locator('.tour-run').focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('.tour-claims');
    assert.match(await page.locator('.tour-claims').textContent(), /busiest region's share of writes \(%\) > 90 \(100 > 90\)/);
    assert.equal(await page.locator('.view-tab[aria-selected="true"]').innerText(), 'Hotspots');
    await page.locator('.tour').scrollIntoViewIfNeeded();
    await page.locator('.design-card').screenshot({ path: path.join(SHOTS, `e2e-tour-${scheme}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}
