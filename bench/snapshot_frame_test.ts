import assert from "node:assert/strict";
import { fragments } from "../core/reference/peridynamics_reference.ts";
import type { Bonds } from "../core/model/peridynamic_bonds.ts";
import { buildParticles, isBreakableSolid, type ParticleSet } from "../core/scene/scene_builder.ts";
import { decodeFragments, NO_FRAGMENT_LABEL, type Snapshots } from "../core/io/snapshot_codec.ts";
import { Engine } from "../gpu/engine.ts";
import { readBuffer } from "../gpu/runtime/kernel.ts";
import { releaseSoftwareGpu, softwareGpu } from "../gpu/engine_run_fixture.ts";
import { SpringTable } from "../core/model/spring_table.ts";
import { NO_FRAGMENT } from "../gpu/metrics/fragments.ts";
import { getScene } from "../scenes/catalog.ts";
import { initialFragmentLabels, readSnapshotFrame } from "./snapshot_frame.ts";

/** The f64 reference's fragments of `p` with every bond intact, as the GPU labels them. */
function referenceLabels(p: ParticleSet): Uint32Array {
  const m = p.springs.length;
  const bonds: Bonds = {
    i: p.springs.i,
    j: p.springs.j,
    restLength: p.springs.restLength,
    volumeFactor: new Float64Array(m).fill(1),
    body: p.springs.i.map((i) => p.body[i]),
    broken: new Uint8Array(m),
  };
  const members = Array.from(p.body, (b) => (isBreakableSolid(p.bodies[b]) ? 1 : 0));
  const ref = fragments(bonds, p.count, { members });
  // Reference labels are 0.. in order of each fragment's lowest index: map to that index.
  const lowest: number[] = [];
  ref.label.forEach((l, i) => (l >= 0 && lowest[l] === undefined ? (lowest[l] = i) : 0));
  return Uint32Array.from(ref.label, (l) => (l < 0 ? NO_FRAGMENT_LABEL : lowest[l]));
}

Deno.test("snapshot fragments at step 0", async (t) => {
  await t.step("the codec's no-fragment label is the GPU's", () => {
    assert.equal(NO_FRAGMENT_LABEL, NO_FRAGMENT);
  });

  await t.step("labels are the smallest index of each bonded component of breakable solids", () => {
    // Bodies: cloth 0..2 (springs ignored), breakable solid 3..7 with bonds 3-5, 5-7, 4-6,
    // breakable solid 8..9 unbonded, unbreakable solid 10..11 bonded (a projectile: no fragment).
    const spring = (i: number, j: number) => ({ i, j, restLength: 1, ks: 1, kd: 0 });
    const p = {
      count: 12,
      body: new Uint32Array([0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 3, 3]),
      bodies: [
        { name: "cloth", kind: "cloth", start: 0, count: 3 },
        { name: "a", kind: "solid", start: 3, count: 5, breakable: true },
        { name: "b", kind: "solid", start: 8, count: 2, breakable: true },
        { name: "ball", kind: "solid", start: 10, count: 2, breakable: false },
      ],
      springs: SpringTable.from([
        spring(0, 1),
        spring(1, 2),
        spring(7, 5),
        spring(5, 3),
        spring(6, 4),
        spring(10, 11),
      ]),
    } as unknown as ParticleSet;
    const N = NO_FRAGMENT_LABEL;
    assert.deepEqual([...initialFragmentLabels(p)], [N, N, N, 3, 4, 3, 4, 3, 8, 9, N, N]);
  });

  for (const id of ["fig5-wall", "fig3-ball-cloth-low", "fig4-fluid-cloth"]) {
    await t.step(`${id} (tiny): equal to the f64 reference`, () => {
      const p = buildParticles(getScene(id, { scale: "tiny" }));
      const labels = initialFragmentLabels(p);
      assert.deepEqual([...labels], [...referenceLabels(p)]);
      const breakable = p.bodies.filter(isBreakableSolid).length;
      assert.equal(new Set([...labels].filter((l) => l !== NO_FRAGMENT_LABEL)).size, breakable);
    });
  }
});

Deno.test({
  name: "snapshot meta-particles: each recorded particle's group as the engine's DOF map holds it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const gpu = await softwareGpu();
    const scene = getScene("fig4-fluid-cloth", { scale: "tiny" });
    const engine = await Engine.create(scene, { handler: "merge-split", gpu, steps: 120 });
    try {
      const domain = { min: [-2, -2, -2], max: [2, 2, 2] } as Snapshots["domain"];
      assert.equal((await readSnapshotFrame(engine, { domain, stride: 1 })).groups, undefined);
      // the fluid is on the cloth from about step 75 at tiny: merged pairs
      await engine.run(100);
      const frame = await readSnapshotFrame(engine, { domain, stride: 1 });
      const dof = new Uint32Array(await readBuffer(gpu.device, engine.state.buffers.dof));
      const ids = decodeFragments(frame.groups!, { count: engine.count });
      assert.ok(frame.groupCount! > 0);
      for (let i = 0; i < engine.count; i++) {
        // one id per meta-particle: members of one group share it, a particle alone has 0
        assert.equal(ids[i] === ids[dof[i]], true, `particle ${i}`);
        assert.equal(ids[i] === 0, dof.filter((d) => d === dof[i]).length === 1, `particle ${i}`);
      }
    } finally {
      engine.destroy();
      releaseSoftwareGpu();
    }
  },
});
