// Benchmark (prints figures, asserts nothing): how long the release page takes to start, from
// the navigation to the console's ready status, for one build or several in turns.
//   bash scripts/dev.sh build && node tests/e2e/bench-startup.mjs [DIST ...] [ROUNDS=7]
// Each visit is a first one, in a fresh browser context (nothing cached). With
// ROWKEY_STARTUP_REPEAT=1, each build is visited ROUNDS + 1 times in one context instead, the
// first visit left open four seconds (the loader keeps the unpacked module three seconds after
// the start), and the later visits are timed: a person coming back.
import { serve, launch, DIST } from './harness.mjs';

const args = process.argv.slice(2);
const rounds = /^\d+$/.test(args.at(-1) ?? '') ? Number(args.pop()) : 7;
const dists = args.length ? args : [DIST];
const repeat = process.env.ROWKEY_STARTUP_REPEAT === '1';
const browser = await launch();

/** Milliseconds from the navigation to the ready status of one visit in `context`. */
async function visit(context, url, linger = 0) {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('.status.ok');
  const ms = await page.evaluate(() => performance.now());
  if (linger) await page.waitForTimeout(linger);
  await page.close();
  return ms;
}

const ready = new Map(dists.map((d) => [d, []]));
if (repeat) {
  for (const dist of dists) {
    const { server, url } = await serve(undefined, {}, dist);
    const context = await browser.newContext();
    await visit(context, url, 4000);
    for (let round = 0; round < rounds; round++) ready.get(dist).push(await visit(context, url));
    await context.close();
    server.close();
  }
} else {
  for (let round = 0; round < rounds; round++) {
    for (const dist of dists) {
      const { server, url } = await serve(undefined, {}, dist);
      const context = await browser.newContext();
      ready.get(dist).push(await visit(context, url));
      await context.close();
      server.close();
    }
  }
}
for (const [dist, times] of ready) {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`${dist}: ${repeat ? 'a later visit' : 'a first visit'} ready ${sorted[sorted.length >> 1].toFixed(0)} ms after the navigation (median of ${rounds}; ${sorted.map((t) => t.toFixed(0)).join(', ')})`);
}
await browser.close();
