import assert from "node:assert/strict";
import { type Bonds, fragments } from "../core/reference/peridynamics_reference.ts";
import { buildParticles, isBreakableSolid, type ParticleSet } from "../core/scene/scene_builder.ts";
import { NO_FRAGMENT_LABEL } from "../core/io/snapshot_codec.ts";
import { SpringTable } from "../core/scene/spring_table.ts";
import { NO_FRAGMENT } from "../gpu/metrics/fragments.ts";
import { getScene } from "../scenes/catalog.ts";
import { initialFragmentLabels } from "./snapshot_frame.ts";

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
