// The engine's reads in WebAssembly under Node (see src/lib.rs): one load, then rounds of
// 20,000 gets, 5,000 10-row scans each way (from a prefix, and from a row), a full scan, timed by the process's CPU time
// (which other processes on the machine do not add to, as they add to the wall clock).
// Prints each read's median and fastest round.
//
//     node benches/wasm/run.mjs FILE.wasm [rows=100000] [regions|runs|once=runs] [rounds=9]
//
// `once`: the runs layout's table loaded with no flush until the end (one memstore, one run).
import fs from 'node:fs';

const [file, rowsArg, layout = 'runs', roundsArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node benches/wasm/run.mjs FILE.wasm [rows] [regions|runs|once] [rounds]');
  process.exit(2);
}
const rows = Number(rowsArg ?? 100_000), rounds = Number(roundsArg ?? 9);
const { instance } = await WebAssembly.instantiate(fs.readFileSync(file), {});
const x = instance.exports;
const cpuMs = () => process.cpuUsage().user / 1000;

let t = cpuMs();
const layouts = { regions: 0, runs: 1, once: 2 };
if (!(layout in layouts)) {
  console.error(`unknown layout ${layout}: regions, runs or once`);
  process.exit(2);
}
if (x.load(rows, layouts[layout]) !== rows) {
  console.error('the load failed');
  process.exit(1);
}
const loadMs = cpuMs() - t;
const memoryMb = x.memory.buffer.byteLength / 1e6;

const reads = {
  get: { n: 20_000, unit: 'µs', run: (r) => x.gets(20_000, r * 20_000, 0), cells: 10 },
  scan: { n: 5_000, unit: 'µs', run: (r) => x.scans(5_000, 0, r * 5_000, 0), cells: 100 },
  reversed: { n: 5_000, unit: 'µs', run: (r) => x.scans(5_000, 1, r * 5_000, 0), cells: 100 },
  // The same reads with their rows kept in their results.
  getKept: { n: 20_000, unit: 'µs', run: (r) => x.gets(20_000, r * 20_000, 1), cells: 10 },
  scanKept: { n: 5_000, unit: 'µs', run: (r) => x.scans(5_000, 0, r * 5_000, 1), cells: 100 },
  reversedKept: { n: 5_000, unit: 'µs', run: (r) => x.scans(5_000, 1, r * 5_000, 1), cells: 100 },
  // Ten rows from a row the table holds (the browser benchmark's scans), each way. A start
  // row near either end of the key space returns fewer: no count is checked.
  ...(x.row_scans ? {
    rowScan: { n: 5_000, unit: 'µs', run: (r) => x.row_scans(5_000, 0, r * 5_000) },
    rowReversed: { n: 5_000, unit: 'µs', run: (r) => x.row_scans(5_000, 1, r * 5_000) },
  } : {}),
  full: { n: 1, unit: 'ms', run: () => x.full(), cells: rows * 10 },
  ...(x.full_kept ? { fullKept: { n: 1, unit: 'ms', run: () => x.full_kept(), cells: rows * 10 } } : {}),
};
const times = Object.fromEntries(Object.keys(reads).map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  for (const [name, read] of Object.entries(reads)) {
    t = cpuMs();
    const cells = read.run(r);
    const ms = cpuMs() - t;
    if (read.cells !== undefined && cells !== read.n * read.cells) {
      console.error(`${name}: ${cells} cells returned, ${read.n * read.cells} expected`);
      process.exit(1);
    }
    times[name].push(read.unit === 'µs' ? (ms * 1000) / read.n : ms);
  }
}
const sorted = (a) => [...a].sort((p, q) => p - q);
const fmt = (v) => (v >= 100 ? v.toFixed(0) : v.toFixed(2));
console.log(`${file}: ${rows.toLocaleString('en')} rows × 10 columns, ${layout} layout; load ${loadMs.toFixed(0)} ms CPU, memory ${memoryMb.toFixed(0)} MB`);
for (const [name, read] of Object.entries(reads)) {
  const s = sorted(times[name]);
  console.log(`  ${name.padEnd(12)} median ${fmt(s[s.length >> 1])} ${read.unit}, fastest ${fmt(s[0])} ${read.unit} (CPU time per read, ${rounds} rounds)`);
}
