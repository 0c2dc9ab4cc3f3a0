// The engine's reads of `run.mjs` in Chromium instead of Node: the module (or several, to
// compare builds) loaded in a blank page of the browser the storage benchmark drives, one
// fresh page per run, the files taking turns. Node's V8 carries some of WebAssembly's
// instructions out differently from the browser's (a `memory.copy`, a `memory.fill`), so a
// change to how the engine copies bytes is measured here. Wall-clock time of the page
// (`performance.now`), medians of the rounds; the machine's load shows in it. Last, each file's
// fastest load and fastest round of each read over all its pages.
//
//     node benches/wasm/run-page.mjs [regions|runs|once=runs] [pairs=2] [rounds=7] A.wasm [B.wasm ...]
//
// `rounds` 0 times the load alone.
import fs from 'node:fs';
import { launch } from '../../tests/e2e/harness.mjs';

const args = process.argv.slice(2);
const files = args.filter((a) => a.endsWith('.wasm'));
const [layout = 'runs', pairs = '2', rounds = '7'] = args.filter((a) => !a.endsWith('.wasm'));
const layouts = { regions: 0, runs: 1, once: 2 };
if (!files.length || !(layout in layouts)) {
  console.error('usage: node benches/wasm/run-page.mjs [regions|runs|once] [pairs] [rounds] A.wasm [B.wasm ...]');
  process.exit(2);
}
const browser = await launch();
const run = async (file) => {
  const page = await browser.newPage();
  const bytes = fs.readFileSync(file).toString('base64');
  const r = await page.evaluate(async ([b64, layout, rounds]) => {
    const { instance } = await WebAssembly.instantiate(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)), {});
    const x = instance.exports;
    let t = performance.now();
    if (x.load(100_000, layout) !== 100_000) return { error: 'the load failed' };
    const out = { load: performance.now() - t };
    // Each read, how many of it a round makes, and the cells a read returns.
    const reads = {
      get: [20_000, (r) => x.gets(20_000, r * 20_000, 0), 10],
      scan: [5_000, (r) => x.scans(5_000, 0, r * 5_000, 0), 100],
      reversed: [5_000, (r) => x.scans(5_000, 1, r * 5_000, 0), 100],
      full: [1, () => x.full(), 1_000_000],
      // A module built before the rows-kept scan had its own export has none.
      ...(x.full_kept ? { fullKept: [1, () => x.full_kept(), 1_000_000] } : {}),
    };
    for (const [name, [n, read, cells]] of Object.entries(reads)) {
      const times = [];
      for (let round = 0; round < rounds; round++) {
        t = performance.now();
        const got = read(round);
        times.push(((performance.now() - t) / n) * (name.startsWith('full') ? 1 : 1000));
        if (got !== n * cells) return { error: `${name}: ${got} cells returned, ${n * cells} expected` };
      }
      if (times.length) {
        times.sort((p, q) => p - q);
        out[name] = times[times.length >> 1];
        (out.fastest ??= {})[name] = times[0];
      }
    }
    return out;
  }, [bytes, layouts[layout], Number(rounds)]);
  await page.close();
  return r;
};
const fmt = (v, digits) => (v === undefined ? '-' : v.toFixed(digits));
const line = (r) => `load ${fmt(r.load, 0)} ms, get ${fmt(r.get, 2)} µs, scan ${fmt(r.scan, 2)} µs, reversed ${fmt(r.reversed, 2)} µs, full ${fmt(r.full, 1)} ms, full with rows kept ${fmt(r.fullKept, 1)} ms`;
// Per file, the fastest load and the fastest round of each read over all its pages: what the
// machine's other work adds least to, so a change of a few percent shows between builds.
const fastest = new Map();
for (let i = 0; i < Number(pairs); i++) {
  for (const file of files) {
    const r = await run(file);
    if (r.error) {
      console.error(`${file}: ${r.error}`);
      process.exit(1);
    }
    console.log(`${file}: ${layout}, ${line(r)}`);
    const f = fastest.get(file) ?? {};
    for (const [name, v] of Object.entries({ load: r.load, ...r.fastest })) f[name] = Math.min(f[name] ?? Infinity, v);
    fastest.set(file, f);
  }
}
for (const [file, f] of fastest) console.log(`${file}: fastest of ${pairs} pages, ${line(f)}`);
await browser.close();
