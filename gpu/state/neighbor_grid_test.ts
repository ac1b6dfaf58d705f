import assert from "node:assert/strict";
import { acquireGpu } from "../runtime/device.ts";
import { GRID_PARAMS, gridForDomain, NEIGHBOR_GRID_WGSL, NeighborGrid } from "./neighbor_grid.ts";
import { checkWgslStruct } from "../runtime/struct_layout.ts";

/** Seeded PRNG in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** N vec4f positions in [lo, hi)^3, radius 0 in w; stored as f32. */
function randomPositions(
  n: number,
  seed: number,
  lo: number,
  hi: number,
): Float32Array<ArrayBuffer> {
  const rand = mulberry32(seed);
  const p = new Float32Array(4 * n);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) p[4 * i + a] = lo + (hi - lo) * rand();
  }
  return p;
}

interface Readback {
  cellStart: Uint32Array;
  sorted: Uint32Array;
  particleCell: Uint32Array;
}

async function build(
  device: GPUDevice,
  grid: NeighborGrid,
  pos: Float32Array<ArrayBuffer>,
  passMode = false,
): Promise<Readback> {
  const n = pos.length / 4;
  const posBuf = device.createBuffer({
    label: "test pos",
    size: Math.max(16, pos.byteLength),
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(posBuf, 0, pos);
  const encoder = device.createCommandEncoder({ label: "test build" });
  if (passMode) {
    const pass = encoder.beginComputePass({ label: "test caller pass" });
    grid.encode(pass, { pos: posBuf, count: n });
    pass.end();
  } else {
    grid.encode(encoder, { pos: posBuf, count: n });
  }
  const out = await readBuffers(device, encoder, [
    [grid.cellStart, (grid.cellCount + 1) * 4],
    [grid.sorted, n * 4],
    [grid.particleCell, n * 4],
  ]);
  posBuf.destroy();
  return { cellStart: out[0], sorted: out[1], particleCell: out[2] };
}

/** Copies each (buffer, bytes) into one readback buffer, submits, maps once. */
async function readBuffers(
  device: GPUDevice,
  encoder: GPUCommandEncoder,
  parts: [GPUBuffer, number][],
): Promise<Uint32Array[]> {
  const offsets: number[] = [];
  let size = 0;
  for (const [, bytes] of parts) {
    offsets.push(size);
    size += Math.ceil(bytes / 256) * 256 || 256;
  }
  const readback = device.createBuffer({
    label: "test readback",
    size,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  parts.forEach(([buf, bytes], k) => {
    if (bytes > 0) encoder.copyBufferToBuffer(buf, 0, readback, offsets[k], bytes);
  });
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const mapped = readback.getMappedRange();
  const out = parts.map(([, bytes], k) =>
    new Uint32Array(mapped.slice(offsets[k], offsets[k] + bytes))
  );
  readback.unmap();
  readback.destroy();
  return out;
}

/** Cell of a point by the README formula, in f32 arithmetic. */
function cellOf(grid: NeighborGrid, x: ArrayLike<number>, i: number): number {
  const f = Math.fround;
  const c = [0, 1, 2].map((a) => {
    const q = Math.floor(f(f(x[4 * i + a] - f(grid.gridMin[a])) / f(grid.cellSize)));
    return Math.min(Math.max(q, 0), grid.dims[a] - 1);
  });
  return c[0] + grid.dims[0] * (c[1] + grid.dims[1] * c[2]);
}

/** Checks the structure of a build: counts, order, permutation, cells. */
function checkStructure(grid: NeighborGrid, pos: Float32Array, r: Readback): void {
  const n = pos.length / 4;
  const cells = grid.cellCount;
  assert.equal(r.cellStart[0], 0, "cellStart[0] is 0");
  assert.equal(r.cellStart[cells], n, "last cellStart entry is the particle count");
  const expectedCount = new Uint32Array(cells);
  for (let i = 0; i < n; i++) {
    const c = cellOf(grid, pos, i);
    assert.equal(r.particleCell[i], c, `particle ${i} is in the README cell`);
    expectedCount[c]++;
  }
  const seen = new Uint8Array(n);
  let start = 0;
  for (let k = 0; k < cells; k++) {
    assert.equal(r.cellStart[k], start, `cellStart[${k}] is the exclusive prefix sum`);
    start += expectedCount[k];
    const end = r.cellStart[k + 1];
    assert.ok(end >= r.cellStart[k], `cellStart is monotone at ${k}`);
    for (let s = r.cellStart[k]; s < end; s++) {
      const i = r.sorted[s];
      assert.ok(i < n, `sorted[${s}] = ${i} is a particle index`);
      assert.equal(seen[i], 0, `particle ${i} appears once`);
      seen[i] = 1;
      assert.equal(r.particleCell[i], k, `particle ${i} is listed under its cell`);
      if (s > r.cellStart[k]) assert.ok(r.sorted[s - 1] < i, `cell ${k} ascending at ${s}`);
    }
  }
  assert.equal(seen.reduce((a, b) => a + b, 0), n, "every particle appears");
}

/** Pairs (i, j), i != j, within distance h, enumerated through the grid per the README order. */
function gridNeighbors(grid: NeighborGrid, pos: Float32Array, h: number, r: Readback): string[] {
  const n = pos.length / 4;
  const [nx, ny, nz] = grid.dims;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const c = r.particleCell[i];
    const cx = c % nx, cy = Math.floor(c / nx) % ny, cz = Math.floor(c / (nx * ny));
    for (let dz = -1; dz <= 1; dz++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const x = cx + dx, y = cy + dy, z = cz + dz;
          if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) continue;
          const k = x + nx * (y + ny * z);
          for (let s = r.cellStart[k]; s < r.cellStart[k + 1]; s++) {
            const j = r.sorted[s];
            if (j !== i && dist(pos, i, j) <= h) out.push(`${i},${j}`);
          }
        }
      }
    }
  }
  return out.sort();
}

function dist(p: Float32Array, i: number, j: number): number {
  const dx = p[4 * i] - p[4 * j],
    dy = p[4 * i + 1] - p[4 * j + 1],
    dz = p[4 * i + 2] - p[4 * j + 2];
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

function bruteNeighbors(pos: Float32Array, h: number): string[] {
  const n = pos.length / 4;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) if (j !== i && dist(pos, i, j) <= h) out.push(`${i},${j}`);
  }
  return out.sort();
}

Deno.test("NeighborGrid", async (t) => {
  const { device } = await acquireGpu({ adapter: "software", label: "neighbor grid test" });
  device.pushErrorScope("validation");

  await t.step("WGSL structs match the TypeScript layouts", () => {
    checkWgslStruct(NEIGHBOR_GRID_WGSL, GRID_PARAMS);
  });

  await t.step("gridForDomain covers the box and validates its input", () => {
    assert.deepEqual(gridForDomain([0, 0, 0], [1, 0.5, 0.25], 0.1), {
      gridMin: [0, 0, 0],
      cellSize: 0.1,
      dims: [10, 5, 3],
    });
    assert.deepEqual(gridForDomain([-1, 2, 3], [-1, 2, 3], 0.5).dims, [1, 1, 1]);
    assert.throws(() => gridForDomain([0, 0, 0], [1, 1, 1], 0), /cellSize must be positive/);
    assert.throws(() => gridForDomain([0, 0, NaN], [1, 1, 1], 1), /bounds must be finite/);
  });

  await t.step("constructor and encode reject bad options", () => {
    const base = { capacity: 4, gridMin: [0, 0, 0], cellSize: 1, dims: [2, 2, 2] } as const;
    assert.throws(() => new NeighborGrid(device, { ...base, capacity: 0 }), /capacity/);
    assert.throws(() => new NeighborGrid(device, { ...base, dims: [2, 0, 2] }), /dims/);
    assert.throws(() => new NeighborGrid(device, { ...base, cellSize: -1 }), /cellSize/);
    assert.throws(
      () => new NeighborGrid(device, { ...base, dims: [4096, 4096, 4096] }),
      /larger cellSize/,
    );
    const grid = new NeighborGrid(device, base);
    const pos = device.createBuffer({ label: "tiny pos", size: 32, usage: GPUBufferUsage.STORAGE });
    const encoder = device.createCommandEncoder({ label: "rejected" });
    assert.throws(() => grid.encode(encoder, { pos, count: 5 }), /capacity/);
    assert.throws(() => grid.encode(encoder, { pos, count: 3 }), /fewer than 3 vec4f/);
    grid.destroy();
    pos.destroy();
  });

  const cases = [
    { n: 1, cellSize: 0.1, seed: 1 },
    { n: 100, cellSize: 0.25, seed: 2 },
    { n: 100, cellSize: 0.06, seed: 3 },
    { n: 3000, cellSize: 0.1, seed: 4 },
    { n: 3000, cellSize: 0.037, seed: 5 },
  ];
  for (const { n, cellSize, seed } of cases) {
    await t.step(`N=${n}, cellSize=${cellSize}: grid neighbors equal brute force`, async () => {
      // Domain [0, 1)^3; positions spill 0.15 outside it on every side (clamped into borders).
      const grid = new NeighborGrid(device, {
        capacity: n,
        ...gridForDomain([0, 0, 0], [1, 1, 1], cellSize),
      });
      const pos = randomPositions(n, seed, -0.15, 1.15);
      const r = await build(device, grid, pos);
      checkStructure(grid, pos, r);
      for (const h of [cellSize, 0.6 * cellSize]) {
        const expected = bruteNeighbors(pos, h);
        assert.deepEqual(gridNeighbors(grid, pos, h, r), expected, `neighbors within h=${h}`);
        if (n >= 100) assert.ok(expected.length > 0, "the case has neighbor pairs");
      }
      grid.destroy();
    });
  }

  await t.step("particles far outside the domain clamp into border cells", async () => {
    const grid = new NeighborGrid(device, {
      capacity: 5,
      gridMin: [0, 0, 0],
      cellSize: 1,
      dims: [3, 4, 5],
    });
    const pos = new Float32Array([
      -1e6,
      -1e6,
      -1e6,
      0, // → (0, 0, 0)
      1e6,
      1e6,
      1e6,
      0, // → (2, 3, 4)
      1.5,
      -7,
      99,
      0, // → (1, 0, 4)
      3,
      4,
      5,
      0, // exactly at the upper bound → (2, 3, 4)
      2.999,
      0,
      0,
      0, // → (2, 0, 0)
    ]);
    const r = await build(device, grid, pos);
    const id = (x: number, y: number, z: number) => x + 3 * (y + 4 * z);
    assert.deepEqual([...r.particleCell], [
      id(0, 0, 0),
      id(2, 3, 4),
      id(1, 0, 4),
      id(2, 3, 4),
      id(2, 0, 0),
    ]);
    checkStructure(grid, pos, r);
    const last = id(2, 3, 4);
    assert.deepEqual([...r.sorted.slice(r.cellStart[last], r.cellStart[last + 1])], [1, 3]);
    grid.destroy();
  });

  await t.step("all particles in one cell come out ascending", async () => {
    const n = 700;
    const grid = new NeighborGrid(device, {
      capacity: n,
      gridMin: [0, 0, 0],
      cellSize: 1,
      dims: [2, 2, 2],
    });
    const pos = randomPositions(n, 9, 1.1, 1.9);
    const r = await build(device, grid, pos);
    checkStructure(grid, pos, r);
    assert.deepEqual([...r.sorted], Array.from({ length: n }, (_, i) => i));
    grid.destroy();
  });

  await t.step("order_cells orders scrambled slices (kernel alone)", async () => {
    // llvmpipe tends to hand out atomic ranks in index order, so the build tests above barely
    // exercise order_cells; here it runs alone on slices filled in a scrambled order, one of them
    // 1,000 particles (an insertion sort per cell met llvmpipe's loop cap there).
    const rand = mulberry32(31);
    const sizes = Array.from({ length: 300 }, (_, k) => k === 7 ? 1000 : Math.floor(rand() * 12));
    sizes[0] = 0;
    const cells = sizes.length;
    const start = new Uint32Array(cells + 1);
    sizes.forEach((s, k) => (start[k + 1] = start[k] + s));
    const total = start[cells];
    const values = Uint32Array.from({ length: total }, (_, i) => i);
    for (let i = total - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [values[i], values[j]] = [values[j], values[i]];
    }
    const make = (label: string, data: Uint32Array<ArrayBuffer>, usage: number) => {
      const b = device.createBuffer({ label, size: data.byteLength, usage });
      device.queue.writeBuffer(b, 0, data);
      return b;
    };
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    const cellOfValue = new Uint32Array(total);
    for (let k = 0; k < cells; k++) {
      for (let p = start[k]; p < start[k + 1]; p++) cellOfValue[values[p]] = k;
    }
    const startBuf = make("sort test cellStart", start, S);
    const unsortedBuf = make("sort test unsorted", values, S);
    const cellBuf = make("sort test particleCell", cellOfValue, S);
    const sortedBuf = make("sort test sorted", new Uint32Array(total), S);
    const params = device.createBuffer({
      label: "sort test params",
      size: GRID_PARAMS.size,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(
      params,
      0,
      GRID_PARAMS.pack({
        gridMin: [0, 0, 0],
        cellSize: 1,
        dims: [cells, 1, 1, cells],
        count: total,
      }),
    );
    const C = GPUShaderStage.COMPUTE;
    const layout = device.createBindGroupLayout({
      label: "sort test layout",
      entries: [
        { binding: 0, visibility: C, buffer: { type: "uniform" } },
        { binding: 2, visibility: C, buffer: { type: "storage" } },
        { binding: 3, visibility: C, buffer: { type: "storage" } },
        { binding: 4, visibility: C, buffer: { type: "storage" } },
        { binding: 6, visibility: C, buffer: { type: "storage" } },
      ],
    });
    const pipeline = device.createComputePipeline({
      label: "sort test order_cells",
      layout: device.createPipelineLayout({
        label: "sort test pipeline layout",
        bindGroupLayouts: [layout],
      }),
      compute: {
        module: device.createShaderModule({ label: "sort test shader", code: NEIGHBOR_GRID_WGSL }),
        entryPoint: "order_cells",
        constants: { WG: 64 },
      },
    });
    const encoder = device.createCommandEncoder({ label: "sort test" });
    const pass = encoder.beginComputePass({ label: "sort test pass" });
    pass.setPipeline(pipeline);
    pass.setBindGroup(
      0,
      device.createBindGroup({
        label: "sort test bind group",
        layout,
        entries: [
          { binding: 0, resource: { buffer: params } },
          { binding: 2, resource: { buffer: startBuf } },
          { binding: 3, resource: { buffer: sortedBuf } },
          { binding: 4, resource: { buffer: cellBuf } },
          { binding: 6, resource: { buffer: unsortedBuf } },
        ],
      }),
    );
    pass.dispatchWorkgroups(Math.ceil(total / 64));
    pass.end();
    const [sorted] = await readBuffers(device, encoder, [[sortedBuf, total * 4]]);
    for (let k = 0; k < cells; k++) {
      const want = [...values.slice(start[k], start[k + 1])].sort((a, b) => a - b);
      assert.deepEqual([...sorted.slice(start[k], start[k + 1])], want, `cell ${k}`);
    }
    for (const b of [startBuf, unsortedBuf, cellBuf, sortedBuf, params]) b.destroy();
  });

  await t.step(
    "multi-level scan over 4M cells, 2D dispatch, build in a caller's pass",
    async () => {
      // 4194304 + 1 entries with workgroups of 32: scan levels of 4194305, 131073, 4097, 129 and 5
      // elements; clearing takes 131073 workgroups, more than 65535, so dispatches are 2D.
      const n = 2000;
      const grid = new NeighborGrid(device, {
        capacity: n,
        workgroupSize: 32,
        gridMin: [0, 0, 0],
        cellSize: 1 / 128,
        dims: [256, 128, 128],
      });
      // Clusters near the start, middle and end of the cell range exercise the block offsets.
      const pos = randomPositions(n, 11, 0, 1);
      for (let i = 0; i < n; i++) {
        pos[4 * i] *= 2;
        if (i % 3 === 0) pos[4 * i + 2] = 0.999;
        if (i % 3 === 1) pos[4 * i + 2] = 0.001;
      }
      const r = await build(device, grid, pos, true);
      checkStructure(grid, pos, r);
      const h = grid.cellSize;
      assert.deepEqual(gridNeighbors(grid, pos, h, r), bruteNeighbors(pos, h));
      grid.destroy();
    },
  );

  await t.step("two builds give identical buffers; counts may change between encodes", async () => {
    const n = 3000;
    const grid = new NeighborGrid(device, {
      capacity: n,
      ...gridForDomain([0, 0, 0], [1, 1, 1], 0.05),
    });
    const pos = randomPositions(n, 21, 0, 1);
    const a = await build(device, grid, pos);
    const b = await build(device, grid, pos);
    assert.deepEqual(b.cellStart, a.cellStart);
    assert.deepEqual(b.sorted, a.sorted);
    assert.deepEqual(b.particleCell, a.particleCell);
    // A smaller count encoded and a full one after it, both in one submit: the last wins.
    const posBuf = device.createBuffer({
      label: "test pos (two counts)",
      size: pos.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(posBuf, 0, pos);
    const encoder = device.createCommandEncoder({ label: "two counts" });
    const small = 17;
    grid.encode(encoder, { pos: posBuf, count: small });
    const smallStart = device.createBuffer({
      label: "test copy of cellStart",
      size: grid.cellStart.size,
      usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
    encoder.copyBufferToBuffer(grid.cellStart, 0, smallStart, 0, grid.cellStart.size);
    grid.encode(encoder, { pos: posBuf, count: n });
    const [smallCells, fullCells, sorted] = await readBuffers(device, encoder, [
      [smallStart, grid.cellStart.size],
      [grid.cellStart, grid.cellStart.size],
      [grid.sorted, n * 4],
    ]);
    assert.equal(smallCells[grid.cellCount], small);
    assert.deepEqual(fullCells, a.cellStart);
    assert.deepEqual(sorted, a.sorted);
    posBuf.destroy();
    smallStart.destroy();
    grid.destroy();
  });

  await t.step("no validation errors", async () => {
    const error = await device.popErrorScope();
    assert.equal(error, null, error?.message);
  });
  device.destroy();
});
