// Regular expressions in the page (kit::regex, Rowkey's own since regex-lite left the
// download): HBase's regexstring: comparator on values read as Latin-1, the shell's
// `list 'pattern'`, cbt's row regex matched whole, and a refused pattern's message, as the
// native tests give them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openApp, runCommand } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

test('regexstring filters, list and cbt regexes run in the page', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, errors } = await openApp(context, url);
  await runCommand(page, "create 'users', 'f'");
  await runCommand(page, "create 'orders', 'f'");
  for (const [row, value] of [['u1', 'alice'], ['u2', 'Bob'], ['u3', 'carol\\nline'], ['u42', 'dave']]) {
    await runCommand(page, `put 'users', '${row}', 'f:name', "${value}"`);
  }
  const rows = (out) => [...out.matchAll(/^ (u\d+)\s+column=/gm)].map((m) => m[1]);
  // Found anywhere in the value, `.` across a line end (HBase compiles with DOTALL).
  assert.deepEqual(rows(await runCommand(page, `scan 'users', {FILTER => "ValueFilter(=, 'regexstring:^[a-c]')"}`)), ['u1', 'u3']);
  assert.deepEqual(rows(await runCommand(page, `scan 'users', {FILTER => "ValueFilter(=, 'regexstring:(?i)^b')"}`)), ['u2']);
  assert.deepEqual(rows(await runCommand(page, `scan 'users', {FILTER => "ValueFilter(=, 'regexstring:carol.line')"}`)), ['u3']);
  assert.deepEqual(rows(await runCommand(page, `scan 'users', {FILTER => "RowFilter(=, 'regexstring:\\\\d{2}$')"}`)), ['u42']);
  assert.match(await runCommand(page, `scan 'users', {FILTER => "ValueFilter(=, 'regexstring:(a')"}`),
    /Invalid regular expression: found open group without closing '\)'/);
  const list = await runCommand(page, "list 'u.*'");
  assert.match(list, /^TABLE\nusers\n1 row\(s\)/);

  await page.locator('.dialect-switch button', { hasText: 'cbt' }).click();
  await runCommand(page, 'createtable bt families=cf');
  for (const row of ['r1', 'r12', 'xr1']) await runCommand(page, `set bt ${row} cf:a=1@1700000000000000`);
  const read = await runCommand(page, 'read bt regex=r.');
  assert.deepEqual([...read.matchAll(/^(\S+)$/gm)].map((m) => m[1]).filter((l) => !l.startsWith('-')), ['r1']);
  assert.match(await runCommand(page, 'read bt "regex=("'), /error parsing regexp: missing closing \): `\^\(\?:\(\)\$`/);
  assert.deepEqual(errors, []);
  await context.close();
});
