import assert from "node:assert/strict";
import { Registry } from "./registry.ts";

Deno.test("Registry: ids in order, lookup errors name the valid ids, register and unregister", () => {
  const r = new Registry("widget", [{ id: "a" }, { id: "b" }]);
  assert.deepEqual(r.ids(), ["a", "b"]);
  assert.equal(r.get("b").id, "b");
  assert.throws(() => r.get("c"), /unknown widget "c"; known widgets: a, b/);
  const undo = r.register({ id: "c" });
  assert.deepEqual([...r.map.keys()], ["a", "b", "c"]);
  assert.throws(() => r.register({ id: "a" }), /a widget "a" is already registered/);
  undo();
  assert.deepEqual(r.entries().map((e) => e.id), ["a", "b"]);
});
