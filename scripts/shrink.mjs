// Makes the release build's WebAssembly and its JavaScript glue smaller after they are built,
// changing nothing they do.
//
//   node scripts/shrink.mjs GLUE.js MODULE.wasm
//
// Two rewrites, each of bytes gzip cannot fold:
//
// - Names. wasm-bindgen names each import after its JavaScript function and a 16-digit hash
//   (`__wbg_setattribute_3c9f…`) and each closure's export after its Rust types. Every import
//   (and its module, `./rowkey_bg.js`) and every export longer than eight characters that the
//   glue calls gets a short name (`_a`, `_b`, … `_ba`, …) in both files: the glue's identifiers
//   are replaced as whole words, the module's import and export sections rebuilt.
// - Type ids. Rust's `TypeId` is a 128-bit hash of the type, and yew keeps its components,
//   props, hooks and contexts behind `dyn Any`: each such type's `type_id` function loads its
//   hash from the data, and each downcast compares with it as two 64-bit constants in the code,
//   some 7 KB of random bytes. A type id is only ever compared and hashed, never shown, so every
//   type id a `type_id` function returns is renumbered (1, 2, 3, … in its low half, 0 in its
//   high half) wherever its halves occur: in the data, and as `i64.const` in the code. The
//   functions are known by their names, which wasm-opt keeps (`-g` in index.html) for this
//   and which leave with the rewrite. It checks that no old half is left anywhere in the
//   module, and fails otherwise.
//
// The module's other sections are copied byte for byte, its name section dropped. Fails,
// writing nothing, on a module it cannot read or a glue that does not name what the module
// imports.
import fs from "node:fs";

const [gluePath, wasmPath] = process.argv.slice(2);
if (!gluePath || !wasmPath) {
  console.error("usage: node scripts/shrink.mjs GLUE.js MODULE.wasm");
  process.exit(2);
}
const fail = (why) => {
  console.error(`shrink: ${wasmPath}: ${why}`);
  process.exit(1);
};

// Reading and writing the module's numbers and names.

class Reader {
  constructor(bytes, at = 0) {
    this.bytes = bytes;
    this.at = at;
  }
  byte() {
    if (this.at >= this.bytes.length) fail("the module ends too soon");
    return this.bytes[this.at++];
  }
  u32() {
    let value = 0, shift = 0, byte;
    do {
      byte = this.byte();
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  }
  s64() {
    let value = 0n, shift = 0n, byte;
    do {
      byte = this.byte();
      value |= BigInt(byte & 0x7f) << shift;
      shift += 7n;
    } while (byte & 0x80);
    return byte & 0x40 ? value - (1n << shift) : value;
  }
  name() {
    const len = this.u32();
    const text = this.bytes.toString("utf8", this.at, this.at + len);
    this.at += len;
    return text;
  }
  expect(...bytes) {
    return bytes.every((b) => this.byte() === b);
  }
}

const u32 = (n) => {
  const out = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return Buffer.from(out);
};
const s64 = (n) => {
  const out = [];
  for (;;) {
    const byte = Number(n & 0x7fn);
    n >>= 7n;
    if ((n === 0n && !(byte & 0x40)) || (n === -1n && byte & 0x40)) {
      out.push(byte);
      return Buffer.from(out);
    }
    out.push(byte | 0x80);
  }
};
const name = (text) => {
  const bytes = Buffer.from(text, "utf8");
  return Buffer.concat([u32(bytes.length), bytes]);
};

// The module as its sections, each an id and its bytes.
const wasm = fs.readFileSync(wasmPath);
if (!wasm.subarray(0, 8).equals(Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]))) fail("not a WebAssembly module");
const sections = [];
for (const r = new Reader(wasm, 8); r.at < wasm.length; ) {
  const id = r.byte();
  const size = r.u32();
  sections.push({ id, bytes: wasm.subarray(r.at, r.at + size) });
  r.at += size;
}
const section = (id) => sections.find((s) => s.id === id) ?? fail(`no section ${id}`);

// Names.

let glue = fs.readFileSync(gluePath, "utf8");
const WORD = /[A-Za-z_$][A-Za-z0-9_$]*/g;
const glueWords = new Set(glue.match(WORD));
const MODULE = "a";
const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const renamed = new Map();
const shortName = (old) => {
  if (!renamed.has(old)) {
    let k = renamed.size, text = "";
    do {
      text = LETTERS[k % LETTERS.length] + text;
      k = Math.floor(k / LETTERS.length);
    } while (k);
    renamed.set(old, "_" + text);
  }
  return renamed.get(old);
};

let importedFunctions = 0;
// An import's description after its names (a function's type, a table's, a memory's or a
// global's), copied as it is.
const importKind = (r) => {
  const start = r.at;
  const kind = r.byte();
  const limits = () => {
    const flags = r.u32();
    r.u32();
    if (flags & 1) r.u32();
  };
  if (kind === 0) (r.u32(), importedFunctions++);
  else if (kind === 1) (r.byte(), limits());
  else if (kind === 2) limits();
  else if (kind === 3) r.at += 2;
  else fail(`an import of kind ${kind}, which this script does not know`);
  return r.bytes.subarray(start, r.at);
};

const modules = new Set();
{
  const imports = section(2);
  const r = new Reader(imports.bytes);
  const count = r.u32();
  const items = [u32(count)];
  for (let i = 0; i < count; i++) {
    modules.add(r.name());
    const field = r.name();
    items.push(name(MODULE), name(shortName(field)), importKind(r));
  }
  imports.bytes = Buffer.concat(items);
}
{
  const exports = section(7);
  const r = new Reader(exports.bytes);
  const count = r.u32();
  const items = [u32(count)];
  for (let i = 0; i < count; i++) {
    const field = r.name();
    const start = r.at;
    r.byte();
    r.u32();
    const short = field.length > 8 && glueWords.has(field) ? shortName(field) : field;
    items.push(name(short), exports.bytes.subarray(start, r.at));
  }
  exports.bytes = Buffer.concat(items);
}
if (modules.size !== 1) fail(`imports from ${modules.size} modules; the glue provides one`);
const [importModule] = modules;
const moduleKey = JSON.stringify(importModule) + ":";
if (glue.split(moduleKey).length !== 2) fail(`the glue does not name ${importModule} exactly once`);
glue = glue.replace(moduleKey, MODULE + ":");
const unnamed = [...renamed.keys()].filter((old) => !glueWords.has(old));
if (unnamed.length > 0) fail(`the glue does not provide ${unnamed.join(", ")}`);
glue = glue.replace(WORD, (word) => renamed.get(word) ?? word);

// Type ids.

// The data segments, each where it lies in memory and its bytes (a view into the section).
const data = section(11);
const segments = [];
{
  const r = new Reader(data.bytes);
  for (let n = r.u32(); n > 0; n--) {
    if (r.u32() !== 0 || !r.expect(0x41)) fail("a data segment that is not active at a constant address");
    const address = Number(r.s64());
    if (!r.expect(0x0b)) fail("a data segment's address is not one constant");
    const len = r.u32();
    segments.push({ address, bytes: data.bytes.subarray(r.at, r.at + len) });
    r.at += len;
  }
}
const memory = (address, len) => {
  const s = segments.find((s) => s.address <= address && address + len <= s.address + s.bytes.length);
  return s?.bytes.subarray(address - s.address, address - s.address + len);
};

// The function bodies.
const code = section(10);
const bodies = [];
{
  const r = new Reader(code.bytes);
  for (let n = r.u32(); n > 0; n--) {
    const len = r.u32();
    bodies.push(code.bytes.subarray(r.at, r.at + len));
    r.at += len;
  }
}

// The functions' names, from the name section wasm-opt keeps when asked (`-g`): the rewrite
// knows a type id by the function that returns it, and the section leaves the module after.
const nameSection = sections.find((s) => s.id === 0 && new Reader(s.bytes).name() === "name");
if (!nameSection) fail("no name section: wasm-opt must keep the functions' names (-g) for the type ids");
const names = new Map();
{
  const r = new Reader(nameSection.bytes);
  r.name();
  while (r.at < r.bytes.length) {
    const sub = r.byte();
    const end = r.u32() + r.at;
    if (sub === 1) {
      for (let n = r.u32(); n > 0; n--) {
        const index = r.u32();
        names.set(index, r.name());
      }
    }
    r.at = end;
  }
}
sections.splice(sections.indexOf(nameSection), 1);
const TYPE_ID = / as core(\[[0-9a-f]+\])?::any::Any>::type_id$/;

// `<T as Any>::type_id`, as it compiles: no locals; stores the id's halves, loaded from the
// data, through its one parameter: `local.get 0, i32.const HIGH, i64.load, i64.store
// offset=8, local.get 0, i32.const LOW, i64.load, i64.store offset=0`.
const typeIdAt = (body) => {
  const r = new Reader(body);
  const half = (offset) => {
    if (!r.expect(0x20, 0x00, 0x41)) return undefined;
    const address = r.s64();
    if (!r.expect(0x29) || r.u32() > 3 || r.u32() !== 0) return undefined;
    if (!r.expect(0x37) || r.u32() > 3 || r.u32() !== offset) return undefined;
    return Number(address);
  };
  if (r.byte() !== 0) return undefined;
  const high = half(8);
  const low = high === undefined ? undefined : half(0);
  if (low === undefined || high !== low + 8 || !r.expect(0x0b) || r.at !== body.length) return undefined;
  return low;
};
const ids = new Map();
bodies.forEach((body, k) => {
  if (!TYPE_ID.test(names.get(importedFunctions + k) ?? "")) return;
  const at = typeIdAt(body);
  const id = at === undefined ? undefined : memory(at, 16);
  if (!id) fail(`${names.get(importedFunctions + k)} does not load its type id as expected`);
  ids.set(id.toString("hex"), Buffer.from(id));
});
const halves = new Map();
[...ids.keys()].sort().forEach((hex, k) => {
  const id = ids.get(hex);
  halves.set(id.readBigInt64LE(0), BigInt(k + 1));
  halves.set(id.readBigInt64LE(8), 0n);
});
for (const s of segments) {
  for (const [, id] of ids) {
    for (let at = s.bytes.indexOf(id); at >= 0; at = s.bytes.indexOf(id, at + 16)) {
      s.bytes.writeBigInt64LE(halves.get(id.readBigInt64LE(0)), at);
      s.bytes.writeBigInt64LE(halves.get(id.readBigInt64LE(8)), at + 8);
    }
  }
}
// Each half as an `i64.const` is ten bytes of a random number: nowhere else in a function
// body will the same ten bytes occur.
const constants = new Map([...halves].map(([old, now]) => [
  Buffer.concat([Buffer.from([0x42]), s64(old)]).toString("latin1"),
  Buffer.concat([Buffer.from([0x42]), s64(now)]).toString("latin1"),
]));
const pattern = new RegExp([...constants.keys()].map((c) => c.replace(/[^A-Za-z0-9]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`)).join("|"), "g");
const rewritten = bodies.map((body) => {
  const text = body.toString("latin1");
  const after = constants.size ? text.replace(pattern, (c) => constants.get(c)) : text;
  return Buffer.from(after, "latin1");
});
code.bytes = Buffer.concat([u32(rewritten.length), ...rewritten.flatMap((b) => [u32(b.length), b])]);

// The module again; no old half may be left in it.
const out = Buffer.concat([wasm.subarray(0, 8), ...sections.flatMap((s) => [Buffer.from([s.id]), u32(s.bytes.length), s.bytes])]);
for (const [old] of halves) {
  const raw = Buffer.alloc(8);
  raw.writeBigInt64LE(old);
  if (out.includes(raw) || out.includes(Buffer.concat([Buffer.from([0x42]), s64(old)]))) {
    fail(`the type id half ${old} is still in the module after the rewrite`);
  }
}

fs.writeFileSync(wasmPath, out);
fs.writeFileSync(gluePath, glue);
console.log(`shrink: ${renamed.size} names shortened, ${ids.size} type ids renumbered`);
