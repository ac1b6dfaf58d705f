import assert from "node:assert/strict";
import { forEachMirrorImage } from "./sph_walls.ts";

Deno.test("forEachMirrorImage (Randles & Libersky 1996 ghost particles)", async (t) => {
  const h = 0.2;

  await t.step("images: 7 near a corner (masks 1..7), none a support away from every wall", () => {
    const masks: number[] = [];
    const near = [0.05, 0.05, 0.05];
    forEachMirrorImage(near, near, {
      walls: { min: [0, 0, 0], max: [1, 1, 1] },
      h,
      visit: (y, mask) => {
        masks.push(mask);
        for (let a = 0; a < 3; a++) assert.equal(y[a], (mask >> a) & 1 ? -0.05 : 0.05);
      },
    });
    assert.deepEqual(masks.sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7]);
    let count = 0;
    forEachMirrorImage([0.5, 0.5, 0.5], [0.45, 0.5, 0.5], {
      walls: { min: [0, 0, 0], max: [1, 1, 1] },
      h,
      visit: () => count++,
    });
    assert.equal(count, 0);
  });
});
