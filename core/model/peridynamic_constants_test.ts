import assert from "node:assert/strict";
import { criticalStretch, micromodulus } from "./peridynamic_constants.ts";
import { assertClose } from "../test_util.ts";

Deno.test("micromodulus and criticalStretch (Silling & Askari 2005)", async (t) => {
  const K = 1e6, h = 0.01, delta = 3 * h;
  const s0 = criticalStretch(100, { bulkModulus: K, horizon: delta });

  await t.step("s0 = √(5 G0 / (9 K δ)); c = 18 K / (π δ⁴)", () => {
    assertClose(s0, Math.sqrt((5 * 100) / (9 * K * delta)), { tol: 1e-15 });
    assertClose(micromodulus(K, delta), (18 * K) / (Math.PI * delta ** 4), { tol: 1e-15 });
    assert.throws(() => criticalStretch(0, { bulkModulus: K, horizon: delta }), /fractureEnergy/);
    assert.throws(() => micromodulus(K, -1), /horizon/);
  });
});
