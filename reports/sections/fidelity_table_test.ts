import assert from "node:assert/strict";
import {
  caseFractureReading,
  fidelityGroups,
  fidelityRows,
  fluidSystem,
  inFidelityTable,
  readingsText,
} from "./fidelity_table.ts";
import { fakeRecord } from "../fake_record.ts";
import {
  FLIP_VOLUME_DRIFT_MAX,
  SPH_DENSITY_ERROR_MAX,
  SURGE_FRONT_ERROR_MAX,
} from "../claims/claims.ts";
import type { CaseRecord } from "../../core/result.ts";
import type { Scale } from "../../core/scene/scene.ts";

/** A brittle wall's case: `pieces` fragments of ≥ 1 %, the largest holding `share`. */
function wall(
  options: { scale?: Scale; seed?: number; handler?: string; pieces: number; share: number },
): CaseRecord {
  return fakeRecord({
    scene: "fig5-wall",
    scale: options.scale ?? "small",
    seed: options.seed ?? 2021,
    handler: options.handler ?? "merge-split",
    particles: { solid: 4030, fluid: 0 },
    summary: {
      brokenBonds: 1000,
      brokenFraction: 0.5,
      fragments: 100,
      largestFragment: Math.round(options.share * 3750),
      significantFragments: options.pieces,
      largestFragmentShare: options.share,
      firstFracture: 0.015,
    },
  });
}

/** An SPH (or FLIP) fluid case with these fluid statistics. */
function fluid(
  summary: Record<string, number>,
  options: { scene?: string; scale?: Scale; seed?: number; flip?: boolean } = {},
): CaseRecord {
  return fakeRecord({
    scene: options.scene ?? "dam-break-sph",
    scale: options.scale ?? "small",
    seed: options.seed ?? 2021,
    particles: { solid: 0, fluid: 4000 },
    ...(options.flip
      ? {
        solvers: { flip: { iterations: 20, relativeResidual: 1e-4, converged: true } },
      }
      : {}),
    summary: { densityErrorMax: 0.01, densityErrorMean: 0.001, volumeChange: 0.004, ...summary },
  });
}

Deno.test("the tables take breakable solids and fluids only; FLIP told by its solver", () => {
  const cloth = fakeRecord(); // fluid but no fluid statistics, no fragments
  assert.equal(inFidelityTable(cloth, "fracture"), false);
  assert.equal(inFidelityTable(cloth, "fluid"), false);
  assert.equal(inFidelityTable(wall({ pieces: 3, share: 0.2 }), "fracture"), true);
  assert.equal(inFidelityTable(wall({ pieces: 3, share: 0.2 }), "fluid"), false);
  assert.equal(inFidelityTable(fluid({}), "fluid"), true);
  assert.equal(fluidSystem(fluid({})), "SPH");
  assert.equal(fluidSystem(fluid({}, { flip: true })), "FLIP");
});

Deno.test("a row per scene × handler × scale, scales smallest first, seeds pooled", () => {
  const records = [
    wall({ scale: "medium", pieces: 11, share: 0.19 }),
    wall({ scale: "small", pieces: 9, share: 0.23 }),
    wall({ scale: "small", seed: 7, pieces: 7, share: 0.16 }),
    wall({ scale: "small", handler: "penalty-strong", pieces: 1, share: 0.04 }),
  ];
  const rows = fidelityRows(records, "fracture");
  assert.deepEqual(
    rows.map((r) => [r.handler, r.scale, r.seeds]),
    [
      ["merge-split", "small", [2021, 7]],
      ["merge-split", "medium", [2021]],
      ["penalty-strong", "small", [2021]],
    ],
  );
  assert.deepEqual(rows[0].values.significantFragments, [7, 9]);
  assert.deepEqual(rows[0].values.largestFragmentShare, [0.16, 0.23]);
  assert.deepEqual(rows[0].readings, { "in pieces": 2 });
  assert.deepEqual(rows[2].readings, { pulverised: 1 });
  assert.equal(readingsText(rows[2].readings), "pulverised");
  assert.deepEqual(fidelityGroups(records, "fracture").map((g) => g.length), [2, 1, 1]);
});

Deno.test("values range over the cases that finished ok; the others are counted", () => {
  const unstable = wall({ seed: 7, pieces: 1, share: 0.04 });
  unstable.status = "unstable";
  const exploded = wall({ seed: 99, pieces: 1, share: 0.05 });
  exploded.metrics!.summary.exploded = true;
  const [row] = fidelityRows([wall({ pieces: 9, share: 0.23 }), unstable, exploded], "fracture");
  assert.equal(row.statuses, "1 ok, 1 unstable, 1 exploded");
  assert.equal(row.usable, 1);
  assert.deepEqual(row.values.largestFragmentShare, [0.23, 0.23]);
  assert.deepEqual(row.seeds, [2021, 7, 99]);
  const [none] = fidelityRows([unstable], "fracture");
  assert.equal(none.values.largestFragmentShare, null);
  assert.equal(readingsText(none.readings), "–");
});

Deno.test("fracture readings follow the claims' thresholds", () => {
  assert.equal(caseFractureReading(wall({ pieces: 3, share: 0.1 })), "in pieces");
  assert.equal(caseFractureReading(wall({ pieces: 9, share: 0.099 })), "pulverised");
  assert.equal(caseFractureReading(wall({ pieces: 1, share: 0.13 })), "not in pieces");
  assert.equal(caseFractureReading(wall({ pieces: 2, share: 0.9 })), "not in pieces");
  const rows = fidelityRows(
    [wall({ pieces: 3, share: 0.2 }), wall({ seed: 7, pieces: 1, share: 0.13 })],
    "fracture",
  );
  assert.equal(readingsText(rows[0].readings), "in pieces 1, not in pieces 1");
});

Deno.test("a value past issue 24's target is flagged for the system it applies to", () => {
  const over = SPH_DENSITY_ERROR_MAX + 0.001;
  const [sph] = fidelityRows([fluid({ densityErrorMax: over })], "fluid");
  assert.equal(sph.system, "SPH");
  assert.equal(sph.pastTarget.densityErrorMax, true);
  assert.equal(sph.pastTarget.densityErrorMean, false);
  const [atTarget] = fidelityRows([fluid({ densityErrorMax: SPH_DENSITY_ERROR_MAX })], "fluid");
  assert.equal(atTarget.pastTarget.densityErrorMax, false);
  // FLIP: its density error is not held to the SPH target; its volume is, in either direction
  const [flip] = fidelityRows(
    [fluid({ densityErrorMax: 0.5, volumeChange: -(FLIP_VOLUME_DRIFT_MAX + 0.001) }, {
      flip: true,
    })],
    "fluid",
  );
  assert.equal(flip.pastTarget.densityErrorMax, false);
  assert.equal(flip.pastTarget.volumeChange, true);
  const [sphVolume] = fidelityRows([fluid({ volumeChange: 0.05 })], "fluid");
  assert.equal(sphVolume.pastTarget.volumeChange, false);
  // the dam break's front, over the seeds: the worst seed decides
  const [front] = fidelityRows([
    fluid({ surgeFrontError: 0.01 }),
    fluid({ surgeFrontError: SURGE_FRONT_ERROR_MAX + 0.01 }, { seed: 7 }),
  ], "fluid");
  assert.deepEqual(front.values.surgeFrontError, [0.01, SURGE_FRONT_ERROR_MAX + 0.01]);
  assert.equal(front.pastTarget.surgeFrontError, true);
  assert.equal(front.values.columnHeightError, null);
  assert.equal(front.pastTarget.columnHeightError, false);
});

Deno.test("rows name what tells them apart: handler parameters, steps at one scale", () => {
  const a = wall({ pieces: 9, share: 0.23 });
  const b = wall({ pieces: 7, share: 0.2 });
  b.handlerParams = { ...b.handlerParams, alpha: 0.5 };
  const short = wall({ scale: "medium", pieces: 1, share: 0.9 });
  short.steps = 50;
  const whole = wall({ scale: "medium", pieces: 11, share: 0.19 });
  whole.steps = 1424;
  assert.deepEqual(
    fidelityRows([a, b, short, whole], "fracture").map((r) => `${r.handler} (${r.scale})`),
    [
      "merge-split alpha=1 (small)",
      "merge-split alpha=0.5 (small)",
      "merge-split steps=50 alpha=1 (medium)",
      "merge-split steps=1424 alpha=1 (medium)",
    ],
  );
});
