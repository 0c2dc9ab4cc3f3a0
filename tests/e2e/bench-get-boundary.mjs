// What a browser get is made of: the call from JavaScript into WebAssembly with its row as a
// string, against the whole get. `rowkeyBench.get(row)` with no table loaded crosses the
// boundary (the string copied into WebAssembly memory as UTF-8, the closure called, the count
// returned) and reads nothing; the same gets after a load of the runs layout (the cells of
// bench-storage.mjs, 100,000 rows of 10) do the engine's read too. Prints figures.
//
//     node tests/e2e/bench-get-boundary.mjs          # 1,000,000 cells
//     ROWKEY_BENCH_CELLS=200000 node tests/e2e/bench-get-boundary.mjs
import os from 'node:os';
import { serve, launch, openBench, BENCH_DIST } from './harness.mjs';

const CELLS = Number(process.env.ROWKEY_BENCH_CELLS ?? 1_000_000);
const ROUNDS = 5;
const { server, url } = await serve('/tools/rowkey/', {}, BENCH_DIST);
const browser = await launch();
const page = await openBench(browser, url);
const load = os.loadavg();
const out = await page.evaluate(async ([cells, rounds]) => {
  const rows = Math.ceil(cells / 10);
  const pad = (n, w) => String(n).padStart(w, '0');
  // bench-storage.mjs's row keys and values.
  const rowKey = (i) => {
    const g = BigInt(Math.floor(i / 10));
    const h = Number(((g * 0x9E3779B97F4A7C15n) & 0xFFFFFFFFFFFFFFFFn) >> 48n);
    return `${h.toString(16).padStart(4, '0')}-user-${pad(g, 10)}-r${i % 10}`;
  };
  const enc = new TextEncoder();
  const packed = new Uint8Array(cells * (1 + 23 + 1 + 2 + 1 + 16));
  let at = 0;
  const field = (s) => { const b = enc.encode(s); packed[at++] = b.length; packed.set(b, at); at += b.length; };
  const keys = [];
  for (let i = 0; i < rows; i++) {
    const row = rowKey(i);
    keys.push(JSON.parse(`"${row}"`));
    for (let c = 0; c < 10; c++) { field(row); field(`c${c}`); field(`value-${pad(i * 10 + c, 10)}`); }
  }
  let seed = 13;
  const random = () => { seed = (seed + 0x6D2B79F5) | 0; let t = Math.imul(seed ^ (seed >>> 15), 1 | seed); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const gets = Array.from({ length: 10_000 }, () => keys[Math.floor(random() * keys.length)]);
  const b = window.rowkeyBench;
  const time = (f) => { let n = 0; const t0 = performance.now(); for (const k of gets) n += f(k); return { us: (performance.now() - t0) * 1000 / gets.length, n }; };
  const res = { boundary: [], get: [], select: [] };
  b.select('runs');
  b.clear();
  for (let r = 0; r < rounds; r++) { res.boundary.push(time((k) => b.get(k))); res.select.push(time((k) => (b.select('runs'), 0))); }
  b.load(packed, 'runs');
  for (let r = 0; r < rounds; r++) res.get.push(time((k) => b.get(k)));
  return res;
}, [CELLS, ROUNDS]);
const fmt = (xs) => xs.map((x) => x.us.toFixed(2)).join(' ');
console.log(`${CELLS} cells, runs layout, 10,000 gets per round, ${ROUNDS} rounds (µs per call)`);
console.log(`get with no table (the boundary: row string in, count out): ${fmt(out.boundary)}`);
console.log(`select('runs') (a call with a short string, no read):       ${fmt(out.select)}`);
console.log(`get of a row (boundary and read):                           ${fmt(out.get)}  cells ${out.get[0].n}`);
console.log(`load average ${load.map((l) => l.toFixed(2)).join(' ')} before, ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} after`);
await browser.close();
server.close();
