/**
 * A system defined only in this test plugs into the engine: free particles under gravity,
 * integrated explicitly, take the place of the SPH fluid of fig4 at `tiny`, and run under
 * merge-split with the mass-spring cloth. Nothing outside this file knows about it.
 */
import assert from "node:assert/strict";
import { getScene } from "../../scenes/catalog.ts";
import type { Scene } from "../../core/scene/scene.ts";
import { Engine } from "../engine.ts";
import { acquireGpu } from "../runtime/device.ts";
import { bindKernel, createKernel, dispatch, storageBuffer } from "../runtime/kernel.ts";
import { registerSystem } from "./registry.ts";
import type { SystemContext, SystemEntry } from "./system.ts";

/** Fixture: the toy system's kernel (symplectic Euler of its part of every DOF). */
const FREE_FALL_WGSL = `
struct Params { count: u32, dt: f32, pad0: u32, pad1: u32, gravity: vec3f, pad2: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> dofV: array<vec4f>;
@group(0) @binding(2) var<storage, read> partMass: array<f32>;
@group(0) @binding(3) var<storage, read> partForce: array<vec4f>;
@group(0) @binding(4) var<storage, read_write> partVel: array<vec4f>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let d = gid.x;
  if (d >= P.count || partMass[d] <= 0.0) { return; }
  partVel[d] = vec4f(dofV[d].xyz + P.dt * (partForce[d].xyz / partMass[d] + P.gravity), 0.0);
}`;

/** Fixture: the toy system entry. */
const FREE_FALL: SystemEntry = {
  id: "test-free-fall",
  description: "free particles under gravity (test fixture)",
  integrator: "explicit",
  bodyKinds: [],
  selfCollision: true,
  params: {},
  create(ctx: SystemContext) {
    const n = ctx.state.count;
    const params = storageBuffer(ctx.device, {
      label: "free fall params",
      size: 32,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    const raw = new ArrayBuffer(32);
    new Uint32Array(raw, 0, 1)[0] = n;
    new Float32Array(raw, 4, 1)[0] = ctx.scene.dt;
    new Float32Array(raw, 16, 3).set(ctx.scene.gravity);
    ctx.device.queue.writeBuffer(params, 0, raw);
    const R = "read-only-storage" as const;
    const kernel = createKernel(ctx.device, {
      label: "free fall",
      code: FREE_FALL_WGSL,
      entryPoint: "main",
      bindings: ["uniform", R, R, R, "storage"],
    });
    const bind = bindKernel(ctx.device, kernel, [
      params,
      ctx.state.buffers.dofV,
      ctx.part.mass,
      ctx.part.force,
      ctx.part.vel,
    ]);
    return {
      id: "test-free-fall",
      encodeForces() {},
      encodeIntegrate(encoder) {
        const pass = encoder.beginComputePass({ label: "free fall" });
        dispatch(pass, kernel, { bindGroup: bind, invocations: n, workgroupSize: 64 });
        pass.end();
      },
      destroy: () => params.destroy(),
    };
  },
};

Deno.test({
  name: "a system defined in a test plugs into the engine",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const unregister = registerSystem(FREE_FALL);
    const gpu = await acquireGpu({ adapter: "software" });
    try {
      const base = getScene("fig4-fluid-cloth", { scale: "tiny" });
      const scene: Scene = {
        ...base,
        bodies: base.bodies.map((b) => (b.kind === "fluid" ? { ...b, system: FREE_FALL.id } : b)),
      };
      const engine = await Engine.create(scene, { handler: "merge-split", gpu });
      try {
        assert.deepEqual(engine.systems.map((s) => s.id), ["mass-spring", "test-free-fall"]);
        const toy = engine.particles.bodies.find((b) => b.kind === "fluid")!;
        const v0 = scene.bodies.find((b) => b.kind === "fluid")!.velocity;
        // free fall before contact: v = v0 + g t
        const early = 4;
        await engine.run(early);
        const { vel } = await engine.readState();
        const want = v0[1] + scene.gravity[1] * early * scene.dt;
        for (let i = toy.start; i < toy.start + toy.count; i++) {
          assert.ok(
            Math.abs(vel[4 * i + 1] - want) < 1e-4 * Math.abs(want),
            `v_y ${vel[4 * i + 1]}`,
          );
        }
        // the whole scene under merge-split: the cloth stops the free particles
        await engine.run(Math.round(scene.duration / scene.dt) - early);
        const series = await engine.readMetrics();
        assert.equal(Math.max(...series.map((r) => r.nanCount)), 0);
        assert.equal(Math.max(...series.map((r) => r.passThrough)), 0, "nothing passes through");
        assert.ok(series.at(-1)!.sheetDeflection > 1, "the free particles load the cloth");
        const stats = await engine.readStats();
        assert.ok(stats.groups > 0, "meta-particles were formed");
      } finally {
        engine.destroy();
      }
    } finally {
      unregister();
      gpu.device.destroy();
    }
  },
});
