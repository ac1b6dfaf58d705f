/**
 * Thin assertion helpers for tests (kept small so a switch to @std/assert is a rename).
 *
 * @module
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Vec3 } from "./vec3.ts";
import type { Pair } from "./grouping/collision_rules.ts";

/** Asserts |actual − expected| ≤ tol · max(1, scale). */
export function assertClose(
  actual: number,
  expected: number,
  options: { tol: number; scale?: number; msg?: string },
): void {
  const bound = options.tol * Math.max(1, options.scale ?? Math.abs(expected));
  const err = Math.abs(actual - expected);
  assert.ok(
    err <= bound,
    `${options.msg ?? "value"}: |${actual} − ${expected}| = ${err} > ${bound}`,
  );
}

/** Asserts every component of two vectors is within tol · max(1, scale). */
export function assertCloseVec(
  actual: Vec3,
  expected: Vec3,
  options: { tol: number; scale?: number; msg?: string },
): void {
  const scale = options.scale ?? Math.max(...expected.map(Math.abs));
  for (let k = 0; k < 3; k++) {
    assertClose(actual[k], expected[k], {
      ...options,
      scale,
      msg: `${options.msg ?? "vec"}[${k}]`,
    });
  }
}

/**
 * Property-test runs per property. fast-check draws a fresh seed per run (and prints it on
 * failure); under CI, or when FC_SEED is set, the seed is fixed so a run repeats exactly.
 */
export const RUNS = 1000;

const seedText = Deno.env.get("FC_SEED") ?? (Deno.env.get("CI") ? "20211" : undefined);
if (seedText !== undefined) fc.configureGlobal({ seed: Number(seedText) });

/** A random contact graph: [n, pairs] with n in [2, 120] and up to 4n pairs of distinct indices. */
export const contactGraph: fc.Arbitrary<[number, Pair[]]> = fc.integer({ min: 2, max: 120 }).chain((
  n,
) =>
  fc.tuple(
    fc.constant(n),
    fc.array(
      fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 }))
        .filter(([a, b]) => a !== b),
      { maxLength: 4 * n },
    ) as fc.Arbitrary<Pair[]>,
  )
);
