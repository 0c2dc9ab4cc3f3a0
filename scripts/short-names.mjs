// Shortens the names the WebAssembly and its JavaScript glue know each other by.
//
//   node scripts/short-names.mjs GLUE.js MODULE.wasm
//
// wasm-bindgen names each import after its JavaScript function and a 16-digit hash
// (`__wbg_setattribute_3c9f…`) and each closure's export after its Rust types; gzip cannot fold
// the hashes. Every import (and its module, `./rowkey_bg.js`) and every export longer than eight
// characters that the glue calls gets a short name (`_a`, `_b`, … `_ba`, …) in both files,
// rewritten in place: the glue's identifiers are replaced as whole words, the module's import
// and export sections rebuilt, its other sections copied byte for byte. Fails, changing nothing, on a module it
// cannot read or a glue that does not name what the module imports.
import fs from "node:fs";

const [gluePath, wasmPath] = process.argv.slice(2);
if (!gluePath || !wasmPath) {
  console.error("usage: node scripts/short-names.mjs GLUE.js MODULE.wasm");
  process.exit(2);
}
const fail = (why) => {
  console.error(`short-names: ${wasmPath}: ${why}`);
  process.exit(1);
};

const wasm = fs.readFileSync(wasmPath);
let glue = fs.readFileSync(gluePath, "utf8");

const readLeb = (at) => {
  let value = 0, shift = 0, byte;
  do {
    if (at >= wasm.length) fail("the module ends inside a number");
    byte = wasm[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
};
const leb = (n) => {
  const out = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return Buffer.from(out);
};
const readName = (at) => {
  const [len, start] = readLeb(at);
  return [wasm.toString("utf8", start, start + len), start + len];
};
const name = (text) => {
  const bytes = Buffer.from(text, "utf8");
  return Buffer.concat([leb(bytes.length), bytes]);
};

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

// An import's description after its names: a function's type, a table's, a memory's or a
// global's, read only to find where the next import starts.
const skipImportKind = (at) => {
  const kind = wasm[at++];
  if (kind === 0) return readLeb(at)[1];
  const limits = (p) => {
    const [flags, q] = readLeb(p);
    let r = readLeb(q)[1];
    if (flags & 1) r = readLeb(r)[1];
    return r;
  };
  if (kind === 1) return limits(at + 1);
  if (kind === 2) return limits(at);
  if (kind === 3) return at + 2;
  fail(`an import of kind ${kind}, which this script does not know`);
};

const WORD = /[A-Za-z_$][A-Za-z0-9_$]*/g;
const glueWords = new Set(glue.match(WORD));
const MODULE = "a";
const modules = new Set();
const parts = [wasm.subarray(0, 8)];
let at = 8;
while (at < wasm.length) {
  const id = wasm[at];
  const [size, body] = readLeb(at + 1);
  const end = body + size;
  if (id === 2) {
    let [count, p] = readLeb(body);
    const items = [leb(count)];
    for (let i = 0; i < count; i++) {
      let module, field;
      [module, p] = readName(p);
      [field, p] = readName(p);
      modules.add(module);
      const next = skipImportKind(p);
      items.push(name(MODULE), name(shortName(field)), wasm.subarray(p, next));
      p = next;
    }
    const section = Buffer.concat(items);
    parts.push(Buffer.from([2]), leb(section.length), section);
  } else if (id === 7) {
    let [count, p] = readLeb(body);
    const items = [leb(count)];
    for (let i = 0; i < count; i++) {
      let field;
      [field, p] = readName(p);
      const next = readLeb(p + 1)[1];
      const short = field.length > 8 && glueWords.has(field) ? shortName(field) : field;
      items.push(name(short), wasm.subarray(p, next));
      p = next;
    }
    const section = Buffer.concat(items);
    parts.push(Buffer.from([7]), leb(section.length), section);
  } else {
    parts.push(wasm.subarray(at, end));
  }
  at = end;
}

if (modules.size !== 1) fail(`imports from ${modules.size} modules; the glue provides one`);
const [module] = modules;
const moduleKey = JSON.stringify(module) + ":";
if (glue.split(moduleKey).length !== 2) fail(`the glue does not name ${module} exactly once`);
glue = glue.replace(moduleKey, MODULE + ":");
const unnamed = [...renamed.keys()].filter((old) => !glueWords.has(old));
if (unnamed.length > 0) fail(`the glue does not provide ${unnamed.join(", ")}`);
glue = glue.replace(WORD, (word) => renamed.get(word) ?? word);

fs.writeFileSync(wasmPath, Buffer.concat(parts));
fs.writeFileSync(gluePath, glue);
