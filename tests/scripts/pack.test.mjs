// scripts/pack.mjs, which packs the release build's data segments into an LZMA stream that a
// start function it adds (scripts/unpack.wat) decodes, on modules made for the test with
// binaryen: once instantiated, the packed module's memory holds byte for byte what the
// unpacked one's does (text, random bytes, gaps, a stretch repeated 150 KB later, so that
// every kind of LZMA symbol is decoded), its functions still work, and a module the packing
// cannot serve stops it with the file untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import binaryen from '../../node_modules/binaryen/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PACK = path.join(ROOT, 'scripts', 'pack.mjs');
const MIB = 1 << 20;

// Seeded bytes: words of a small vocabulary, and noise.
function seeded(seed) {
  let s = seed;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8) & 0xffff;
}
const WORDS = ['row', 'key', 'region', 'split', 'salt', 'bucket', 'scan', 'get', 'put', 'family', 'version', 'cell', 'timestamp', 'hot'];
function text(n, next) {
  const parts = [];
  let len = 0;
  while (len < n) {
    const w = WORDS[next() % WORDS.length] + (next() % 5 === 0 ? `-${next() % 1000}` : '') + (next() % 9 === 0 ? '\n' : ' ');
    parts.push(w);
    len += w.length;
  }
  return Buffer.from(parts.join('').slice(0, n));
}
const noise = (n, next) => Buffer.from(Array.from({ length: n }, () => next() & 0xff));

// A module importing one function (so the start function's index counts it), exporting its
// memory and a function reading it, with `segments` at their addresses.
function module(segments, { start = false } = {}) {
  const m = new binaryen.Module();
  m.addFunctionImport('log', 'env', 'log', binaryen.i32, binaryen.none);
  m.setMemory(24, 24, 'memory', segments.map(([offset, data]) => ({ offset: m.i32.const(offset), data, passive: false })));
  m.addFunction('byteAt', binaryen.i32, binaryen.i32, [], m.i32.load8_u(0, 0, m.local.get(0, binaryen.i32)));
  m.addFunctionExport('byteAt', 'byteAt');
  if (start) {
    m.addFunction('begin', binaryen.none, binaryen.none, [], m.nop());
    m.setStart(m.getFunction('begin'));
  }
  assert.ok(m.validate());
  const bytes = Buffer.from(m.emitBinary());
  m.dispose();
  return bytes;
}

function packed(bytes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rowkey-pack-'));
  const file = path.join(dir, 'm.wasm');
  fs.writeFileSync(file, bytes);
  const run = spawnSync('node', [PACK, file], { encoding: 'utf8' });
  return { run, after: fs.readFileSync(file), file };
}

async function memoryOf(bytes) {
  const calls = [];
  const { instance } = await WebAssembly.instantiate(bytes, { env: { log: (v) => calls.push(v) } });
  return { instance, memory: Buffer.from(instance.exports.memory.buffer), calls };
}

test('the packed module starts with the memory the unpacked one starts with', async () => {
  const next = seeded(7);
  const words = text(150_000, next);
  const segments = [
    [MIB, words],
    [MIB + 150_016, Buffer.from('a lone segment after a gap of sixteen bytes')],
    [MIB + 150_100, noise(3_000, next)],
    [MIB + 160_000, Buffer.concat([words.subarray(20_000, 60_000), text(5_000, next), words.subarray(1_000, 1_200)])],
    [MIB + 300_000, Buffer.from([0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4])],
  ];
  const before = module(segments);
  const { run, after } = packed(before);
  assert.equal(run.status, 0, run.stderr);
  const length = 300_016;
  assert.match(run.stdout, new RegExp(`^pack: ${length} bytes of data in 5 segments coded in \\d+ bytes\\n$`));
  // What the packing is for: fewer bytes than gzip makes of the same data.
  const span = Buffer.alloc(length);
  for (const [offset, data] of segments) data.copy(span, offset - MIB);
  const coded = Number(run.stdout.match(/coded in (\d+)/)[1]);
  const gzipped = zlib.gzipSync(span, { level: 9 }).length;
  assert.ok(coded < gzipped, `${coded} bytes coded, ${gzipped} gzipped`);
  assert.ok(zlib.gzipSync(after, { level: 9 }).length < zlib.gzipSync(before, { level: 9 }).length);

  const original = await memoryOf(before);
  const unpacked = await memoryOf(after);
  assert.equal(unpacked.memory.length, original.memory.length);
  assert.ok(unpacked.memory.equals(original.memory), 'the same memory, byte for byte');
  assert.deepEqual(unpacked.calls, [], 'the decoder called no import');
  assert.equal(unpacked.instance.exports.byteAt(MIB + 160_000), words[20_000]);
  assert.equal(unpacked.instance.exports.byteAt(MIB + 300_015), 4);
});

test('a module the packing cannot serve stops it and is left as it was', () => {
  const cases = [
    [module([[MIB, Buffer.from('data')]], { start: true }), 'the module has a start function already'],
    [module([[70_000, text(20_000, seeded(3))]]), /^the coded data \(\d+ bytes\) does not fit below the data at 70000$/],
  ];
  for (const [bytes, why] of cases) {
    const { run, after, file } = packed(bytes);
    assert.equal(run.status, 1);
    const message = run.stderr.replace(`pack: ${file}: `, '').trimEnd();
    if (typeof why === 'string') assert.equal(message, why);
    else assert.match(message, why);
    assert.ok(after.equals(bytes), 'the file is untouched');
  }
});
