// Nothing lost: reloads, a page closed mid-batch, two tabs, export/import, offline, a full disk.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, launch, runCommand, openApp, SHOTS } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve('/apps/rowkey/')); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const saved = (page) => page.waitForSelector('.status.ok', { timeout: 20000 });
const withoutTook = (text) => text.split('\n').filter((l) => !l.startsWith('Took ')).join('\n');

test('rows written before a reload are there after it', async () => {
  const context = await browser.newContext();
  const { page } = await openApp(context, url);
  await runCommand(page, "create 'keep', {NAME => 'f', VERSIONS => 2}, SPLITS => ['m']");
  await runCommand(page, "put 'keep', 'a', 'f:q', 'one', 10\nput 'keep', 'a', 'f:q', 'two', 20\nput 'keep', 'z', 'f:q', 'far'");
  await runCommand(page, "flush 'keep'");
  await runCommand(page, "put 'keep', 'b', 'f:q', 'after flush'");
  await saved(page);
  const before = await runCommand(page, "scan 'keep', {VERSIONS => 2}");
  await page.reload();
  await saved(page);
  const afterReload = await runCommand(page, "scan 'keep', {VERSIONS => 2}");
  assert.equal(withoutTook(afterReload), withoutTook(before));
  assert.match(afterReload, /value=two[\s\S]*value=one[\s\S]*value=after flush[\s\S]*value=far/);
  await context.close();
});

test('a page closed in the middle of a batch leaves a prefix of the acknowledged writes', async () => {
  const context = await browser.newContext();
  const { page } = await openApp(context, url);
  await runCommand(page, "create 'batch', 'f'");
  await saved(page);
  // Fire 400 separate commands without waiting, then close the page while they are saved.
  await page.evaluate(() => {
    const input = document.querySelector('textarea.input');
    for (let i = 0; i < 400; i++) {
      input.value = `put 'batch', 'row${String(i).padStart(4, '0')}', 'f:v', '${'x'.repeat(200)}${i}'`;
      input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    }
  });
  await page.waitForFunction(() => document.querySelectorAll('.ack.saved').length > 20);
  const acknowledged = await page.locator('.ack.saved').count();
  await page.close();

  const { page: again } = await openApp(context, url);
  await saved(again);
  const out = await runCommand(again, "scan 'batch', {COLUMNS => ['f:v']}");
  const rows = [...out.matchAll(/^ (row\d{4}) column=f:v, timestamp=\d+, value=(x+)(\d+)$/gm)];
  const n = Number(out.match(/^(\d+) row\(s\)$/m)[1]);
  assert.equal(rows.length, n, 'every row is whole');
  assert.ok(n >= acknowledged - 1, `acknowledged ${acknowledged} puts (create included), found ${n} rows`);
  rows.forEach((m, i) => {
    assert.equal(m[1], `row${String(i).padStart(4, '0')}`, 'rows form a prefix of the batch');
    assert.equal(m[2].length, 200);
    assert.equal(Number(m[3]), i);
  });
  await context.close();
});

test('two tabs take turns: the second reads until the first closes, then writes', async () => {
  const context = await browser.newContext();
  const { page: first } = await openApp(context, url);
  await runCommand(first, "create 'shared', 'f'\nput 'shared', 'from-first', 'f:q', '1'");
  await saved(first);
  const { page: second } = await openApp(context, url);
  await second.waitForSelector('.status.warn');
  assert.match(await second.locator('.banner.warn').innerText(), /read-only/);
  assert.match(await runCommand(second, "put 'shared', 'x', 'f:q', '2'"), /^ERROR: this tab is read-only/);
  assert.match(await runCommand(second, "scan 'shared'"), /from-first/);
  await runCommand(first, "put 'shared', 'late-first', 'f:q', '3'");
  await saved(first);
  await first.close();
  await saved(second);
  assert.equal(await second.locator('.banner.warn').count(), 0);
  await runCommand(second, "put 'shared', 'from-second', 'f:q', '4'");
  await saved(second);
  const scan = await runCommand(second, "scan 'shared'");
  assert.match(scan, /from-first[\s\S]*from-second[\s\S]*late-first/);
  await second.close();
  const { page: third } = await openApp(context, url);
  await saved(third);
  assert.match(await runCommand(third, "count 'shared'"), /^3 row\(s\)$/m);
  await context.close();
});

test('export then import into a fresh profile gives the same scans', async () => {
  const script = [
    "create 'ex', {NAME => 'f', VERSIONS => 3}, 'g', SPLITS => ['k']",
    "put 'ex', 'a', 'f:q', 'v1', 100", "put 'ex', 'a', 'f:q', 'v2', 200", "put 'ex', \"\\x00bin\", 'g:z', \"\\xFF\\x01\"",
    "delete 'ex', 'a', 'f:q', 200", "deleteall 'ex', 'p', 'g:c', 50", "put 'ex', 'p', 'g:c', 'masked', 40", "put 'ex', 'q', 'f:r', 'plain'",
  ].join('\n');
  const reads = "scan 'ex', {RAW => true, VERSIONS => 5}\nscan 'ex', {VERSIONS => 5}\nget_splits 'ex'";
  const collect = async (page) => {
    const outputs = [];
    for (const read of reads.split('\n')) outputs.push(await runCommand(page, read));
    return withoutTook(outputs.join('\n'));
  };
  for (const [kind, ext] of [['all-json', 'json'], ['all-script', 'hbase']]) {
    const source = await browser.newContext({ acceptDownloads: true });
    const { page } = await openApp(source, url);
    await runCommand(page, script);
    await saved(page);
    const expected = await collect(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('details.menu summary').click().then(() => page.click(`button[data-export="${kind}"]`))]);
    const file = path.join(os.tmpdir(), `rowkey-export-${process.pid}.${ext}`);
    await download.saveAs(file);
    assert.equal(download.suggestedFilename(), `rowkey.${ext}`);
    await source.close();

    const fresh = await browser.newContext();
    const { page: target } = await openApp(fresh, url);
    await saved(target);
    await target.setInputFiles('input[type=file]', file);
    await target.waitForFunction(() => [...document.querySelectorAll('.entry .output')].some((e) => e.textContent.startsWith('Imported')));
    await saved(target);
    assert.equal(await collect(target), expected, `${kind} round trip`);
    await target.reload();
    await saved(target);
    assert.equal(await collect(target), expected, `${kind} import survives a reload`);
    fs.rmSync(file);
    await fresh.close();
  }
});

test('a bad import changes nothing and says where the problem is', async () => {
  const context = await browser.newContext();
  const { page } = await openApp(context, url);
  await runCommand(page, "create 'stay', 'f'");
  await saved(page);
  const file = path.join(os.tmpdir(), `rowkey-bad-${process.pid}.hbase`);
  fs.writeFileSync(file, "create 'new1', 'f'\nput 'new1', 'r', 'f:q', 'v'\nput 'new1', 'r' 'f:q'\n");
  await page.setInputFiles('input[type=file]', file);
  await page.waitForSelector('.entry.failed');
  assert.match(await page.locator('.entry.failed').last().innerText(), /not imported, nothing changed\. line 3, column 17: expected ',' or end of command/);
  assert.match(await runCommand(page, 'list'), /^stay$/m);
  assert.doesNotMatch(await runCommand(page, 'list'), /new1/);
  fs.rmSync(file);
  await context.close();
});

test('reset asks first, then empties every table and the history for good', async () => {
  const context = await browser.newContext();
  const { page } = await openApp(context, url);
  await runCommand(page, "create 'gone', 'f'\nput 'gone', 'r', 'f:q', 'v'");
  await saved(page);
  page.once('dialog', (d) => d.dismiss());
  await page.locator('button.action.danger').click();
  assert.match(await runCommand(page, 'list'), /^gone$/m, 'dismissing the question changes nothing');
  page.once('dialog', (d) => d.accept());
  await page.locator('button.action.danger').click();
  await page.waitForFunction(() => document.querySelectorAll('.table-item').length === 0);
  await saved(page);
  await page.reload();
  await saved(page);
  assert.match(await runCommand(page, 'list'), /^0 row\(s\)$/m);
  const input = page.locator('textarea.input');
  await input.press('ArrowUp');
  assert.equal(await input.inputValue(), 'list', 'only what was typed after the reset is in the history');
  await context.close();
});

test('with the network off after a first visit, the app still loads', async () => {
  const context = await browser.newContext();
  const { page } = await openApp(context, url);
  await page.evaluate(async () => { await navigator.serviceWorker.ready; });
  await page.waitForFunction(async () => (await caches.keys()).some((k) => k.startsWith('rowkey-shell-')));
  await runCommand(page, "create 'off', 'f'\nput 'off', 'r', 'f:q', 'cached'");
  await saved(page);
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('textarea.input');
  await saved(page);
  assert.match(await runCommand(page, "scan 'off'"), /value=cached/);
  await context.close();
});

test('a full disk: the write fails visibly, the tables stay usable, the last saved state is kept', async () => {
  const context = await browser.newContext();
  const { page } = await openApp(context, url);
  await runCommand(page, "create 'big', 'f'\nput 'big', 'small', 'f:q', 'fits'");
  await saved(page);
  // The disk fills up: from now on IndexedDB refuses records over 10 KB the way a browser over
  // quota does, with a QuotaExceededError DOMException. (Chromium's DevTools quota override
  // changes only the estimate, so the refusal is raised at the IndexedDB API itself.)
  await page.evaluate(() => {
    for (const name of ['put', 'add']) {
      const original = IDBObjectStore.prototype[name];
      IDBObjectStore.prototype[name] = function (value, key) {
        if (value && value.byteLength > 10000) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        return original.call(this, value, key);
      };
    }
  });
  const blob = 'y'.repeat(60000);
  await runCommand(page, `put 'big', 'huge', 'f:q', '${blob}'`);
  await page.waitForSelector('.status.bad');
  assert.match(await page.locator('.banner.bad').innerText(), /Not saved: storage is full/);
  assert.equal(await page.locator('.ack.failed').count(), 1);
  await page.screenshot({ path: path.join(SHOTS, 'e2e-quota.png') });
  assert.match(await runCommand(page, "count 'big'"), /^2 row\(s\)$/m, 'the tables stay usable in memory');
  await page.reload();
  await saved(page);
  assert.match(await runCommand(page, "scan 'big'"), /^ small column=f:q, timestamp=\d+, value=fits$/m);
  assert.doesNotMatch(await runCommand(page, "scan 'big'"), /huge/);
  await context.close();
});

test('a new build replaces the offline cache', async () => {
  const { DIST } = await import('./harness.mjs');
  const index = path.join(DIST, 'index.html');
  const original = fs.readFileSync(index, 'utf8');
  const context = await browser.newContext();
  try {
    const { page } = await openApp(context, url);
    await page.evaluate(async () => { await navigator.serviceWorker.ready; });
    await page.waitForFunction(async () => (await caches.keys()).some((k) => k.startsWith('rowkey-shell-')));
    const first = await page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith('rowkey-shell-')));
    // A new build: a different index.html.
    fs.writeFileSync(index, original.replace('</head>', '<meta name="build" content="next" />\n</head>'));
    await page.reload();
    await page.waitForFunction(async (old) => {
      const keys = (await caches.keys()).filter((k) => k.startsWith('rowkey-shell-'));
      return keys.length === 1 && keys[0] !== old[0];
    }, first);
    // The new shell is complete once its index.html is cached.
    await page.waitForFunction(async () => {
      const hit = await caches.match(new URL('index.html', location.href).href);
      return hit && (await hit.text()).includes('name="build"');
    }, null, { timeout: 60000 });
    await context.setOffline(true);
    await page.goto(url);
    await page.waitForSelector('textarea.input');
    assert.equal(await page.locator('meta[name=build]').getAttribute('content'), 'next', 'offline serves the new build');
  } finally {
    fs.writeFileSync(index, original);
    await context.close();
  }
});
