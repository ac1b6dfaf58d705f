import assert from "node:assert/strict";
import { boundedGrid } from "./bounded_grid.ts";
import { gridForDomain } from "./neighbor_grid.ts";

const device = (bytes: number) =>
  ({ limits: { maxStorageBufferBindingSize: bytes } }) as unknown as GPUDevice;
const domain = { min: [-0.45, -0.45, -0.45], max: [0.45, 0.75, 0.45] } as const;
const cells = (g: { dims: readonly number[] }) => g.dims[0] * g.dims[1] * g.dims[2];

Deno.test("neighbour grids stay within one cellStart binding", async (t) => {
  await t.step("a grid that fits keeps the requested cell", () => {
    assert.deepEqual(
      boundedGrid(device(2 ** 27), domain, 0.02),
      gridForDomain(domain.min, domain.max, 0.02),
    );
  });
  await t.step("a grid that does not fit gets the smallest larger cells that do", () => {
    // fig8-cloth-tori at `paper`: 2r = 3 mm over 0.9 × 1.2 × 0.9 m is 36M cells, 144 MB of
    // cellStart against llvmpipe's 128 MiB
    const g = boundedGrid(device(2 ** 27), domain, 0.003);
    assert.equal(cells(gridForDomain(domain.min, domain.max, 0.003)), 36_000_000);
    assert.ok(4 * (cells(g) + 1) <= 2 ** 27, `${cells(g)} cells`);
    assert.ok(g.cellSize > 0.003 && g.cellSize < 0.0035, `cell ${g.cellSize}`);
    const small = boundedGrid(device(4000), domain, 0.001);
    assert.ok(cells(small) <= 999 && cells(small) > 500, `${cells(small)} cells`);
  });
});
