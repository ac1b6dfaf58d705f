import assert from "node:assert/strict";
import { acquireGpu } from "../runtime/device.ts";
import {
  bindKernel,
  createKernel,
  dispatch,
  readBuffer,
  storageBuffer,
} from "../runtime/kernel.ts";
import { GRID_CELL_WGSL, GRID_NEIGHBORS_WGSL } from "./grid_cell.ts";
import { referenceGrid } from "./grid_reference.ts";

/** A kernel that records, per cell, every particle the row walk visits, in visit order. */
const VISIT_WGSL = `${GRID_CELL_WGSL}
${GRID_NEIGHBORS_WGSL}
@group(0) @binding(0) var<storage, read> dims: vec4u;
@group(0) @binding(1) var<storage, read> cellStart: array<u32>;
@group(0) @binding(2) var<storage, read> sorted: array<u32>;
@group(0) @binding(3) var<storage, read_write> visits: array<u32>;
override CAP: u32;
@compute @workgroup_size(64)
fn visit(@builtin(global_invocation_id) gid: vec3u) {
  let cell = gid.x;
  if (cell >= dims.w) {
    return;
  }
  let c = vec3i(vec3u(cell % dims.x, (cell / dims.x) % dims.y, cell / (dims.x * dims.y)));
  var n = 0u;
  for (var row = 0u; row < 9u; row++) {
    let span = gridNeighborRow(c, row, dims.xyz);
    for (var k = span.x; k < span.y; k++) {
      visits[cell * CAP + 1u + n] = sorted[k];
      n++;
    }
  }
  visits[cell * CAP] = n;
}
`;

/** The 27-cell walk of gpu/README.md on the CPU: cells in z, y, x order, then `sorted` order. */
function walk27(
  c: [number, number, number],
  dims: number[],
  grid: { cellStart: Uint32Array; sorted: Uint32Array },
): number[] {
  const out: number[] = [];
  for (let dz = -1; dz <= 1; dz++) {
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const q = [c[0] + dx, c[1] + dy, c[2] + dz];
        if (q.some((v, a) => v < 0 || v >= dims[a])) continue;
        const id = q[0] + dims[0] * (q[1] + dims[1] * q[2]);
        for (let k = grid.cellStart[id]; k < grid.cellStart[id + 1]; k++) out.push(grid.sorted[k]);
      }
    }
  }
  return out;
}

Deno.test("gridNeighborRow (WebGPU, software adapter)", async (t) => {
  const gpu = await acquireGpu({ adapter: "software", label: "grid neighbors test device" });
  const device = gpu.device;
  await t.step("9 row ranges visit what the 27-cell walk visits, in its order", async () => {
    // Grids with 1, 2 and several cells per axis: every clipping case at the borders.
    for (const dims of [[1, 1, 1], [2, 1, 3], [5, 4, 3], [1, 6, 2]]) {
      const n = 200;
      let s = 12345 + dims[0] * 7 + dims[2];
      const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
      const x = new Float32Array(3 * n);
      // a margin outside the box too: points clamp into the border cells
      for (let i = 0; i < 3 * n; i++) x[i] = (rand() * 1.2 - 0.1) * dims[i % 3];
      const grid = referenceGrid(x, { grid: { gridMin: [0, 0, 0], cellSize: 1, dims }, stride: 3 });
      const cells = dims[0] * dims[1] * dims[2];
      const cap = n + 1;
      const kernel = createKernel(device, {
        label: "test grid row walk",
        code: VISIT_WGSL,
        entryPoint: "visit",
        bindings: ["read-only-storage", "read-only-storage", "read-only-storage", "storage"],
        constants: { CAP: cap },
      });
      const buffers = [
        storageBuffer(device, {
          label: "test dims",
          size: 16,
          data: new Uint32Array([...dims, cells]),
        }),
        storageBuffer(device, {
          label: "test cellStart",
          size: grid.cellStart.byteLength,
          data: grid.cellStart,
        }),
        storageBuffer(device, {
          label: "test sorted",
          size: grid.sorted.byteLength,
          data: grid.sorted,
        }),
        storageBuffer(device, { label: "test visits", size: 4 * cells * cap }),
      ];
      const encoder = device.createCommandEncoder({ label: "test grid row walk encoder" });
      const pass = encoder.beginComputePass({ label: "test grid row walk pass" });
      dispatch(pass, kernel, {
        bindGroup: bindKernel(device, kernel, buffers),
        invocations: cells,
        workgroupSize: 64,
      });
      pass.end();
      device.queue.submit([encoder.finish()]);
      const visits = new Uint32Array(await readBuffer(device, buffers[3]));
      for (let cell = 0; cell < cells; cell++) {
        const c: [number, number, number] = [
          cell % dims[0],
          Math.floor(cell / dims[0]) % dims[1],
          Math.floor(cell / (dims[0] * dims[1])),
        ];
        const count = visits[cell * cap];
        const got = Array.from(visits.subarray(cell * cap + 1, cell * cap + 1 + count));
        assert.deepEqual(got, walk27(c, dims, grid), `dims ${dims}, cell ${c}`);
      }
      for (const b of buffers) b.destroy();
    }
  });
  device.destroy();
});
