import assert from "node:assert/strict";
import { hash3, pcgHash, Rng } from "./rng.ts";

Deno.test("rng", async (t) => {
  await t.step("pcgHash matches the reference constants (u32 arithmetic)", () => {
    // Reference values computed with 64-bit integer arithmetic (BigInt), masked to 32 bits.
    const ref = (x: number): number => {
      const M = 0xffffffffn;
      const state = (BigInt(x) * 747796405n + 2891336453n) & M;
      const word = (((state >> ((state >> 28n) + 4n)) ^ state) * 277803737n) & M;
      return Number(((word >> 22n) ^ word) & M);
    };
    for (const x of [0, 1, 2, 12345, 0x7fffffff, 0xffffffff, 3000000000]) {
      assert.equal(pcgHash(x), ref(x));
    }
  });
  await t.step("same seed, same sequence; other seed or stream, other sequence", () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const xs = Array.from({ length: 100 }, () => a.nextU32());
    assert.deepEqual(xs, Array.from({ length: 100 }, () => b.nextU32()));
    const c = new Rng(43);
    assert.notDeepEqual(xs, Array.from({ length: 100 }, () => c.nextU32()));
    const d = new Rng(42, { stream: 1 });
    assert.notDeepEqual(xs, Array.from({ length: 100 }, () => d.nextU32()));
    assert.equal(hash3(42, 0, 0), xs[0]);
  });
  await t.step("floats in [0, 1), ints in [lo, hi], roughly uniform", () => {
    const r = new Rng(1);
    let sum = 0;
    for (let i = 0; i < 10000; i++) {
      const f = r.nextFloat();
      assert.ok(f >= 0 && f < 1);
      sum += f;
      const k = r.int(3, 5);
      assert.ok(k >= 3 && k <= 5 && Number.isInteger(k));
    }
    assert.ok(Math.abs(sum / 10000 - 0.5) < 0.02);
  });
  await t.step("rejects bad seeds", () => {
    assert.throws(() => new Rng(-1), { name: "RangeError", message: /seed/ });
    assert.throws(() => new Rng(1.5), /seed/);
    assert.throws(() => new Rng(1).int(3, 2), RangeError);
  });
});
