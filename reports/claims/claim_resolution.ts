/**
 * Whether a claim's thresholds can be read at the scale of its records: a threshold that is a share
 * of a body ({@link ClaimResolution}) must amount to at least {@link RESOLUTION_MIN_PARTICLES}
 * particles of it, or the claim is "too coarse" there rather than judged. "A fragment of at least
 * 1 %" of a 52-particle bowl is any particle: a bowl turned to dust passes it.
 *
 * @module
 */
import type { CaseRecord } from "../../core/result.ts";
import type { Claim, ClaimResolution, ClaimResult } from "./claim.ts";
import { RESOLUTION_MIN_PARTICLES } from "./claim_thresholds.ts";
import { formatNumber } from "../page/format_number.ts";

/**
 * The particles of `body` in a record: the count its summary records (`crossingParticles`, …), or
 * for older records what their fields give: the breakable solids from the largest fragment and its
 * share, the crossing particles from a leak and its fraction, else the fluid's (where a fluid is
 * what crosses the sheet; other crossing bodies left out, so the count errs low); null where
 * nothing gives it.
 */
export function bodyParticles(r: CaseRecord, body: ClaimResolution["body"]): number | null {
  const s = r.metrics?.summary;
  const recorded = s?.[`${body}Particles`];
  if (typeof recorded === "number") return recorded;
  const num = (k: string) => (typeof s?.[k] === "number" ? s[k] as number : 0);
  if (body === "breakable" && num("largestFragmentShare") > 0) {
    return Math.round(num("largestFragment") / num("largestFragmentShare"));
  }
  if (body === "crossing" && num("passThroughFraction") > 0) {
    return Math.round(num("passThroughMax") / num("passThroughFraction"));
  }
  if ((body === "crossing" || body === "fluid") && r.particles.fluid > 0) return r.particles.fluid;
  return null;
}

/**
 * "too coarse" where `claim`'s threshold is fewer than {@link RESOLUTION_MIN_PARTICLES} particles
 * of its body in any record of its scenes (the smallest body counted), else null: the claim is
 * judged. A claim without a resolution, or records that give no count, are judged.
 */
export function tooCoarse(claim: Claim, records: readonly CaseRecord[]): ClaimResult | null {
  const res = claim.resolution;
  if (!res) return null;
  let fewest: { n: number; r: CaseRecord } | null = null;
  for (const r of records) {
    if (!res.scenes.includes(r.scene)) continue;
    const n = bodyParticles(r, res.body);
    if (n !== null && (!fewest || n < fewest.n)) fewest = { n, r };
  }
  if (!fewest || fewest.n * res.share >= RESOLUTION_MIN_PARTICLES) return null;
  const at = fewest.n * res.share;
  return {
    status: "too coarse",
    measured: `${res.threshold} is ${formatNumber(at)} particle${at === 1 ? "" : "s"} (${
      formatNumber(res.share)
    } of ${fewest.n}) in ${fewest.r.scene} at ${fewest.r.scale}: fewer than ${RESOLUTION_MIN_PARTICLES}, too coarse at this scale`,
  };
}
