// A/B compare: a pair opened from the gallery runs its one workload on both designs, each on
// an engine of its own, and shows the figures and keyspace maps side by side; the person's own
// table with a side's name is untouched.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, openApp, runCommand, SHOTS } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

/** The figure a side shows under a heading. */
async function figure(page, side, name) {
  const row = page.locator(`.compare-side[aria-label^="${side}:"] tr`, { hasText: name });
  return row.locator('td').innerText();
}

for (const scheme of ['dark', 'light']) {
  test(`sequential against hashed ids, side by side (${scheme})`, async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 1400 }, colorScheme: scheme });
    const { page, errors } = await openApp(context, url);
    await page.waitForSelector('.status.ok');
    // The person's own table, named like side A's.
    await runCommand(page, "create 'ab_seq', 'x'\nput 'ab_seq', 'mine', 'x:q', 'kept'");

    await page.locator('.compare-item', { hasText: 'Sequential ids against hashed ids' }).click();
    await page.waitForSelector('.compare-card');
    assert.match(await page.locator('.compare-card').innerText(), /One workload: 1,200 users exist; 100 more sign up/);
    await page.locator('button.compare-run').click();
    await page.waitForSelector('.compare-side .figures');

    assert.equal(await figure(page, 'A', "busiest region's share of writes"), '100 %');
    const b = parseFloat(await figure(page, 'B', "busiest region's share of writes"));
    assert.ok(b < 50, `hashed ids: the busiest region took ${b} %`);
    assert.equal(await figure(page, 'A', 'row mutations per action'), '1');
    assert.equal(await figure(page, 'B', 'row mutations per action'), '1');
    assert.match(await figure(page, 'A', 'rows scanned / returned'), /^120 \/ 120$/);
    assert.match(await figure(page, 'B', 'rows scanned / returned'), /^1320 \/ 120$/);
    // Each side's lesson and the relations between them hold.
    assert.equal(await page.locator('.compare-card .claim.broken').count(), 0);
    assert.ok(await page.locator('.compare-versus .claim.held').count() >= 2);
    // A keyspace map of each side's table.
    assert.equal(await page.locator('.compare-side svg.minimap').count(), 2);
    assert.equal(await page.locator('.compare-side svg.minimap').first().getAttribute('data-regions'), '4');

    await page.locator('.compare-card').screenshot({ path: path.join(SHOTS, `e2e-compare-${scheme}.png`) });
    // Nothing of the comparison reached the person's engine.
    const out = await runCommand(page, "scan 'ab_seq'");
    assert.match(out, /mine\s+column=x:q, timestamp=.*, value=kept/);
    assert.match(out, /^1 row\(s\)$/m);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('plain against salted time keys: one hot region against a scan per bucket', async () => {
  const context = await browser.newContext({ viewport: { width: 800, height: 1400 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await page.locator('.compare-item', { hasText: 'Plain time keys against salted' }).click();
  await page.waitForSelector('.compare-card');
  await page.locator('button.compare-run').click();
  await page.waitForSelector('.compare-side .figures');
  assert.equal(await figure(page, 'A', "busiest region's share of writes"), '100 %');
  assert.ok(parseFloat(await figure(page, 'B', "busiest region's share of writes")) < 25);
  assert.equal(await page.locator('.compare-card .claim.broken').count(), 0);
  assert.ok(await page.locator('.compare-versus .claim.held').count() >= 3);
  await page.locator('.compare-card').screenshot({ path: path.join(SHOTS, 'e2e-compare-salted.png') });
  assert.deepEqual(errors, []);
  await context.close();
});
