// Ships the release build's WebAssembly as LZMA, which the page unpacks before compiling it:
// xz's LZMA codes the module in about four fifths of what gzip does (the code's instructions
// by the bytes before them, its strings and tables by matches across the whole module), and
// the decoder is 3.9 KB of WebAssembly in the page's loader.
//
//   node scripts/pack.mjs MODULE.wasm INDEX.html
//
// MODULE.wasm becomes MODULE.wasm.lzma (a raw LZMA stream: lc=4, lp=0, pb=0, the only kind
// unpack.wat decodes). In INDEX.html, Trunk's loader hands wasm-bindgen's `init` a response
// of the module's bytes, unpacked from that file (fetched with its digest checked), instead
// of the module's address, and the preload link names the packed file and its digest. The
// script runs the same loader under Node on the packed file first and fails, writing
// nothing, unless it gives back the module byte for byte.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import binaryen from "binaryen";

const HERE = path.dirname(fileURLToPath(import.meta.url));

const [wasmPath, htmlPath] = process.argv.slice(2);
if (!wasmPath || !htmlPath) {
  console.error("usage: node scripts/pack.mjs MODULE.wasm INDEX.html");
  process.exit(2);
}
const fail = (why) => {
  console.error(`pack: ${wasmPath}: ${why}`);
  process.exit(1);
};

// The loader, in the page as it is here: the packed file fetched, the decoder instantiated,
// the stream copied into its memory at 32 KB (past the decoder's probabilities), and the
// module handed over as a response whose body is decoded 64 KB at a time as it is read: the
// browser compiles each part (on other threads) while the next is decoded, as it compiles a
// module while it downloads. Decoded bytes never change again (a match only reads what was
// written before it), so each part is a view of the decoder's memory. Three seconds later,
// when the page has started (written while it starts, or when it is first idle, the copy
// made the start 30 to 40 ms slower), the module unpacked is also kept in the page's Cache
// Storage under the packed file's address and digest, the build's before it dropped, so that
// the next visit compiles it without unpacking; where there is no Cache Storage (a page not
// served securely, a sandboxed frame, where even reading `caches` throws) or it fails (a full
// disk), the module is unpacked every visit.
const LOADER = `async (url, integrity, length, decoder) => {
  const headers = { "Content-Type": "application/wasm" };
  const key = url + "?" + encodeURIComponent(integrity);
  let cache = null, kept = null;
  try {
    cache = await caches.open("rowkey-module");
    kept = await cache.match(key);
  } catch {}
  if (kept) return kept;
  const coded = new Uint8Array(await (await fetch(url, { integrity })).arrayBuffer());
  const { exports: x } = (await WebAssembly.instantiate(Uint8Array.from(atob(decoder), (c) => c.charCodeAt(0)))).instance;
  const dst = 32768 + coded.length;
  x.memory.grow(Math.ceil((dst + length) / 65536) - x.memory.buffer.byteLength / 65536);
  new Uint8Array(x.memory.buffer).set(coded, 32768);
  const keep = () => cache.keys()
    .then((old) => Promise.all(old.map((r) => cache.delete(r))))
    .then(() => cache.put(key, new Response(new Uint8Array(x.memory.buffer, dst, length), { headers })))
    .catch(() => {});
  let at = 0;
  const body = new ReadableStream({
    pull(parts) {
      const from = at;
      at = x.unpack(32768, dst, dst, length, at + 65536);
      parts.enqueue(new Uint8Array(x.memory.buffer, dst + from, at - from));
      if (at < length) return;
      parts.close();
      if (cache) setTimeout(keep, 3000);
    },
  });
  return new Response(body, { headers });
}`;

const wasm = fs.readFileSync(wasmPath);
if (!wasm.subarray(0, 8).equals(Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]))) fail("not a WebAssembly module");
let coded;
try {
  coded = execFileSync("xz", ["--format=raw", "--lzma1=preset=9e,lc=4,lp=0,pb=0", "--stdout"], { input: wasm, maxBuffer: 1 << 28 });
} catch (e) {
  fail(`xz: ${e.message}`);
}

const decoder = binaryen.parseText(fs.readFileSync(path.join(HERE, "unpack.wat"), "utf8"));
binaryen.setOptimizeLevel(3);
binaryen.setShrinkLevel(0);
// Every helper inlined: the decoder is 3.9 KB instead of 1.2 KB, and decodes the module in 35
// ms instead of 60 (Node, optimized code).
binaryen.setAlwaysInlineMaxSize(1000);
decoder.optimize();
if (!decoder.validate()) fail("unpack.wat does not assemble");
const decoderBase64 = Buffer.from(decoder.emitBinary()).toString("base64");

// The check: the loader, given the packed file, gives back the module.
const integrity = "sha384-" + crypto.createHash("sha384").update(coded).digest("base64");
globalThis.fetch = async () => new Response(coded);
const unpacked = await eval(LOADER)("packed", integrity, wasm.length, decoderBase64);
if (unpacked.headers.get("Content-Type") !== "application/wasm") fail("the loader's response is not application/wasm");
if (!Buffer.from(await unpacked.arrayBuffer()).equals(wasm)) fail("the unpacked module differs from the module");

// The page: the loader in Trunk's inline script, the preload link on the packed file.
const name = path.basename(wasmPath);
const packedName = name + ".lzma";
let html = fs.readFileSync(htmlPath, "utf8");
const quoted = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const init = new RegExp(`module_or_path: '\\./${quoted(name)}'`, "g");
const preload = new RegExp(`<link rel="preload" href="\\./${quoted(name)}"[^>]*>`, "g");
if ((html.match(init) ?? []).length !== 1) fail(`${htmlPath} does not hand init the module's address once`);
if ((html.match(preload) ?? []).length !== 1) fail(`${htmlPath} does not preload the module once`);
html = html
  .replace(init, () => `module_or_path: await (${LOADER})('./${packedName}', '${integrity}', ${wasm.length}, '${decoderBase64}')`)
  .replace(preload, () => `<link rel="preload" href="./${packedName}" crossorigin="anonymous" integrity="${integrity}" as="fetch">`);

fs.writeFileSync(path.join(path.dirname(wasmPath), packedName), coded);
fs.writeFileSync(htmlPath, html);
fs.unlinkSync(wasmPath);
const gzipped = execFileSync("gzip", ["-9c"], { input: wasm, maxBuffer: 1 << 28 }).length;
console.log(`pack: ${name} (${wasm.length} bytes, ${gzipped} gzipped) shipped as ${packedName} (${coded.length} bytes); the decoder ${decoderBase64.length} characters of base64 in ${path.basename(htmlPath)}`);
