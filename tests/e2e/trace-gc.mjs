// The page's major garbage collections inside each save and restore of a traced storage
// benchmark (prints figures; not a test):
//
//   ROWKEY_BENCH_TRACE=/tmp/trace.json ROWKEY_BENCH_TRACE_CATS=disabled-by-default-v8.gc,IndexedDB \
//     node tests/e2e/bench-storage.mjs && node tests/e2e/trace-gc.mjs /tmp/trace.json
//
// A save and restore runs from the clear of Rowkey's database to the blob's read (found by the
// IndexedDB requests the page made: a clear, Rowkey's puts, its reads, the blob's clear, its one
// put and its one get). Each major collection inside one is listed with its wall time, the main
// thread's CPU time and V8's reason; "testing" is the benchmark's own `gc()` between timed steps
// (window.rowkeyBenchCollect), any other reason a collection that V8 started inside the steps.
import fs from 'node:fs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node tests/e2e/trace-gc.mjs TRACE.json');
  process.exit(2);
}
const parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;

// The page's main thread: the one that made the IndexedDB requests.
const SETUPS = {
  'IDBObjectStore::getAllKeysRequestSetup': 'K',
  'IDBObjectStore::putRequestSetup': 'P',
  'IDBObjectStore::clearRequestSetup': 'C',
  'IDBObjectStore::getRequestSetup': 'G',
};
const threads = new Map();
for (const e of events) {
  if (e.name === 'IDBObjectStore::getAllKeysRequestSetup') {
    const k = `${e.pid}:${e.tid}`;
    threads.set(k, (threads.get(k) ?? 0) + 1);
  }
}
const main = [...threads].sort((a, b) => b[1] - a[1])[0]?.[0];
if (!main) {
  console.error(`${file}: no IndexedDB requests (trace the IndexedDB category)`);
  process.exit(1);
}
const onMain = (e) => `${e.pid}:${e.tid}` === main;

// The requests in order, runs of one kind (within 0.3 s of each other) merged: [start, kind, end, count].
const runs = [];
for (const e of events.filter((e) => onMain(e) && SETUPS[e.name]).sort((a, b) => a.ts - b.ts)) {
  const last = runs.at(-1);
  if (last && last[1] === SETUPS[e.name] && e.ts - last[2] < 300_000) {
    last[2] = e.ts;
    last[3] += 1;
  } else runs.push([e.ts, SETUPS[e.name], e.ts, 1]);
}
// A save and restore: a clear followed by several puts, up to the first get after the blob's single put.
const windows = [];
for (let i = 0; i < runs.length; i++) {
  if (runs[i][1] !== 'C' || runs[i + 1]?.[1] !== 'P' || runs[i + 1][3] < 2) continue;
  let j = i + 1;
  while (j < runs.length && !(runs[j][1] === 'P' && runs[j][3] === 1)) j++;
  while (j < runs.length && runs[j][1] !== 'G') j++;
  if (j < runs.length) windows.push([runs[i][0], runs[j][2] + 50_000]);
  i = j;
}

// V8's reason for each major collection, from its summary record.
const summaries = events
  .filter((e) => e.name === 'V8.GCTraceGCNVP' && `${e.pid}` === main.split(':')[0])
  .map((e) => ({ ts: e.ts, ...JSON.parse(e.args.value) }))
  .filter((s) => s.gc === 'mc')
  .sort((a, b) => a.ts - b.ts);
const reason = (g) => summaries.find((s) => s.ts >= g.ts && s.ts <= g.ts + g.dur + 300_000)?.reason ?? 'unknown';
const majors = events.filter((e) => onMain(e) && e.ph === 'X' && e.name === 'V8.GC_MARK_COMPACTOR');
const ms = (us) => (us / 1000).toFixed(0);

windows.forEach(([a, b], n) => {
  const inside = majors.filter((g) => g.ts >= a && g.ts <= b).map((g) => ({ g, why: reason(g) }));
  const ours = inside.filter((x) => x.why === 'testing').length;
  const v8 = inside.filter((x) => x.why !== 'testing');
  const listed = v8.map(({ g, why }) => `${ms(g.dur)} ms (main thread CPU ${ms(g.tdur ?? 0)} ms; ${why})`).join(', ');
  console.log(`save and restore ${n + 1} (round ${(n >> 1) + 1}, ${n % 2 ? 'runs' : '16 regions'}): ${ours} collections by the benchmark between steps; started by V8 inside: ${listed || 'none'}`);
});
const big = majors.filter((g) => (g.tdur ?? 0) > 300_000);
console.log(`major collections over 300 ms of CPU in the whole run: ${big.map((g) => `${ms(g.dur)} ms (CPU ${ms(g.tdur)}; ${reason(g)})`).join(', ') || 'none'}`);
