import assert from "node:assert/strict";
import { paramDefaults, ParamError, parseParamAssignments, resolveParams } from "./params.ts";

const SCHEMA = {
  alpha: { description: "α", min: 0, max: 1 },
  n: { description: "n", min: 2, integer: true, allowInfinity: true },
  k: { description: "k", gt: 0, default: 3 },
};

Deno.test("resolveParams: scene values, overrides on top, defaults, ranges", async (t) => {
  await t.step("precedence: override > scene > default", () => {
    const p = resolveParams(SCHEMA, {
      scene: { alpha: 0.2, n: 4 },
      overrides: { n: Infinity },
      field: "h",
    });
    assert.deepEqual(p, { alpha: 0.2, n: Infinity, k: 3 });
  });
  await t.step("errors name the field and what is valid", () => {
    const bad = (scene: Record<string, unknown>, re: RegExp) =>
      assert.throws(
        () => resolveParams(SCHEMA, { scene, field: "h" }),
        (e: unknown) => e instanceof ParamError && re.test(e.message),
      );
    bad({ alpha: 2, n: 4 }, /^h\.alpha: must be <= 1, got 2$/);
    bad({ alpha: 0, n: 2.5 }, /^h\.n: must be an integer, got 2\.5$/);
    bad({ alpha: 0, n: 4, k: 0 }, /^h\.k: must be > 0, got 0$/);
    bad({ alpha: Infinity, n: 4 }, /^h\.alpha: must be finite/);
    bad({ alpha: "x", n: 4 }, /^h\.alpha: must be a number, got "x"/);
    bad({ n: 4 }, /^h\.alpha: is required/);
    bad(
      { alpha: 0, n: 4, beta: 1 },
      /^h\.beta: unknown scene parameter; valid names: alpha, n, k$/,
    );
  });
});

Deno.test("parseParamAssignments: id.name=value, inf, malformed ones rejected", () => {
  assert.deepEqual(
    parseParamAssignments(["merge-split.alpha=0.5", "merge-split.nMax=inf", "x.k=1e3"]),
    {
      "merge-split": { alpha: 0.5, nMax: Infinity },
      x: { k: 1000 },
    },
  );
  assert.throws(
    () => parseParamAssignments(["alpha=1"]),
    /must read <handler id>\.<name>=<number>/,
  );
  assert.throws(() => parseParamAssignments(["a.b=x"]), /is not a decimal number/);
  assert.throws(() => parseParamAssignments(["a.b="]), ParamError);
  for (const v of ["0x1", "0b1", "1_000", "Infinityx"]) {
    assert.throws(() => parseParamAssignments([`a.b=${v}`]), /is not a decimal number/, v);
  }
  assert.deepEqual(parseParamAssignments(["a.b=-inf", "a.c=+inf"]), {
    a: { b: -Infinity, c: Infinity },
  });
});

Deno.test("paramDefaults: the defaults of a schema, each checked against its spec", () => {
  assert.deepEqual(paramDefaults(SCHEMA), { k: 3 });
  assert.deepEqual(paramDefaults({}), {});
  assert.throws(
    () => paramDefaults({ e: { description: "e", min: 0, max: 1, default: 2 } }, "IMPULSE"),
    (e: unknown) =>
      e instanceof ParamError && /^IMPULSE\.e\.default: must be <= 1, got 2$/.test(e.message),
  );
});
