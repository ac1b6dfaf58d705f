/**
 * The claims of the validation of the fluids against experiment and physics (Martin & Moyce 1952): each quotes its sentence, declares the cases it needs and reads them
 * (`reports/claims/claims.ts` joins every figure's).
 *
 * @module
 */
import {
  COLUMN_HEIGHT_ERROR_MAX,
  DAM_BREAK_SCENES,
  FLIP_VOLUME_DRIFT_MAX,
  MERGE_SPLIT,
  SPH_DENSITY_ERROR_MAX,
  SURGE_FRONT_ERROR_MAX,
} from "../claim_thresholds.ts";
import { fluidWithin, followsExperiment } from "../claim_readers.ts";
import { COLUMN_HEIGHT_MIN_RADII } from "../../../core/martin_moyce.ts";
import type { Claim } from "../claim.ts";

/** The claims of the validation of the fluids against experiment and physics (Martin & Moyce 1952). */
export const VALIDATION_CLAIMS: readonly Claim[] = [
  {
    id: "w",
    text: `The dam breaks (SPH and FLIP) follow Martin & Moyce's surge front (n² = 2) within ${
      100 * SURGE_FRONT_ERROR_MAX
    } % at every point of the experiment inside the run`,
    paper: "validation (Martin & Moyce 1952)",
    quote: null, // validates the harness, not a sentence of the paper
    needs: [...DAM_BREAK_SCENES.map((scene) => ({ scene, handlers: [MERGE_SPLIT] }))],
    evaluate: followsExperiment("surgeFrontError", "front", SURGE_FRONT_ERROR_MAX),
  },
  {
    id: "w2",
    text:
      `The dam breaks (SPH and FLIP) follow Martin & Moyce's residual column height (n² = 2) within ${
        100 * COLUMN_HEIGHT_ERROR_MAX
      } % at every point of the experiment inside the run where the column is at least ${COLUMN_HEIGHT_MIN_RADII} particle radii high`,
    paper: "validation (Martin & Moyce 1952)",
    quote: null, // validates the harness, not a sentence of the paper
    needs: [...DAM_BREAK_SCENES.map((scene) => ({ scene, handlers: [MERGE_SPLIT] }))],
    evaluate: followsExperiment("columnHeightError", "column", COLUMN_HEIGHT_ERROR_MAX),
  },
  {
    id: "x",
    text: `The SPH fluid stays near-incompressible: its worst particle is compressed at most ${
      100 * SPH_DENSITY_ERROR_MAX
    } % in every SPH case run (merge-split)`,
    paper: "validation",
    quote: null, // validates the harness, not a sentence of the paper
    needs: [{ scene: "dam-break-sph", handlers: ["merge-split"] }],
    evaluate: fluidWithin({
      flip: false,
      field: "densityErrorMax",
      limit: SPH_DENSITY_ERROR_MAX,
    }),
  },
  {
    id: "x2",
    text: `The FLIP fluid keeps its volume within ${
      100 * FLIP_VOLUME_DRIFT_MAX
    } % to the end of every FLIP case run (merge-split)`,
    paper: "validation",
    quote: null, // validates the harness, not a sentence of the paper
    needs: [{ scene: "dam-break-flip", handlers: ["merge-split"] }],
    evaluate: fluidWithin({ flip: true, field: "volumeChange", limit: FLIP_VOLUME_DRIFT_MAX }),
  },
];
