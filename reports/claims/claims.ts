/**
 * The paper's findings that the suite can test, as data: each claim (one object in its figure's
 * file, `figures/`) names its figure, quotes its sentence, declares the cases it needs, reads the
 * records and says whether the measured values reproduce it. Thresholds are the named constants
 * of `claim_thresholds.ts`, fixed before running with the reason for each in `CLAIM_THRESHOLDS`
 * (and the table of docs/claims.md, which a test keeps equal to it). A claim about leaks reads only
 * cases that finished `ok` and did not explode; one about what strong forces do reads unstable
 * runs too, before their blow-up; one whose cases are absent, failed or lack the metric it reads
 * is "not run", with the reason. Claims about stability count instability as an outcome.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import { fromCatalog } from "./case_status.ts";
import { TIMING_CLAIMS } from "./timing_claims.ts";
import { PAPER_SETUP, setupChanges, SETUPS } from "../../core/setups.ts";
import { caseGroupKey } from "../case_key.ts";
import { tooCoarse } from "./claim_resolution.ts";

export {
  caseWorks,
  ENERGY_GAIN_MAX,
  fromCatalog,
  LEAK_FRACTION_MIN,
  SPEED_SPIKE_RATIO,
  unstable,
  usable,
} from "./case_status.ts";

export type { Claim, ClaimResult, ClaimStatus } from "./claim.ts";
import type { Claim, ClaimResult, ClaimStatus } from "./claim.ts";
import { FIG3_CLAIMS } from "./figures/fig3_claims.ts";
import { FIG4_CLAIMS } from "./figures/fig4_claims.ts";
import { FIG5_CLAIMS } from "./figures/fig5_claims.ts";
import { FIG7_CLAIMS } from "./figures/fig7_claims.ts";
import { FIG8_CLAIMS } from "./figures/fig8_claims.ts";
import { FIG9_CLAIMS } from "./figures/fig9_claims.ts";
import { FIG10_CLAIMS } from "./figures/fig10_claims.ts";
import { FIG11_CLAIMS } from "./figures/fig11_claims.ts";
import { METHOD_CLAIMS } from "./figures/method_claims.ts";
import { VALIDATION_CLAIMS } from "./figures/validation_claims.ts";
export * from "./claim_thresholds.ts";
export { type FractureReading, fractureReading, twoScenes } from "./claim_readers.ts";

/**
 * Every claim, figure by figure (`figures/`), then the method's own sentences, the validation of
 * the fluids and the timing claims of §6.3.
 */
export const CLAIMS: readonly Claim[] = [
  ...FIG3_CLAIMS,
  ...FIG4_CLAIMS,
  ...FIG5_CLAIMS,
  ...FIG7_CLAIMS,
  ...FIG8_CLAIMS,
  ...FIG9_CLAIMS,
  ...FIG10_CLAIMS,
  ...FIG11_CLAIMS,
  ...METHOD_CLAIMS,
  ...VALIDATION_CLAIMS,
  ...TIMING_CLAIMS,
];

/**
 * The records of one setup (`core/setups.ts`): those that ran under `setup`; for a variant also the
 * paper's records of the cases it does not change (`setupChanges`: the bench does not run those, the
 * paper's record is theirs bit for bit) where it has none of its own (a record without `systems`
 * counts as having every system the variant sets); when no record names a setup (records made
 * before setups), all of them.
 */
export function underSetup(records: readonly CaseRecord[], setup: string): CaseRecord[] {
  if (!records.some((r) => r.setup !== undefined)) return [...records];
  const own = records.filter((r) => r.setup === setup);
  if (setup === PAPER_SETUP.id) return own;
  const ran = new Set(own.map(sameCase));
  // a record made before its systems were kept counts as having every system the variant sets
  const assumed = Object.keys(SETUPS.get(setup)?.systemParams ?? {});
  const unchanged = records.filter((r) =>
    r.setup === PAPER_SETUP.id &&
    !setupChanges(setup, r.handler, r.systems ?? assumed, r.collisionsPossible ?? true) &&
    !ran.has(sameCase(r))
  );
  return [...own, ...unchanged];
}

/** A case whatever the setup: scene, handler, scale, sweep, seed, steps and dt. */
function sameCase(r: CaseRecord): string {
  return `${caseGroupKey(r)}|seed=${r.seed}|steps=${r.steps}|dt=${r.dt}`;
}

/**
 * A claim on the records of one scale and seed: "too coarse" where its threshold is too few
 * particles of its body there (`claim_resolution.ts`), else its evaluation, which becomes "premise
 * not reached" where the run did not reach what the sentence takes for granted (a "not run" stays).
 * Reads the catalogue's records alone ({@link fromCatalog}): a scene file's case with a catalogue
 * id is never read as the paper's scene.
 */
export function judgeClaim(claim: Claim, all: readonly CaseRecord[]): ClaimResult {
  const records = all.filter(fromCatalog);
  const coarse = tooCoarse(claim, records);
  if (coarse) return coarse;
  const result = claim.evaluate(records);
  const missed = result.status === "not run" ? null : claim.premise?.check(records);
  return missed
    ? {
      status: "premise not reached",
      measured: `premise not reached: ${missed}; ${result.measured}`,
    }
    : result;
}

/**
 * The catalogue records of one setup split by seed (the named suites run the scene's, 7 and 99:
 * `bench/cases/suites.ts`); one group when there is at most one seed. A scene file's cases are
 * left out ({@link fromCatalog}): the claims judge the paper's scenes as the harness builds them.
 */
export function recordsBySeed(
  all: readonly CaseRecord[],
  options: { setup?: string } = {},
): { seed: number | null; records: CaseRecord[] }[] {
  const records = underSetup(all.filter(fromCatalog), options.setup ?? PAPER_SETUP.id);
  const seeds = [...new Set(records.map((r) => r.seed))];
  if (seeds.length <= 1) return [{ seed: seeds[0] ?? null, records }];
  return seeds.map((seed) => ({ seed, records: records.filter((r) => r.seed === seed) }));
}

/**
 * Evaluates every claim on the records of one scale, read from the paper's setup (`options.setup`
 * for another: the ablation table's columns), seed by seed ({@link recordsBySeed},
 * {@link judgeClaim}): a claim is reproduced only when it is reproduced at every seed, not
 * reproduced when it fails at any, premise not reached or too coarse when one seed says so and none
 * fails, and not run otherwise; `measured` then gives each seed's outcome.
 */
export function evaluateClaims(
  all: readonly CaseRecord[],
  options: { claims?: readonly Claim[]; setup?: string } = {},
): { claim: Claim; result: ClaimResult }[] {
  const claims = options.claims ?? CLAIMS;
  const groups = recordsBySeed(all, options);
  if (groups.length === 1) {
    return claims.map((claim) => ({ claim, result: judgeClaim(claim, groups[0].records) }));
  }
  return claims.map((claim) => {
    const results = groups.map((g) => judgeClaim(claim, g.records));
    const measured = results.map((r, k) => `seed ${groups[k].seed} (${r.status}): ${r.measured}`)
      .join(" | ");
    return { claim, result: { status: acrossSeeds(results.map((r) => r.status)), measured } };
  });
}

/** One status for a claim judged at several seeds ({@link evaluateClaims}). */
function acrossSeeds(statuses: readonly ClaimStatus[]): ClaimStatus {
  if (statuses.includes("not reproduced")) return "not reproduced";
  if (statuses.every((s) => s === "reproduced")) return "reproduced";
  if (statuses.includes("premise not reached")) return "premise not reached";
  if (statuses.includes("too coarse")) return "too coarse";
  return "not run";
}
