import assert from "node:assert/strict";
import { CLAIMS, evaluateClaims } from "../claims/claims.ts";
import { fakeRecord } from "../fake_record.ts";
import {
  isNumberCell,
  type PublishTable,
  publishTables,
  type TableCell,
} from "./publish_tables.ts";

const textOf = (cell: TableCell) => (isNumberCell(cell) ? cell.value : cell.text);
const column = (table: PublishTable, name: string) => {
  const k = table.header.indexOf(name);
  assert.ok(k >= 0, `${table.name} has a column ${name}`);
  return table.rows.map((row) => textOf(row[k]));
};

Deno.test("tables to publish", async (t) => {
  const a = [
    fakeRecord({ handler: "merge-split" }),
    fakeRecord({ handler: "impulse", summary: { passThroughMax: 7 } }),
    fakeRecord({
      scene: "fig3-ball-cloth-low",
      handler: "merge-split",
      summary: { exploded: true },
    }),
    fakeRecord({ handler: "impulse", summary: { passThroughMax: 9 } }), // a re-run: replaces the first
  ];

  await t.step("one input: table1, claims, matrix; no input column, no comparison", () => {
    const tables = publishTables([{ label: "run", records: a }]);
    assert.deepEqual(tables.map((x) => x.name), ["table1", "claims", "matrix"]);
    for (const table of tables) {
      assert.ok(!table.header.includes("input"));
      assert.ok(table.rows.every((r) => r.length === table.header.length), table.name);
    }
    const [table1, claims, matrix] = tables;
    // grouped by scene as Table I shows them: fig4's two cases, then fig3's
    assert.deepEqual(column(table1, "handler"), ["merge-split", "impulse", "merge-split"]);
    assert.deepEqual(column(table1, "scene"), [
      "fig4-fluid-cloth",
      "fig4-fluid-cloth",
      "fig3-ball-cloth-low",
    ]);
    const total = a[0].timings!.phases.total;
    assert.deepEqual(table1.rows[0][table1.header.indexOf("total")], {
      value: total.median,
      ci95: total.ci95,
    });
    // the claims: one row per claim (one input, one scale), statuses as evaluated
    assert.deepEqual(column(claims, "id"), CLAIMS.map((c) => c.id));
    const latest = [a[0], a[2], a[3]];
    assert.deepEqual(
      column(claims, "status"),
      evaluateClaims(latest).map((c) => c.result.status),
    );
    assert.deepEqual(
      column(claims, "measured"),
      evaluateClaims(latest).map((c) => c.result.measured),
    );
    // the matrix: severity and the metrics of the re-run
    assert.deepEqual(column(matrix, "pass-through"), [0, 9, 0]);
    assert.deepEqual(column(matrix, "severity"), ["ok", "bad", "bad"]);
    assert.deepEqual(column(matrix, "exploded"), ["no", "no", "yes"]);
  });

  await t.step("runs of a case that differ in steps or seed are rows of their own", () => {
    const runs = [
      fakeRecord({ handler: "merge-split", steps: 400 }),
      fakeRecord({ handler: "merge-split", steps: 200, seed: 7 }),
      fakeRecord({ handler: "impulse" }),
    ];
    const [table1, , matrix] = publishTables([{ label: "run", records: runs }]);
    const want = ["merge-split steps=400 seed=2021", "merge-split steps=200 seed=7", "impulse"];
    assert.deepEqual(column(table1, "handler"), want);
    assert.deepEqual(column(matrix, "handler"), want);
  });

  await t.step("two inputs: an input column and the comparison with its summary", () => {
    const b = [
      fakeRecord({ handler: "merge-split", timeScale: 2 }),
      fakeRecord({ handler: "impulse", timeScale: 2 }),
    ];
    const tables = publishTables([{ label: "A", records: a }, { label: "B", records: b }]);
    assert.deepEqual(tables.map((x) => x.name), ["table1", "claims", "matrix", "comparison"]);
    const [table1, claims, , comparison] = tables;
    assert.deepEqual(column(table1, "input"), ["A", "A", "A", "B", "B"]);
    assert.equal(claims.rows.length, 2 * CLAIMS.length, "per claim: one row per input");
    assert.deepEqual(comparison.header, [
      "scene",
      "handler",
      "scale",
      "phase",
      "A ms/step",
      "B ms/step",
      "speed-up B",
    ]);
    // 2 matched cases × 8 phases, then B's geometric mean
    assert.equal(comparison.rows.length, 2 * 8 + 1);
    const speedups = comparison.rows.slice(0, -1).map((r) => r[6]);
    for (const cell of speedups) {
      assert.ok(isNumberCell(cell) && Math.abs(cell.value! - 0.5) < 1e-12);
      assert.ok(cell.ci95![0] < 0.5 && 0.5 < cell.ci95![1]);
    }
    const last = comparison.rows.at(-1)!;
    assert.deepEqual(last.slice(0, 4).map(textOf), [
      "geometric mean over 2 case(s)",
      "",
      "",
      "total",
    ]);
    assert.ok(Math.abs((last[6] as { value: number }).value - 0.5) < 1e-12);
  });
});
