/**
 * The merge-order probe of a merge-split case (§3: "the order of merging does not affect the
 * outcome of the final particle velocities after splitting"; claim z): at each snapshot frame of
 * the first repetition, the contact graph of the step just run (its colliding pairs) is grouped as
 * the engine groups it (its grouping method and n limits), and each group of three or more is
 * merged in its order and in reverse from the state then and split with the f64 reference
 * (`core/merge_order.ts`) under the case's merge order (`merge-split.mergeOrder`; the compact
 * grouping's is `index-com`), and under `pair-union`, the reading the engine does not run. The
 * summary gets the groups probed and the largest difference of a particle's final velocity, over
 * the reference speed, under each. Three readbacks a frame; the state is not changed.
 *
 * @module
 */
import type { Pair } from "../core/grouping/collision_rules.ts";
import { GROUPING_METHODS, groupWith } from "../core/grouping/index_order_grouping.ts";
import { mergeOrderSpread, type ProbedGroup } from "../core/merge_order.ts";
import { MERGE_ORDERS, type MergeReading } from "../core/merge_orders.ts";
import type { Grouping } from "../core/grouping/grouping.ts";
import type { Engine } from "../gpu/engine.ts";
import { readBuffer } from "../gpu/runtime/kernel.ts";

/** The summary fields of the probe. */
export interface MergeOrderSummary {
  /** Groups of three or more particles probed, over the samples. */
  mergeOrderGroups: number;
  /**
   * max |v_i(order) − v_i(reverse)| over the reference speed under the case's merge order (0
   * without such a group).
   */
  mergeOrderSpread: number;
  /** The same under the reading `pair-union` (`core/merge_orders.ts`). */
  mergeOrderSpreadPairUnion: number;
}

/** Each group of `grouping` with its members' order, partners and the pairs between them. */
function probedGroups(grouping: Grouping, pairs: readonly Pair[]): ProbedGroup[] {
  const within = new Map<number, Pair[]>();
  for (const [a, b] of pairs) {
    const d = grouping.dof[a];
    if (d !== grouping.dof[b]) continue;
    const list = within.get(d);
    if (list) list.push([a, b]);
    else within.set(d, [[a, b]]);
  }
  return grouping.joined.map((joined) => ({
    joined,
    via: grouping.via,
    pairs: within.get(joined[0]) ?? [],
  }));
}

/** The colliding pairs of the engine's last step, from its per-particle lists (K slots each). */
async function lastPairs(engine: Engine): Promise<Pair[]> {
  const device = engine.gpu.device;
  const c = engine.collisions;
  const [count, items] = await Promise.all(
    [c.pairCount, c.pairs].map(async (b) => new Uint32Array(await readBuffer(device, b))),
  );
  const K = engine.maxPerParticle;
  const pairs: Pair[] = [];
  for (let i = 0; i < engine.count; i++) {
    for (let k = 0; k < count[i]; k++) pairs.push([i, items[i * K + k]]);
  }
  return pairs;
}

/**
 * The merge-order probe over a run: {@link MergeOrderProbe.sample} at some steps of a merge-split
 * engine (the snapshot frames), {@link MergeOrderProbe.summary} at the end.
 */
export class MergeOrderProbe {
  #groups = 0;
  #spread = 0;
  #spreadPairUnion = 0;

  /** Probes `engine`'s last contact graph (a merge-split engine that has run a step at least). */
  async sample(engine: Engine): Promise<void> {
    if (engine.step === 0) return;
    const p = engine.handlerParams;
    const method = GROUPING_METHODS[p.grouping] ?? "index-order";
    const pairs = await lastPairs(engine);
    const grouping = groupWith(method, pairs, {
      particleCount: engine.count,
      nMin: p.nMin,
      nMax: p.nMax,
      seed: engine.scene.seed,
      step: engine.step - 1,
    });
    // read as the snapshot frames are, apart from the engine's count of host syncs
    const { pos, vel } = await engine.deadline.wait(engine.state.read(), {
      phase: "the merge-order probe",
      operation: "mapAsync of the positions and velocities",
    });
    const groups = probedGroups(grouping, pairs);
    const state = { x: pos, v: vel, mass: engine.particles.mass };
    const own: MergeReading = method === "compact"
      ? "index-com"
      : MERGE_ORDERS[p.mergeOrder] ?? "colliding-pairs";
    const r = mergeOrderSpread(groups, state, p.alpha, own);
    const union = mergeOrderSpread(groups, state, p.alpha, "pair-union");
    this.#groups += r.groups;
    this.#spread = Math.max(this.#spread, r.spread);
    this.#spreadPairUnion = Math.max(this.#spreadPairUnion, union.spread);
  }

  /** The groups probed over the samples and the largest spread, over `referenceSpeed`. */
  summary(referenceSpeed: number): MergeOrderSummary {
    return {
      mergeOrderGroups: this.#groups,
      mergeOrderSpread: this.#spread / referenceSpeed,
      mergeOrderSpreadPairUnion: this.#spreadPairUnion / referenceSpeed,
    };
  }
}
