// The keyspace follows a read: after a scan deep into a 3,000-row table, the rows it read are
// in the list's sight and marked, not the table's first rows; a person's own scrolling is left
// alone until the next read; a get and a jump bring their row into sight the same way.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, openApp, runCommand, SHOTS } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

/** The keys of the rows wholly in the list's sight, in order, with whether each is marked read. */
function inSight(page) {
  return page.locator('.klist').evaluate((list) => {
    const box = list.getBoundingClientRect();
    return [...list.querySelectorAll('.krow')]
      .filter((row) => { const r = row.getBoundingClientRect(); return r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5; })
      .map((row) => ({ key: row.querySelector('.kk').textContent, read: row.classList.contains('read') }));
  });
}

const keyOf = (text) => text.match(/key\d{5}/)?.[0];

for (const scheme of ['light', 'dark']) {
  test(`the keyspace brings a deep scan, a get and a jump into sight (${scheme})`, async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: scheme });
    const { page, errors } = await openApp(context, url);
    await page.waitForSelector('.status.ok');
    await runCommand(page, "create 'k', 'f'");
    await runCommand(page, "generate 'k', 'key%05d', 3000");
    await page.locator('.keyspace h3', { hasText: 'Keyspace of k: 3,000 stored rows' }).waitFor();

    await runCommand(page, "scan 'k', {STARTROW => 'key02500', STOPROW => 'key02505'}");
    await page.locator('.keyspace .legend', { hasText: 'The last scan covered rows 2,501 to 2,505 of 3,000' }).waitFor();
    let rows = await inSight(page);
    const read = rows.filter((r) => r.read).map((r) => keyOf(r.key));
    assert.deepEqual(read, ['key02500', 'key02501', 'key02502', 'key02503', 'key02504'], 'the five rows read, in sight and marked');
    assert.ok(!rows.some((r) => keyOf(r.key) === 'key00000'), 'not the table\'s first rows');
    await page.locator('.keyspace').screenshot({ path: path.join(SHOTS, `e2e-keyspace-scan-${scheme}.png`) });

    // The person scrolls back to the top; a write (not a read) leaves the list where they put it.
    await page.locator('.klist').evaluate((el) => { el.scrollTop = 0; });
    await page.waitForFunction(() => document.querySelector('.klist')?.dataset.first === '0');
    await runCommand(page, "put 'k', 'key02999', 'f:v', 'changed'");
    await page.waitForTimeout(200);
    rows = await inSight(page);
    assert.equal(keyOf(rows[0].key), 'key00000', 'the person\'s place kept');

    // A get is a read: its row comes into sight, marked.
    await runCommand(page, "get 'k', 'key01200'");
    await page.waitForFunction(() => document.querySelector('.klist')?.dataset.first !== '0');
    rows = await inSight(page);
    assert.deepEqual(rows.filter((r) => r.read).map((r) => keyOf(r.key)), ['key01200']);

    // A jump goes to the key and focuses its row.
    await page.locator('#jump-key').fill('key00700');
    await page.locator('#jump-key').press('Enter');
    await page.waitForFunction(() => document.querySelector('.klist .krow.focused')?.textContent.includes('key00700'));
    rows = await inSight(page);
    assert.ok(rows.some((r) => keyOf(r.key) === 'key00700'), 'the row jumped to, in sight');
    assert.deepEqual(errors, []);
    await context.close();
  });
}
