/**
 * The figures of the hardware table (`docs/hardware.md`): per figure of the hardware suite
 * (`./hardware_suite.ts`), the particle-steps per second its case reached, the throughput figure
 * that compares machines across scene sizes (every particle of the case, solid and fluid, over the
 * median GPU time of a step; the inverse of the bench's ns per particle-step).
 *
 * @module
 */
import type { CaseRecord } from "../result.ts";
import { nsPerParticleStep } from "./ns_per_particle_step.ts";
import { HARDWARE_FIGURES, type HardwareFigure } from "./hardware_suite.ts";

/** Particle-steps per second of a case: the inverse of its ns per particle-step; null without. */
export function particleStepsPerSecond(
  record: Pick<CaseRecord, "timings" | "particles">,
): number | null {
  const ns = nsPerParticleStep(
    record.timings?.phases.total?.median,
    record.particles.solid + record.particles.fluid,
  );
  return ns === null ? null : 1e9 / ns;
}

/** Per figure id, the particle-steps per second of its case among `records` (null: no such case). */
export function figureRates(
  records: readonly CaseRecord[],
): Record<HardwareFigure["id"], number | null> {
  const rate = (f: HardwareFigure) => {
    const r = records.find((r) => r.scene === f.scene && r.handler === f.handler);
    return r ? particleStepsPerSecond(r) : null;
  };
  return Object.fromEntries(HARDWARE_FIGURES.map((f) => [f.id, rate(f)])) as Record<
    HardwareFigure["id"],
    number | null
  >;
}
