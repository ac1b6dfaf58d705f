import assert from "node:assert/strict";
import { PAPER_TABLE_ONE } from "../tables/paper_table_one.ts";
import { dirname, join } from "node:path";
import { parseResults, recordLine } from "../../core/result.ts";
import { decodeFragments } from "../../core/io/snapshot_codec.ts";
import type { CaseRecord } from "../../core/result.ts";
import { latestCases } from "../case_key.ts";
import { CLAIMS, evaluateClaims } from "../claims/claims.ts";
import { claimsSummaryText, NOT_RUN_NOTE } from "../claims/claims_table.ts";
import { compareInputs } from "../sections/comparison.ts";
import { escapeHtml, scriptJson } from "./escape_html.ts";
import { exportSnapshots } from "../tables/export.ts";
import { fakeRecord, fakeSnapshots } from "../fake_record.ts";
import { main } from "../main.ts";
import { renderReport } from "./report.ts";
import { phaseShares } from "../sections/phase_shares.ts";
import { scalingSeries } from "../sections/scaling_section.ts";
import { vendorLibraries } from "./vendor_libraries.ts";
import { writeReport } from "./write_report.ts";

const EVIL = "<script>alert(1)</script>";

/** Records from which every claim is reproduced. */
function goodSuite(): CaseRecord[] {
  const fig4 = (handler: string, summary: Record<string, number | boolean>) =>
    fakeRecord({ scene: "fig4-fluid-cloth", handler, summary });
  // merge-split; a Table I scene's step shaped like the paper's (claims y, y2): collision
  // detection + merging + splitting 3 % of it, stage 2 as long as stage 1
  const ms = (scene: string, summary: Record<string, number | boolean>) => {
    const r = fakeRecord({ scene, handler: "merge-split", summary });
    if (!PAPER_TABLE_ONE.some((c) => c.scene === scene)) return r;
    const phases = r.timings!.phases;
    const at = (median: number) => ({ ...phases.total, median });
    Object.assign(phases, {
      collisionDetection: at(0.1),
      merging: at(0.1),
      splitting: at(0.1),
      integrationStage1: at(4),
      integrationStage2: at(4),
      total: at(10),
    });
    return r;
  };
  const flipSolver = { flip: { iterations: 20, relativeResidual: 1e-5, converged: true } };
  const records: CaseRecord[] = [
    fig4("merge-split", {
      passThroughMax: 0,
      maxRebound: 2,
      fluidRebound: 0.2,
      densityErrorMax: 0.025,
      mergeOrderGroups: 40,
      mergeOrderSpread: 3e-5,
    }),
    fig4("penalty-weak", { passThroughMax: 5 }),
    fig4("penalty-strong", {
      passThroughMax: 0,
      maxRebound: 4,
      fluidRebound: 0.5,
      fastReboundFraction: 0.04,
      flungSpeedRatio: 2.5,
    }),
    fig4("kernel-repulsion-weak", { passThroughMax: 12 }),
    fig4("impulse", { passThroughMax: 3 }),
    ms("fig10-alpha-beta-00", { energyRatio: 0.6, fluidReboundHeight: 0.01 }),
    ms("fig10-alpha-beta-11", { energyRatio: 0.7, fluidReboundHeight: 0.02 }),
    ms("fig11-nlimit-4-8", { passThroughMax: 3 }),
    ms("fig11-nlimit-32-64", { passThroughMax: 0, sheetDeflectionEnd: 4.8 }),
    ms("fig11-nlimit-16-32", { passThroughMax: 0, sheetDeflectionEnd: 4.5 }),
    ms("fig11-nlimit-inf", {
      sheetDeflection: 3,
      sheetDeflectionEnd: 2,
      sheetDeflectionLateMax: 2.2,
      sheetDeflectionLateMin: 2,
    }),
    ms("fig11-nlimit-8-16", {
      sheetDeflection: 6,
      sheetDeflectionEnd: 5,
      sheetDeflectionLateMax: 5.5,
      sheetDeflectionLateMin: 5,
    }),
    ms("fig3-ball-cloth-low", { passThroughMax: 0, energyRatio: 0.8 }),
    ms("fig3-ball-cloth-high", { passThroughMax: 0, energyRatio: 0.7 }),
    fakeRecord({
      scene: "fig3-ball-cloth-high",
      handler: "penalty-weak",
      summary: { passThroughMax: 50 },
    }),
    fakeRecord({
      scene: "fig3-ball-cloth-low",
      handler: "kernel-repulsion-weak",
      summary: { passThroughMax: 9 },
    }),
    fakeRecord({
      scene: "fig3-ball-cloth-high",
      handler: "penalty-strong",
      summary: { maxSpeedRatio: 2.6, flungSpeedRatio: 2.6 },
    }),
    fakeRecord({
      scene: "fig3-ball-cloth-low",
      handler: "impulse",
      summary: { passThroughMax: 20 },
    }),
    fakeRecord({
      scene: "fig3-ball-cloth-low",
      handler: "kernel-repulsion-strong",
      status: "unstable",
    }),
    // (a3): Fig. 4's last column, which blew up
    fig4("kernel-repulsion-strong", {
      passThroughMax: 0,
      fastReboundFraction: 0.03,
      exploded: true,
    }),
    // (k2): the rest of the figure's columns at both heights, each failing at one of them
    ...([
      ["fig3-ball-cloth-low", "penalty-weak", 0],
      ["fig3-ball-cloth-low", "penalty-medium", 2],
      ["fig3-ball-cloth-high", "penalty-medium", 0],
      ["fig3-ball-cloth-low", "penalty-strong", 0],
      ["fig3-ball-cloth-high", "kernel-repulsion-weak", 0],
      ["fig3-ball-cloth-low", "kernel-repulsion-medium", 0],
      ["fig3-ball-cloth-high", "kernel-repulsion-medium", 2],
      ["fig3-ball-cloth-high", "kernel-repulsion-strong", 0],
      ["fig3-ball-cloth-high", "impulse", 0],
    ] as const).map(([scene, handler, through]) =>
      fakeRecord({ scene, handler, summary: { passThroughMax: through } })
    ),
    ...[1, 10, 100].map((k) => ms(`fig7-mass-${k}`, { passThroughMax: 0, energyRatio: 0.9 })),
    ...["fig9-flip-cloth", "fig9-flip-peridynamics"].map((scene) => ({
      ...ms(scene, { passThroughMax: 0, energyRatio: 0.8, volumeChange: 0.003 }),
      solvers: flipSolver,
    })),
    ms("dam-break-sph", {
      densityErrorMax: 0.02,
      surgeFrontError: 0.03,
      surgeFrontErrorMean: 0.02,
      columnHeightError: 0.04,
      columnHeightErrorMean: 0.03,
    }),
    {
      ...ms("dam-break-flip", {
        volumeChange: -0.004,
        surgeFrontError: 0.04,
        surgeFrontErrorMean: 0.01,
        columnHeightError: 0.02,
        columnHeightErrorMean: 0.01,
      }),
      solvers: flipSolver,
    },
    ms("fig8-cloth-tori", { passThroughMax: 0, energyRatio: 0.5 }),
    ms("fig8-dam-break-wall", {
      fragments: 12,
      brokenBonds: 900,
      brokenFraction: 0.2,
      significantFragments: 5,
      largestFragmentShare: 0.25,
      significantFragmentsBeforeBlowUp: 5,
      significantFragmentsAtFirstFracture: 1,
    }),
    ms("fig8-bowl", {
      fragments: 30,
      brokenBonds: 400,
      brokenFraction: 0.5,
      firstFracture: 0.25,
      significantFragmentsBeforeBlowUp: 4,
    }),
    ms("fig5-wall", {
      solidInsideBeforeFracture: 0,
      fragments: 10,
      significantFragments: 4,
      significantFragmentsBeforeBlowUp: 4,
      largestFragmentShare: 0.3,
    }),
    fakeRecord({
      scene: "fig5-wall",
      handler: "kernel-repulsion-strong",
      summary: {
        fragments: 40,
        significantFragments: 2,
        significantFragmentsBeforeBlowUp: 2,
        largestFragmentShare: 0.04,
        largestFragmentShareBeforeBlowUp: 0.04,
      },
    }),
    ...(["penalty-weak", "kernel-repulsion-weak", "impulse"] as const).map((handler, k) =>
      fakeRecord({
        scene: "fig5-wall",
        handler,
        summary: { solidInsideBeforeFracture: k + 2, significantFragmentsBeforeBlowUp: 3 },
      })
    ),
    // (p4): every column of Fig. 5 breaks the wall
    ...(["penalty-medium", "kernel-repulsion-medium", "penalty-strong"] as const).map((handler) =>
      fakeRecord({
        scene: "fig5-wall",
        handler,
        summary: { significantFragmentsBeforeBlowUp: 3, largestFragmentShareBeforeBlowUp: 0.05 },
      })
    ),
    // (p3), (u3): the ice variants' scene files (deno task scene --material ice)
    ms("fig5-wall-ice", { fragments: 30, significantFragments: 3, largestFragmentShare: 0.12 }),
    fakeRecord({
      scene: "fig5-wall-ice",
      handler: "penalty-strong",
      summary: {
        fragments: 90,
        significantFragments: 2,
        largestFragmentShare: 0.08,
        largestFragmentShareBeforeBlowUp: 0.08,
      },
    }),
    ms("fig8-dam-break-wall-ice", {
      fragments: 8,
      brokenBonds: 300,
      brokenFraction: 0.1,
      significantFragments: 3,
      largestFragmentShare: 0.5,
    }),
    // (r): a penalty stiffness sweep at both heights: the slow ball is held by 10 and 100, the
    // fast one only by 1000 and 10000, where the slow one bounces off unstably
    ...[10, 100, 1000, 10000].flatMap((k) => [
      sweepCase("fig3-ball-cloth-low", "penalty", { "penalty.stiffness": k }, {
        passThroughFraction: 0,
        energyRatio: k >= 1000 ? 1.3 : 0.8,
      }),
      sweepCase("fig3-ball-cloth-high", "penalty", { "penalty.stiffness": k }, {
        passThroughFraction: k >= 1000 ? 0 : 0.2,
        energyRatio: 0.8,
      }),
    ]),
    // (e2): Akinci's coupling lets 3 of 400 fluid particles through (0.75 % > 0.5 %)
    fig4("akinci", { passThroughMax: 3, fluidRebound: 0.1 }),
    // (s): on Fig. 5's wall merge-split works up to 4e-3 s, penalty-medium only at 1e-4 s
    ...[1e-4, 4e-4, 4e-3].flatMap((dt) => [
      sweepCase("fig5-wall", "merge-split", { "scene.dt": dt }, {
        energyRatio: 0.8,
        solidInsideBeforeFracture: 0,
      }),
      sweepCase("fig5-wall", "penalty-medium", { "scene.dt": dt }, {
        energyRatio: dt > 1e-4 ? 3 : 0.9,
        solidInsideBeforeFracture: 0,
      }),
    ]),
  ];
  // a resolution where every share a claim reads is many particles (claim_resolution.ts): 0.5 %
  // of 4,000 crossing particles is 20, 1 % of a 4,000-particle wall 40
  for (const r of records) {
    if (r.metrics) {
      r.metrics.summary = {
        crossingParticles: 4000,
        breakableParticles: 4000,
        ...r.metrics.summary,
      };
    }
  }
  return records;
}

/** A record of a parameter sweep's case. */
function sweepCase(
  scene: string,
  handler: string,
  sweep: Record<string, number>,
  summary: Record<string, number | boolean>,
): CaseRecord {
  const r = fakeRecord({ scene, handler, summary });
  r.sweep = sweep;
  if (sweep["scene.dt"]) r.dt = sweep["scene.dt"];
  return r;
}

/** The JSON the page script reads (#report-data). */
// deno-lint-ignore no-explicit-any
function reportData(html: string): any {
  const json = /<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(html);
  return JSON.parse(json![1]);
}

const FIG4 = "fig4-fluid-cloth";

function statuses(records: CaseRecord[]): Record<string, string> {
  return Object.fromEntries(evaluateClaims(records).map((c) => [c.claim.id, c.result.status]));
}

Deno.test("HTML report", async (t) => {
  await t.step("text from result files is escaped, embedded JSON is script-safe", () => {
    const records = [
      fakeRecord({ scene: EVIL, handler: "merge-split" }),
      fakeRecord({
        handler: "impulse",
        status: "failed",
        error: `device lost <img src=x onerror=alert(2)> ${EVIL}`,
        metrics: null,
        timings: null,
      }),
    ];
    records[1].env!.adapter.description = `<script>alert(3)</script>`;
    const html = renderReport([{ label: `run ${EVIL}`, records }], { cdn: true });
    assert.ok(!/<script>alert/i.test(html), "a raw <script>alert survived");
    assert.ok(!html.includes("<img src=x"), "a raw <img> from an error message survived");
    assert.ok(html.includes("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert.ok(html.includes("&lt;script&gt;alert(3)&lt;/script&gt;"));
    assert.ok(html.includes("&lt;img src=x onerror=alert(2)&gt;"));
    assert.ok(html.includes("\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"));
    // Every <script> element is closed by its own </script>: nothing in the data closed one early.
    const opens = html.match(/<script\b/gi)?.length ?? 0;
    const closes = html.match(/<\/script>/gi)?.length ?? 0;
    assert.equal(opens, closes);
    // The failed case is listed in the warning.
    assert.match(html, /class="warning"><strong>1 case\(s\) did not finish normally/);
  });

  await t.step("escapeHtml and scriptJson", () => {
    assert.equal(escapeHtml(`a<b>&"c'`), "a&lt;b&gt;&amp;&quot;c&#39;");
    assert.equal(escapeHtml(null), "");
    const value = { s: "</script><!-- \u2028\u2029 & >", n: [1, NaN, Infinity] };
    const text = scriptJson(value);
    assert.ok(!/[<>&\u2028\u2029]/.test(text));
    assert.deepEqual(JSON.parse(text), { s: value.s, n: [1, null, null] });
  });

  await t.step("claims read a case's whole run, not a shorter run of it (gpu-check)", () => {
    const records = goodSuite();
    const whole = records[0]; // fig4 × merge-split: fluidRebound 0.2 over the whole run
    // a later 200-step scale check of the same case, stopped before the fluid lands
    const short = fakeRecord({
      scene: FIG4,
      handler: "merge-split",
      steps: Math.round(whole.steps / 2),
      summary: { passThroughMax: 0, maxRebound: 0, fluidRebound: 0 },
    });
    // (a) merge-split lets 3 of 400 through over the whole run; the short run's 0 would pass it
    whole.metrics!.summary.passThroughMax = 3;
    whole.metrics!.summary.passThroughFraction = 3 / 400;
    assert.equal(statuses([...records, short]).a, "not reproduced");
    assert.equal(statuses([short, ...records]).a, "not reproduced", "whatever the order");
    // in the report's tables the short run is a case of its own, beside the whole run (not
    // replacing it); a re-run of the same configuration replaces the earlier record
    assert.deepEqual(latestCases([whole, short]), [whole, short]);
    assert.deepEqual(latestCases([short, whole]), [short, whole]);
    const rerun = fakeRecord({ scene: FIG4, handler: "merge-split", steps: whole.steps });
    assert.deepEqual(latestCases([whole, short, rerun]), [short, rerun]);
  });

  await t.step("runs of a case that differ in configuration are shown apart, labelled", () => {
    const base = { scene: FIG4, handler: "merge-split", configHash: "c".repeat(64) };
    const records = [
      fakeRecord({ ...base, steps: 400, summary: { passThroughMax: 0 } }),
      fakeRecord({ ...base, steps: 200, summary: { passThroughMax: 7 } }),
      fakeRecord({ scene: FIG4, handler: "penalty-weak" }),
    ];
    const html = renderReport([{ label: "run", records }], { cdn: true });
    // Table I and the matrix: one row each, named by the steps; the other handler unlabelled
    assert.match(html, /<td>merge-split steps=400<\/td>/);
    assert.match(html, /<td>merge-split steps=200<\/td>/);
    assert.match(html, /<td>penalty-weak<\/td>/);
    assert.match(html, /<th class="row">fig4-fluid-cloth steps=400<\/th>/);
    assert.match(html, /<th class="row">fig4-fluid-cloth steps=200<\/th>/);
    assert.match(html, /<th class="row">fig4-fluid-cloth<\/th>/);
    assert.ok(!/some cases appear more than once/i.test(html), "nothing replaced");
    const data = reportData(html);
    assert.deepEqual(
      data.inputs[0].cases.map((c: { handler: string; variant: string }) => c.handler + c.variant),
      ["merge-split steps=400", "merge-split steps=200", "penalty-weak"],
    );
    assert.deepEqual(data.inputs[0].phaseShares.labels, [
      "fig4-fluid-cloth × merge-split steps=400",
      "fig4-fluid-cloth × merge-split steps=200",
      "fig4-fluid-cloth × penalty-weak",
    ]);
    // the same configuration run twice: one case, the last record
    const twice = renderReport([{ label: "run", records: [...records, fakeRecord(base)] }], {
      cdn: true,
    });
    assert.match(twice, /the last record of each is shown \(run: 1 replaced\)/);
  });

  await t.step("claims: reproduced, not reproduced, not run", () => {
    const good = goodSuite();
    assert.deepEqual(
      Object.values(statuses(good)),
      CLAIMS.map(() => "reproduced"),
    );
    const bad = goodSuite();
    // (a): 3 of 400 through is a leak (0.75 % > 0.5 %)
    bad[0].metrics!.summary.passThroughMax = 3;
    bad[0].metrics!.summary.passThroughFraction = 3 / 400;
    bad[2].metrics!.summary.fastReboundFraction = 0.004; // (e): 0.4 % < 0.5 %
    bad[5].metrics!.summary.momentumError = 1e-3; // (f)
    bad[6].status = "unstable"; // (g)
    const s = statuses(bad);
    for (const id of ["a", "e", "f", "g"]) assert.equal(s[id], "not reproduced", id);
    // (g): a merge-split case that timed out or failed says nothing about stability
    const timedOut = goodSuite();
    timedOut.push(fakeRecord({ scene: "fig11-nlimit-inf", status: "timeout", metrics: null }));
    const g = evaluateClaims(timedOut).find((c) => c.claim.id === "g")!.result;
    assert.equal(g.status, "reproduced");
    assert.match(g.measured, /not counted: fig11-nlimit-inf timeout/);
    // (h) reads merge-split's runs as they ended: with α = β = 1 unstable it is a verdict against it
    assert.equal(s.h, "not reproduced");
    const dissipation = goodSuite();
    // (h): with none conserved the fluid jumps back 3 cm, higher than with all (2 cm)
    dissipation[5].metrics!.summary.fluidReboundHeight = 0.03;
    assert.equal(statuses(dissipation).h, "not reproduced");
    for (const id of ["b", "c", "d", "i", "j"]) assert.equal(s[id], "reproduced", id);
    assert.deepEqual(Object.values(statuses([])), CLAIMS.map(() => "not run"));
    // Fig. 8: a wall that did not break, a bowl that went unstable, a cloth that leaked 0.6 % of
    // what could cross (above the one leak threshold), a failed case
    const fig8 = goodSuite().map((r) => {
      if (r.scene === "fig8-dam-break-wall") {
        r.metrics!.summary.significantFragmentsBeforeBlowUp = 1;
      }
      if (r.scene === "fig8-bowl") r.metrics!.summary.significantFragmentsBeforeBlowUp = 0;
      if (r.scene === "fig8-cloth-tori") {
        r.metrics!.summary.passThroughMax = 3;
        r.metrics!.summary.passThroughFraction = 0.006;
      }
      return r;
    });
    const s8 = statuses(fig8);
    for (const id of ["t", "t2", "u", "v"]) assert.equal(s8[id], "not reproduced", id);
    const bowlFailed = goodSuite().map((r) =>
      r.scene === "fig8-bowl" ? { ...r, status: "failed" as const, metrics: null } : r
    );
    assert.equal(statuses(bowlFailed).v, "not run");
    // a case whose GPU work never completed did not run either (even with metrics of a sort)
    const bowlStuck = goodSuite().map((r) =>
      r.scene === "fig8-bowl" ? { ...r, status: "gpu-timeout" as const } : r
    );
    const v = evaluateClaims(bowlStuck).find((c) => c.claim.id === "v")!.result;
    assert.equal(v.status, "not run");
    assert.match(v.measured, /fig8-bowl × merge-split ended gpu-timeout/);
    const onlyFig4 = good.filter((r) => r.scene === "fig4-fluid-cloth");
    const s4 = statuses(onlyFig4);
    for (const id of ["h", "i", "j", "k", "l", "m", "n", "o", "p", "p2", "q", "r", "s"]) {
      assert.equal(s4[id], "not run", id);
    }
    const failed = goodSuite();
    failed[1] = fakeRecord({ handler: "penalty-weak", status: "failed", metrics: null });
    const b = evaluateClaims(failed).find((c) => c.claim.id === "b")!.result;
    assert.equal(b.status, "not run");
    assert.match(b.measured, /penalty-weak failed, no metrics/);
    const html = renderReport([{ label: "x", records: good }], { cdn: true });
    assert.ok(html.includes(`${CLAIMS.length} reproduced, 0 not reproduced, 0 not run.</p>`));
    assert.ok(!html.includes(NOT_RUN_NOTE), "every claim ran: no word on where the others run");
    // the same in words for the terminal (cli.ts): ids by status, the note when any was not run
    const inWords = (records: CaseRecord[]) => claimsSummaryText([{ label: "x", records }]);
    assert.equal(
      inWords(good),
      `claims: ${CLAIMS.length} reproduced (${
        CLAIMS.map((c) => c.id).join(", ")
      }); 0 not reproduced; 0 not run`,
    );
    const ids = (st: string) => Object.keys(s4).filter((id) => s4[id] === st);
    assert.ok(ids("reproduced").length > 0 && ids("not run").length > 0);
    assert.equal(
      inWords(onlyFig4),
      `claims: ${ids("reproduced").length} reproduced (${ids("reproduced").join(", ")}); ` +
        `${ids("not reproduced").length} not reproduced${
          ids("not reproduced").length ? ` (${ids("not reproduced").join(", ")})` : ""
        }; ${ids("not run").length} not run\n${NOT_RUN_NOTE}`,
    );
    const fig4Html = renderReport([{ label: "x", records: onlyFig4 }], { cdn: true });
    assert.ok(fig4Html.includes(escapeHtml(NOT_RUN_NOTE)), "where the claims not run run");
    // (u2): a wall broken into dust (the largest fragment 5 % of it) is not in pieces
    const dust = goodSuite();
    const wall = dust.find((r) => r.scene === "fig8-dam-break-wall")!;
    wall.metrics!.summary.largestFragmentShare = 0.05;
    const u2 = evaluateClaims(dust).find((c) => c.claim.id === "u2")!.result;
    assert.equal(u2.status, "not reproduced");
    assert.match(u2.measured, /5 fragments of ≥ 1 %, the largest 0\.05 of the solid/);
    // (p3), (u3): the ice wall that keeps a piece of 9 % is dust, whatever the catalogue's did;
    // without the ice records both are not run
    const iceDust = goodSuite();
    iceDust.find((r) => r.scene === "fig5-wall-ice" && r.handler === "merge-split")!.metrics!
      .summary.largestFragmentShare = 0.09;
    iceDust.find((r) => r.scene === "fig8-dam-break-wall-ice")!.metrics!.summary
      .largestFragmentShare = 0.09;
    const sIce = statuses(iceDust);
    assert.deepEqual([sIce.p2, sIce.p3, sIce.u2, sIce.u3], [
      "reproduced",
      "not reproduced",
      "reproduced",
      "not reproduced",
    ]);
    const noIce = statuses(goodSuite().filter((r) => !r.scene.endsWith("-ice")));
    assert.deepEqual([noIce.p3, noIce.u3], ["not run", "not run"]);
    // (x): one SPH case past 3 % fails it, named with its value; a FLIP case does not count for
    // it. (x2): a FLIP dam break that lost 2.5 % of its volume fails x2 alone
    const squeezed = goodSuite();
    squeezed.find((r) => r.scene === "dam-break-sph")!.metrics!.summary.densityErrorMax = 0.064;
    squeezed.find((r) => r.scene === "dam-break-flip")!.metrics!.summary.densityErrorMax = 0.5;
    const x = evaluateClaims(squeezed).find((c) => c.claim.id === "x")!.result;
    assert.equal(x.status, "not reproduced");
    assert.match(
      x.measured,
      /^worst dam-break-sph tiny seed 2021 6\.4 % of 2 SPH cases; past 3 %: dam-break-sph/,
    );
    assert.equal(statuses(squeezed).x2, "reproduced");
    const shrunk = goodSuite();
    shrunk.find((r) => r.scene === "dam-break-flip")!.metrics!.summary.volumeChange = -0.025;
    const s2 = statuses(shrunk);
    assert.deepEqual([s2.x, s2.x2], ["reproduced", "not reproduced"]);
    // without FLIP records (or without fluid metrics) there is nothing to judge
    const noFlip = goodSuite().filter((r) => !r.solvers?.flip);
    assert.equal(statuses(noFlip).x2, "not run");
    // (w): a dam break 7 % off Martin & Moyce's front at one point does not follow it; a record
    // from before the comparison existed has none to judge
    const off = goodSuite();
    off.find((r) => r.scene === "dam-break-flip")!.metrics!.summary.surgeFrontError = 0.07;
    const w = evaluateClaims(off).find((c) => c.claim.id === "w")!.result;
    assert.equal(w.status, "not reproduced");
    assert.match(
      w.measured,
      /dam-break-sph: front within 3 % \(mean 2 %\); dam-break-flip: front within 7 %/,
    );
    const old = goodSuite();
    delete old.find((r) => r.scene === "dam-break-sph")!.metrics!.summary.surgeFrontError;
    assert.equal(evaluateClaims(old).find((c) => c.claim.id === "w")!.result.status, "not run");
    // (w2): the same for the residual column, judged on its own field: a FLIP column that stops
    // falling (here 1.26 above the experiment's at its worst point) fails w2 alone
    const stalled = goodSuite();
    stalled.find((r) => r.scene === "dam-break-flip")!.metrics!.summary.columnHeightError = 1.26;
    const byId = (id: string) => evaluateClaims(stalled).find((c) => c.claim.id === id)!.result;
    assert.equal(byId("w").status, "reproduced");
    assert.equal(byId("w2").status, "not reproduced");
    assert.match(
      byId("w2").measured,
      /dam-break-sph: column within 4 % \(mean 3 %\); dam-break-flip: column within 126 %/,
    );
    const before = goodSuite();
    delete before.find((r) => r.scene === "dam-break-flip")!.metrics!.summary.columnHeightError;
    assert.equal(
      evaluateClaims(before).find((c) => c.claim.id === "w2")!.result.status,
      "not run",
    );
    // solids: a merge-split leak or instability, no weak leak, strong stable; unstable cases count
    const solid = goodSuite();
    const at = (scene: string, handler: string) =>
      solid.find((r) => r.scene === scene && r.handler === handler)!;
    at("fig3-ball-cloth-low", "merge-split").metrics!.summary.passThroughFraction = 0.01; // (k)
    // (l): one ball particle of 400 through is below the leak threshold (0.25 % < 0.5 %)
    at("fig3-ball-cloth-high", "penalty-weak").metrics!.summary.passThroughMax = 1;
    at("fig3-ball-cloth-high", "penalty-weak").metrics!.summary.passThroughFraction = 1 / 400;
    // (m): a particle at 2.6× falling freely (flung at most 1.9×), no energy gain: not unstable
    at("fig3-ball-cloth-high", "penalty-strong").metrics!.summary.flungSpeedRatio = 1.9;
    at("fig7-mass-100", "merge-split").status = "unstable"; // (n)
    at("fig5-wall", "impulse").metrics!.summary.solidInsideBeforeFracture = 0; // (o)
    // (p), (p2): the strong force leaves a piece of 12 % of the wall before any blow-up: not
    // pulverised
    at("fig5-wall", "kernel-repulsion-strong").metrics!.summary.largestFragmentShareBeforeBlowUp =
      0.12;
    at("fig9-flip-cloth", "merge-split").metrics!.summary.passThroughFraction = 0.01; // (q)
    const so = statuses(solid);
    for (const id of ["k", "l", "m", "n", "o", "p", "p2", "q"]) {
      assert.equal(so[id], "not reproduced", id);
    }
    for (const id of ["l2", "m2"]) assert.equal(so[id], "reproduced", id);
    // (r): one stiffness that holds the ball at both heights; (s): penalty stable at 4e-3 s too,
    // like merge-split
    const sw = (scene: string, handler: string, key: string, v: number) =>
      solid.find((r) => r.scene === scene && r.handler === handler && r.sweep?.[key] === v)!;
    sw("fig3-ball-cloth-low", "penalty", "penalty.stiffness", 1000).metrics!.summary.energyRatio =
      0.9;
    for (const dt of [4e-4, 4e-3]) {
      sw("fig5-wall", "penalty-medium", "scene.dt", dt).metrics!.summary.energyRatio = 0.9;
    }
    const sr = statuses(solid);
    for (const id of ["r", "s"]) assert.equal(sr[id], "not reproduced", id);
    // a sweep's case is not the scene's case: a leaking merge-split at a large swept dt, recorded
    // after the plain run, leaves (k) to the plain run
    const swept = goodSuite();
    const leaky = sweepCase("fig3-ball-cloth-high", "merge-split", { "scene.dt": 0.01 }, {
      passThroughMax: 8,
    });
    assert.equal(statuses([...swept, leaky]).k, "reproduced");
    // a failed weak case is left out: with no usable case the claim is not run
    at("fig3-ball-cloth-low", "kernel-repulsion-weak").status = "failed";
    at("fig3-ball-cloth-high", "kernel-repulsion-weak").status = "failed";
    assert.equal(statuses(solid)["l2"], "not run");
  });

  await t.step("claims: a leak of one particle, an explosion, an unstable baseline", () => {
    const suite = goodSuite();
    const at = (handler: string) =>
      suite.find((r) => r.scene === "fig4-fluid-cloth" && r.handler === handler)!;
    const result = (id: string) => evaluateClaims(suite).find((c) => c.claim.id === id)!.result;
    // one fluid particle of 400 through: not a leak (0.25 % < 0.5 %)
    at("penalty-weak").metrics!.summary.passThroughMax = 1;
    at("penalty-weak").metrics!.summary.passThroughFraction = 1 / 400;
    assert.equal(result("b").status, "not reproduced");
    // an exploded penalty-strong is read before its blow-up: 0.1 % rebounding fast then
    at("penalty-strong").status = "unstable";
    at("penalty-strong").metrics!.summary.exploded = true;
    at("penalty-strong").metrics!.summary.blowUpTime = 0.3;
    at("penalty-strong").metrics!.summary.fastReboundFraction = 0.001;
    assert.equal(result("e").status, "not reproduced");
    assert.match(result("e").measured, /blew up at 0\.3 s; read before it/);
    // an unstable impulse case leaks nothing that counts
    at("impulse").status = "unstable";
    assert.equal(result("c").status, "not run");
    assert.match(result("c").measured, /impulse ended unstable/);
    // one droplet's speed does not make a rebound: 2 of 400 particles fast is below the floor
    const drop = goodSuite();
    const strong = drop.find((r) => r.handler === "penalty-strong" && r.scene === FIG4)!;
    strong.metrics!.summary.maxRebound = 40;
    strong.metrics!.summary.fastReboundFraction = 2 / 400;
    assert.equal(evaluateClaims(drop).find((c) => c.claim.id === "e")!.result.status, "reproduced");
    strong.metrics!.summary.fastReboundFraction = 1 / 400;
    assert.equal(
      evaluateClaims(drop).find((c) => c.claim.id === "e")!.result.status,
      "not reproduced",
    );
    // a record made before fastRebound was measured: not run, saying so
    delete strong.metrics!.summary.fastReboundFraction;
    assert.match(
      evaluateClaims(drop).find((c) => c.claim.id === "e")!.result.measured,
      /no fastReboundFraction in the record of fig4-fluid-cloth × penalty-strong/,
    );
    // (e2): Akinci's coupling holding the fluid (one particle through, no rebound) is not
    // reproduced; unstable, it is (instability is the outcome); failed, it is not run
    const ak = goodSuite();
    const akinci = ak.find((r) => r.handler === "akinci")!;
    akinci.metrics!.summary.passThroughMax = 1;
    akinci.metrics!.summary.passThroughFraction = 1 / 400;
    const e2 = () => evaluateClaims(ak).find((c) => c.claim.id === "e2")!.result;
    akinci.metrics!.summary.fastReboundFraction = 0.001;
    assert.equal(e2().status, "not reproduced");
    assert.match(e2().measured, /leak fraction 0\.0025/);
    akinci.metrics!.summary.fastReboundFraction = 0.02; // flung back fast: 2 % ≥ 0.5 %
    assert.equal(e2().status, "reproduced");
    akinci.metrics!.summary.fastReboundFraction = 0.001;
    akinci.status = "unstable";
    assert.equal(e2().status, "reproduced");
    assert.match(e2().measured, /unstable/);
    akinci.status = "failed";
    akinci.metrics = null;
    assert.equal(e2().status, "not run");
    // (r): the slow ball leaks at every swept stiffness: no window there, so the sweep does not
    // show two windows that miss each other
    const noWindow = goodSuite();
    for (const r of noWindow) {
      if (r.scene === "fig3-ball-cloth-low" && r.handler === "penalty") {
        r.metrics!.summary.passThroughFraction = 0.5;
      }
    }
    const rr = evaluateClaims(noWindow).find((c) => c.claim.id === "r")!.result;
    assert.equal(rr.status, "not reproduced");
    assert.match(rr.measured, /works low at none/);
  });

  await t.step("budget section: shown for records with a step budget, in mJ per step", () => {
    const none = renderReport([{ label: "a", records: [fakeRecord({})] }], { cdn: true });
    assert.ok(!none.includes('id="budget"'), "no budget, no section");
    const r = fakeRecord({
      summary: {
        budgetSteps: 40,
        budgetMergeEnergyMean: -0.0125,
        budgetSplitEnergyMean: 0.0125,
        budgetStepEnergyMean: -0.002,
        budgetMergeMomentumMax: 3e-8,
      },
    });
    const html = renderReport([{ label: "a", records: [r] }], { cdn: true });
    assert.ok(html.includes('<section id="budget">'));
    const table = html.slice(html.indexOf('<table class="budget">'));
    assert.match(table, />-12\.5<\/td>/, "J per step shown in mJ");
    assert.match(table, />40<\/td>/, "budget steps");
  });

  await t.step("scene matrix colours problems", () => {
    const html = renderReport([{ label: "x", records: goodSuite() }], { cdn: true });
    const matrix = html.slice(html.indexOf('<table class="matrix">'));
    assert.match(
      matrix,
      /<td class="cell bad"><div class="status ok">ok<\/div><div><span class="k">pass-through<\/span> <span class="v bad">5<\/span>/,
    );
    assert.match(matrix, /<td class="cell ok">/);
  });

  await t.step("Table I: ns per particle-step; phase shares of the step", () => {
    const html = renderReport([{ label: "x", records: [fakeRecord()] }], { cdn: true });
    const table = html.slice(html.indexOf('<table class="table-one">'));
    assert.match(table, /<th class="num"[^>]*>ns\/p·step<\/th><th/);
    assert.match(table, /<th class="num"[^>]*>GPU MiB<\/th><th[^>]*>contacts dropped<\/th><\/tr>/);
    // total 9.7 ms over 256 + 400 particles: 14,787 ns; a record without `gpu`: dashes
    assert.match(table, /<th[^>]*>ns\/p·step<\/th><th[^>]*>host wall ms<\/th>/);
    // no wall clock in the record (before it was measured): a dash
    assert.match(table, /<td class="num">14800<\/td>(<td class="num muted">–<\/td>){6}<\/tr>/);
    const walled = fakeRecord();
    walled.timings!.wall = { steps: 100, msPerStep: 12.5 };
    const w = renderReport([{ label: "x", records: [walled] }], { cdn: true });
    assert.match(w, /<td class="num">14800<\/td><td class="num">12\.5<\/td>/);
    assert.match(table, /<th[^>]*>host wall ms<\/th><th[^>]*>host encode ms<\/th>/);
    const costed = fakeRecord({
      gpu: {
        dispatchesPerStep: 172,
        dispatchesByPhase: {},
        peakBufferBytes: 3 * 2 ** 20,
        stage2Runs: 554,
        steps: 600,
        contactsDropped: 12,
        hostMsPerStep: 0.75,
        stepsPerSubmit: 8,
        indirectPerStep: 30,
      },
    });
    const costTable = renderReport([{ label: "x", records: [costed] }], { cdn: true });
    assert.match(
      costTable,
      /<td class="num">14800<\/td><td class="num muted">–<\/td><td class="num" title="8 steps per submit at most">0\.75<\/td><td class="num" title="30 of them indirect">172<\/td><td class="num">554 \/ 600<\/td><td class="num">3<\/td><td class="num bad">12<\/td><\/tr>/,
    );
    const shares = phaseShares(fakeRecord(), ["neighborSearch", "merging", "total"])!;
    assert.deepEqual(Object.keys(shares), ["neighborSearch", "merging"]);
    assert.ok(Math.abs(shares.neighborSearch - 3.4 / 4.6) < 1e-12);
    assert.equal(phaseShares(fakeRecord({ timings: null }), ["merging"]), null);
    const data = reportData(html);
    const chart = data.inputs[0].phaseShares;
    assert.equal(chart.chartId, "phase-share-chart-0");
    assert.deepEqual(chart.labels, ["fig4-fluid-cloth × merge-split"]);
    assert.equal(chart.phases.length, 7);
    assert.ok(Math.abs(chart.rows[0].reduce((a: number, b: number) => a + b, 0) - 1) < 1e-12);
    assert.match(html, /<canvas id="phase-share-chart-0" class="chart">/);
    // no per-phase timings (wall clock): a note instead of an empty chart
    const wall = fakeRecord();
    wall.timings = {
      ...wall.timings!,
      source: "wall-clock",
      phases: { total: wall.timings!.phases.total },
    };
    const noShares = renderReport([{ label: "x", records: [wall] }], { cdn: true });
    assert.equal(reportData(noShares).inputs[0].phaseShares, null);
    assert.match(noShares, /No case has per-phase timings/);
  });

  await t.step("scaling section: shown for a sweep, with the fitted exponent", () => {
    // dam-break-sph × merge-split at three sizes with step time ∝ N^0.8; paper failed;
    // impulse on fig4 at two sizes, unstable at the larger one (no fit)
    const sweep = [432, 3456, 27648].map((n, k) =>
      fakeRecord({
        scene: "dam-break-sph",
        handler: "merge-split",
        scale: (["tiny", "small", "medium"] as const)[k],
        particles: { solid: 0, fluid: n },
        timeScale: n ** 0.8 / 100,
      })
    );
    const records = [
      fakeRecord({
        scene: "dam-break-sph",
        scale: "paper",
        status: "failed",
        timings: null,
        particles: { solid: 0, fluid: 0 },
      }),
      ...sweep.reverse(),
      fakeRecord({ handler: "impulse", scale: "tiny" }),
      fakeRecord({ handler: "impulse", scale: "small", status: "unstable" }),
      fakeRecord({ handler: "merge-split", scale: "tiny" }),
    ];
    const series = scalingSeries(records);
    assert.deepEqual(series.map((s) => `${s.scene} × ${s.handler}`), [
      "dam-break-sph × merge-split",
      "fig4-fluid-cloth × impulse",
    ]);
    const [dam, imp] = series;
    assert.deepEqual(dam.scales.map((x) => `${x.scale}:${x.status}`), [
      "tiny:ok",
      "small:ok",
      "medium:ok",
      "paper:failed",
    ]);
    assert.deepEqual(dam.points.map((p) => p.particles), [432, 3456, 27648]);
    assert.ok(Math.abs(dam.fit!.exponent - 0.8) < 1e-9, `k = ${dam.fit!.exponent}`);
    assert.ok(
      Math.abs(dam.points[0].nsPerParticleStep - (9.7 * 432 ** 0.8 / 100) * 1e6 / 432) < 1e-6,
    );
    assert.equal(imp.points.length, 2);
    assert.equal(imp.fit, null, "one size ok: no fit");

    const html = renderReport([{ label: "sweep", records }], { cdn: true });
    assert.match(html, /<a href="#scaling">Scaling<\/a>/);
    const section = html.slice(html.indexOf('<section id="scaling">'));
    assert.match(section, /<canvas id="scaling-chart-0-0" class="chart">/);
    assert.match(section, /<canvas id="scaling-chart-0-1" class="chart">/);
    assert.match(
      section,
      /<tr><td>dam-break-sph<\/td><td>merge-split<\/td><td>tiny, small, medium, paper <span class="badge bad">failed<\/span><\/td><td class="num">432 – 27648<\/td><td class="num">0\.80<\/td><td class="num">1\.000<\/td><\/tr>/,
    );
    assert.match(
      section,
      /<td class="num">656<\/td><td class="num muted" colspan="2">fewer than 2 sizes ok<\/td>/,
    );
    const chart = reportData(html).inputs[0].scaling[0];
    assert.equal(chart.scene, "dam-break-sph");
    assert.equal(chart.series[0].label, "merge-split (k = 0.80)");
    assert.deepEqual(chart.series[0].points.map((p: { x: number }) => p.x), [432, 3456, 27648]);
    assert.equal(chart.series[0].fit.length, 2);
    // the fitted line goes through the points (exact power law)
    const fit0 = chart.series[0].fit[0], pt0 = chart.series[0].points[0];
    assert.ok(Math.abs(fit0.y / pt0.y - 1) < 1e-9);
    // the phase-share labels carry the scale
    assert.ok(
      reportData(html).inputs[0].phaseShares.labels.includes("dam-break-sph × merge-split (tiny)"),
    );

    // one scale per case: no scaling section
    const single = renderReport([{ label: "x", records: goodSuite() }], { cdn: true });
    assert.ok(!single.includes('id="scaling"'));
    assert.ok(!single.includes('href="#scaling"'));
    assert.deepEqual(reportData(single).inputs[0].scaling, []);
  });

  await t.step("comparison of two inputs shows speed-ups and config mismatches", () => {
    const a = [
      fakeRecord({ handler: "merge-split" }),
      fakeRecord({ handler: "impulse" }),
      fakeRecord({ handler: "penalty-weak" }),
    ];
    const b = [
      fakeRecord({ handler: "merge-split", timeScale: 2 }),
      fakeRecord({ handler: "impulse", timeScale: 0.5 }),
      fakeRecord({ handler: "penalty-weak", configHash: "d".repeat(64) }),
    ];
    const c = compareInputs([{ label: "A", records: a }, { label: "B", records: b }]);
    assert.equal(c.rows.length, 2);
    assert.equal(c.rows[0].medians[1]!.total, 2 * c.rows[0].medians[0]!.total!);
    assert.equal(c.mismatches.length, 1);
    assert.match(c.mismatches[0].case, /penalty-weak/);
    const html = renderReport([{ label: "A", records: a }, { label: "B", records: b }], {
      cdn: true,
    });
    // speed-ups over A with their intervals: B twice as slow on merge-split, twice as fast on impulse
    assert.match(html, /\(0\.5× \[0\.\d+, 0\.\d+\]\)/);
    assert.match(html, /\(2× \[\d\.\d+, \d\.\d+\]\)/);
    assert.match(html, /Configurations differ/);
    assert.match(html, /penalty-weak \(tiny\): configuration hash differs/);
    // the geometric mean of 0.5 and 2
    assert.match(
      html,
      /<strong>B<\/strong>: speed-up 1× over A, the geometric mean .* over 2 matched/,
    );
    assert.match(html, /id="comparison-chart"/);
  });

  await t.step("3D view: colour-by-fragment selector, fragments embedded", () => {
    const snapshots = fakeSnapshots({ n: 6, fluid: 8, frames: 4, solid: 64 });
    const records = [
      fakeRecord({ scene: "fig5-wall", handler: "merge-split", snapshots }),
      fakeRecord({ handler: "impulse", snapshots: fakeSnapshots({ n: 6, fluid: 8, frames: 2 }) }),
    ];
    const html = renderReport([{ label: "x", records }], { cdn: true });
    assert.match(
      html,
      /<select id="viewer-color"><option value="fragment">fragment<\/option><option value="body">body<\/option><\/select>/,
    );
    const json = /<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(html);
    const data = JSON.parse(json![1]);
    const frames = data.inputs[0].cases.find((c: { scene: string }) => c.scene === "fig5-wall")
      .snapshots.frames;
    assert.deepEqual(frames.map((f: { fragmentCount: number }) => f.fragmentCount), [1, 3, 4, 4]);
    assert.deepEqual(frames.map((f: { fragmentsStep: number }) => f.fragmentsStep), [
      0,
      30,
      75,
      120,
    ]);
    // Frame 1 (3 slabs of the 4×4×4 block: 32, 16, 16 particles): ids by size, 0 outside solids.
    const ids = decodeFragments(frames[1].fragments, { count: snapshots.count });
    const solidStart = 6 * 6 + 8;
    assert.ok(ids.subarray(0, solidStart).every((id) => id === 0));
    const sizes = [1, 2, 3].map((id) => ids.filter((x) => x === id).length);
    assert.deepEqual(sizes, [32, 16, 16]);
    // The case without solids has no fragments in any frame.
    const other = data.inputs[0].cases.find((c: { handler: string }) => c.handler === "impulse");
    assert.ok(other.snapshots.frames.every((f: object) => !("fragments" in f)));
  });

  await t.step("--cdn output is much smaller and references the CDN", () => {
    // a run of one scene: the libraries, not the records, make most of the inline page
    const records = goodSuite().filter((r) => r.scene === "fig4-fluid-cloth");
    const inline = renderReport([{ label: "x", records }]);
    const cdn = renderReport([{ label: "x", records }], { cdn: true });
    const lib = vendorLibraries();
    // the difference is the inlined libraries (three.js and chart.js: about a megabyte)
    const libraries = lib.chartJs.umd.length + lib.three.core.length + lib.three.module.length;
    assert.ok(
      inline.length - cdn.length >= 0.95 * libraries,
      `${cdn.length} vs ${inline.length}, libraries ${libraries}`,
    );
    assert.ok(cdn.length * 3 < inline.length, `${cdn.length} vs ${inline.length}`);
    assert.ok(cdn.includes(`https://esm.sh/three@${lib.three.version}`));
    assert.ok(
      cdn.includes(
        `https://cdn.jsdelivr.net/npm/chart.js@${lib.chartJs.version}/dist/chart.umd.min.js`,
      ),
    );
    assert.ok(!inline.includes("https://esm.sh/"));
    assert.ok(inline.includes(lib.chartJs.umd.slice(0, 200)));
  });

  await t.step("export writes parseable PLY and VTK with the right point counts", async () => {
    const dir = await Deno.makeTempDir({ prefix: "mergesplit-export-" });
    try {
      const snapshots = fakeSnapshots({ n: 10, fluid: 50, frames: 3 });
      const records = [fakeRecord({ scene: "a/b", snapshots }), fakeRecord({ handler: "x" })];
      const ply = exportSnapshots(records, { format: "ply", dir: join(dir, "ply") });
      assert.equal(ply.cases, 1);
      assert.equal(ply.files.length, 3);
      for (const file of ply.files) {
        const lines = Deno.readTextFileSync(file).trimEnd().split("\n");
        assert.equal(lines[0], "ply");
        assert.ok(lines.includes("element vertex 150"));
        assert.ok(lines.includes("property uchar body"));
        const data = lines.slice(lines.indexOf("end_header") + 1);
        assert.equal(data.length, 150);
        const rows = data.map((l) => l.split(" ").map(Number));
        assert.ok(rows.every((r) => r.length === 7 && r.every(Number.isFinite)));
        assert.equal(rows.filter((r) => r[6] === 1).length, 50);
      }
      // The first cloth particle of the first frame sits at (-0.3, 0, -0.3).
      const first = Deno.readTextFileSync(ply.files[0]).split("end_header\n")[1].split(" ");
      assert.ok(Math.abs(Number(first[0]) + 0.3) < 1e-4 && Math.abs(Number(first[2]) + 0.3) < 1e-4);
      assert.ok(!Deno.readTextFileSync(ply.files[0]).includes("fragment"));
      const vtk = exportSnapshots(records, { format: "vtk", dir: join(dir, "vtk") });
      assert.equal(vtk.files.length, 3);
      const lines = Deno.readTextFileSync(vtk.files[2]).trimEnd().split("\n");
      assert.equal(lines[0], "# vtk DataFile Version 3.0");
      assert.equal(lines[2], "ASCII");
      assert.equal(lines[3], "DATASET POLYDATA");
      assert.equal(lines[4], "POINTS 150 float");
      assert.equal(lines[5 + 150], "VERTICES 150 300");
      assert.equal(lines[6 + 2 * 150], "POINT_DATA 150");
      assert.equal(lines[7 + 2 * 150], "SCALARS body int 1");
      const scalars = lines.slice(9 + 2 * 150);
      assert.equal(scalars.length, 150);
      assert.equal(scalars.filter((s) => s === "1").length, 50);
      assert.match(vtk.files[0], /a_b__merge-split__tiny[\\/]frame_0000\.vtk$/);
      assert.ok(!Deno.readTextFileSync(vtk.files[0]).includes("fragment"));

      // With fragments: a per-vertex fragment id (0 outside solids, 1 the largest fragment).
      const broken = [
        fakeRecord({ snapshots: fakeSnapshots({ n: 4, fluid: 8, frames: 3, solid: 27 }) }),
      ];
      const fply = exportSnapshots(broken, { format: "ply", dir: join(dir, "fply") });
      const plyLines = Deno.readTextFileSync(fply.files[2]).trimEnd().split("\n");
      assert.ok(plyLines.includes("property uint fragment"));
      assert.match(plyLines[2], /3 fragments/);
      const rows = plyLines.slice(plyLines.indexOf("end_header") + 1).map((l) => l.split(" "));
      assert.equal(rows.length, 16 + 8 + 27);
      assert.ok(rows.every((r) => r.length === 8));
      assert.deepEqual(rows.slice(0, 24).map((r) => r[7]), Array(24).fill("0"));
      assert.deepEqual([...new Set(rows.slice(24).map((r) => r[7]))].sort(), ["1", "2", "3"]);
      const fvtk = exportSnapshots(broken, { format: "vtk", dir: join(dir, "fvtk") });
      const vtkLines = Deno.readTextFileSync(fvtk.files[2]).trimEnd().split("\n");
      const at = vtkLines.indexOf("SCALARS fragment int 1");
      assert.equal(at, 9 + 3 * 51);
      assert.equal(vtkLines[at + 1], "LOOKUP_TABLE default");
      assert.deepEqual(vtkLines.slice(at + 2), rows.map((r) => r[7]));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  await t.step("torn and malformed lines are skipped with a warning; the rest is reported", () => {
    const dir = Deno.makeTempDirSync({ prefix: "mergesplit-report-torn-" });
    const errors: string[] = [];
    const { error, log } = console;
    console.error = (...a: unknown[]) => errors.push(a.join(" "));
    console.log = () => {};
    try {
      const file = join(dir, "results.jsonl");
      const good = goodSuite();
      const bad = (fields: Record<string, unknown>) =>
        JSON.stringify({ ...fakeRecord({ scene: "fig5-wall", handler: "impulse" }), ...fields });
      Deno.writeTextFileSync(
        file,
        [
          ...good.slice(0, 3).map((r) => recordLine(r).trim()),
          bad({ timings: "garbage" }),
          bad({ metrics: 5 }),
          bad({ particles: null }),
          ...good.slice(3).map((r) => recordLine(r).trim()),
          recordLine(good[0]).slice(0, 100),
        ].join("\n"),
      );
      const n = good.length + 4;
      const out = join(dir, "report.html");
      assert.equal(main([file, "--out", out, "--cdn", "--format", "csv"]), 0, errors.join("\n"));
      assert.deepEqual(errors, [
        `mergesplit report: ${file} line 4 skipped: field "timings" must be an object or null, got the string "garbage"`,
        `mergesplit report: ${file} line 5 skipped: field "metrics" must be an object or null, got the number 5`,
        `mergesplit report: ${file} line 6 skipped: field "particles" must be an object, got null`,
        `mergesplit report: ${file} line ${n} skipped: not JSON (a torn write?)`,
      ]);
      const html = Deno.readTextFileSync(out);
      assert.match(html, /: 4 line\(s\) of the results file skipped<\/strong>/);
      assert.ok(html.includes(`${file} line ${n} skipped: not JSON (a torn write?)`));
      assert.equal(reportData(html).inputs[0].cases.length, latestCases(good).length);
      // the strict reader still refuses the file, naming the first bad line
      assert.throws(
        () => parseResults(Deno.readTextFileSync(file)),
        /results line 4: field "timings"/,
      );
    } finally {
      console.error = error;
      console.log = log;
      Deno.removeSync(dir, { recursive: true });
    }
  });

  await t.step("writeReport and the command line", async () => {
    const dir = await Deno.makeTempDir({ prefix: "mergesplit-report-" });
    const errors: string[] = [];
    const logs: string[] = [];
    const { error, log } = console;
    console.error = (...a: unknown[]) => errors.push(a.join(" "));
    console.log = (...a: unknown[]) => logs.push(a.join(" "));
    try {
      const file = join(dir, "run1", "results.jsonl");
      Deno.mkdirSync(join(dir, "run1"));
      Deno.writeTextFileSync(file, goodSuite().map(recordLine).join(""));
      const { path, bytes } = writeReport([file], { cdn: true });
      assert.equal(path, join(dir, "run1", "report.html"));
      assert.equal(Deno.statSync(path).size, bytes);
      assert.match(Deno.readTextFileSync(path), /<h3>run1<\/h3>/);
      assert.equal(parseResults(Deno.readTextFileSync(file)).length, goodSuite().length);

      assert.equal(main([file, "--bogus"]), 2);
      assert.match(
        errors.join("\n"),
        /--bogus.*valid options: --out, --format, --cdn, --merge, --title, --label, --export, --export-dir, --fail-on-regression, --help/s,
      );
      assert.equal(main([]), 2);
      assert.equal(main([file, "--export", "obj"]), 2);
      assert.equal(main([join(dir, "missing.jsonl")]), 2);
      assert.match(errors.join("\n"), /cannot read results file .*missing\.jsonl/);
      const out = join(dir, "r.html");
      assert.equal(main([file, "--out", out, "--cdn"]), 0);
      assert.ok(Deno.statSync(out).size > 1000);
      // No snapshots: the report is written, the export says why nothing was exported.
      assert.equal(main([file, "--out", out, "--cdn", "--export", "ply"]), 1);
      assert.match(errors.at(-1)!, /no case has snapshots/);

      // --format: the tables beside the HTML (--out's folder), linked from it
      const pub = join(dir, "pub", "r.html");
      assert.equal(main([file, "--out", pub, "--cdn", "--format", "md,csv", "--format", "tex"]), 0);
      // goodSuite has fig6-wall under merge-split: Table I beside the paper's too; its brittle
      // walls and fluids: the fidelity tables
      const names = ["table1", "table1-paper", "claims", "matrix", "fracture", "fluid"].flatMap((
        t,
      ) => ["md", "csv", "tex"].map((f) => `${t}.${f}`));
      assert.deepEqual(
        [...Deno.readDirSync(join(dir, "pub"))].map((e) => e.name).sort(),
        [...names, "r.html"].sort(),
      );
      assert.match(Deno.readTextFileSync(join(dir, "pub", "table1.csv")), /^scene,scale,handler,/);
      const html = Deno.readTextFileSync(pub);
      assert.match(
        html,
        /<section id="table-1"><h2>[^<]*<\/h2><p class="muted published">Also as <a href="table1\.md">Markdown<\/a>, <a href="table1\.csv">CSV<\/a>, <a href="table1\.tex">LaTeX<\/a>\.<\/p>/,
      );
      assert.match(html, /<a href="claims\.tex">LaTeX<\/a>/);
      assert.match(html, /<a href="matrix\.md">Markdown<\/a>/);
      assert.match(
        html,
        /<section id="fidelity"><h2>[^<]*<\/h2><p class="muted">[^]*?<a href="fracture\.md">Markdown<\/a>[^]*?<a href="fluid\.tex">LaTeX<\/a>/,
      );
      assert.ok(!Deno.readTextFileSync(out).includes("Also as"), "no links without --format");
      // beside the first results file by default; several files add the comparison
      const file2 = join(dir, "run2", "results.jsonl");
      Deno.mkdirSync(join(dir, "run2"));
      Deno.writeTextFileSync(file2, goodSuite().map(recordLine).join(""));
      assert.equal(main([file, file2, "--cdn", "--format", "csv"]), 0);
      for (const t of ["table1", "claims", "matrix", "comparison"]) {
        assert.ok(Deno.statSync(join(dir, "run1", `${t}.csv`)).isFile, t);
      }
      assert.match(
        Deno.readTextFileSync(join(dir, "run1", "comparison.html")),
        /<a href="comparison\.csv">CSV<\/a>/,
      );
      // a format that does not exist: exit 2, the valid ones named, nothing written
      errors.length = 0;
      assert.equal(main([file, "--out", join(dir, "pdf", "r.html"), "--format", "pdf"]), 2);
      assert.match(errors[0], /--format pdf: not a format; valid formats: md, csv, tex/);
      assert.throws(() => Deno.statSync(join(dir, "pdf")), "nothing written");

      // an output path that cannot be written: exit 2, the path and the system's error
      for (const bad of ["/proc/mergesplit-test/r.html", join(file, "r.html")]) {
        errors.length = 0;
        assert.equal(main([file, "--out", bad, "--cdn", "--format", "md"]), 2, bad);
        assert.equal(errors.length, 1, `one line: ${errors.join("\n")}`);
        assert.match(errors[0], /^mergesplit report: cannot write the report's folder /);
        assert.ok(errors[0].includes(dirname(bad)), errors[0]);
        assert.match(errors[0], /os error \d+/);
        assert.ok(!/\n\s+at /.test(errors.join("\n")), "no stack trace");
      }
    } finally {
      console.error = error;
      console.log = log;
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("claims over several seeds: reproduced only when reproduced at every seed", () => {
  const statusOf = (records: CaseRecord[], id: string) =>
    evaluateClaims(records).find((c) => c.claim.id === id)!.result;
  const at = (seed: number) => goodSuite().map((r) => ({ ...r, seed }));
  const three = [...at(2021), ...at(7), ...at(99)];
  const all = Object.fromEntries(evaluateClaims(three).map((c) => [c.claim.id, c.result.status]));
  assert.deepEqual(all, statuses(goodSuite()), "the same outcome as one seed when all agree");
  const u = statusOf(three, "u");
  assert.match(u.measured, /^seed 2021 \(reproduced\): .* \| seed 7 \(reproduced\): .* \| seed 99/);
  // the wall stays whole at seed 7 only: not reproduced
  const whole = three.map((r) =>
    r.seed === 7 && r.scene === "fig8-dam-break-wall"
      ? {
        ...r,
        metrics: {
          ...r.metrics!,
          summary: { ...r.metrics!.summary, significantFragmentsBeforeBlowUp: 1 },
        },
      }
      : r
  );
  assert.equal(statusOf(whole, "u").status, "not reproduced");
  assert.match(statusOf(whole, "u").measured, /seed 7 \(not reproduced\)/);
  // seed 99's case failed: not run (it may hold there or not)
  const failed = three.map((r) =>
    r.seed === 99 && r.scene === "fig8-dam-break-wall"
      ? { ...r, status: "failed" as const, metrics: null }
      : r
  );
  assert.equal(statusOf(failed, "u").status, "not run");
  // a scene file's case at its own seed does not make a seed of its own
  const withFile = [...at(2021), { ...at(5)[0], sceneSource: "my_scene.json" }];
  assert.deepEqual(
    Object.fromEntries(evaluateClaims(withFile).map((c) => [c.claim.id, c.result.status])),
    statuses(at(2021)),
  );
});
