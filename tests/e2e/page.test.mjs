// The page in real use: fixed panes over a long session, a narrow window, batches (a 50,000-line
// paste, a cancel), continuation lines, completion, "did you mean", copying a virtualized
// output, the timestamp switch, keyboard-only use, light and dark themes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serve, launch, runCommand, openApp, lastOutput, SHOTS } from './harness.mjs';

let server, url, browser;
before(async () => { ({ server, url } = await serve()); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

/** Whether an element is inside the window and is what the window shows at its centre. */
async function usable(page, selector) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return 'missing';
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight || r.left < 0 || r.right > window.innerWidth) return `outside the window: ${JSON.stringify(r)}`;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit === el || el.contains(hit) ? 'ok' : `covered by ${hit?.className}`;
  }, selector);
}

/** Pastes text into the input (one input event, as a paste gives) and presses Enter. */
async function submit(page, text) {
  const before = await page.locator('.entry').count();
  const input = page.locator('textarea.input');
  await input.evaluate((el, t) => { el.value = t; el.dispatchEvent(new Event('input', { bubbles: true })); }, text);
  await input.press('Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n, before);
}

/** Waits until no batch runs, and returns the last entry's summary. */
async function batchDone(page, timeout = 120000) {
  await page.waitForFunction(() => {
    const s = [...document.querySelectorAll('.entry .summary .figure')].pop();
    return s && !/so far/.test(s.textContent) && !document.querySelector('.progress');
  }, null, { timeout });
  return page.locator('.entry .summary .figure').last().innerText();
}

test('a long session keeps the header, the input and the newest output in view', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await runCommand(page, "create 'long', 'f'");
  for (let i = 0; i < 29; i++) await runCommand(page, `put 'long', 'r${i}', 'f:q', 'value ${i}'`);
  await runCommand(page, "scan 'long'");
  assert.equal(await page.evaluate(() => document.scrollingElement.scrollTop), 0, 'the page itself does not scroll');
  assert.equal(await usable(page, 'textarea.input'), 'ok');
  assert.equal(await usable(page, '.logo'), 'ok');
  // The newest output's last line is inside the console's visible area.
  const inView = await page.evaluate(() => {
    const box = document.querySelector('.scrollback').getBoundingClientRect();
    const last = [...document.querySelectorAll('.entry')].pop().getBoundingClientRect();
    return last.bottom <= box.bottom + 1 && last.bottom > box.top;
  });
  assert.ok(inView, 'the newest output is in view');
  assert.equal(await page.locator('.views').isVisible(), true);
  await page.screenshot({ path: path.join(SHOTS, 'e2e-long-session.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('at 800 px wide the panes stack and the input stays usable', async () => {
  const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
  const { page } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  // The tables and the gallery come last where the panes stack: the welcome says so, and
  // its link takes the focus there (beside the console, at 1440 px, it says nothing of it).
  const there = page.locator('.welcome .stacked-only');
  assert.equal(await there.innerText(), 'Your tables, the quick start and the design gallery are at the foot of the page: go to them.');
  await there.locator('a').click();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'tables-pane');
  const galleryTop = await page.locator('.gallery-heading').evaluate((h) => h.getBoundingClientRect().top);
  assert.ok(galleryTop >= 0 && galleryTop < 900, `the gallery's heading at ${galleryTop} px`);
  // From the header, Tab goes on to the console, the first pane in sight, not to the tables
  // at the foot of the page.
  await page.locator('.logo').click();
  let inHeader = true;
  for (let i = 0; i < 40 && inHeader; i++) {
    await page.keyboard.press('Tab');
    inHeader = await page.evaluate(() => !!document.activeElement?.closest('header, .skip-links'));
  }
  assert.equal(await page.evaluate(() => document.activeElement?.closest('.console-pane, #views-pane, #tables-pane')?.className), 'console-pane');
  await page.setViewportSize({ width: 1440, height: 900 });
  assert.ok(!(await there.isVisible()), 'the link beside the console');
  await page.setViewportSize({ width: 800, height: 900 });
  for (let i = 0; i < 12; i++) await runCommand(page, `exists 't${i}'`);
  assert.equal(await usable(page, 'textarea.input'), 'ok');
  const out = await runCommand(page, 'list');
  assert.match(out, /0 row\(s\)/);
  assert.equal(await usable(page, 'textarea.input'), 'ok');
  await page.screenshot({ path: path.join(SHOTS, 'e2e-narrow.png'), fullPage: true });
  await context.close();
});

test('a 50,000-line paste is one entry with its summary; a cancelled batch keeps what ran', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await runCommand(page, "create 'paste', 'f'");
  const lines = [];
  for (let i = 0; i < 50000; i++) lines.push(i === 16 ? "put 'paste', 'bad' 'f:q', 'x'" : i === 29 ? "put 'nosuch', 'r', 'f:q', 'v'" : `put 'paste', 'r${String(i).padStart(6, '0')}', 'f:q', 'v${i}'`);
  const entries = await page.locator('.entry').count();
  await submit(page, lines.join('\n'));
  const summary = await batchDone(page);
  assert.match(summary, /^49,998 puts in \d+(\.\d+)? s, 2 errors, first on line 17$/);
  assert.equal(await page.locator('.entry').count(), entries + 1, 'one entry for the whole paste');
  assert.ok(await page.evaluate(() => document.querySelectorAll('*').length) < 5000, 'the page stays small');
  // Each error listed with its message (the shell prints an empty line before it).
  const listed = await page.locator('.entry').last().locator('.errors-list').innerText();
  assert.match(listed, /line 17: put 'paste', 'bad' 'f:q', 'x' — ERROR: /);
  assert.match(listed, /line 30: put 'nosuch', 'r', 'f:q', 'v' — ERROR: Unknown table nosuch!/);
  await page.waitForSelector('.status.ok', { timeout: 60000 });
  assert.match(await runCommand(page, "count 'paste'"), /^49998 row\(s\)$/m);
  // A failed command is announced by its message.
  await runCommand(page, "get 'nope', 'r'");
  assert.equal(await page.locator('[aria-live="polite"].visually-hidden').first().textContent(), 'ERROR: Unknown table nope!');

  // A long batch, cancelled with Ctrl+C while it runs: what ran stays, and is saved.
  await runCommand(page, "create 'cancel', 'f'");
  const big = [];
  for (let i = 0; i < 150000; i++) big.push(`put 'cancel', 'r${String(i).padStart(6, '0')}', 'f:q', 'v'`);
  await submit(page, big.join('\n'));
  await page.waitForSelector('.progress');
  await page.locator('textarea.input').press('Control+c');
  const cancelled = await batchDone(page);
  const ran = Number(cancelled.match(/^cancelled after ([\d,]+) puts/)[1].replace(/,/g, ''));
  assert.ok(ran > 0 && ran < 150000, cancelled);
  await page.waitForSelector('.status.ok', { timeout: 60000 });
  // The history outlives a reload, also after pastes too large for local storage.
  await runCommand(page, "list");
  await page.reload();
  await page.waitForSelector('.status.ok', { timeout: 60000 });
  await page.locator('textarea.input').press('ArrowUp');
  assert.equal(await page.locator('textarea.input').inputValue(), 'list');
  assert.match(await runCommand(page, "count 'cancel', INTERVAL => 1000000"), new RegExp(`^${ran} row\\(s\\)$`, 'm'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a 5 MB paste with binary bytes in it: one entry, its bad line named, the page drawing as it runs', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const { page, errors } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await runCommand(page, "create 'big', 'f'");
  const value = 'v'.repeat(56);
  const lines = [];
  for (let i = 0; i < 60000; i++) lines.push(`put 'big', 'r${String(i).padStart(6, '0')}', 'f:q', '${value}'`);
  // Control characters where a command should start: the shell's lexer refuses them.
  lines[99] = "\u0001\u0002put 'big', 'r000099', 'f:q', 'v'";
  // Raw bytes inside a quoted row key are data, as in the HBase shell's Ruby strings.
  lines[199] = "put 'big', 'bin\u0000\u0007', 'f:q', 'v'";
  const text = lines.join('\n');
  assert.ok(text.length > 5_000_000, `${text.length} characters`);
  // The page keeps drawing while the batch runs: count the progress figures it shows.
  await page.evaluate(() => {
    window.__progress = new Set();
    const look = () => {
      const p = document.querySelector('.entry .progress');
      if (p) window.__progress.add(p.getAttribute('aria-valuenow') ?? p.textContent);
      if (!window.__stopLooking) requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  await submit(page, text);
  const summary = await batchDone(page);
  const shown = await page.evaluate(() => { window.__stopLooking = true; return window.__progress.size; });
  assert.ok(shown >= 2, `the progress moved on screen while the batch ran (${shown} distinct figures)`);
  assert.match(summary, /^59,999 puts in \d+(\.\d+)? s, 1 error, first on line 100$/);
  assert.match(await page.locator('.entry').last().locator('.errors-list').innerText(), /line 100: .*ERROR: invalid control character U\+0001/s);
  await page.waitForSelector('.status.ok', { timeout: 60000 });
  assert.match(await runCommand(page, "count 'big', INTERVAL => 1000000"), /^59999 row\(s\)$/m);
  assert.match(await runCommand(page, `get 'big', "bin\\x00\\x07"`), /^ f:q timestamp=[^,]+, value=v$/m);
  assert.deepEqual(errors, []);
  await context.close();
});

test('continuation lines, Shift+Enter, completion, did you mean, bad input', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const { page } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  const input = page.locator('textarea.input');
  await runCommand(page, "create 'users', 'info', 'stats'");
  await runCommand(page, "put 'users', 'u1', 'info:name', 'Ada'");

  // A trailing comma continues the command on the next line, as in the HBase shell.
  const before = await page.locator('.entry').count();
  await input.fill("scan 'users',");
  await input.press('Enter');
  assert.equal(await input.inputValue(), "scan 'users',\n");
  assert.equal(await page.locator('.entry').count(), before);
  await input.pressSequentially('{LIMIT => 1}');
  await input.press('Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n, before);
  assert.match(await page.locator('.entry .output').last().innerText(), /^1 row\(s\)$/m);

  // Shift+Enter adds a line to the same entry.
  await input.fill("put 'users', 'u2', 'info:name', 'Grace'");
  await input.press('Shift+Enter');
  await input.pressSequentially("put 'users', 'u3', 'info:name', 'Edsger'");
  await input.press('Enter');
  await page.waitForFunction(() => /2 puts in/.test([...document.querySelectorAll('.summary .figure')].pop()?.textContent ?? ''));

  // Tab completes a table name, then a family.
  await input.fill("scan 'us");
  await input.press('Tab');
  assert.equal(await input.inputValue(), "scan 'users'");
  await input.fill("get 'users', 'u1', 'in");
  await input.press('Tab');
  assert.match(await input.inputValue(), /^get 'users', 'u1', 'info:/);
  // The input is coloured by the shell's lexer.
  assert.ok(await page.locator('pre.highlight .hl-cmd').count() >= 1);

  // A misspelt command.
  assert.match(await runCommand(page, "sacn 'users'"), /Did you mean 'scan'\?/);
  // An unterminated string: Enter continues it (as the HBase shell does) and the hint says why;
  // Ctrl+Enter runs it as it is, and the error says what is wrong.
  await input.fill("put 'users', 'u9', 'info:name', 'oops");
  await input.press('Enter');
  assert.equal(await input.inputValue(), "put 'users', 'u9', 'info:name', 'oops\n");
  assert.match(await page.locator('#input-hint').innerText(), /string .* not closed.*Ctrl\+Enter/);
  const entries = await page.locator('.entry').count();
  await input.press('Control+Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n, entries);
  assert.match(await lastOutput(page), /^ERROR: .*unterminated/im);
  assert.match(await runCommand(page, "get 'users', 'u1'"), /value=Ada/);
  await context.close();
});

test('copying a virtualized output gives all of it; the timestamp switch', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { page } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  const puts = ["create 'cp', 'f'"];
  for (let i = 0; i < 600; i++) puts.push(`put 'cp', 'r${String(i).padStart(4, '0')}', 'f:q', 'v${i}', ${1700000000000 + i}`);
  await submit(page, puts.join('\n'));
  await batchDone(page);
  await page.selectOption('#pref-time', 'epoch');
  await runCommand(page, "scan 'cp'");
  const entry = page.locator('.entry').last();
  const rendered = await entry.locator('.vtext pre > div').count();
  assert.ok(rendered > 0 && rendered < 200, `only the lines in view are in the page (${rendered})`);
  await entry.locator('button.tool', { hasText: 'copy' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const rows = copied.split('\n').filter((l) => l.startsWith(' r'));
  assert.equal(rows.length, 600);
  assert.match(copied, /^ROW {2}COLUMN\+CELL\n/);
  assert.match(copied, /^ r0599 column=f:q, timestamp=1700000000599, value=v599$/m);
  assert.match(copied, /\n600 row\(s\)\nTook \d+\.\d{4} seconds\n$/);
  assert.doesNotMatch(copied, /saved|copy/);

  // Timestamps as ISO local time, kept across a reload, and back.
  await page.selectOption('#pref-time', 'local');
  assert.match(await runCommand(page, "get 'cp', 'r0001'"), /timestamp=2023-11-1[45]T\d\d:\d\d:\d\d\.001, value=v1/);
  await page.reload();
  await page.waitForSelector('.status.ok');
  assert.equal(await page.locator('#pref-time').inputValue(), 'local');
  await page.selectOption('#pref-time', 'epoch');
  assert.match(await runCommand(page, "get 'cp', 'r0001'"), /timestamp=1700000000001, value=v1/);
  await context.close();
});

test('the gallery, the tables and the row keys work from the keyboard alone', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const { page } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  /** Presses Tab until the focused element matches, within a bound. */
  const tabTo = async (selector, limit = 200) => {
    for (let i = 0; i < limit; i++) {
      if (await page.evaluate((s) => document.activeElement?.matches(s), selector)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached ${selector}`);
  };
  await page.locator('.logo').click();
  await tabTo('.design-item');
  // The first design: open it with Enter.
  const title = await page.evaluate(() => document.activeElement.textContent);
  await page.keyboard.press('Enter');
  await page.waitForSelector('.design-card');
  assert.ok(title.includes(await page.locator('.design-title').innerText()));
  // A pattern button runs from the keyboard.
  await tabTo('button.pattern');
  const entries = await page.locator('.entry').count();
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.entry').length > n, entries);
  // A table, then a row key, then the versions of that row.
  await page.locator('.logo').click();
  await tabTo('.table-item');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.table-item[aria-pressed="true"]');
  // The pattern turned the views to the picture its numbers point at: back to the Keyspace.
  await tabTo('.view-tab[aria-selected="true"]');
  await page.keyboard.press('Home');
  await page.waitForSelector('#view-tab-0[aria-selected="true"]');
  await tabTo('.klist');
  await page.keyboard.press('Enter');
  await page.waitForSelector('table.versions tbody tr');
  await context.close();
});

test('light and dark themes; the choice is kept', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
  const { page } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  await page.locator('.quick').click();
  await page.waitForFunction(() => document.querySelectorAll('.entry').length >= 12);
  // The quick start's steps run faster than a person types, yet each gets a millisecond of its
  // own: the second put of u001 adds a version, as its note says, and the get shows both.
  const versionsShown = await page.locator('.entry').last().locator('.output').first().innerText();
  assert.match(versionsShown, /value=Ada Lovelace\n.*value=Ada\n1 row\(s\)/s);
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(await bg(), 'rgb(247, 249, 252)', 'the system asks for light');
  await page.screenshot({ path: path.join(SHOTS, 'e2e-light.png') });
  await page.selectOption('#pref-theme', 'dark');
  assert.equal(await bg(), 'rgb(15, 23, 34)');
  await page.screenshot({ path: path.join(SHOTS, 'e2e-dark.png') });
  await page.reload();
  await page.waitForSelector('.status.ok');
  assert.equal(await bg(), 'rgb(15, 23, 34)', 'the override survives a reload');
  await page.selectOption('#pref-theme', 'system');
  assert.equal(await bg(), 'rgb(247, 249, 252)');
  // With no choice made, the page follows the system when it changes.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => getComputedStyle(document.body).backgroundColor === 'rgb(15, 23, 34)', null, { timeout: 5000 });
  await page.reload();
  await page.waitForSelector('.status.ok');
  assert.equal(await bg(), 'rgb(15, 23, 34)');
  await context.close();
});

test('the view on show is the one a reload opens on', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const { page } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  const selected = () => page.locator('.view-tab[aria-selected="true"]').innerText();
  assert.equal(await selected(), 'Keyspace', 'a first visit opens on the keyspace');
  await page.locator('.view-tab', { hasText: 'LSM' }).click();
  assert.equal(await selected(), 'LSM');
  await page.reload();
  await page.waitForSelector('.status.ok');
  assert.equal(await selected(), 'LSM', 'the reload opens on the view left on show');
  assert.equal(await page.locator('#view-panel-3').isVisible(), true);
  // A saved value no view has is ignored.
  await page.evaluate(() => localStorage.setItem('rowkey.view', '99'));
  await page.reload();
  await page.waitForSelector('.status.ok');
  assert.equal(await selected(), 'Keyspace');
  await context.close();
});

test('menus and dialogs give the focus back: Export… closes on Escape or a click away, Share returns to its button, a design card to its gallery entry', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const { page } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  const focused = () => page.evaluate(() => {
    const a = document.activeElement;
    return a ? `${a.tagName.toLowerCase()}.${[...a.classList].join('.')}|${a.textContent.trim().slice(0, 40)}` : '';
  });
  // Export…: Escape closes it and leaves the focus on its summary; a click elsewhere closes it.
  const menu = page.locator('details.menu');
  await menu.locator('summary').click();
  assert.equal(await menu.getAttribute('open'), '');
  await page.keyboard.press('Escape');
  assert.equal(await menu.getAttribute('open'), null);
  assert.match(await focused(), /^summary\..*\|Export…$/);
  await menu.locator('summary').click();
  await page.locator('textarea.input').click();
  assert.equal(await menu.getAttribute('open'), null);
  // Share a link…: closing the dialog gives the focus back to the button that opened it.
  await page.locator('button.share-open').focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid="share-dialog"][open]');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid="share-dialog"]', { state: 'detached' });
  assert.match(await focused(), /^button\..*share-open.*\|Share a link…$/);
  // A design's card: its close link gives the focus back to the design's gallery entry.
  const entry = page.locator('.design-item').first();
  const title = (await entry.innerText()).trim().split('\n')[0];
  await entry.click();
  await page.waitForSelector('.design-card');
  await page.locator('.design-card button.link', { hasText: 'close' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('.design-card', { state: 'detached' });
  const now = await focused();
  assert.ok(now.startsWith('button.design-item|') && now.includes(title.slice(0, 20)), now);
  await context.close();
});

test('Up walks the history past a recalled multi-line paste in one press', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const { page } = await openApp(context, url);
  await page.waitForSelector('.status.ok');
  const lines = Array.from({ length: 20 }, (_, i) => `put 'p', 'r${i}', 'f:q', 'v'`).join('\n');
  await submit(page, "create 'p', 'f'");
  await submit(page, lines);
  await batchDone(page);
  await submit(page, "count 'p'");
  const input = page.locator('textarea.input');
  await input.focus();
  await page.keyboard.press('ArrowUp');
  assert.equal(await input.inputValue(), "count 'p'");
  await page.keyboard.press('ArrowUp');
  assert.equal(await input.inputValue(), lines);
  // The recalled paste has the caret at its start: the next Up goes on to the entry before.
  assert.equal(await input.evaluate((el) => el.selectionStart), 0);
  await page.keyboard.press('ArrowUp');
  assert.equal(await input.inputValue(), "create 'p', 'f'");
  // Down comes back to the paste with the caret at its end, and on past it.
  await page.keyboard.press('ArrowDown');
  assert.equal(await input.inputValue(), lines);
  await page.keyboard.press('ArrowDown');
  assert.equal(await input.inputValue(), "count 'p'");
  await context.close();
});
