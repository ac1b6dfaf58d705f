import assert from "node:assert/strict";
import type { Spring } from "./spring.ts";
import { SpringTable, SpringTableBuilder } from "./spring_table.ts";

const SPRINGS: Spring[] = [
  { i: 0, j: 1, restLength: 0.1, ks: 10, kd: 0.5 },
  { i: 1, j: 2, restLength: 0.2, ks: 20, kd: 0, breakStretch: 0.01 },
  { i: 3, j: 0, restLength: 0.3, ks: 30, kd: 1.5 },
];

Deno.test("SpringTable", async (t) => {
  await t.step("objects to columns and back, breakStretch only where it breaks", () => {
    const table = SpringTable.from(SPRINGS);
    assert.equal(table.length, 3);
    assert.deepEqual([...table.i], [0, 1, 3]);
    assert.deepEqual([...table.breakStretch], [0, 0.01, 0]);
    assert.deepEqual(table.toSprings(), SPRINGS);
    assert.equal(table.breakableCount(), 1);
    assert.equal(SpringTable.from(table), table, "a table converts to itself");
  });

  await t.step("select keeps the chosen rows in order", () => {
    const table = SpringTable.from(SPRINGS).select((k) => k !== 1);
    assert.deepEqual(table.toSprings(), [SPRINGS[0], SPRINGS[2]]);
    assert.equal(SpringTable.from(SPRINGS).select(() => false).length, 0);
  });

  await t.step("columns of different lengths are refused by name", () => {
    const c = SpringTable.from(SPRINGS);
    assert.throws(
      () => new SpringTable({ ...c, kd: new Float64Array(2) }),
      /column kd has 2 rows, column i 3/,
    );
  });
});

Deno.test("SpringTableBuilder", async (t) => {
  await t.step("push grows past its capacity; finish trims", () => {
    const b = new SpringTableBuilder(1);
    for (let k = 0; k < 100; k++) b.push(k, k + 1, [k + 1, 2 * k, 0, k % 2 ? 0.1 : 0]);
    const table = b.finish();
    assert.equal(table.length, 100);
    assert.equal(table.i.length, 100);
    assert.deepEqual(table.at(99), {
      i: 99,
      j: 100,
      restLength: 100,
      ks: 198,
      kd: 0,
      breakStretch: 0.1,
    });
    assert.equal(b.length, 0, "the builder starts over");
  });

  await t.step("append keeps tables in order between single springs", () => {
    const b = new SpringTableBuilder(0);
    const table = SpringTable.from(SPRINGS);
    b.push(7, 8, [1, 2, 3, 0]);
    b.append(table);
    b.push(9, 10, [4, 5, 6, 0.2]);
    b.append(table);
    const out = b.finish().toSprings();
    assert.deepEqual(out, [
      { i: 7, j: 8, restLength: 1, ks: 2, kd: 3 },
      ...SPRINGS,
      { i: 9, j: 10, restLength: 4, ks: 5, kd: 6, breakStretch: 0.2 },
      ...SPRINGS,
    ]);
    const one = new SpringTableBuilder();
    one.append(table);
    assert.equal(one.finish(), table, "one table alone is handed back uncopied");
  });

  await t.step("a table built to its exact size hands its columns over uncopied", () => {
    const b = new SpringTableBuilder(2);
    b.push(0, 1, [1, 1, 0, 0]);
    b.push(1, 2, [1, 1, 0, 0]);
    const table = b.finish();
    assert.equal(table.i.buffer.byteLength, 2 * 4);
  });
});
