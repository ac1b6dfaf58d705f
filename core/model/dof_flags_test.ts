import assert from "node:assert/strict";
import { DOF_ACTIVE, DOF_FIXED } from "./dof_flags.ts";

Deno.test("DOF flags are distinct single bits", () => {
  for (const flag of [DOF_ACTIVE, DOF_FIXED]) {
    assert.ok(Number.isInteger(flag) && flag > 0 && (flag & (flag - 1)) === 0, `${flag}`);
  }
  assert.equal(DOF_ACTIVE & DOF_FIXED, 0);
});
