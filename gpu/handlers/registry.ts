/**
 * Collision handlers as strategy objects, registered by string id (never by integer):
 * `merge-split` (the paper's method) and the baselines it is compared with (§6.1) — `penalty-*`,
 * `sph-force-*` and `impulse`. A handler chooses how particles are grouped into DOFs before
 * integration (merge-split: colliding pairs, §5.2; baselines: every particle alone), how many
 * integration stages a step takes (merge-split: two, §5.1), which forces it adds, and what it does
 * to the velocities at the end of the step. Systems never see handlers; adding a handler touches
 * no system.
 *
 * @module
 */
import type { Scene } from "../../core/scene.ts";
import { Impulse, type ImpulseBindings } from "./impulse/impulse.ts";
import { PenaltyForce, type PenaltyForceBindings } from "./penalty/penalty_force.ts";
import { SphCouplingForce, type SphCouplingForceBindings } from "./sph-force/sph_coupling_force.ts";
import type { GridGeometry } from "../state/neighbor_grid.ts";

/** Strength levels of the force baselines (an order of magnitude apart). */
export type Level = "weak" | "medium" | "strong";

/** Buffers a handler may use (owned by the engine; layouts in gpu/README.md). */
export interface HandlerBuffers {
  pos: GPUBuffer;
  vel: GPUBuffer;
  mass: GPUBuffer;
  body: GPUBuffer;
  contacts: GPUBuffer;
  contactCount: GPUBuffer;
  cellStart: GPUBuffer;
  sorted: GPUBuffer;
  /** Per-particle handler force, cleared by the engine before {@link CollisionHandler.encodeForces}. */
  force: GPUBuffer;
  /** Velocities after the split; the handler may rewrite them in {@link CollisionHandler.encodeEnd}. */
  velOut: GPUBuffer;
  /** Scratch of `velOut`'s size. */
  velTmp: GPUBuffer;
}

/** What a handler is built from. */
export interface HandlerContext {
  device: GPUDevice;
  scene: Scene;
  count: number;
  maxPerParticle: number;
  grid: GridGeometry;
  buffers: HandlerBuffers;
}

/** A collision handler: the engine calls these hooks at fixed points of the step. */
export interface CollisionHandler {
  readonly id: string;
  /** The parameters it runs with (recorded in results). */
  readonly params: Readonly<Record<string, number>>;
  /** Integration stages per step: 2 for merge-split's two-stage integration (§5.1). */
  readonly stages: 1 | 2;
  /** `pairs`: colliding pairs form meta-particles (§5.2); `none`: every particle is its own DOF. */
  readonly grouping: "none" | "pairs";
  /** α, β (Eq. 20) and n limits used by the merge/split kernels. */
  readonly mergeSplit: { alpha: number; beta: number; nMin: number; nMax: number };
  /** Adds the handler's forces into `buffers.force` (already cleared). */
  encodeForces(encoder: GPUCommandEncoder): void;
  /** Rewrites `buffers.velOut` at the end of the step (after splitting). */
  encodeEnd(encoder: GPUCommandEncoder): void;
  destroy(): void;
}

/** A registered handler id: what it is and how to build it. */
export interface HandlerEntry {
  id: string;
  description: string;
  create(ctx: HandlerContext): CollisionHandler;
}

const NO_MERGE = { alpha: 1, beta: 0, nMin: 2, nMax: 2 };

function mergeSplitHandler(ctx: HandlerContext): CollisionHandler {
  const ms = ctx.scene.handlers.mergeSplit;
  return {
    id: "merge-split",
    params: { ...ms },
    stages: 2,
    grouping: "pairs",
    mergeSplit: { ...ms },
    encodeForces() {},
    encodeEnd() {},
    destroy() {},
  };
}

function penaltyHandler(level: Level) {
  return (ctx: HandlerContext): CollisionHandler => {
    const stiffness = ctx.scene.handlers.penalty[level];
    const k = new PenaltyForce(ctx.device, {
      capacity: ctx.count,
      maxPerParticle: ctx.maxPerParticle,
      stiffness,
      label: `penalty-${level}`,
    });
    const b = ctx.buffers;
    const bind: PenaltyForceBindings = k.bind({
      pos: b.pos,
      vel: b.vel,
      contacts: b.contacts,
      contactCount: b.contactCount,
      force: b.force,
    });
    return {
      id: `penalty-${level}`,
      params: { stiffness },
      stages: 1,
      grouping: "none",
      mergeSplit: NO_MERGE,
      encodeForces: (encoder) => k.encode(encoder, bind),
      encodeEnd() {},
      destroy: () => k.destroy(),
    };
  };
}

function sphForceHandler(level: Level) {
  return (ctx: HandlerContext): CollisionHandler => {
    const stiffness = ctx.scene.handlers.sphForce[level];
    const k = new SphCouplingForce(ctx.device, {
      capacity: ctx.count,
      h: ctx.scene.sph.h,
      rho0: ctx.scene.sph.rho0,
      stiffness,
      grid: ctx.grid,
      label: `sph-force-${level}`,
    });
    const b = ctx.buffers;
    const bind: SphCouplingForceBindings = k.bind({
      pos: b.pos,
      mass: b.mass,
      body: b.body,
      cellStart: b.cellStart,
      sorted: b.sorted,
      force: b.force,
    });
    return {
      id: `sph-force-${level}`,
      params: { stiffness, h: ctx.scene.sph.h },
      stages: 1,
      grouping: "none",
      mergeSplit: NO_MERGE,
      encodeForces: (encoder) => k.encode(encoder, bind),
      encodeEnd() {},
      destroy: () => k.destroy(),
    };
  };
}

function impulseHandler(ctx: HandlerContext): CollisionHandler {
  const restitution = ctx.scene.handlers.impulse.restitution;
  const k = new Impulse(ctx.device, {
    capacity: ctx.count,
    maxPerParticle: ctx.maxPerParticle,
    restitution,
    label: "impulse",
  });
  const b = ctx.buffers;
  // Contacts from the start of the step; Rule 2 with the velocities after integration.
  const bind: ImpulseBindings = k.bind({
    pos: b.pos,
    vel: b.velTmp,
    mass: b.mass,
    contacts: b.contacts,
    contactCount: b.contactCount,
    velOut: b.velOut,
  });
  return {
    id: "impulse",
    params: { restitution },
    stages: 1,
    grouping: "none",
    mergeSplit: NO_MERGE,
    encodeForces() {},
    encodeEnd(encoder) {
      encoder.copyBufferToBuffer(b.velOut, 0, b.velTmp, 0, 16 * ctx.count);
      k.encode(encoder, bind);
    },
    destroy: () => k.destroy(),
  };
}

/** Every handler, by id, in report order. */
export const HANDLERS: ReadonlyMap<string, HandlerEntry> = new Map(
  [
    {
      id: "merge-split",
      description: "Particle merging-and-splitting (Truong et al. 2021), two-stage integration",
      create: mergeSplitHandler,
    },
    ...(["weak", "medium", "strong"] as const).map((level) => ({
      id: `penalty-${level}`,
      description: `Penalty force k·(r1 + r2 − d)·n̂ between overlapping particles, ${level}`,
      create: penaltyHandler(level),
    })),
    ...(["weak", "medium", "strong"] as const).map((level) => ({
      id: `sph-force-${level}`,
      description: `SPH-based coupling pressure between bodies, ${level}`,
      create: sphForceHandler(level),
    })),
    {
      id: "impulse",
      description: "Velocity impulses along n̂ with restitution, no position correction",
      create: impulseHandler,
    },
  ].map((e) => [e.id, e]),
);

/** Looks up a handler; throws a `RangeError` listing the valid ids. */
export function getHandler(id: string): HandlerEntry {
  const e = HANDLERS.get(id);
  if (!e) {
    throw new RangeError(
      `unknown handler "${id}"; known handlers: ${[...HANDLERS.keys()].join(", ")}`,
    );
  }
  return e;
}
