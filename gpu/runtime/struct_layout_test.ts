import assert from "node:assert/strict";
import { checkWgslStruct, defineStruct } from "./struct_layout.ts";

Deno.test("defineStruct follows WGSL alignment rules", () => {
  const s = defineStruct("P", [["a", "u32"], ["b", "vec3f"], ["c", "f32"], ["d", "vec2f"]]);
  assert.deepEqual(s.members.map((m) => m.offset), [0, 16, 28, 32]);
  assert.equal(s.size, 48);
  const buf = s.pack({ a: 7, b: [1, 2, 3], c: 0.5, d: [4, 5] });
  const dv = new DataView(buf);
  assert.equal(dv.getUint32(0, true), 7);
  assert.equal(dv.getFloat32(24, true), 3);
  assert.equal(dv.getFloat32(28, true), 0.5);
  assert.equal(dv.getFloat32(36, true), 5);
  assert.throws(() => s.pack({ a: 1, b: [1, 2, 3], c: 0 }), /missing value for member "d"/);
});

Deno.test("checkWgslStruct finds mismatches", () => {
  const s = defineStruct("Q", [["n", "u32"], ["g", "vec3f"]]);
  checkWgslStruct("struct Q {\n n: u32, // count\n g: vec3<f32>,\n}", s);
  assert.throws(() => checkWgslStruct("struct Q { n: f32, g: vec3f }", s), /member 0/);
  assert.throws(() => checkWgslStruct("struct R { n: u32 }", s), /no struct Q/);
});
