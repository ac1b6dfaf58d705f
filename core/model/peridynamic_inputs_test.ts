import assert from "node:assert/strict";
import {
  checkPerBody,
  nonNegativeFinite,
  particleCountOf,
  perBodyValue,
  perParticle,
  positiveFinite,
} from "./peridynamic_inputs.ts";

Deno.test("peridynamic inputs: values per body and per particle, errors named", async (t) => {
  await t.step("one value for all or one per body id", () => {
    assert.equal(perBodyValue(2, 5, "h", "f"), 2);
    assert.equal(perBodyValue([1, 3], 1, "h", "f"), 3);
    assert.throws(() => perBodyValue([1], 1, "h", "f"), /f: h has 1 entries, body id 1 has none/);
    assert.doesNotThrow(() => checkPerBody(undefined, "h", "f", positiveFinite, "> 0"));
    assert.throws(() => checkPerBody(0, "h", "f", positiveFinite, "> 0"), /f: h must be > 0/);
    assert.throws(() => checkPerBody([1, -1], "h", "f", positiveFinite, "> 0"), /f: h\[1\]/);
    assert.throws(
      () => checkPerBody("x" as unknown as number, "h", "f", positiveFinite, "> 0"),
      TypeError,
    );
  });

  await t.step("one value for all particles or one per particle", () => {
    assert.equal(perParticle(2, 3, "m", "f")(1), 2);
    assert.equal(perParticle([1, 2, 3], 3, "m", "f")(2), 3);
    assert.throws(() => perParticle(0, 3, "m", "f"), /f: m must be > 0/);
    assert.throws(() => perParticle([1, 2], 3, "m", "f"), /f: m must be a number or have length 3/);
    assert.throws(() => perParticle([1, NaN, 3], 3, "m", "f"), /f: m\[1\]/);
  });

  await t.step("positions as 3N numbers; finite checks", () => {
    assert.equal(particleCountOf(new Float64Array(6), "f"), 2);
    assert.throws(() => particleCountOf([0, 0], "f"), /f: positions has length 2/);
    assert.ok(positiveFinite(1) && !positiveFinite(0) && !positiveFinite(Infinity));
    assert.ok(nonNegativeFinite(0) && !nonNegativeFinite(-1) && !nonNegativeFinite(NaN));
  });
});
