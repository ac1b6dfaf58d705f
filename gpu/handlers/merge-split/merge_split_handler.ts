/**
 * The `merge-split` handler: particle merging-and-splitting (Truong et al. 2021). Per stage it
 * groups colliding pairs into meta-particles of at most n particles (§5.2) and merges them into
 * DOFs (Eqs. 1–7); the systems integrate the DOFs; it splits them back (Eqs. 8–16, 20). Stage 2
 * of the two-stage integration (§5.1) redoes the step from the saved start-of-step state with
 * the marked pairs that approach after stage 1 merged too.
 *
 * @module
 */
import { MERGE_SPLIT_SCHEMA } from "../../../core/handler_schemas/merge_split_schema.ts";
import { ParamError } from "../../../core/params.ts";
import { assertGroupLimits } from "../../../core/grouping/grouping.ts";
import { GROUPING_METHODS } from "../../../core/grouping/index_order_grouping.ts";
import { MERGE_ORDERS } from "../../../core/merge_orders.ts";
import { storageBuffer } from "../../runtime/kernel.ts";
import type { HandlerContext, HandlerEntry } from "../handler.ts";
import { MergeSplitKernels } from "./merge_split.ts";
import { createHandlerStatistics } from "../../state/handler_statistics.ts";
import { censusWords, MERGE_SPLIT_SAMPLED, MERGE_SPLIT_STATS } from "./merge_split_stats.ts";
import { pairwiseSplits, summarizeCensus } from "../../../core/grouping/grouping_census.ts";

/** The `merge-split` handler entry. */
export const MERGE_SPLIT_HANDLER: HandlerEntry = {
  id: "merge-split",
  description: "Particle merging-and-splitting (Truong et al. 2021), two-stage integration",
  // α, β, n_min, n_max with the paper's defaults, defined once in core (the scenes use it too)
  params: MERGE_SPLIT_SCHEMA,
  checkParams(params, field) {
    try {
      assertGroupLimits(params.nMin, params.nMax, field);
    } catch (e) {
      throw new ParamError(field, (e as Error).message);
    }
  },
  create(ctx: HandlerContext) {
    const n = ctx.state.count;
    const b = ctx.state.buffers;
    const c = ctx.collisions;
    const level = storageBuffer(ctx.device, { label: "merge-split levels", size: 16 * n });
    const levelParent = storageBuffer(ctx.device, {
      label: "merge-split level parents",
      size: 16 * n,
    });
    const stats = createHandlerStatistics(ctx.device, MERGE_SPLIT_STATS, {
      label: "merge-split statistics",
      sampled: MERGE_SPLIT_SAMPLED,
    });
    const ms = new MergeSplitKernels(ctx.device, {
      grouping: GROUPING_METHODS[ctx.params.grouping],
      mergeOrder: MERGE_ORDERS[ctx.params.mergeOrder],
      localBudget: ctx.localBudget,
      preferSmallGrouping: ctx.oneWorkgroupGrouping,
      capacity: n,
      maxPerParticle: ctx.maxPerParticle,
      buffers: {
        pos: b.pos,
        vel: b.vel,
        mass: b.mass,
        pairCount: c.pairCount,
        pairs: c.pairs,
        markedCount: c.markedCount,
        marked: c.marked,
        dof: b.dof,
        memberStart: b.memberStart,
        memberList: b.memberList,
        offset: b.offset,
        dofX: b.dofX,
        dofV: b.dofV,
        dofM: b.dofM,
        level,
        levelParent,
        kind: b.kind,
        syncEnergy: b.syncEnergy,
        velOut: b.velOut,
        stats: stats.buffer,
      },
    });
    const { alpha, beta, nMin, nMax } = ctx.params;
    return {
      id: "merge-split",
      stages: 2,
      stats,
      report(read) {
        return {
          grouping: {
            method: ms.grouping.method,
            dispatchesPerStage: [...ms.grouping.dispatchesPerStage],
            stages: summarizeCensus(censusWords(read)),
            incomplete: read.groupingIncomplete,
          },
          splits: {
            pairwise: pairwiseSplits(censusWords(read)),
            closestPoint: read.closestSplits,
          },
        };
      },
      prepareStep(step, encoder) {
        ms.setParams({ count: n, seed: ctx.scene.seed, step, alpha, beta, nMin, nMax }, encoder);
      },
      encodeStageFlag(pass, stage) {
        if (stage === 1) return undefined;
        ms.encodeStage2Flag(pass, { count: n });
        return { buffer: ms.stage2Flag, word: 0 };
      },
      encodeBegin(pass, stage) {
        ms.encodeGroup(pass, { stage });
        ms.encodeMerge(pass, { stage, count: n });
      },
      encodeEnd(pass, stage) {
        ms.encodeSplit(pass, { stage, count: n });
      },
      destroy() {
        ms.destroy();
        level.destroy();
        levelParent.destroy();
        stats.buffer.destroy();
      },
    };
  },
};
