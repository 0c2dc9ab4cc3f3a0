// Reading and writing a WebAssembly module's sections, numbers and names, for the scripts that
// rewrite the release build's module after it is built (shrink.mjs, pack.mjs). Each reader
// takes the script's `fail`, which reports and exits.

export class Reader {
  constructor(bytes, at = 0, fail = (why) => { throw new Error(why); }) {
    this.bytes = bytes;
    this.at = at;
    this.fail = fail;
  }
  byte() {
    if (this.at >= this.bytes.length) this.fail("the module ends too soon");
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

export const u32 = (n) => {
  const out = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return Buffer.from(out);
};
export const s64 = (n) => {
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
export const name = (text) => {
  const bytes = Buffer.from(text, "utf8");
  return Buffer.concat([u32(bytes.length), bytes]);
};

// The module as its sections, each an id and its bytes.
export function sectionsOf(wasm, fail) {
  if (!wasm.subarray(0, 8).equals(HEADER)) fail("not a WebAssembly module");
  const sections = [];
  for (const r = new Reader(wasm, 8, fail); r.at < wasm.length; ) {
    const id = r.byte();
    const size = r.u32();
    sections.push({ id, bytes: wasm.subarray(r.at, r.at + size) });
    r.at += size;
  }
  return sections;
}
const HEADER = Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);

// The module made of `sections` again.
export const moduleOf = (sections) =>
  Buffer.concat([HEADER, ...sections.flatMap((s) => [Buffer.from([s.id]), u32(s.bytes.length), s.bytes])]);

// A vector's items (a section's, or a function's), each as `item(reader)` reads it.
export function items(bytes, item, fail) {
  const r = new Reader(bytes, 0, fail);
  const out = [];
  for (let n = r.u32(); n > 0; n--) out.push(item(r));
  return out;
}

// The data section's segments, each where it lies in memory and its bytes (a view into the
// section); every one must be active at a constant address.
export const dataSegments = (bytes, fail) =>
  items(bytes, (r) => {
    if (r.u32() !== 0 || !r.expect(0x41)) fail("a data segment that is not active at a constant address");
    const address = Number(r.s64());
    if (!r.expect(0x0b)) fail("a data segment's address is not one constant");
    const len = r.u32();
    const segment = { address, bytes: bytes.subarray(r.at, r.at + len) };
    r.at += len;
    return segment;
  }, fail);

// The code section's function bodies (views into the section).
export const functionBodies = (bytes, fail) =>
  items(bytes, (r) => {
    const len = r.u32();
    const body = bytes.subarray(r.at, r.at + len);
    r.at += len;
    return body;
  }, fail);
