// Benchmark (prints figures, asserts nothing): how long the release page takes to start, from
// the navigation to the console's ready status, in a fresh browser context each time (nothing
// cached), for one build or several in turns.
//   bash scripts/dev.sh build && node tests/e2e/bench-startup.mjs [DIST ...] [ROUNDS=7]
import { serve, launch, DIST } from './harness.mjs';

const args = process.argv.slice(2);
const rounds = /^\d+$/.test(args.at(-1) ?? '') ? Number(args.pop()) : 7;
const dists = args.length ? args : [DIST];
const browser = await launch();
const ready = new Map(dists.map((d) => [d, []]));
for (let round = 0; round < rounds; round++) {
  for (const dist of dists) {
    const { server, url } = await serve(undefined, {}, dist);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector('.status.ok');
    ready.get(dist).push(await page.evaluate(() => performance.now()));
    await context.close();
    server.close();
  }
}
for (const [dist, times] of ready) {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`${dist}: ready ${sorted[sorted.length >> 1].toFixed(0)} ms after the navigation (median of ${rounds}; ${sorted.map((t) => t.toFixed(0)).join(', ')})`);
}
await browser.close();
