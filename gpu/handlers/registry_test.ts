import assert from "node:assert/strict";
import { AKINCI_VOLUME_LEVELS } from "../../core/handler_schemas/akinci_schema.ts";
import { KERNEL_REPULSION_LEVELS } from "../../core/handler_schemas/kernel_repulsion_schema.ts";
import { PENALTY_LEVELS } from "../../core/handler_schemas/penalty_schema.ts";
import { paramDefaults } from "../../core/params.ts";
import { getHandler, HANDLERS } from "./registry.ts";

Deno.test("handler registry: schemas and levels", async (t) => {
  await t.step("every handler's defaults lie within their own ranges", () => {
    for (const [id, entry] of HANDLERS) {
      // paramDefaults checks each default against its spec and names the bad one
      paramDefaults(entry.params, `${id}.params`);
      for (const [name, spec] of Object.entries(entry.params)) {
        assert.ok(spec.description.length > 0, `${id}.params.${name} has a description`);
      }
    }
    assert.deepEqual(paramDefaults(getHandler("merge-split").params), {
      alpha: 1,
      beta: 0,
      nMin: 8,
      nMax: 64,
      grouping: 0, // index-order, the paper's (§5.2; core/setups.ts's paper setup)
      mergeOrder: 0, // colliding-pairs, the paper's (§5.2, Eq. 5)
    });
  });
  await t.step("every level of a family is registered, with the family's schema", () => {
    const families = [
      ["penalty", PENALTY_LEVELS],
      ["kernel-repulsion", KERNEL_REPULSION_LEVELS],
      ["akinci", AKINCI_VOLUME_LEVELS],
    ] as const;
    for (const [family, levels] of families) {
      for (const level of Object.keys(levels)) {
        const entry = getHandler(`${family}-${level}`);
        assert.equal(entry.params, getHandler(family).params, `${family}-${level}`);
      }
    }
    // report order: the levels in their tables' order
    const ids = [...HANDLERS.keys()];
    assert.deepEqual(
      ids.filter((id) => id.startsWith("penalty-")),
      Object.keys(PENALTY_LEVELS).map((l) => `penalty-${l}`),
    );
  });
});
