// scripts/pack.mjs, which ships the release build's WebAssembly as LZMA and has index.html's
// loader unpack it (scripts/unpack.wat, assembled into the loader), on a build made for the
// test: a module made with binaryen (text, noise, gaps, and a stretch repeated 150 KB later,
// so that every kind of LZMA symbol is decoded) beside an index.html as Trunk writes it. The
// loader the page runs, taken from the rewritten index.html, gives back the module byte for
// byte from the packed file, part by part, whose digest the page checks, and keeps it
// unpacked for the next visit; a build the packing cannot serve stops it with every file
// untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
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

// A module exporting its memory and a function reading it, with `segments` at their addresses.
function module(segments) {
  const m = new binaryen.Module();
  m.setMemory(24, 24, 'memory', segments.map(([offset, data]) => ({ offset: m.i32.const(offset), data, passive: false })));
  m.addFunction('byteAt', binaryen.i32, binaryen.i32, [], m.i32.load8_u(0, 0, m.local.get(0, binaryen.i32)));
  m.addFunctionExport('byteAt', 'byteAt');
  assert.ok(m.validate());
  const bytes = Buffer.from(m.emitBinary());
  m.dispose();
  return bytes;
}

// index.html as Trunk writes it for a module `m_bg.wasm`.
const HTML = `<!doctype html>
<html><head>
<script type="module">
import init, * as bindings from './m.js';
const wasm = await init({ module_or_path: './m_bg.wasm' });
</script>
<link rel="preload" href="./m_bg.wasm" crossorigin="anonymous" integrity="sha384-old" as="fetch" type="application/wasm"></head>
<body></body></html>
`;

function build(wasm, html = HTML) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rowkey-pack-'));
  fs.writeFileSync(path.join(dir, 'm_bg.wasm'), wasm);
  fs.writeFileSync(path.join(dir, 'index.html'), html);
  const run = spawnSync('node', [PACK, path.join(dir, 'm_bg.wasm'), path.join(dir, 'index.html')], { encoding: 'utf8' });
  const files = Object.fromEntries(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f))]));
  return { run, files, dir };
}

test('the page\'s loader unpacks the packed module byte for byte', async () => {
  const next = seeded(7);
  const words = text(150_000, next);
  const wasm = module([
    [MIB, words],
    [MIB + 150_016, Buffer.from('a lone segment after a gap of sixteen bytes')],
    [MIB + 150_100, noise(3_000, next)],
    [MIB + 160_000, Buffer.concat([words.subarray(20_000, 60_000), text(5_000, next), words.subarray(1_000, 1_200)])],
    [MIB + 300_000, Buffer.from([0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4])],
  ]);
  const { run, files } = build(wasm);
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(Object.keys(files).sort(), ['index.html', 'm_bg.wasm.lzma']);
  const packed = files['m_bg.wasm.lzma'];
  assert.match(run.stdout, new RegExp(`^pack: m_bg\\.wasm \\(${wasm.length} bytes, \\d+ gzipped\\) shipped as m_bg\\.wasm\\.lzma \\(${packed.length} bytes\\); the decoder \\d+ characters of base64 in index\\.html\\n$`));
  // What the packing is for: fewer bytes than gzip makes of the module.
  assert.ok(packed.length < zlib.gzipSync(wasm, { level: 9 }).length);

  const html = files['index.html'].toString();
  const digest = 'sha384-' + crypto.createHash('sha384').update(packed).digest('base64');
  assert.ok(html.includes(`<link rel="preload" href="./m_bg.wasm.lzma" crossorigin="anonymous" integrity="${digest}" as="fetch">`), html);
  assert.ok(!html.includes("'./m_bg.wasm'") && !html.includes('sha384-old'));
  const call = html.match(/module_or_path: (await \(async [\s\S]*?\)\('\.\/m_bg\.wasm\.lzma', '([^']+)', (\d+), '[A-Za-z0-9+/=]+'\)) \}\);/);
  assert.ok(call, html);
  assert.equal(call[2], digest);
  assert.equal(Number(call[3]), wasm.length);

  const fetched = [];
  globalThis.fetch = async (url, options) => {
    fetched.push([url, options.integrity]);
    return new Response(packed);
  };
  const response = await eval(`(async () => ${call[1]})()`);
  assert.deepEqual(fetched, [['./m_bg.wasm.lzma', digest]]);
  assert.equal(response.headers.get('Content-Type'), 'application/wasm');
  // Read as a browser's streaming compiler reads it: part by part.
  const parts = [];
  for await (const part of response.body) parts.push(Buffer.from(part));
  assert.ok(parts.length > 1, `${parts.length} parts`);
  const unpacked = Buffer.concat(parts);
  assert.ok(unpacked.equals(wasm), 'the module, byte for byte');
  const { instance } = await WebAssembly.instantiate(unpacked);
  assert.equal(instance.exports.byteAt(MIB + 160_000), words[20_000]);
  assert.equal(instance.exports.byteAt(MIB + 300_015), 4);

  // With Cache Storage (a stand-in keeping responses in a map), the first visit keeps the
  // module unpacked in place of an older build's, and the next one takes it from there
  // without fetching.
  const kept = new Map([['./m_bg.wasm.lzma?sha384-older', new Response('an older build')]]);
  globalThis.caches = {
    open: async (name) => {
      assert.equal(name, 'rowkey-module');
      return {
        match: async (key) => kept.get(key)?.clone(),
        keys: async () => [...kept.keys()],
        delete: async (key) => kept.delete(key),
        put: async (key, response) => {
          kept.set(key, new Response(await response.arrayBuffer(), { headers: response.headers }));
        },
      };
    },
  };
  const key = `./m_bg.wasm.lzma?${encodeURIComponent(digest)}`;
  fetched.length = 0;
  const first = await eval(`(async () => ${call[1]})()`);
  assert.ok(Buffer.from(await first.arrayBuffer()).equals(wasm));
  await new Promise((resolve) => setTimeout(resolve, 3100)); // the loader keeps it after 3 s
  assert.deepEqual([...kept.keys()], [key]);
  assert.ok(Buffer.from(await kept.get(key).clone().arrayBuffer()).equals(wasm));
  assert.equal(fetched.length, 1);
  const again = await eval(`(async () => ${call[1]})()`);
  assert.equal(fetched.length, 1, 'not fetched again');
  assert.equal(again.headers.get('Content-Type'), 'application/wasm');
  assert.ok(Buffer.from(await again.arrayBuffer()).equals(wasm));

  // Where reading `caches` throws (a sandboxed frame), the module is unpacked as without it.
  Object.defineProperty(globalThis, 'caches', { configurable: true, get() { throw new Error('SecurityError'); } });
  const sandboxed = await eval(`(async () => ${call[1]})()`);
  assert.ok(Buffer.from(await sandboxed.arrayBuffer()).equals(wasm));
  assert.equal(fetched.length, 2);
  delete globalThis.caches;
});

test('a build the packing cannot serve stops it and is left as it was', () => {
  const wasm = module([[MIB, Buffer.from('data')]]);
  const cases = [
    [wasm, HTML.replace("module_or_path: './m_bg.wasm'", "module_or_path: './other_bg.wasm'"), /does not hand init the module's address once$/],
    [wasm, HTML.replace('<link rel="preload"', '<link rel="prefetch"'), /does not preload the module once$/],
    [Buffer.from('not a module'), HTML, /^not a WebAssembly module$/],
  ];
  for (const [bytes, html, why] of cases) {
    const { run, files, dir } = build(bytes, html);
    assert.equal(run.status, 1);
    assert.match(run.stderr.replace(`pack: ${path.join(dir, 'm_bg.wasm')}: `, '').trimEnd(), why);
    assert.deepEqual(Object.keys(files).sort(), ['index.html', 'm_bg.wasm']);
    assert.ok(files['m_bg.wasm'].equals(bytes) && files['index.html'].toString() === html, 'untouched');
  }
});
