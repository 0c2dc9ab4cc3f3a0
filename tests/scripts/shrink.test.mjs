// scripts/shrink.mjs, which rewrites the release build's WebAssembly and glue after the build,
// on a module written for it (shrink-fixture.wat, assembled by binaryen's wasm-as): the short
// names still join the glue to the module, the renumbered type ids still compare equal where
// they did and unequal where they did not, and a glue that does not provide an import stops
// the rewrite with both files untouched, and so does a module without its functions' names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHRINK = path.join(ROOT, 'scripts', 'shrink.mjs');

const GLUE = `export function imports() {
  return { __proto__: null, "./rowkey_bg.js": { __proto__: null, __wbg_answer_0123456789abcdef: () => 42 } };
}
export function isA(exports, which) { return exports.wasm_bindgen__convert__closures__invoke_is_a(which); }
`;

function built(glue = GLUE, names = true) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rowkey-shrink-'));
  const wasm = path.join(dir, 'm.wasm');
  execFileSync(path.join(ROOT, 'node_modules', '.bin', 'wasm-as'),
    [...(names ? ['-g'] : []), path.join(ROOT, 'tests', 'scripts', 'shrink-fixture.wat'), '-o', wasm]);
  const js = path.join(dir, 'glue.mjs');
  fs.writeFileSync(js, glue);
  return { js, wasm };
}

const halves = ['1122334455667788', '99aabbccddeeff01', '2132435465768798', 'a9bacbdcedfe0f10'];
// The 16 bytes the function of a type id's shape but another name loads.
const seed = Buffer.from('31425364758697a8b9cadbecfd0e1f20', 'hex');

test('the shrunk module and glue still work together, and the type ids still tell types apart', async () => {
  const { js, wasm } = built();
  const before = fs.readFileSync(wasm);
  for (const h of halves) assert.ok(before.includes(Buffer.from(h, 'hex')), h);
  const out = execFileSync('node', [SHRINK, js, wasm], { encoding: 'utf8' });
  assert.equal(out, 'shrink: 2 names shortened, 2 type ids renumbered\n');
  const after = fs.readFileSync(wasm);
  for (const h of halves) assert.ok(!after.includes(Buffer.from(h, 'hex')), `${h} is gone`);
  assert.ok(after.includes(seed), 'the other 16 bytes stay');
  assert.ok(!after.includes(Buffer.from('type_id')), 'the names are gone');
  assert.ok(after.length < before.length);
  const glue = fs.readFileSync(js, 'utf8');
  assert.ok(!glue.includes('__wbg_answer') && !glue.includes('rowkey_bg.js'), glue);
  const { imports, isA } = await import(js);
  const { instance } = await WebAssembly.instantiate(after, imports());
  assert.equal(instance.exports.main(), 42);
  assert.equal(isA(instance.exports, 0), 1, 'the first type is still itself');
  assert.equal(isA(instance.exports, 1), 0, 'the second type is still another');
  assert.equal(instance.exports.seed_low(), BigInt.asIntN(64, 0xa897867564534231n), 'a constant of the same shape is left alone');
});

test('a module without its functions\' names stops the rewrite and changes nothing', () => {
  const { js, wasm } = built(GLUE, false);
  const [glueBefore, wasmBefore] = [fs.readFileSync(js), fs.readFileSync(wasm)];
  const run = spawnSync('node', [SHRINK, js, wasm], { encoding: 'utf8' });
  assert.equal(run.status, 1);
  assert.equal(run.stderr, `shrink: ${wasm}: no name section: wasm-opt must keep the functions' names (-g) for the type ids\n`);
  assert.ok(fs.readFileSync(js).equals(glueBefore));
  assert.ok(fs.readFileSync(wasm).equals(wasmBefore));
});

test('a glue that does not provide an import stops the rewrite and changes nothing', () => {
  const { js, wasm } = built(GLUE.replace('__wbg_answer_0123456789abcdef', '__wbg_other_0123456789abcdef'));
  const [glueBefore, wasmBefore] = [fs.readFileSync(js), fs.readFileSync(wasm)];
  const run = spawnSync('node', [SHRINK, js, wasm], { encoding: 'utf8' });
  assert.equal(run.status, 1);
  assert.equal(run.stderr, `shrink: ${wasm}: the glue does not provide __wbg_answer_0123456789abcdef\n`);
  assert.ok(fs.readFileSync(js).equals(glueBefore));
  assert.ok(fs.readFileSync(wasm).equals(wasmBefore));
});
