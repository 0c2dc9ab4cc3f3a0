// The simulator as a person uses it: a workload written in the form (and refused where the JSON
// is wrong, pointing at its path), run in steps, its heatmap drilled into a key prefix, a moment
// picked on the timeline with the keyboard and the regions of that moment sorted; then a compare
// pair's two key designs simulated on one timeline. Screenshots in both themes; axe-core finds
// no serious or critical violation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, openApp, SHOTS, violations } from './harness.mjs';


let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

/** Types `value` into the form's field labelled `label` (within `scope`) and commits it. */
async function setField(scope, label, value) {
  const input = scope.locator('label.wf-field', { hasText: label }).locator('input').first();
  await input.fill(value);
  await input.press('Tab');
}

for (const scheme of ['dark', 'light']) {
  test(`a workload written, run, drilled into, a moment picked and its regions sorted (${scheme})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1600 }, colorScheme: scheme });
    const { page, errors } = await openApp(context, url);
    await page.waitForSelector('.status.ok');
    await page.locator('#view-tab-5').click();
    const view = page.locator('.simulate-view');
    await view.waitFor();

    // The form writes the workload: two hours, four servers, 200 sensors with a Zipf skew.
    const form = view.locator('.workload-form');
    await setField(form, 'hours of traffic', '2');
    await setField(form, 'region servers', '4');
    await setField(form, 'MAX_FILESIZE (MB)', '256');
    await setField(form, 'entities', '200');
    await form.locator('label.wf-field', { hasText: 'drawn' }).locator('select').selectOption('zipf');
    await form.locator('label.wf-field', { hasText: 'add an operation' }).locator('select').selectOption('scan a prefix');
    const json = view.locator('textarea.sim-json');
    const written = JSON.parse(await json.inputValue());
    assert.equal(written.duration_ms, 7_200_000);
    assert.equal(written.cluster.region_servers, 4);
    assert.equal(written.cluster.max_filesize, 268_435_456);
    assert.deepEqual(written.tables[0].key[0].distribution, { zipf: { s: 1.1 } });
    assert.equal(written.tables[0].key[0].count, 200);
    assert.deepEqual(written.tables[0].operations.map((o) => o.kind), ['put_new', 'get', 'prefix_scan']);

    // JSON typed by hand: an error names the path, and Run waits for a workload that reads.
    const good = await json.inputValue();
    await json.fill(good.replace('"region_servers": 4', '"region_servers": -4'));
    await json.press('Tab');
    assert.match(await view.locator('#sim-json-error').innerText(), /^\$\.cluster\.region_servers: /);
    assert.ok(await view.locator('.sim-run-button').isDisabled());
    await json.fill(good.replace('"seed": 1', '"seed": 7'));
    await json.press('Tab');
    assert.equal(await view.locator('#sim-json-error').innerText(), '');
    assert.equal(await form.locator('label.wf-field', { hasText: 'seed' }).locator('input').inputValue(), '7');

    // Run: progress, then the Key Visualizer of the table.
    await view.locator('.sim-run-button').click();
    await view.locator('.sim-status', { hasText: 'Simulated 2 hours of traffic on 1 table(s)' }).waitFor({ timeout: 120_000 });
    const heat = view.locator('canvas.keyvis-heat');
    await heat.waitFor();
    const size = await heat.evaluate((c) => [c.width, c.height]);
    assert.equal(size[0], 1440, 'a column per step (the duration / 1,440, at least a second)');
    assert.ok(size[1] > 1, `${size[1]} key ranges`);
    assert.match(await heat.getAttribute('aria-label'), /^Heatmap of writes over \d+ key ranges of the whole table and 1440 steps from 0:00 to 2:00/);
    assert.match(await view.locator('.sim-provenance').innerText(), /Counted: each operation's total in each step[\s\S]*Estimated from weighted samples/);
    // The figures as text.
    await view.locator('.keyvis-text summary').click();
    assert.ok(await view.locator('.keyvis-text tbody tr').count() > 0);

    // Drill into the busiest prefix: the scope shows in the breadcrumbs, the redraw is timed.
    const prefix = await view.locator('.prefixes button.drill code').first().innerText();
    await view.locator('.prefixes button.drill').first().click();
    await view.locator('.crumbs li', { hasText: prefix }).waitFor();
    assert.match(await heat.getAttribute('aria-label'), new RegExp(`of keys starting ${prefix.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} `));
    await view.locator('.keyvis-timing', { hasText: 'redrawn in' }).waitFor();
    const timing = await view.locator('.keyvis-timing').innerText();
    const ms = Number(timing.match(/^redrawn in ([\d,]+) ms$/)[1].replace(/,/g, ''));
    console.log(`drill-down redraw: ${ms} ms`);
    await view.locator('button', { hasText: 'Zoom in' }).click();
    await view.locator('.keyvis-timing', { hasText: 'redrawn in' }).waitFor();
    console.log(`zoom redraw: ${await view.locator('.keyvis-timing').innerText()}`);
    await view.locator('button', { hasText: 'Zoom out' }).click();

    // A moment picked on the timeline with the keyboard: the regions table follows it.
    const slider = view.locator('.keyvis-moment input[type=range]');
    await slider.focus();
    await slider.press('Home');
    await slider.press('ArrowRight');
    await slider.press('ArrowRight');
    assert.equal(await view.locator('.keyvis-moment output').innerText(), '0:00 (step 3 of 1440)');
    assert.match(await view.locator('.region-table caption').innerText(), /^\d+ regions at 0:00 \(step 3 of 1440\)$/);
    await slider.press('End');
    assert.equal(await view.locator('.keyvis-moment output').innerText(), '1:59 (step 1440 of 1440)');

    // Sort the regions by writes per second: descending, then ascending.
    const writes = view.locator('.region-table th', { hasText: 'writes/s' });
    await writes.locator('button').click();
    assert.equal(await writes.getAttribute('aria-sort'), 'descending');
    const column = async () => (await view.locator('.region-table tbody tr td:nth-child(7)').allInnerTexts()).map((t) => Number(t.replace(/,/g, '')));
    const down = await column();
    assert.deepEqual(down, [...down].sort((a, b) => b - a));
    await writes.locator('button').click();
    assert.equal(await writes.getAttribute('aria-sort'), 'ascending');
    const up = await column();
    assert.deepEqual(up, [...up].sort((a, b) => a - b));

    assert.ok(await view.locator('.findings li, .sim-section p.hint').count() > 0);
    await view.screenshot({ path: path.join(SHOTS, `e2e-simulate-${scheme}.png`) });
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

for (const scheme of ['dark', 'light']) {
  test(`two key designs on one timeline (${scheme})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1600 }, colorScheme: scheme });
    const { page, errors } = await openApp(context, url);
    await page.waitForSelector('.status.ok');
    await page.locator('.compare-item', { hasText: 'Sequential ids against hashed ids' }).click();
    const card = page.locator('.compare-card');
    await card.waitFor();
    await card.locator('button.pair-simulate').click();
    const verdict = card.locator('.verdict-line');
    await verdict.waitFor({ timeout: 180_000 });
    assert.match(await verdict.innerText(), /^B \(ab_hashed\) holds up better: its busiest region server took 13 % of an hour's writes on average, A \(ab_seq\)'s 73\.8 %\.$/);
    assert.equal(await card.locator('.sim-compare-table tbody tr').count(), 12);
    assert.equal(await card.locator('canvas.keyvis-heat').count(), 2);
    await card.locator('.pair-simulation').screenshot({ path: path.join(SHOTS, `e2e-simulate-compare-${scheme}.png`) });
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a narrow window keeps the Simulate view usable', async () => {
  const context = await browser.newContext({ viewport: { width: 420, height: 1200 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await page.locator('#view-tab-5').click();
  await page.locator('.simulate-view').waitFor();
  const overflow = await page.locator('.simulate-view').evaluate((el) => el.scrollWidth - el.clientWidth);
  assert.ok(overflow <= 0, `the view is ${overflow} px wider than its pane`);
  await page.locator('.simulate-view').screenshot({ path: path.join(SHOTS, 'e2e-simulate-narrow.png') });
  assert.deepEqual(errors, []);
  await context.close();
});
