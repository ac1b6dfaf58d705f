/**
 * The parameters of the `merge-split` handler (Truong et al. 2021), defined once: α and β of
 * Eq. 20 and the meta-particle size limits of §5.2, with the paper's defaults (§6: α = 1, β = 0,
 * n in [8, 64]). The GPU handler (`gpu/handlers/merge-split/merge_split_handler.ts`) declares this
 * schema as its own; the scenes (`scenes/baseline_handlers.ts`, `scenes/dam_break.ts`) and the f64
 * reference (`core/merge_split.ts`) take their defaults and ranges from it.
 *
 * @module
 */
import { paramDefaults, type ParamSchema } from "../params.ts";
import { GROUPING_METHODS } from "../grouping/index_order_grouping.ts";
import { MERGE_ORDERS } from "../merge_orders.ts";
import { paperDefault } from "../setups.ts";

/** The `merge-split` handler's parameter schema (ranges and the paper's defaults). */
export const MERGE_SPLIT_SCHEMA = {
  alpha: {
    description: "α of Eq. 20: share of the merge energy ΔE restored",
    min: 0,
    max: 1,
    // §6: "We use α = 1, β = 0, and nmin = 8, nmax = 64 in all simulations, unless otherwise specified"
    default: 1,
  },
  beta: {
    description: "β of Eq. 20: share of the coupling energy ΔĒk restored",
    min: 0,
    max: 1,
    default: 0,
  },
  nMin: {
    description: "smallest meta-particle size limit n_min (§5.2)",
    min: 2,
    integer: true,
    allowInfinity: true,
    default: 8,
  },
  nMax: {
    description: "largest meta-particle size limit n_max (§5.2)",
    min: 2,
    integer: true,
    allowInfinity: true,
    default: 64,
  },
  grouping: {
    description: "grouping of colliding pairs (§5.2): index-order, the paper's pass in " +
      "particle-index order; compact, parallel rounds of pairwise merging",
    choices: GROUPING_METHODS,
    // the paper's: index order (§5.2), as core/setups.ts's paper setup says
    default: paperDefault("handler", "merge-split", "grouping"),
  },
  mergeOrder: {
    description: "order of the recursive merges of a group (§3, §5.2): colliding-pairs, each " +
      "member in the order it joined, through the partner it collides with (n of Eq. 5 from the " +
      "two colliding particles); index-com, ascending index, n from the centre of the meta so " +
      "far. The compact grouping's groups join by rounds, not along pairs: it runs index-com",
    choices: MERGE_ORDERS,
    // the paper's: along the colliding pairs (§5.2), as core/setups.ts's paper setup says
    default: paperDefault("handler", "merge-split", "mergeOrder"),
  },
} as const satisfies ParamSchema;

/** Some of the merge-split parameters by name (the others: the schema's defaults). */
export type MergeSplitValues = Partial<Record<keyof typeof MERGE_SPLIT_SCHEMA, number>>;

/**
 * The defaults a scene writes into its `merge-split` block: α, β and the size limits, the paper's
 * values (§6). The grouping and the merge order are not the scene's: the setup a case runs under chooses it
 * (`core/setups.ts`), and the schema's default serves a case built without one.
 */
export function mergeSplitSceneDefaults(): {
  alpha: number;
  beta: number;
  nMin: number;
  nMax: number;
} {
  const { grouping: _, mergeOrder: __, ...physics } = paramDefaults(MERGE_SPLIT_SCHEMA);
  return physics;
}
