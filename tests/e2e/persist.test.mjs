// Nothing lost: reloads, a page closed mid-batch, two tabs, export/import, offline, damaged
// records, a real full disk. Every page's errors and console errors fail the test, except the
// ones a test provokes on purpose and lists.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { serve, launch, runCommand, timedCommand, openApp as openPage, SHOTS, violations } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve('/apps/rowkey/')); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

// Page errors and console errors of every page a test opened; `expected` lists (as regular
// expressions) the ones the test provokes.
let seen = [];
let expected = [];
function watch(page) {
  page.on('pageerror', (e) => seen.push(`pageerror: ${e}`));
  page.on('console', (m) => { if (m.type() === 'error') seen.push(`console: ${m.text()}`); });
}
async function openApp(context, address) {
  const opened = await openPage(context, address);
  watch(opened.page);
  return opened;
}
afterEach(() => {
  const unexpected = seen.filter((e) => !expected.some((re) => re.test(e)));
  seen = [];
  expected = [];
  assert.deepEqual(unexpected, [], 'no page or console errors but the ones provoked on purpose');
});

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

test('a long batch saves while it runs and all of it at its end: every row is there after a reload', async () => {
  const context = await browser.newContext();
  const { page } = await openApp(context, url);
  await runCommand(page, "create 'long', 'f'");
  await saved(page);
  // 30,000 puts run in many steps on the runner, flushes and splits among them; while a batch
  // runs its saves wait a second between them, and its end saves the rest.
  const lines = Array.from({ length: 30_000 }, (_, i) => `put 'long', 'r${String(i).padStart(5, '0')}', 'f:q', 'v${i}'`);
  await timedCommand(page, lines.join('\n'), "return !!entry.querySelector('.summary') && !entry.querySelector('.progress')");
  assert.match(await page.locator('.entry .summary').last().innerText(), /30,000 puts/);
  await saved(page);
  assert.equal(await page.locator('.entry').last().locator('.ack.saved').count(), 1, 'the batch is marked saved');
  await page.reload();
  await saved(page);
  const out = await runCommand(page, "count 'long', INTERVAL => 100000");
  assert.match(out, /^30000 row\(s\)/m);
  const last = await runCommand(page, "get 'long', 'r29999'");
  assert.match(last, /f:q\s+timestamp=[^,]+, value=v29999/);
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
  const rows = [...out.matchAll(/^ (row\d{4}) column=f:v, timestamp=[^,]+, value=(x+)(\d+)$/gm)];
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

test('a file over tables of the same names asks first: cancelled, nothing changes; under other names, or replacing them', async () => {
  const context = await browser.newContext();
  const { page } = await openApp(context, url);
  await runCommand(page, "create 'same', 'f'\nput 'same', 'mine', 'f:q', 'kept'\ncreate 'other', 'f'");
  await saved(page);
  // The top bar's figure is the site's storage, not the tables' size alone.
  assert.match(await page.locator('.usage').innerText(), /^stored: [\d.]+ (B|KB|MB)/);
  const file = path.join(os.tmpdir(), `rowkey-same-${process.pid}.hbase`);
  fs.writeFileSync(file, "create 'same', 'g'\nput 'same', 'theirs', 'g:q', 'v'\n");
  const dialog = page.locator('[data-testid=import-clash-dialog]');
  const choose = async (name, how, free = 'same_2') => {
    const copy = path.join(os.tmpdir(), `rowkey-${name}-${process.pid}.hbase`);
    fs.copyFileSync(file, copy);
    await page.setInputFiles('input[type=file]', copy);
    await dialog.waitFor();
    assert.equal(await dialog.locator('p').first().innerText(), `${path.basename(copy)} makes a table you have already: same.`);
    // The safe choice has the focus.
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.choice), 'rename');
    assert.deepEqual(await dialog.locator('.modal-choices button').allInnerTexts(), [`Import as ${free}`, 'Replace: drop same', 'Cancel']);
    if (name === 'cancel') {
      assert.deepEqual(await violations(page), []);
      await dialog.screenshot({ path: path.join(SHOTS, 'e2e-import-clash.png') });
    }
    await how();
    await dialog.waitFor({ state: 'detached' });
    fs.rmSync(copy);
    return path.basename(copy);
  };
  // Escape: nothing changes.
  const cancelled = await choose('cancel', () => page.keyboard.press('Escape'));
  await page.waitForFunction((n) => [...document.querySelectorAll('.entry .output')].some((e) => e.textContent.includes(`${n} was not imported, nothing changed: same exists here already.`)), cancelled);
  assert.match(await runCommand(page, "scan 'same'"), /value=kept/);
  // Enter on the focused choice: the file's table as same_2, yours as it was.
  await choose('renamed', () => page.keyboard.press('Enter'));
  await page.waitForFunction(() => [...document.querySelectorAll('.entry .output')].some((e) => e.textContent.startsWith('Imported')));
  assert.match(await runCommand(page, "scan 'same_2'"), /theirs column=g:q/);
  assert.match(await runCommand(page, "scan 'same'"), /value=kept/);
  // Replace: yours dropped, the file's in its place (same_2 is taken now, so the other name
  // offered is same_3).
  await choose('replaced', () => dialog.locator('[data-choice=replace]').click(), 'same_3');
  await page.waitForFunction(() => [...document.querySelectorAll('.entry .output')].filter((e) => e.textContent.startsWith('Imported')).length === 2);
  const scan = await runCommand(page, "scan 'same'");
  assert.match(scan, /theirs column=g:q/);
  assert.doesNotMatch(scan, /kept/);
  assert.match(await runCommand(page, 'list'), /^other$/m);
  fs.rmSync(file);
  await context.close();
});

test('an empty file is not imported; a share link says which tables it leaves out', async () => {
  const context = await browser.newContext();
  const { page } = await openApp(context, url);
  await saved(page);
  const empty = path.join(os.tmpdir(), `rowkey-empty-${process.pid}.hbase`);
  fs.writeFileSync(empty, '');
  await page.setInputFiles('input[type=file]', empty);
  await page.waitForSelector('.entry.failed');
  assert.match(await page.locator('.entry.failed').last().innerText(), /not imported, nothing changed\. line 1, column 1: no commands/);
  // A CSV is one table's rows, for "Import a table…": the top bar's Import… says so.
  const csv = path.join(os.tmpdir(), `rowkey-people-${process.pid}.csv`);
  fs.writeFileSync(csv, 'row,info:name\nu1,Ada\n');
  await page.setInputFiles('input[type=file]', csv);
  await page.waitForFunction(() => document.querySelectorAll('.entry.failed').length >= 2);
  assert.match(await page.locator('.entry.failed').last().innerText(), /not imported, nothing changed\. line 1, column \d+: .* It reads as a CSV of one table: load it with "Import a table…" in the tables' list\./);
  fs.rmSync(csv);
  // A table from a file is no command of the history: a link cannot make it again, and says so.
  const file = path.join(os.tmpdir(), `rowkey-filed-${process.pid}.hbase`);
  fs.writeFileSync(file, "create 'filed', 'f'\nput 'filed', 'r', 'f:q', 'v'\n");
  await page.setInputFiles('input[type=file]', file);
  await page.waitForFunction(() => [...document.querySelectorAll('.entry .output')].some((e) => e.textContent.startsWith('Imported')));
  assert.match(await page.locator('.entry .output', { hasText: 'Imported' }).last().innerText(), /: 1 table now\.\n?$/);
  await runCommand(page, "create 'typed', 'f'");
  await page.locator('button.share-open').click();
  const share = page.locator('[data-testid=share-dialog]');
  await share.waitFor();
  assert.equal(await share.locator('.share-left-out').innerText(), 'Not in the link: table filed, which no command of the history creates (imported from a file, or made before the history began). To pass it on, export it (Export… in the top bar).');
  fs.rmSync(empty);
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

test('a first visit downloads each of the build\'s files once, the offline cache included', async () => {
  // A server of its own, so that only this visit's requests are counted.
  const own = await serve('/once/');
  const context = await browser.newContext();
  try {
    const { page } = await openApp(context, own.url);
    await page.evaluate(async () => { await navigator.serviceWorker.ready; });
    await page.waitForFunction(async () => (await caches.keys()).some((k) => k.startsWith('rowkey-shell-')));
    // The shell is complete once its index.html is cached, after every file it names.
    await page.waitForFunction(async () => !!(await caches.match(new URL('index.html', location.href).href)));
    const hashed = [...own.requests].filter(([p]) => /-[0-9a-f]{8,16}[._]/.test(p));
    assert.ok(hashed.some(([p]) => p.endsWith('.wasm.lzma')) && hashed.some(([p]) => p.endsWith('.js')), `the module and its glue were asked for: ${[...own.requests.keys()]}`);
    assert.deepEqual(hashed.filter(([, n]) => n !== 1), [], 'each hashed file downloaded once');
  } finally {
    await context.close();
    own.server.close();
  }
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

/** What the app's IndexedDB holds: the meta keys and the run ids. */
async function storedKeys(page) {
  return page.evaluate(() => new Promise((ok, fail) => {
    const r = indexedDB.open('rowkey');
    r.onsuccess = () => {
      const db = r.result;
      const tx = db.transaction(['meta', 'runs'], 'readonly');
      const meta = tx.objectStore('meta').getAllKeys();
      const runs = tx.objectStore('runs').getAllKeys();
      tx.oncomplete = () => { db.close(); ok({ meta: meta.result, runs: runs.result }); };
      tx.onerror = () => fail(String(tx.error));
    };
    r.onerror = () => fail(String(r.error));
  }));
}

/** Flips one byte in the middle of a stored record, through IndexedDB. */
async function flipStored(page, store, key) {
  await page.evaluate(([store, key]) => new Promise((ok, fail) => {
    const r = indexedDB.open('rowkey');
    r.onsuccess = () => {
      const db = r.result;
      const tx = db.transaction(store, 'readwrite');
      const s = tx.objectStore(store);
      const g = s.get(key);
      g.onsuccess = () => {
        const v = new Uint8Array(g.result);
        // A run's record is its block file, then the rows counted when it was stored and a
        // trailer (file length as a u64, CRC, "RKRW"): the byte flipped is the block file's middle.
        const tail = String.fromCharCode(...v.slice(-4));
        const end = tail === 'RKRW' ? Number(new DataView(v.buffer).getBigUint64(v.length - 16, true)) : v.length;
        v[end >> 1] ^= 0x20;
        s.put(v, key);
      };
      tx.oncomplete = () => { db.close(); ok(); };
      tx.onerror = () => fail(String(tx.error));
    };
  }), [store, key]);
}

test('a flipped byte in the catalog and in a run: the page starts, names the damage, keeps the intact runs and exports them', async () => {
  const context = await browser.newContext({ acceptDownloads: true });
  const { page } = await openApp(context, url);
  await runCommand(page, "create 'dmg', 'f'");
  await runCommand(page, "put 'dmg', 'a', 'f:q', 'first'");
  await runCommand(page, "flush 'dmg'");
  await runCommand(page, "put 'dmg', 'b', 'f:q', 'second'");
  await runCommand(page, "flush 'dmg'");
  await runCommand(page, "put 'dmg', 'c', 'f:q', 'third'");
  await saved(page);
  const keys = await storedKeys(page);
  const catalogs = keys.meta.filter((k) => k.startsWith('catalog.')).sort();
  assert.equal(catalogs.length, 2, `the newest generation and the one before: ${keys.meta}`);
  const newest = catalogs[catalogs.length - 1];
  const runs = keys.runs.sort((x, y) => x - y);
  assert.equal(runs.length, 2, 'one run per flush');
  await flipStored(page, 'meta', newest);
  await flipStored(page, 'runs', runs[0]);
  await page.reload();
  await page.waitForSelector('textarea.input');
  await saved(page);
  const notice = await page.locator('.banner.bad').first().innerText();
  const generation = Number(newest.split('.')[1]);
  assert.match(notice, new RegExp(`catalog generation ${generation} is damaged \\(checksum mismatch`));
  assert.match(notice, new RegExp(`sorted run ${runs[0]} is damaged`));
  assert.match(notice, new RegExp(`loaded the catalog of generation ${generation - 1}, the last good one`));
  // Row a was only in the damaged run; b and c come back from the log of the generation before.
  const scan = await runCommand(page, "scan 'dmg'");
  assert.match(scan, /^ b column=f:q, timestamp=[^,]+, value=second$/m);
  assert.match(scan, /^ c column=f:q, timestamp=[^,]+, value=third$/m);
  // The intact run only the damaged catalog named is kept aside, and exported on request. The
  // damaged run is a block file: its damaged block is lost (row a), the run itself still loads
  // for the generation before, so it is not among the runs kept aside.
  const kept = page.locator('[data-testid=kept-aside]');
  assert.match(await kept.innerText(), /^1 sorted run of table dmg \(1 cells\) that no readable catalog names is kept in storage, untouched\./);
  await page.screenshot({ path: path.join(SHOTS, 'e2e-damaged.png') });
  const [download] = await Promise.all([page.waitForEvent('download'), kept.locator('button', { hasText: 'Export kept runs' }).click()]);
  const file = path.join(os.tmpdir(), `rowkey-kept-${process.pid}.hbase`);
  await download.saveAs(file);
  const script = fs.readFileSync(file, 'utf8');
  assert.match(script, /# run \d+: table 'dmg', family 'f', rows from the first to the last; 1 cells/);
  assert.match(script, /^put 'dmg', 'b', 'f:q', 'second', \d+$/m);
  fs.rmSync(file);
  // Kept across reloads until the person discards them.
  await page.reload();
  await saved(page);
  assert.equal(await page.locator('[data-testid=kept-aside]').count(), 1);
  page.once('dialog', (d) => d.accept());
  await page.locator('[data-testid=kept-aside] button', { hasText: 'Discard them' }).click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=kept-aside]'));
  await saved(page);
  await page.reload();
  await saved(page);
  assert.equal(await page.locator('[data-testid=kept-aside]').count(), 0);
  assert.match(await runCommand(page, "count 'dmg'"), /^2 row\(s\)$/m);
  await context.close();
});

test('a real full disk: the save fails visibly with what to do, the tables stay usable, the last saved state reloads', async (t) => {
  if (process.getuid?.() !== 0) {
    t.skip('needs root to mount a 64 MB tmpfs for the browser profile (run as root to include it)');
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rowkey-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', dir]);
  const filler = path.join(dir, 'filler');
  const fill = () => {
    // Fill what is left, in 1 MB pieces, then the last bytes.
    const fd = fs.openSync(filler, 'a');
    try {
      for (const size of [1 << 20, 4096, 1]) {
        const chunk = Buffer.alloc(size, 0x61);
        for (;;) { try { fs.writeSync(fd, chunk); } catch { break; } }
      }
    } finally { fs.closeSync(fd); }
  };
  let context;
  try {
    context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--disk-cache-size=1'],
    });
    const page = context.pages()[0] ?? await context.newPage();
    watch(page);
    await page.goto(url);
    await page.waitForSelector('textarea.input');
    await runCommand(page, "create 'big', 'f'\nput 'big', 'small', 'f:q', 'fits'");
    await saved(page);
    fill();
    // The write of a large value fails for real: IndexedDB aborts the transaction.
    expected.push(/QuotaExceeded|UnknownError|Internal error|IO error|quota/i);
    const blob = 'y'.repeat(400000);
    await runCommand(page, `put 'big', 'huge', 'f:q', '${blob}'`);
    await page.waitForSelector('.status.bad', { timeout: 30000 });
    const banner = page.locator('.banner.bad[data-kind]');
    const kind = await banner.getAttribute('data-kind');
    const text = await banner.innerText();
    console.log(`# full disk: the browser reported ${kind}: ${text.split('\n')[0]}`);
    assert.ok(['Quota', 'Unknown'].includes(kind), `a full disk is a quota or unknown error, not ${kind}`);
    assert.match(text, /^Not saved: /);
    assert.match(text, /free disk space|clear other sites' data/, 'says what to do');
    assert.match(text, /Export your tables/);
    assert.equal(await page.locator('.ack.failed').count(), 1, 'the failed command is marked not saved');
    assert.ok(await page.locator('.ack.saved').count() >= 1, 'what committed before stays saved');
    await page.screenshot({ path: path.join(SHOTS, 'e2e-full-disk.png') });
    // A later small command is not saved either, and the tables stay usable in memory.
    await runCommand(page, "put 'big', 'later', 'f:q', 'small'");
    assert.equal(await page.locator('.ack.failed').count(), 2, 'nothing is marked saved until a checkpoint commits');
    assert.match(await runCommand(page, "count 'big'"), /^3 row\(s\)$/m);
    // Room again: the last saved state reloads, without what was never saved.
    fs.rmSync(filler);
    await page.reload();
    await page.waitForSelector('textarea.input');
    await saved(page);
    const scan = await runCommand(page, "scan 'big'");
    assert.match(scan, /^ small column=f:q, timestamp=[^,]+, value=fits$/m);
    assert.doesNotMatch(scan, /huge|later/);
    // And with room, the same write is saved and survives a reload.
    await runCommand(page, `put 'big', 'huge', 'f:q', '${blob.slice(0, 1000)}'`);
    await saved(page);
    await page.reload();
    await saved(page);
    assert.match(await runCommand(page, "count 'big'"), /^2 row\(s\)$/m);
  } finally {
    await context?.close();
    try { execFileSync('umount', ['-l', dir]); } catch {}
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a read is in the history after a reload once its delayed save ran', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const { page } = await openApp(context, url);
  await runCommand(page, "create 'h', 'f'");
  await runCommand(page, "generate 'h', 'k%03d', 200");
  await saved(page);
  await runCommand(page, "scan 'h', {STARTROW => 'k050', LIMIT => 3}");
  await page.waitForFunction(() => document.querySelector('.minimap')?.dataset.readLo === '50');
  // The history a read recorded is saved a quarter of a second after it (src/ui/storage.rs,
  // HISTORY_SAVE_DELAY_MS), not before its output is drawn.
  await page.waitForTimeout(1000);
  await saved(page);
  await page.reload();
  await saved(page);
  await runCommand(page, "describe 'h'");
  await page.waitForFunction(() => document.querySelector('.minimap')?.dataset.readLo === '50');
  // The scan's range: from its start row to the table's end (its LIMIT stopped it early).
  assert.equal(await page.locator('.minimap').getAttribute('data-read-hi'), '200');
  await context.close();
});
