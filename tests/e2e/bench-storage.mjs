// Benchmark of Rowkey's engine against JavaScript stores in one page (prints figures; not a test).
//
//   bash scripts/dev.sh bench-build && node tests/e2e/bench-storage.mjs [CELLS]
//   ROWKEY_BENCH_ONLY=persist node tests/e2e/bench-storage.mjs [CELLS]   # Rowkey's save and restore alone
//
// `ROWKEY_BENCH_ROUNDS=N` runs N rounds instead of five. With `ROWKEY_BENCH_ONLY=persist` only
// Rowkey's two layouts run (their loads, gets and scans,
// which fill the activity history a restore reads back), and only the save and restore are
// printed: the JavaScript stores and the memory figures are left out.
//
// The workload of `benches/engine.rs`: CELLS (default 1,000,000) cells in rows of 10 columns,
// 26-byte keys counting row, family and qualifier (23-byte rows whose hashed four-hex-digit
// lead spreads them over the key space), 16-byte values. It runs in the release build's page on
// five stores:
//
// - Rowkey's engine, through the page's `window.rowkeyBench` hook (`?bench`), in two layouts,
//   each loaded from one buffer of the cells: "16 regions", a table pre-split in 16 regions,
//   flushed once after the load; and "runs", one region whose 1 MB memstore flushes while it
//   loads (the exploring policy compacting at four runs), then a flush and a major compaction,
//   all counted in its load: the data in sorted runs, as most of a store's data is. Each get or
//   scan is one call from JavaScript into the engine, which builds its result rows in
//   WebAssembly and returns how many cells they hold;
// - a JavaScript array of [key, value] pairs, sorted once, searched by binary search;
// - sql.js (SQLite in WebAssembly): `kv (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID`,
//   loaded in one transaction, read with prepared statements, each result row read into
//   JavaScript (`stmt.get()`, most of its read time); its database is a file in Emscripten's
//   in-memory file system;
// - memory-level (abstract-level's in-memory store, a red-black tree), bundled for the page by
//   esbuild into target/bench/, loaded in batches of 10,000 cells, read with its iterators.
//
// Operations: load every cell; 10,000 gets of a random row (its 10 cells); 2,000 scans of 10
// rows (100 cells) forward and 2,000 reversed from random start rows; one full scan counting
// the cells (Rowkey's rows handed over one at a time, as HBase's scanner hands them and as the
// other stores' iterators and statements step, each row's buffer used again for the next; and
// for Rowkey alone, the same scan with every row kept in one result, `full scan, rows kept`). Then the memory each store holds (Rowkey: the growth of the WebAssembly memory, its
// high-water mark, by one load of each layout in a freshly opened page, since WebAssembly memory
// never shrinks; sql.js: its own WebAssembly memory and the JavaScript heap; the others: the
// JavaScript heap, measured after a garbage collection), and Rowkey's save and restore of each
// layout through IndexedDB against one raw blob of the same bytes (`src/persist/bench.rs`, the
// code `bench-persist.mjs` runs). Five rounds, the stores taking turns within each operation
// (the first store changing every round); medians.
// Keys and values are made before the clock starts; random choices come from a fixed seed.
//
// Before each timed step of a save and restore (Rowkey's save, its restore, the blob's write, the
// blob's read) the page collects its garbage (`gc()`, through `window.rowkeyBenchCollect`): with
// sql.js in the page, each round left one major collection of 0.4 to 0.7 s of the main
// thread's time (a Chrome trace shows it spent clearing external strings and their weak
// handles; it follows sql.js's full scan, a million rows read as strings; without sql.js the
// longest was 0.17 s, and 0.05 s with Rowkey's layouts alone). Left to V8, it fell inside the save and restore rounds, whose
// 63 MB of buffers set it off, in whichever step it landed: 16 regions' restore at 5 to 11
// times the blob, or the blob's own write, which made the runs layout's save look 0.22× it.
// ROWKEY_BENCH_NO_GC=1 leaves the collection to V8 again. Every round's ratios are printed,
// and a round far from the others is named with its steps.
//
// Diagnostics: ROWKEY_BENCH_EACH=1 prints each save and restore's steps as the rounds run;
// ROWKEY_BENCH_STORES=rowkey,rowkeyRuns,array,sqljs runs only those stores (the JS array is
// needed for the table) and saves and restores only their layouts, ROWKEY_BENCH_NO_PERSIST=1
// none; ROWKEY_BENCH_TRACE=FILE with ROWKEY_BENCH_TRACE_CATS=a,b records a
// Chrome trace of the rounds (e.g. disabled-by-default-v8.gc,IndexedDB).
// sql.js, memory-level and esbuild are devDependencies: nothing of them is in dist/.
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { serve, launch, openBench, BENCH_DIST } from './harness.mjs';

const CELLS = Number(process.argv[2] || 1_000_000);
const PERSIST_ONLY = process.env.ROWKEY_BENCH_ONLY === 'persist';
const ROUNDS = Number(process.env.ROWKEY_BENCH_ROUNDS || 5);
const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);
const require = createRequire(import.meta.url);
const SQLJS_DIR = path.dirname(require.resolve('sql.js/dist/sql-wasm-browser.js'));
const MEMORY_LEVEL = path.join(ROOT, 'target', 'bench', 'memory-level.js');
const version = (name) => JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;

// memory-level ships CommonJS for Node and bundlers only: one browser file, global MemoryLevel.
await build({
  stdin: { contents: "export { MemoryLevel } from 'memory-level';", resolveDir: ROOT, loader: 'js' },
  bundle: true, format: 'iife', globalName: 'memoryLevelBundle', platform: 'browser',
  outfile: MEMORY_LEVEL, logLevel: 'error',
});

const loadBefore = os.loadavg();
const { server, url } = await serve('/tools/rowkey/', { '/vendor/sql.js/': SQLJS_DIR }, BENCH_DIST);
// Precise heap figures and `gc()` for the memory measurements.
const browser = await launch(['--enable-precise-memory-info', '--js-flags=--expose-gc']);
// ---- the workload, made in a page -------------------------------------------------------------
// The rows of benches/engine.rs: groups of ten sharing a prefix led by a hash of the group. The
// keys and values as strings for the JavaScript stores, and packed for Rowkey's `load`.
function makeWorkload(cells) {
  const COLUMNS = 10;
  const rows = Math.ceil(cells / COLUMNS);
  const pad = (n, w) => String(n).padStart(w, '0');
  const rowKey = (i) => {
    const g = BigInt(Math.floor(i / 10));
    const h = Number(((g * 0x9E3779B97F4A7C15n) & 0xFFFFFFFFFFFFFFFFn) >> 48n);
    return `${h.toString(16).padStart(4, '0')}-user-${pad(g, 10)}-r${i % 10}`;
  };
  const heap = () => { gc(); gc(); return performance.memory.usedJSHeapSize; };
  // Flat strings, as a store would hold them (a concatenation is a rope until first compared).
  const flat = (s) => JSON.parse(`"${s}"`);
  const rowKeys = [], keys = [], values = [];
  const heapBeforeStrings = heap();
  const enc = new TextEncoder();
  const packed = new Uint8Array(cells * (1 + 23 + 1 + 2 + 1 + 16));
  let at = 0;
  const field = (s) => { const b = enc.encode(s); packed[at++] = b.length; packed.set(b, at); at += b.length; };
  for (let i = 0; i < rows; i++) {
    const row = rowKey(i);
    rowKeys.push(flat(row));
    for (let c = 0; c < COLUMNS && keys.length < cells; c++) {
      const value = `value-${pad(i * COLUMNS + c, 10)}`;
      keys.push(flat(`${row}fc${c}`));
      values.push(flat(value));
      field(row); field(`c${c}`); field(value);
    }
  }
  const stringHeap = heap() - heapBeforeStrings - packed.byteLength;
  return { rowKeys, keys, values, packed, heap, stringHeap };
}

// ---- Rowkey's memory: each layout loaded once in a fresh page ----------------------------------
// WebAssembly memory never shrinks, so the growth by one load from a fresh page is that load's
// high-water mark, its flushes and compactions included.
const rowkeyMemory = {};
for (const layout of PERSIST_ONLY ? [] : ['regions', 'runs']) {
  const fresh = await openBench(browser, url);
  await fresh.evaluate(`window.makeWorkload = ${makeWorkload}`);
  rowkeyMemory[layout] = await fresh.evaluate(([cells, layout]) => {
    const { packed } = window.makeWorkload(cells);
    const before = window.rowkeyBench.memoryBytes();
    const n = window.rowkeyBench.load(packed, layout);
    return { before, after: window.rowkeyBench.memoryBytes(), n };
  }, [CELLS, layout]);
  await fresh.close();
}

const page = await openBench(browser, url);
page.on('pageerror', (e) => console.log('page error:', String(e)));
await page.addScriptTag({ path: MEMORY_LEVEL });
await page.addScriptTag({ url: `${new URL(url).origin}/vendor/sql.js/sql-wasm-browser.js` });
await page.evaluate(`window.makeWorkload = ${makeWorkload}`);

// ---- in the page ------------------------------------------------------------------------------
await page.evaluate(async ([cells, sqlBase, collect]) => {
  const { rowKeys, keys, values, packed, heap, stringHeap } = window.makeWorkload(cells);
  // The smallest string above every string that starts with `s`.
  const after = (s) => s.slice(0, -1) + String.fromCharCode(s.charCodeAt(s.length - 1) + 1);
  // mulberry32, seeded: the same gets and scans every run.
  let seed = 13;
  const random = () => { seed = (seed + 0x6D2B79F5) | 0; let t = Math.imul(seed ^ (seed >>> 15), 1 | seed); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const pick = (n) => Array.from({ length: n }, () => rowKeys[Math.floor(random() * rowKeys.length)]);
  const gets = pick(10_000), forward = pick(2_000), reversed = pick(2_000);

  // sql.js's WebAssembly memory, which the module does not expose: found in its instance.
  let sqlMemory = null;
  const watch = (args, p) => p.then((r) => {
    const found = [...Object.values(r.instance?.exports ?? r.exports ?? {}), ...Object.values(args[1]?.env ?? {}), ...Object.values(args[1]?.a ?? {})];
    sqlMemory = found.find((v) => v instanceof WebAssembly.Memory) ?? sqlMemory;
    return r;
  });
  const { instantiate, instantiateStreaming } = WebAssembly;
  WebAssembly.instantiate = (...a) => watch(a, instantiate.apply(WebAssembly, a));
  WebAssembly.instantiateStreaming = (...a) => watch(a, instantiateStreaming.apply(WebAssembly, a));
  const SQL = await initSqlJs({ locateFile: (f) => sqlBase + f });
  Object.assign(WebAssembly, { instantiate, instantiateStreaming });

  const lowerBound = (arr, key) => {
    let lo = 0, hi = arr.length;
    while (lo < hi) { const mid = (lo + hi) >>> 1; if (arr[mid][0] < key) lo = mid + 1; else hi = mid; }
    return lo;
  };
  // Each store: load() and the reads, each read returning the cells it handed over; Rowkey's
  // layouts select their table before the clock starts.
  const rowkey = (layout) => ({
    select: () => window.rowkeyBench.select(layout),
    load: () => window.rowkeyBench.load(packed, layout),
    get: (row) => window.rowkeyBench.get(row),
    forward: (row) => window.rowkeyBench.scan(row, 10, false),
    reversed: (row) => window.rowkeyBench.scan(row, 10, true),
    full: () => window.rowkeyBench.fullScan(),
    fullKept: () => window.rowkeyBench.fullScanKept(),
    drop: () => window.rowkeyBench.clear(),
  });
  const stores = {
    rowkey: rowkey('regions'),
    rowkeyRuns: rowkey('runs'),
    array: {
      load() {
        const a = new Array(keys.length);
        for (let i = 0; i < keys.length; i++) a[i] = [keys[i], values[i]];
        a.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
        this.a = a;
        return a.length;
      },
      get(row) {
        const lo = lowerBound(this.a, row);
        let hi = lo;
        while (hi < this.a.length && this.a[hi][0].startsWith(row)) hi++;
        return this.a.slice(lo, hi).length;
      },
      forward(row) { const lo = lowerBound(this.a, row); return this.a.slice(lo, lo + 100).length; },
      reversed(row) { const hi = lowerBound(this.a, after(row)); return this.a.slice(Math.max(0, hi - 100), hi).reverse().length; },
      full() { let n = 0; for (const [k, v] of this.a) if (k && v) n++; return n; },
      drop() { this.a = null; },
    },
    sqljs: {
      load() {
        const db = new SQL.Database();
        db.run('CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID');
        db.run('BEGIN');
        const insert = db.prepare('INSERT INTO kv VALUES (?, ?)');
        for (let i = 0; i < keys.length; i++) insert.run([keys[i], values[i]]);
        insert.free();
        db.run('COMMIT');
        this.db = db;
        this.getStmt = db.prepare('SELECT key, value FROM kv WHERE key >= ? AND key < ?');
        this.fwdStmt = db.prepare('SELECT key, value FROM kv WHERE key >= ? ORDER BY key LIMIT 100');
        this.revStmt = db.prepare('SELECT key, value FROM kv WHERE key < ? ORDER BY key DESC LIMIT 100');
        return keys.length;
      },
      rows(stmt, params) {
        stmt.bind(params);
        let n = 0;
        while (stmt.step()) if (stmt.get()) n++;
        stmt.reset();
        return n;
      },
      get(row) { return this.rows(this.getStmt, [row, after(row)]); },
      forward(row) { return this.rows(this.fwdStmt, [row]); },
      reversed(row) { return this.rows(this.revStmt, [after(row)]); },
      full() {
        const stmt = this.db.prepare('SELECT key, value FROM kv ORDER BY key');
        const n = this.rows(stmt, []);
        stmt.free();
        return n;
      },
      drop() { for (const s of [this.getStmt, this.fwdStmt, this.revStmt]) s.free(); this.db.close(); this.db = null; },
    },
    memoryLevel: {
      async load() {
        const db = new memoryLevelBundle.MemoryLevel({ storeEncoding: 'utf8' });
        await db.open();
        for (let from = 0; from < keys.length; from += 10_000) {
          const ops = [];
          for (let i = from; i < Math.min(from + 10_000, keys.length); i++) ops.push({ type: 'put', key: keys[i], value: values[i] });
          await db.batch(ops);
        }
        this.db = db;
        return keys.length;
      },
      async get(row) { return (await this.db.iterator({ gte: row, lt: after(row) }).all()).length; },
      async forward(row) { return (await this.db.iterator({ gte: row, limit: 100 }).all()).length; },
      async reversed(row) { return (await this.db.iterator({ lt: after(row), reverse: true, limit: 100 }).all()).length; },
      async full() {
        const it = this.db.iterator();
        let n = 0, batch;
        while ((batch = await it.nextv(1000)).length) n += batch.length;
        await it.close();
        return n;
      },
      async drop() { await this.db.close(); this.db = null; },
    },
  };


  const workload = { load: null, get: gets, forward, reversed, full: null, fullKept: null };
  // Rowkey's save and restore collect the garbage before each timed step through this hook.
  if (collect) window.rowkeyBenchCollect = () => gc();
  window.__bench = {
    cells: keys.length,
    stringHeap,
    sqlBefore: sqlMemory?.buffer.byteLength ?? NaN,
    async run(store, op) {
      const s = stores[store];
      s.select?.();
      if (op === 'drop') { await s.drop(); return {}; }
      if (!s[op]) return { skipped: true };
      const before = op === 'load' ? heap() : 0;
      const list = workload[op];
      let n = 0;
      const t0 = performance.now();
      if (!list) n = await s[op]();
      else if (store === 'memoryLevel') for (const k of list) n += await s[op](k);
      else for (const k of list) n += s[op](k);
      const ms = performance.now() - t0;
      const out = { ms, n };
      if (op === 'load') {
        out.heap = heap() - before;
        if (store === 'sqljs') out.wasm = sqlMemory?.buffer.byteLength ?? NaN;
      }
      return out;
    },
    saveRestore: async (layout) => {
      window.rowkeyBench.select(layout);
      return JSON.parse(await window.rowkeyBench.saveRestore());
    },
  };
}, [CELLS, `${new URL(url).origin}/vendor/sql.js/`, !process.env.ROWKEY_BENCH_NO_GC]);

// ---- the rounds -------------------------------------------------------------------------------
const STORES = PERSIST_ONLY ? ['rowkey', 'rowkeyRuns'] : (process.env.ROWKEY_BENCH_STORES?.split(',') ?? ['rowkey', 'rowkeyRuns', 'array', 'sqljs', 'memoryLevel']);
const NAMES = { rowkey: 'Rowkey, 16 regions', rowkeyRuns: 'Rowkey, runs', array: 'JS array', sqljs: 'sql.js', memoryLevel: 'memory-level' };
const LAYOUTS = { rowkey: 'regions', rowkeyRuns: 'runs' };
const OPS = ['load', 'get', 'forward', 'reversed', 'full', 'fullKept'];
const { cells, stringHeap, sqlBefore } = await page.evaluate(() => ({ ...window.__bench }));
const results = {}; // results[op][store] = [{ ms, n, heap, wasm }, ...]
// The save and restore of each Rowkey layout this run loads (ROWKEY_BENCH_STORES may leave one
// out); none with ROWKEY_BENCH_NO_PERSIST=1, for a quicker run of the reads alone.
const persist = Object.fromEntries(process.env.ROWKEY_BENCH_NO_PERSIST ? [] : STORES.filter((s) => LAYOUTS[s]).map((s) => [LAYOUTS[s], []]));
// One round's save and restore, step by step (ms): what the outliers are named with.
const steps = (f) => (f.clearMs === undefined ? `save ${f.saveMs.toFixed(0)} (blob ${f.rawWriteMs.toFixed(0)}), restore ${f.restoreMs.toFixed(0)} (blob ${f.rawReadMs.toFixed(0)})` : [
  `clear ${f.clearMs.toFixed(0)}, save ${f.saveMs.toFixed(0)} (blob ${f.rawWriteMs.toFixed(0)}, ${(f.saveMs / f.rawWriteMs).toFixed(2)}×)`,
  `restore ${f.restoreMs.toFixed(0)} (blob ${f.rawReadMs.toFixed(0)}, ${(f.restoreMs / f.rawReadMs).toFixed(2)}×):`,
  `records requested @${f.requestedMs.toFixed(0)}, first run record @${f.firstRunMs.toFixed(0)}, runs opened @${f.runsDoneMs.toFixed(0)}`,
  `(longest wait for one ${f.longestWaitMs.toFixed(0)}), read @${f.readMs.toFixed(0)}, decoded @${f.restoreMs.toFixed(0)}`,
].join(' '));
if (process.env.ROWKEY_BENCH_TRACE) await browser.startTracing(page, { path: process.env.ROWKEY_BENCH_TRACE, categories: process.env.ROWKEY_BENCH_TRACE_CATS.split(',') });
const started = Date.now();
for (let round = 0; round < ROUNDS; round++) {
  const order = STORES.map((_, i) => STORES[(i + round) % STORES.length]);
  for (const op of OPS) {
    for (const store of order) {
      const r = await page.evaluate(([s, o]) => window.__bench.run(s, o), [store, op]);
      ((results[op] ??= {})[store] ??= []).push(r);
    }
  }
  for (const layout of Object.keys(persist)) {
    const f = await page.evaluate((l) => window.__bench.saveRestore(l), layout);
    persist[layout].push(f);
    if (process.env.ROWKEY_BENCH_EACH) process.stderr.write(`  round ${round + 1}, ${NAMES[layout === 'runs' ? 'rowkeyRuns' : 'rowkey']}: ${steps(f)}\n`);
  }
  for (const store of order) await page.evaluate(([s]) => window.__bench.run(s, 'drop'), [store]);
  process.stderr.write(`round ${round + 1}/${ROUNDS} done after ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}
if (process.env.ROWKEY_BENCH_TRACE) await browser.stopTracing();
const loadAfter = os.loadavg();

// ---- the table --------------------------------------------------------------------------------
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const fmt = (x, digits = 0) => x.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const OPS_COUNT = { get: 10_000, forward: 2_000, reversed: 2_000 };
const LABEL = {
  load: `load ${fmt(cells)} cells`,
  get: '10,000 gets of a row',
  forward: '2,000 10-row scans',
  reversed: '2,000 10-row scans reversed',
  full: 'full scan',
  fullKept: 'full scan, rows kept',
};
// The figure shown for an operation, from its median time.
const figure = (op, ms) => {
  if (ms === undefined) return '-';
  if (op === 'load' || op.startsWith('full')) return `${fmt(ms)} ms ${fmt(cells / ms / 1000, 2)} M cells/s`;
  return `${fmt(ms)} ms ${fmt((ms * 1000) / OPS_COUNT[op], 1)} µs each`;
};
const W = 26;
const cell = (text) => text.padStart(W);
const mismatches = [];
const mb = (b) => `${fmt(b / 1048576, 1)} MB`;
if (!PERSIST_ONLY) {
  console.log(`Rowkey storage benchmark: ${fmt(cells)} cells (${fmt(cells / 10)} rows × 10 columns, 26-byte keys, 16-byte values), medians of ${ROUNDS} rounds`);
  console.log(`${'operation'.padEnd(28)}${STORES.map((s) => cell(NAMES[s])).join('')}`);
  for (const op of OPS) {
    // A store without the operation (the rows kept: Rowkey's alone) shows `-`.
    const ran = STORES.filter((s) => !results[op][s][0].skipped);
    const ms = Object.fromEntries(ran.map((s) => [s, median(results[op][s].map((r) => r.ms))]));
    const counts = ran.map((s) => results[op][s][0].n);
    // The rows kept are the same cells as the array's full scan.
    if (op === 'fullKept' && results.full.array) counts.push(results.full.array[0].n);
    if (new Set(counts).size > 1) mismatches.push(`${op}: ${ran.map((s, i) => `${NAMES[s]} ${counts[i]}`).join(', ')}`);
    console.log(`${LABEL[op].padEnd(28)}${STORES.map((s) => cell(figure(op, ms[s]))).join('')}`);
    // Rowkey's kept rows against the array's full scan.
    const array = ms.array ?? median(results.full.array.map((r) => r.ms));
    console.log(`${'  speed ÷ the JS array\'s'.padEnd(28)}${STORES.map((s) => cell(ms[s] === undefined ? '-' : `${fmt(array / ms[s], 2)}×`)).join('')}`);
  }
  const heapOf = (s) => median(results.load[s].map((r) => r.heap));
  // sql.js: the first round's growth; WebAssembly memory never shrinks, so later rounds add the
  // earlier rounds' peaks.
  const wasmOf = (s) => results.load[s][0].wasm;
  const rowkeyGrowth = (s) => rowkeyMemory[LAYOUTS[s]].after - rowkeyMemory[LAYOUTS[s]].before;
  // The JS array and memory-level hold the workload's own key and value strings: counted for both.
  // Each store's figure, for the stores this run measured (ROWKEY_BENCH_STORES may name a few).
  const memory = {
    rowkey: () => rowkeyGrowth('rowkey'),
    rowkeyRuns: () => rowkeyGrowth('rowkeyRuns'),
    array: () => heapOf('array') + stringHeap,
    sqljs: () => wasmOf('sqljs') - sqlBefore + heapOf('sqljs'),
    memoryLevel: () => heapOf('memoryLevel') + stringHeap,
  };
  const held = Object.fromEntries(STORES.map((s) => [s, memory[s]()]));
  const kvBytes = cells * 42;
  console.log(`${'memory held'.padEnd(28)}${STORES.map((s) => cell(mb(held[s]))).join('')}`);
  console.log(`${'  ÷ key and value bytes'.padEnd(28)}${STORES.map((s) => cell(`${fmt(held[s] / kvBytes, 2)}×`)).join('')}`);
  console.log(`${'  ÷ the JS array\'s'.padEnd(28)}${STORES.map((s) => cell(`${fmt(held[s] / held.array, 2)}×`)).join('')}`);
  const grew = (a, b) => `wasm ${fmt(a / 1048576)}→${fmt(b / 1048576)} MB`;
  const ofRowkey = (s) => grew(rowkeyMemory[LAYOUTS[s]].before, rowkeyMemory[LAYOUTS[s]].after);
  const of = {
    rowkey: () => ofRowkey('rowkey'),
    rowkeyRuns: () => ofRowkey('rowkeyRuns'),
    array: () => `heap + strings ${mb(stringHeap)}`,
    sqljs: () => `${grew(sqlBefore, wasmOf('sqljs'))} + heap`,
    memoryLevel: () => `heap + strings ${mb(stringHeap)}`,
  };
  console.log(`${'  of which'.padEnd(28)}${STORES.map((s) => cell(of[s]())).join('')}`);
  console.log(`  (key and value bytes: ${mb(kvBytes)}. WebAssembly memory never shrinks: Rowkey's figures are its growth by one load of each layout in a freshly opened page (the load's high-water mark, flushes and compactions included), sql.js's its growth by the first round's load; sql.js keeps its database in a file of Emscripten's in-memory file system, in the JS heap. JS heaps after gc(); Rowkey's JS heap grew ${STORES.filter((s) => LAYOUTS[s]).map((s) => `${mb(heapOf(s))} (${NAMES[s]})`).join(' and ')} by its loads.)`);
}
for (const [layout, rounds] of Object.entries(persist)) {
  const p = (k) => median(rounds.map((f) => f[k]));
  const f0 = rounds[0];
  const name = `Rowkey, ${layout === 'runs' ? 'runs' : '16 regions'}:`.padEnd(20);
  console.log(`${name}save through IndexedDB (encode + commit) ${fmt(p('saveMs'))} ms (encode ${fmt(p('encodeMs'))} ms), ${f0.runs} runs, ${mb(f0.bytes)}; one raw blob of the same bytes: ${fmt(p('rawWriteMs'))} ms; ${fmt(p('saveMs') / p('rawWriteMs'), 2)}× the blob`);
  console.log(`${''.padEnd(20)}restore (read + decode) ${fmt(p('restoreMs'))} ms (read ${fmt(p('readMs'))} ms), ${fmt(f0.restored)} cells back, ${f0.problems} problems; raw blob read: ${fmt(p('rawReadMs'))} ms; ${fmt(p('restoreMs') / p('rawReadMs'), 2)}× the blob`);
  // The same ratios taken within each round (the blob read right after Rowkey's restore), then
  // their median: less moved by a load that changes from round to round.
  const ratio = (a, b) => median(rounds.map((f) => f[a] / f[b]));
  console.log(`${''.padEnd(20)}within each round, median: save ${fmt(ratio('saveMs', 'rawWriteMs'), 2)}× the blob, restore ${fmt(ratio('restoreMs', 'rawReadMs'), 2)}×`);
  // Builds that do not say when their run records arrived leave these out.
  if (f0.openingMs !== undefined) {
    console.log(`${''.padEnd(20)}of the restore: opening the run records as they arrived ${fmt(p('openingMs'))} ms in all; from the last run record's arrival to the end ${fmt(p('afterLastRunMs'))} ms (each round: ${rounds.map((f) => fmt(f.afterLastRunMs)).join(', ')})`);
  }
  // Every round, and the rounds far from the others named with their steps: a median hides them.
  const saves = rounds.map((f) => f.saveMs / f.rawWriteMs);
  const restores = rounds.map((f) => f.restoreMs / f.rawReadMs);
  console.log(`${''.padEnd(20)}each round, save ÷ blob write: ${saves.map((x) => fmt(x, 2)).join(', ')}; restore ÷ blob read: ${restores.map((x) => fmt(x, 2)).join(', ')}`);
  // Far above the others (Rowkey's step stalled) or far below (the blob's did).
  const far = (xs, i) => (xs[i] > 1.5 * median(xs) && xs[i] > 1.2) || xs[i] < median(xs) / 1.5;
  rounds.forEach((f, i) => {
    if (far(saves, i) || far(restores, i)) console.log(`${''.padEnd(20)}outlier, round ${i + 1}: ${steps(f)}`);
  });
}
if (PERSIST_ONLY) console.log(`Rowkey's save and restore alone (ROWKEY_BENCH_ONLY=persist), medians of ${ROUNDS} rounds`);
else if (mismatches.length) console.log(`cells returned differ: ${mismatches.join('; ')}`);
else console.log(`every store returned the same cells: gets ${fmt(results.get.array[0].n)}, scans ${fmt(results.forward.array[0].n)} / ${fmt(results.reversed.array[0].n)}, full ${fmt(results.full.array[0].n)}`);
console.log(`Chromium ${browser.version()}; sql.js ${version('sql.js')}, memory-level ${version('memory-level')}; ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}; load average ${loadBefore.map((x) => x.toFixed(2)).join(' ')} before, ${loadAfter.map((x) => x.toFixed(2)).join(' ')} after; ${new Date().toISOString().slice(0, 10)}`);
await browser.close();
server.close();
