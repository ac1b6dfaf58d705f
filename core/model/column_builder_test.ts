import assert from "node:assert/strict";
import { ColumnBuilder } from "./column_builder.ts";

Deno.test("ColumnBuilder: rows into typed columns that grow", async (t) => {
  await t.step("rows come back in order, trimmed, in the column types", () => {
    const b = new ColumnBuilder({ i: Uint32Array, x: Float64Array }, 1);
    for (let k = 0; k < 1000; k++) b.push({ i: 3 * k, x: k / 7 });
    assert.equal(b.length, 1000);
    const c = b.finish();
    assert.ok(c.i instanceof Uint32Array && c.x instanceof Float64Array);
    assert.equal(c.i.length, 1000);
    assert.equal(c.x.length, 1000);
    assert.equal(c.i[999], 2997);
    assert.equal(c.x[500], 500 / 7);
  });

  await t.step("an empty builder gives empty columns; a bad capacity is refused", () => {
    const c = new ColumnBuilder({ flag: Uint8Array }).finish();
    assert.equal(c.flag.length, 0);
    assert.throws(() => new ColumnBuilder({ a: Uint8Array }, 0), /capacity must be an integer ≥ 1/);
  });
});
