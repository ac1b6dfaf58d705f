/**
 * Penalty collision force on WebGPU: the distance-based penalty baseline of paper §6.1 (refs [6]
 * Terzopoulos et al. 1989, [8] Tonnesen 1991). Formula and f64 reference: `penaltyForces` in
 * `core/baselines.ts`.
 *
 * For every partner j in particle i's contact slot (the `contacts` / `contactCount` output of
 * `gpu/state/collision_detection.ts`: Rule 1, Eq. 21, and not excluded), with d = |x_i − x_j|,
 * n̂ = (x_i − x_j)/d, δ = r_i + r_j − d and v_n = (v_i − v_j) · n̂:
 *
 *   f_i += max(k δ − c v_n, 0) · n̂          (nothing for d = 0)
 *
 * Rule 1 is re-tested on the bound positions (nothing for d ≥ r_i + r_j), so a contact list
 * detected on older positions never pushes particles that have separated since.
 *
 * k is the stiffness (N/m), c the optional normal damping (N·s/m, default 0); the clamp keeps the
 * dashpot from pulling separating particles together. The pair force is computed identically on
 * both sides, so f_ji = −f_ij bit for bit and Σ f_i = 0 up to summation rounding, as long as no
 * contact slot overflowed (an overflowed slot drops one side of a pair).
 *
 * The force is **accumulated**: `force[i].xyz += f_i` (w kept), so it can be added onto a
 * system's force buffer before the per-DOF gather; clear the buffer first to get it alone.
 *
 * ```ts
 * const penalty = new PenaltyForce(device, { capacity, maxPerParticle: detect.maxPerParticle,
 *   stiffness: 1e4 });
 * const bindings = penalty.bind({ pos, vel, contacts, contactCount, force });
 * penalty.setCount(n);
 * penalty.encode(encoder, bindings);   // after the detector's encode
 * ```
 *
 * @module
 */

import {
  checkNonNegative,
  CountedPass,
  type CountedPassOptions,
  type CountedPassSpec,
  type ParticlePassBindings,
} from "../../runtime/particle_pass.ts";
import { defineStruct, type StructLayout } from "../../runtime/struct_layout.ts";
import penaltyForceWgsl from "./penalty_force.wgsl" with { type: "text" };

/** WGSL source of the kernel (`gpu/handlers/penalty/penalty_force.wgsl`). */
export const PENALTY_FORCE_WGSL: string = penaltyForceWgsl;

/** Uniform `PenaltyParams` of `penalty_force.wgsl`. */
export const PENALTY_PARAMS_STRUCT: StructLayout = defineStruct("PenaltyParams", [
  ["count", "u32"],
  ["stiffness", "f32"],
  ["damping", "f32"],
]);

/** Material parameters of {@link PenaltyForce}. */
export interface PenaltyForceParams {
  /** Stiffness k (N/m, ≥ 0) on the penetration depth r_i + r_j − d. */
  stiffness: number;
  /** Normal damping c (N·s/m, ≥ 0); default 0. */
  damping?: number;
}

/** Options of {@link PenaltyForce} (default label "penalty force"). */
export interface PenaltyForceOptions extends CountedPassOptions, PenaltyForceParams {}

/** Buffers of {@link PenaltyForce.bind} (all `STORAGE`; N = capacity, K = maxPerParticle). */
export interface PenaltyForceBuffers {
  /** `array<vec4f>`, N: xyz member position, w collision radius. */
  pos: GPUBuffer;
  /** `array<vec4f>`, N: xyz member velocity (damping term). */
  vel: GPUBuffer;
  /** `array<u32>`, N·K: contact slots of `CollisionDetection`. */
  contacts: GPUBuffer;
  /** `array<u32>`, N: contact counts of `CollisionDetection`. */
  contactCount: GPUBuffer;
  /** `array<vec4f>`, N: forces, read and accumulated into (xyz). */
  force: GPUBuffer;
}

/** Bind group of one set of {@link PenaltyForceBuffers}, from {@link PenaltyForce.bind}. */
export type PenaltyForceBindings = ParticlePassBindings<PenaltyForceBuffers>;

const OWNER = "PenaltyForce";

const SPEC: CountedPassSpec<PenaltyForceBuffers, PenaltyForceParams> = {
  owner: OWNER,
  label: "penalty force",
  code: PENALTY_FORCE_WGSL,
  entryPoint: "penalty_force",
  contacts: true,
  paramsSize: PENALTY_PARAMS_STRUCT.size,
  buffers: {
    pos: [1, 16, "N"],
    vel: [2, 16, "N"],
    contacts: [3, 4, "NK"],
    contactCount: [4, 4, "N"],
    force: [5, 16, "N"],
  },
  output: "force",
  checkParams: (p, name) =>
    Object.freeze({
      stiffness: checkNonNegative(OWNER, `${name}.stiffness`, p.stiffness),
      damping: checkNonNegative(OWNER, `${name}.damping`, p.damping ?? 0),
    }),
  pack: (count, params) => PENALTY_PARAMS_STRUCT.pack({ count, ...params }),
};

/**
 * Penalty force pass (see the module comment), adding the forces into `force`. Bindings (group 0
 * of `penalty_force.wgsl`): 0 `params` uniform; 1 `pos`, 2 `vel`, 3 `contacts`, 4 `contactCount`
 * (read-only storage); 5 `force` (storage, accumulated).
 */
export class PenaltyForce extends CountedPass<PenaltyForceBuffers, PenaltyForceParams> {
  /** Creates the pipeline and the uniform (see {@link PenaltyForceOptions}). */
  constructor(device: GPUDevice, options: PenaltyForceOptions) {
    super(device, SPEC, options);
  }

  /** The current stiffness and damping (damping 0 unless given). */
  override get params(): Readonly<Required<PenaltyForceParams>> {
    return super.params as Required<PenaltyForceParams>;
  }
}
