// Bringing a real table in (a pasted HBase shell scan, a CSV file) and sharing a session by URL:
// a shared link opened in a fresh profile shows what it holds and runs on "Run in this session";
// a damaged link says so; a link never changes the person's tables without asking.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, launch, openApp, runCommand, SHOTS } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const SCAN = `hbase(main):004:0> scan 'people', {VERSIONS => 3}
ROW                          COLUMN+CELL
 u001                        column=info:name, timestamp=1700000000000, value=Ada Lovelace
 u001                        column=info:name, timestamp=1699999990000, value=Ada
 u002                        column=info:name, timestamp=2023-11-14T22:13:20.000, value=<b>Grace</b>
2 row(s)
Took 0.0123 seconds
`;

async function lastEntryDone(page, n) {
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n && !document.querySelector('.entry.running'), n);
}

test('a pasted scan and a CSV file load as tables; a broken line is named', async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, timezoneId: 'UTC' });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await page.locator('#pref-theme').selectOption('dark');

  // A broken line: the error names it, and Import stays off.
  await page.locator('button.import-open').click();
  const dialog = page.locator('[data-testid=import-dialog]');
  await dialog.waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'import-text');
  await page.locator('#import-text').fill(SCAN.replace(' u002                        column=', ' u002                        colum='));
  assert.match(await dialog.locator('.import-error').innerText(), /line 5: not a line of a scan's output/);
  assert.ok(await dialog.locator('[data-choice=import]').isDisabled());
  await page.screenshot({ path: path.join(SHOTS, 'e2e-import-error-dark.png') });

  // The real output: read as 2 rows, 3 cells, up to 2 versions, named from the prompt line.
  await page.locator('#import-text').fill(SCAN);
  assert.match(await dialog.locator('.import-ok').innerText(), /Read as scan output: 2 rows, 3 cells; families info \(up to 2 versions\)/);
  assert.equal(await page.locator('#import-name').inputValue(), 'people');
  await page.screenshot({ path: path.join(SHOTS, 'e2e-import-dark.png') });
  const before = await page.locator('.entry').count();
  await dialog.locator('[data-choice=import]').click();
  await dialog.waitFor({ state: 'detached' });
  await lastEntryDone(page, before);
  await page.selectOption('#pref-time', 'epoch');
  const got = await runCommand(page, "get 'people', 'u001', {COLUMN => 'info:name', VERSIONS => 3}");
  assert.match(got, /timestamp=1700000000000, value=Ada Lovelace[^]*timestamp=1699999990000, value=Ada\n/);
  // The value is data, not markup.
  assert.match(await runCommand(page, "get 'people', 'u002'"), /timestamp=1700000000000, value=<b>Grace<\/b>/);
  assert.equal(await page.locator('.entry b').count(), 0);

  // A CSV file for the same name asks first; "Load as" keeps the first table.
  const file = path.join(os.tmpdir(), `rowkey-people-${process.pid}.csv`);
  fs.writeFileSync(file, 'row,info:name,info:city\nu9,"Hopper, Grace","New York"\n');
  await page.locator('button.import-open').click();
  await page.locator('#import-file').setInputFiles(file);
  await page.waitForSelector('.import-ok');
  assert.match(await dialog.locator('.import-ok').innerText(), /Read as CSV: 1 row, 2 cells/);
  await page.locator('#import-name').fill('people');
  await dialog.locator('[data-choice=import]').click();
  const clash = page.locator('[data-testid=clash-dialog]');
  await clash.waitFor();
  assert.match(await clash.innerText(), /The import creates the table people \(1 row, 2 cells\)/);
  const before2 = await page.locator('.entry').count();
  await clash.locator('[data-choice=rename]').click();
  await lastEntryDone(page, before2);
  assert.match(await runCommand(page, "get 'people_2', 'u9'"), /info:name\s+timestamp=[^,]+, value=Hopper, Grace/);
  assert.match(await runCommand(page, "count 'people'"), /^2 row\(s\)$/m);
  fs.unlinkSync(file);

  // Saved like any command: after a reload both tables are there.
  await page.waitForSelector('.status.ok');
  await page.reload();
  await page.waitForSelector('.status.ok');
  assert.match(await runCommand(page, "get 'people', 'u001', {COLUMN => 'info:name', VERSIONS => 3}"), /value=Ada\n/);
  assert.match(await runCommand(page, "count 'people_2'"), /^1 row\(s\)$/m);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a shared link opens in a fresh profile; a damaged one says so; yours are never changed unasked', async () => {
  const a = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const { page, errors } = await openApp(a, url);
  await page.waitForSelector('.status.ok');
  await runCommand(page, "create 'notes', 'n'");
  await runCommand(page, "put 'notes', 'r1', 'n:text', 'shared, \"quoted\" & <tagged>'");
  await page.locator('.design-item', { hasText: 'Reversed domain names group' }).click();
  await page.waitForSelector('.design-card');
  await page.locator('button.share-open').click();
  const share = page.locator('[data-testid=share-dialog]');
  await share.waitFor();
  assert.match(await share.innerText(), /the design “Reversed domain names[^”]*” and 2 commands/);
  const link = await page.locator('#share-link').inputValue();
  assert.match(link, /#s=2\.[A-Za-z0-9_-]+$/);
  await page.locator('#pref-theme').selectOption('light');
  await page.screenshot({ path: path.join(SHOTS, 'e2e-share-light.png') });
  await a.close();

  // A fresh profile: the link says what it holds; Run loads the design and runs the commands.
  const b = await browser.newContext({ viewport: { width: 800, height: 900 } });
  const fresh = await openApp(b, link);
  const p = fresh.page;
  const dialog = p.locator('[data-testid=link-dialog]');
  await dialog.waitFor();
  const text = await dialog.innerText();
  assert.match(text, /This link holds the design “Reversed domain names[^”]*” and 2 commands/);
  assert.match(text, /put 'notes', 'r1', 'n:text', 'shared, "quoted" & <tagged>'/);
  assert.match(text, /changes none of the tables you have/);
  await p.locator('#pref-theme').evaluate((s) => { s.value = 'dark'; s.dispatchEvent(new Event('change', { bubbles: true })); });
  await p.screenshot({ path: path.join(SHOTS, 'e2e-link-dark-800.png') });
  await p.waitForSelector('[data-choice=run]:not([disabled])');
  await p.locator('[data-choice=run]').click();
  await dialog.waitFor({ state: 'detached' });
  await p.waitForFunction(() => [...document.querySelectorAll('.entry .output')].some((e) => e.textContent.startsWith('Loaded the design')));
  assert.match(await runCommand(p, "get 'notes', 'r1'"), /value=shared, "quoted" & <tagged>/);
  assert.ok(!(await p.evaluate(() => location.hash)), 'the link left the address');
  await p.waitForSelector('.status.ok');

  // The same link again, now that notes is a table of this profile: it says it would change it,
  // and Cancel leaves it as it is.
  await runCommand(p, "put 'notes', 'r1', 'n:text', 'mine now'");
  await p.goto(link);
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /Its commands change tables you have: notes/);
  assert.equal(await p.evaluate(() => document.activeElement?.dataset.choice), 'cancel');
  await p.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.match(await runCommand(p, "get 'notes', 'r1'"), /value=mine now/);

  // A damaged link: it says so, offers the file export, changes nothing.
  await p.goto(link.slice(0, -12));
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /This link cannot be opened[^]*The link is damaged[^]*file export/);
  await p.screenshot({ path: path.join(SHOTS, 'e2e-link-damaged-800.png') });
  await p.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.match(await runCommand(p, "get 'notes', 'r1'"), /value=mine now/);
  assert.deepEqual([...errors, ...fresh.errors], []);
  await b.close();
});

/** A format-2 link to the app holding `session` (JSON), packed as Rowkey packs it. */
function linkTo(session) {
  const packed = zlib.deflateSync(Buffer.from(JSON.stringify(session)), { level: 9 });
  return `${url}#s=2.${packed.toString('base64url')}`;
}

const WORKLOAD = {
  version: 1, seed: 4242, duration_ms: 7200000,
  cluster: { region_servers: 2, server_reads_per_sec: 1000, server_writes_per_sec: 1000 },
  tables: [{ name: 'linked', families: [{ name: 'f', columns: [{ qualifier: 'q', value_size: 10 }] }],
    key: [{ kind: 'constant', text: 'x' }, { kind: 'sequence' }],
    operations: [{ kind: 'put_new', rate: { per_sec: 10 } }] }],
};

test('a link carries a workload and lines of both dialects; its workload waits for Run, is shared on when ticked, and a broken one names its path', async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1200 } });
  const link = linkTo({
    entries: [{ dialect: 'cbt', text: 'createtable linked_bt families=f' }, { dialect: 'hbase', text: 'list' }],
    workload: WORKLOAD,
  });
  const { page, errors } = await openApp(context, link);
  const dialog = page.locator('[data-testid=link-dialog]');
  await dialog.waitFor();
  const text = await dialog.innerText();
  assert.match(text, /This link holds 2 commands and a workload for the simulator \(1 table, 2 hours of simulated time\)/);
  assert.match(text, /cbt> createtable linked_bt families=f\nlist/);
  assert.match(text, /Its workload takes the place of the one in the Simulate view/);
  // Cancel: the Simulate view keeps its own workload, and nothing ran.
  await page.locator('[data-choice=cancel]').click();
  await dialog.waitFor({ state: 'detached' });
  await page.locator('#view-tab-5').click();
  const json = page.locator('textarea.sim-json');
  await json.waitFor();
  assert.doesNotMatch(await json.inputValue(), /"seed": 4242/);
  assert.doesNotMatch(await runCommand(page, 'list'), /linked_bt/);

  // Opened again and run: the cbt line runs as cbt, then the HBase one, and the workload is the
  // Simulate view's.
  await page.goto(link);
  await dialog.waitFor();
  await page.waitForSelector('[data-choice=run]:not([disabled])');
  await page.locator('[data-choice=run]').click();
  await dialog.waitFor({ state: 'detached' });
  await page.waitForFunction(() => [...document.querySelectorAll('.entry')].some((e) => e.textContent.includes('createtable linked_bt')));
  assert.match(await runCommand(page, 'list'), /linked_bt/);
  await page.waitForFunction(() => document.querySelector('textarea.sim-json')?.value.includes('"seed": 4242'));
  assert.equal(await page.locator('#view-tab-5').getAttribute('aria-selected'), 'true');

  // Shared on: the share dialog offers the Simulate view's workload, and the link then holds it.
  await page.locator('button.share-open').click();
  const share = page.locator('[data-testid=share-dialog]');
  await share.waitFor();
  assert.doesNotMatch(await share.innerText(), /the Simulate view's workload\./);
  await page.locator('[data-testid=share-workload]').check();
  assert.match(await share.innerText(), /and the Simulate view's workload/);
  const onward = await page.locator('#share-link').inputValue();
  assert.match(onward, /#s=2\.[A-Za-z0-9_-]+$/);
  await page.keyboard.press('Escape');
  await share.waitFor({ state: 'detached' });
  const other = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  const third = await openApp(other, onward);
  const otherDialog = third.page.locator('[data-testid=link-dialog]');
  await otherDialog.waitFor();
  assert.match(await otherDialog.innerText(), /a workload for the simulator \(1 table, 2 hours of simulated time\)/);
  assert.match(await otherDialog.innerText(), /cbt> createtable linked_bt families=f/);
  assert.deepEqual(third.errors, []);
  await other.close();

  // A workload with an unknown field: the link cannot be opened, and the dialog names the path.
  const broken = structuredClone(WORKLOAD);
  broken.tables[0].key[1].bogus = 1;
  await page.goto(linkTo({ entries: [], workload: broken }));
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /This link cannot be opened[^]*The link's workload is not valid: \$\.tables\[0\]\.key\[1\]\.bogus: unknown field `bogus`/);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.match(await page.locator('textarea.sim-json').inputValue(), /"seed": 4242/);
  assert.deepEqual(errors, []);
  await context.close();
});
