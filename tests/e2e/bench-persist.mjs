// Benchmark (prints figures, asserts nothing): saves and restores 1,000,000 cells through
// IndexedDB in the release build, next to writing and reading the same bytes as one blob.
//   bash scripts/dev.sh bench-build && node tests/e2e/bench-persist.mjs [cells]
import { serve, launch, openBench, BENCH_DIST } from './harness.mjs';

const cells = Number(process.argv[2] || 1_000_000);
const { server, url } = await serve(undefined, {}, BENCH_DIST);
const browser = await launch();
const page = await openBench(browser, url);
console.log(await page.evaluate((n) => window.rowkeyBench.persist(n), cells));
await browser.close();
server.close();
