// Two builds read each other's storage (a check run by hand when the storage code changes; it
// asserts, but needs two builds, so it is not one of the suite's `.test.mjs` files):
//
//   node tests/e2e/cross-build.mjs OLD_DIST NEW_DIST
//
// One origin and one browser profile, the served build switched between visits: OLD writes a
// table (puts, a flush, 60,000 generated rows, a major compaction), NEW reads it and writes more
// (a put, a flush, a delete, a put left in the log), OLD reads that. Each visit's reads (two
// scans, a count, two gets) must equal what the visit before it left; no page or console errors.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { launch, runCommand } from './harness.mjs';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };
const [OLD, NEW] = process.argv.slice(2).map((d) => path.resolve(d));
if (!OLD || !NEW) throw new Error('usage: node tests/e2e/cross-build.mjs OLD_DIST NEW_DIST');
let root = OLD;
const server = http.createServer((req, res) => {
  let file = path.join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname.replace(/^\/r\//, '/')));
  if (!file.startsWith(root)) { res.writeHead(403); res.end(); return; }
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
  fs.readFile(file, (err, data) => { if (err) { res.writeHead(404); res.end(); return; } res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' }); res.end(data); });
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const url = `http://127.0.0.1:${server.address().port}/r/`;
const browser = await launch();
const context = await browser.newContext({ serviceWorkers: 'block' });
await context.grantPermissions(['clipboard-read', 'clipboard-write']);
const errors = [];
const strip = (t) => t.split('\n').filter((l) => !l.startsWith('Took ')).join('\n');
async function visit(build, commands) {
  root = build;
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(`${build}: ${e}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`${build}: ${m.text()}`); });
  await page.goto(url);
  await page.waitForSelector('textarea.input');
  await page.waitForSelector('.status.ok', { timeout: 20000 });
  const reads = async () => strip((await runCommand(page, "scan 'x', {VERSIONS => 3, STARTROW => 'a', STOPROW => 'g'}")) + (await runCommand(page, "scan 'x', {STARTROW => 'h'}")) + (await runCommand(page, "count 'x'")) + (await runCommand(page, "get 'x', 'g00059999'")) + (await runCommand(page, "get 'x', 'g00000000'")));
  const found = await reads();
  for (const c of commands) await runCommand(page, c);
  await page.waitForSelector('.status.ok', { timeout: 20000 });
  const left = await reads();
  const rows = (await runCommand(page, "count 'x'")).match(/^\d+ row\(s\)$/m)?.[0];
  await page.close();
  return { found, left, rows };
}
const a = await visit(OLD, ["create 'x', {NAME => 'f', VERSIONS => 3}, SPLITS => ['m']", "put 'x', 'a', 'f:q', 'one', 10\nput 'x', 'a', 'f:q', 'two', 20\nput 'x', 'z', 'f:q', 'far'", "flush 'x'", "put 'x', 'b', 'f:q', 'after flush'", "generate 'x', 'g%08d', 60000, {COLUMNS => ['f:v'], VALUE_SIZE => 40}", "flush 'x'", "major_compact 'x'"]);
const b = await visit(NEW, ["put 'x', 'c', 'f:q', 'by the new build'", "flush 'x'", "delete 'x', 'a', 'f:q', 10", "put 'x', 'd', 'f:q', 'log only'"]);
const c = await visit(OLD, []);
assert.equal(b.found, a.left, 'NEW reads what OLD wrote');
console.log(`OLD wrote ${a.rows}; NEW read them the same`);
assert.equal(c.found, b.left, 'OLD reads what NEW wrote');
console.log(`NEW left ${b.rows}; OLD read them the same`);
assert.deepEqual(errors, []);
console.log('no page or console errors');
await browser.close(); server.close();
