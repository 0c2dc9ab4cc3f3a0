// Packs the release build's data: the module's data segments (its strings, the gallery's
// designs and workloads, the views' text, tables) coded as an LZMA stream, which gzip cannot
// make smaller (73 KB where gzip made 88 of them), and decoded by a start function
// (unpack.wat) into the very place the segments would have put them, before anything else in
// the module runs (5 ms in Chromium).
//
//   node scripts/pack.mjs MODULE.wasm
//
// The module gains one function (the decoder, about 1.5 KB) and a start section that calls
// it; its data section becomes one segment, the stream, which lies below the data where the
// stack will be (the decoder's state beside it; both cleared when it is done). The script then
// instantiates the packed module, its imports stubbed (the decoder calls none), and fails,
// writing nothing, unless its memory holds every byte the segments held and nothing else.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import binaryen from "binaryen";
import { Reader, u32, s64, sectionsOf, moduleOf, dataSegments, functionBodies, items } from "./wasm.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));

const [wasmPath] = process.argv.slice(2);
if (!wasmPath) {
  console.error("usage: node scripts/pack.mjs MODULE.wasm");
  process.exit(2);
}
const fail = (why) => {
  console.error(`pack: ${wasmPath}: ${why}`);
  process.exit(1);
};

// LZMA, as xz writes it raw at its strongest (a match searched over the whole data; literals
// by the three high bits of the byte before, positions not used: lc=3, lp=0, pb=0, which
// unpack.wat decodes and nothing else).
const lzma = (bytes) => {
  try {
    return execFileSync("xz", ["--format=raw", "--lzma1=preset=9e,lc=3,lp=0,pb=0", "--stdout"], { input: bytes, maxBuffer: 1 << 28 });
  } catch (e) {
    return fail(`xz: ${e.message}`);
  }
};

const wasm = fs.readFileSync(wasmPath);
const sections = sectionsOf(wasm, fail);
const section = (id) => sections.find((s) => s.id === id) ?? fail(`no section ${id}`);
if (sections.some((s) => s.id === 8)) fail("the module has a start function already");

// The data as one stretch of memory, the gaps between segments zero as memory starts.
const segments = dataSegments(section(11).bytes, fail);
if (segments.length === 0) fail("no data to pack");
const dst = Math.min(...segments.map((s) => s.address));
const span = Buffer.alloc(Math.max(...segments.map((s) => s.address + s.bytes.length)) - dst);
for (const s of segments) s.bytes.copy(span, s.address - dst);

// The stream and the decoder's state go below the data, where the stack will be: the module
// keeps its stack there, under the data, and nothing has used it when the start function runs.
// The first 64 KB are left alone.
const coded = lzma(span);
const scratch = 65536;
const codedAt = scratch + 16384;
const codedEnd = codedAt + coded.length;
const scratchEnd = Math.ceil(codedEnd / 8) * 8;
if (scratchEnd > dst) fail(`the coded data (${coded.length} bytes) does not fit below the data at ${dst}`);

// The decoder, assembled with its places, its helpers inlined: one function of no
// parameters, which the module's start section calls.
const places = { DST: dst, LENGTH: span.length, CODED: codedAt, CODED_END: codedEnd, SCRATCH: scratch, SCRATCH_END: scratchEnd };
const wat = fs.readFileSync(path.join(HERE, "unpack.wat"), "utf8").replace(/\{([A-Z_]+)\}/g, (_, k) => String(places[k] ?? fail(`unpack.wat names {${k}}`)));
const decoder = binaryen.parseText(wat);
binaryen.setOptimizeLevel(3);
binaryen.setShrinkLevel(0);
binaryen.setAlwaysInlineMaxSize(1000);
decoder.runPasses(["inlining-optimizing", "remove-unused-module-elements"]);
decoder.optimize();
if (!decoder.validate() || decoder.getNumFunctions() !== 1) fail("the decoder did not assemble into one function");
const small = sectionsOf(Buffer.from(decoder.emitBinary()), fail);
const smallSection = (id) => small.find((s) => s.id === id) ?? fail(`the decoder has no section ${id}`);
const [body] = functionBodies(smallSection(10).bytes, fail);
const [smallType] = items(smallSection(1).bytes, (r) => r.bytes.subarray(r.at, (r.at += 3)), fail);
if (!smallType.equals(Buffer.from([0x60, 0, 0]))) fail("the decoder is not a function of no parameters and no results");

// Spliced in: its type and function last, the start section calling it.
const appended = (s, item) => {
  const r = new Reader(s.bytes, 0, fail);
  const count = r.u32();
  s.bytes = Buffer.concat([u32(count + 1), s.bytes.subarray(r.at), item]);
  return count;
};
const typeIndex = appended(section(1), smallType);
// The imports, all functions (the check below stubs them).
const stubs = {};
const imports = sections.find((s) => s.id === 2);
const importedFunctions = !imports ? 0 : items(imports.bytes, (r) => {
  const module = r.name(), field = r.name(), kind = r.byte();
  if (kind !== 0) fail(`an import of kind ${kind}: the check below stubs functions only`);
  r.u32();
  (stubs[module] ??= {})[field] = () => fail(`the decoder called ${field}`);
}, fail).length;
const definedFunctions = appended(section(3), u32(typeIndex));
appended(section(10), Buffer.concat([u32(body.length), body]));
const startIndex = importedFunctions + definedFunctions;
section(11).bytes = Buffer.concat([u32(1), Buffer.from([0, 0x41]), s64(BigInt(codedAt)), Buffer.from([0x0b]), u32(coded.length), coded]);
const dataCount = sections.find((s) => s.id === 12);
if (dataCount) dataCount.bytes = u32(1);
// Sections keep their order: the start section (8) after the exports (7).
const at = sections.findIndex((s) => s.id >= 9);
sections.splice(at, 0, { id: 8, bytes: u32(startIndex) });
const out = moduleOf(sections);

// The check: the packed module, once started, holds the data where the segments put it, and
// nothing past it.
const { instance } = await WebAssembly.instantiate(out, stubs);
const memory = Object.values(instance.exports).find((e) => e instanceof WebAssembly.Memory) ?? fail("no memory exported");
const bytes = new Uint8Array(memory.buffer);
if (bytes.subarray(0, dst).some((b) => b !== 0)) fail("bytes below the data after unpacking");
if (!Buffer.from(bytes.subarray(dst, dst + span.length)).equals(span)) fail("the unpacked data differs from the segments");
if (bytes.subarray(dst + span.length).some((b) => b !== 0)) fail("bytes past the data after unpacking");

fs.writeFileSync(wasmPath, out);
console.log(`pack: ${span.length} bytes of data in ${segments.length} segments coded in ${coded.length} bytes`);
