// An open design card beside the views, at 1440×900 as a person reads it: after a pattern
// runs, and after a tour step, the numbers it produced and the view it points at are in sight
// together (the card scrolls on its own above the views); the card is walked by keyboard with
// a visible focus; axe-core finds no serious or critical violation on it. Screenshots in both
// themes, and at a narrow width, where the panes stack and the page scrolls to the numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, openApp, SHOTS, violations } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

/**
 * How many pixels of the element matching `selector` are in sight: its box cut by the window
 * and by every box around it that clips (a pane or a card that scrolls).
 */
function shownPx(page, selector) {
  return page.evaluate((selector) => {
    const el = document.querySelector(selector);
    if (!el) return 0;
    const r = el.getBoundingClientRect();
    let top = Math.max(r.top, 0);
    let bottom = Math.min(r.bottom, window.innerHeight);
    for (let p = el.parentElement; p; p = p.parentElement) {
      if (/(auto|scroll|hidden)/.test(getComputedStyle(p).overflowY)) {
        const pr = p.getBoundingClientRect();
        top = Math.max(top, pr.top);
        bottom = Math.min(bottom, pr.bottom);
      }
    }
    return Math.max(0, Math.round(bottom - top));
  }, selector);
}

/** The height of the element matching `selector`, whole. */
const heightPx = (page, selector) => page.locator(selector).first().evaluate((el) => Math.round(el.getBoundingClientRect().height));

/** The panel of the view tab on show. */
const PANEL = '.view-panel:not([hidden])';

for (const scheme of ['light', 'dark']) {
  test(`a pattern's number and its view in sight together at 1440×900 (${scheme})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: scheme });
    const { page, errors } = await openApp(context, url);
    await page.waitForSelector('.status.ok');
    await page.locator('.design-item', { hasText: 'Sequential ids hotspot' }).click();
    await page.waitForSelector('.design-card .tour-run');
    // The card leaves the views in sight below it: their tabs and the top of the view on show.
    assert.ok(await shownPx(page, '.view-tabs') >= await heightPx(page, '.view-tabs'), 'the view tabs in sight under the card');
    assert.ok(await shownPx(page, PANEL) >= 250, `${await shownPx(page, PANEL)} px of the view in sight`);
    assert.deepEqual(await violations(page), [], 'an open design card');

    // The sequential ids' pattern: its numbers at the end of the card, the Hotspots view below.
    // A line half typed in the console stays there, and the focus on the pattern's button.
    await page.locator('textarea.input').fill("scan 'sg_seq', {LIMIT => 3");
    await page.locator('.design-card button.pattern', { hasText: 'Forty new users, sequential ids' }).click();
    await page.waitForSelector('.design-card .lesson .claims');
    assert.equal(await page.locator('textarea.input').inputValue(), "scan 'sg_seq', {LIMIT => 3");
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Forty new users, sequential ids');
    assert.match(await page.locator('.lesson .claims').innerText(), /busiest region's share of writes \(%\) > 90 \(100 > 90\)/);
    assert.equal(await page.locator('.lesson-view').innerText(), 'Ran. Now in the Hotspots view below.');
    assert.equal(await page.locator('.view-tab[aria-selected="true"]').innerText(), 'Hotspots');
    await page.waitForTimeout(300);
    const claims = await heightPx(page, '.lesson .claims');
    assert.equal(await shownPx(page, '.lesson .claims'), claims, 'the claim in sight, whole');
    assert.ok(await shownPx(page, `${PANEL} .view`) >= 250, `${await shownPx(page, `${PANEL} .view`)} px of the Hotspots view in sight`);
    await page.screenshot({ path: path.join(SHOTS, `e2e-design-card-pattern-${scheme}.png`) });

    // A tour step: its number in the tour box, the Keyspace view below.
    await page.locator('.design-card .tour-run').click();
    await page.waitForSelector('.tour-claims .claim');
    assert.equal(await page.locator('.view-tab[aria-selected="true"]').innerText(), 'Keyspace');
    await page.waitForTimeout(300);
    assert.equal(await page.locator('.design-card .lesson').count(), 0, 'the numbers on show are the step\'s');
    assert.equal(await shownPx(page, '.tour-claims'), await heightPx(page, '.tour-claims'), 'the step\'s number in sight, whole');
    assert.ok(await shownPx(page, `${PANEL} .view`) >= 250, `${await shownPx(page, `${PANEL} .view`)} px of the Keyspace view in sight`);
    await page.screenshot({ path: path.join(SHOTS, `e2e-design-card-tour-${scheme}.png`) });
    assert.deepEqual(await violations(page), [], 'a design card after a tour step');

    // The keyboard walks the card in order, each stop with a visible focus ring.
    await page.locator('.design-card .tour-next').focus();
    const stops = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      stops.push(await page.evaluate(() => {
        const el = document.activeElement;
        const s = getComputedStyle(el);
        return { text: el.textContent.trim().slice(0, 40), inCard: !!el.closest('.design-card'), ring: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1 };
      }));
    }
    assert.deepEqual(stops.map((s) => s.inCard), [true, true, true, true, true, true], JSON.stringify(stops));
    assert.ok(stops.every((s) => s.ring), `a focus ring on every stop: ${JSON.stringify(stops)}`);
    assert.deepEqual(stops.slice(0, 3).map((s) => s.text), ['sg_seq', 'sg_seq_rev', 'Reset this design']);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a narrow window scrolls to a pattern\'s numbers, the view after them; narrower, the heatmaps shrink to fit', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await page.locator('.design-item', { hasText: 'Sequential ids hotspot' }).click();
  await page.waitForSelector('.design-card .tour-run');
  await page.locator('.design-card button.pattern', { hasText: 'Forty new users, reversed ids' }).click();
  await page.waitForSelector('.design-card .lesson .claims');
  await page.waitForTimeout(300);
  assert.match(await page.locator('.lesson .claims').innerText(), /busiest region's share of writes \(%\) < 50 \(30 < 50\)/);
  assert.equal(await shownPx(page, '.lesson .claims'), await heightPx(page, '.lesson .claims'), 'the claims in sight, whole');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page is ${overflow} px wider than the window`);
  await page.screenshot({ path: path.join(SHOTS, 'e2e-design-card-narrow.png') });

  // Narrower than a heatmap drawn at its own size: each map is scaled down whole inside its
  // view (its right edge is the newest time), and the Simulate view's list of workloads, named
  // by the designs' titles, stays inside the window.
  await page.setViewportSize({ width: 320, height: 844 });
  await page.waitForTimeout(300);
  const maps = await page.evaluate(() => [...document.querySelectorAll('.heatmap svg')].map((svg) => {
    const view = svg.closest('.view').getBoundingClientRect();
    const box = svg.getBoundingClientRect();
    return { width: svg.width.baseVal.value, drawn: Math.round(box.width), past: Math.round(box.right - view.right) };
  }));
  assert.ok(maps.length >= 2, `${maps.length} heatmaps`);
  for (const m of maps) {
    assert.ok(m.past < 0, `a heatmap ends ${m.past} px past its view's right edge`);
    assert.ok(m.drawn < m.width, `a heatmap ${m.width} px wide drawn ${m.drawn} px wide`);
  }
  await page.locator('.view-tab', { hasText: 'Simulate' }).click();
  await page.waitForSelector('select.sim-gallery');
  assert.equal(await page.locator('select.sim-gallery option[value="schema.sequential-ids"]').innerText(), 'Sequential ids hotspot; reversed ids spread');
  const wider = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(wider <= 0, `with the Simulate view the page is ${wider} px wider than the window`);
  // The console's input has a line of its own, nearly the window's width (it was 90 px).
  const inputWidth = (await page.locator('textarea.input').boundingBox()).width;
  assert.ok(inputWidth >= 280, `the input is ${inputWidth} px wide at 320 px`);
  // It grows with what is typed: a command wrapped over three lines is shown whole, not
  // scrolled inside a box of two (field-sizing), up to 40% of the window's height.
  const input = page.locator('textarea.input');
  await input.fill("put 't', 'row-0001', 'f:a', 'a value long enough to wrap over a phone'");
  const grown = await input.evaluate((el) => ({ shown: el.clientHeight, needed: el.scrollHeight }));
  assert.equal(grown.shown, grown.needed, `the input shows ${grown.shown} of ${grown.needed} px`);
  await input.fill(Array.from({ length: 200 }, (_, i) => `put 't', 'r${i}', 'f:a', '${i}'`).join('\n'));
  const tall = (await input.boundingBox()).height;
  assert.ok(tall <= 844 * 0.4 + 1, `200 lines make the input ${tall} px tall`);
  await input.fill('');
  assert.deepEqual(errors, []);
  await context.close();
});
