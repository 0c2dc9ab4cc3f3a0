// A person's first minutes: create a table, put two rows, scan, reload, find the history.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, runCommand, openApp, SHOTS } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

test('console runs HBase commands, keeps history across reloads, survives bad input', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const { page, errors } = await openApp(context, url);

  assert.match(await runCommand(page, "create 't','f'"), /Created table t/);
  await runCommand(page, "put 't','r1','f:a','hello'");
  await runCommand(page, "put 't','r2','f:b','world'");
  const scan = await runCommand(page, "scan 't'");
  assert.match(scan, /^ROW {2}COLUMN\+CELL$/m);
  // A new person sees timestamps as HBase 2.3 and later print them: local date and time.
  assert.match(scan, /^ r1 column=f:a, timestamp=\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d{3})?)?, value=hello$/m);
  assert.match(scan, /^ r2 column=f:b, timestamp=\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d{3})?)?, value=world$/m);
  assert.match(scan, /^2 row\(s\)$/m);
  assert.match(scan, /^Took \d+\.\d{4} seconds$/m);

  // The side panel lists the table with its family.
  assert.match(await page.locator('.table-item').first().innerText(), /t[\s\S]*f/);

  // A malformed command: an error with the span marked, and the page keeps working.
  const bad = await runCommand(page, "put 't', 'r3' 'f:c'");
  assert.match(bad, /^ERROR: expected ',' or end of command, found a string/);
  assert.equal(await page.locator('.entry').last().locator('mark.error-span').innerText(), "'f:c'");
  assert.match(await runCommand(page, "get 't','r1'"), /value=hello/);

  await page.screenshot({ path: path.join(SHOTS, 'e2e-console.png') });
  assert.deepEqual(errors, []);

  // History survives a reload: Up brings back the last command.
  await page.reload();
  await page.waitForSelector('textarea.input');
  const input = page.locator('textarea.input');
  await input.focus();
  await input.press('ArrowUp');
  assert.equal(await input.inputValue(), "get 't','r1'");
  await input.press('ArrowUp');
  assert.equal(await input.inputValue(), "put 't', 'r3' 'f:c'");
  await input.press('ArrowDown');
  await input.press('ArrowDown');
  assert.equal(await input.inputValue(), '');
  await context.close();
});

test('multi-line paste runs as one entry; Ctrl+L clears', async () => {
  const context = await browser.newContext();
  const { page } = await openApp(context, url);
  const input = page.locator('textarea.input');
  await input.fill("create 'm', 'f'\nput 'm', 'a', 'f:q', '1'\ncount 'm'");
  await input.press('Enter');
  await page.waitForSelector('.entry .summary');
  assert.equal(await page.locator('.entry').count(), 1);
  assert.match(await page.locator('.entry .summary').innerText(), /^1 create, 1 put, 1 count in \d+\.\d+ s/);
  // A short batch shows its transcript at once; a button hides it.
  assert.match(await page.locator('.entry pre.output').innerText(), /hbase:003:0> count 'm'\n1 row\(s\)/);
  await page.locator('.entry button.tool', { hasText: 'hide output' }).click();
  assert.equal(await page.locator('.entry pre.output').count(), 0);
  await input.press('Control+l');
  await page.waitForFunction(() => document.querySelectorAll('.entry').length === 0);
  await context.close();
});
