import assert from "node:assert/strict";
import { AKINCI_EPSILON } from "./akinci_params.ts";

Deno.test("AKINCI_EPSILON is the ε = 0.01 of Akinci et al. 2012, Eq. 12", () => {
  assert.equal(AKINCI_EPSILON, 0.01);
});
