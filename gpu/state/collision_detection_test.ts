import assert from "node:assert/strict";
import { BOND_BROKEN_BIT } from "./bond_flags.ts";
import { referenceGrid } from "./grid_reference.ts";
import { findCollisions, type Pair } from "../../core/grouping/collision_rules.ts";
import type { Particle } from "../../core/particle.ts";
import { Rng } from "../../core/rng.ts";
import { acquireGpu } from "../runtime/device.ts";

/** Storage buffers per stage the pruned contact walk binds. */
const PRUNED_STORAGE = 9;
import {
  COLLISION_DETECTION_WGSL,
  COLLISION_PARAMS_STRUCT,
  type CollisionBindings,
  CollisionDetection,
  type CollisionDetectionBuffers,
  type CollisionGrid,
} from "./collision_detection.ts";
import { kernelStorageBuffers } from "../runtime/kernel.ts";
import { checkWgslStruct } from "../runtime/struct_layout.ts";

/** Coordinates on a 1/64 lattice: every sum, difference and product the rules take is exact in f32. */
const Q = 64;

/** A random cloud in the gpu/README.md layout, plus what `findCollisions` needs. */
interface Cloud {
  n: number;
  particles: Particle[];
  radius: number[];
  body: number[];
  /** Per-body self-collision flags. */
  selfFlags: number[];
  bonded: Pair[];
}

/**
 * n particles in the box [0, side)³ (side in 1/64 units), radii 3..6/64, velocities on the 1/64
 * lattice with a fifth at rest (Rule 2 ties), `bodies` contiguous bodies, and random bonds between
 * nearby same-body particles (some of them intersecting).
 */
function makeCloud(rng: Rng, n: number, options: { side: number; bodies: number }): Cloud {
  const particles: Particle[] = [];
  const radius: number[] = [];
  const body: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = () => rng.int(0, options.side - 1) / Q;
    const v = () => (rng.nextFloat() < 0.2 ? 0 : rng.int(-64, 64) / Q);
    const still = rng.nextFloat() < 0.2;
    particles.push({
      mass: 1,
      x: [c(), c(), c()],
      v: still ? [0, 0, 0] : [v(), v(), v()],
    });
    radius.push(rng.int(3, 6) / Q);
    body.push(Math.floor((i * options.bodies) / n));
  }
  const selfFlags = Array.from({ length: options.bodies }, (_, b) => (b === 1 ? 0 : 1));
  const bonded: Pair[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n && body[j] === body[i]; j++) {
      const d = Math.hypot(...particles[i].x.map((x, k) => x - particles[j].x[k]));
      if (d < 1.3 * (radius[i] + radius[j]) && rng.nextFloat() < 0.5) bonded.push([i, j]);
    }
  }
  return { n, particles, radius, body, selfFlags, bonded };
}

/**
 * Bond CSR; `twoSided` lists each bond under both particles, else under the lower one only;
 * `broken` bonds (by index into `c.bonded`) carry BOND_BROKEN_BIT.
 */
function bondCsr(c: Cloud, twoSided: boolean, broken: ReadonlySet<number> = new Set()) {
  const lists: number[][] = Array.from({ length: c.n }, () => []);
  c.bonded.forEach(([i, j], b) => {
    const flag = broken.has(b) ? BOND_BROKEN_BIT : 0;
    lists[i].push((j | flag) >>> 0);
    if (twoSided) lists[j].push((i | flag) >>> 0);
  });
  const bondStart = new Uint32Array(c.n + 1);
  lists.forEach((l, i) => (bondStart[i + 1] = bondStart[i] + l.length));
  const bondList = new Uint32Array(Math.max(1, bondStart[c.n]));
  const partner = (v: number) => (v & ~BOND_BROKEN_BIT) >>> 0;
  lists.forEach((l, i) => bondList.set(l.sort((a, b) => partner(a) - partner(b)), bondStart[i]));
  return { bondStart, bondList };
}

/** A grid of edge `cellSize` whose box leaves the top x and z layers outside (clamped). */
function gridFor(side: number, cellSize: number): CollisionGrid {
  const dims = Math.max(1, Math.floor(side / Q / cellSize) - 1);
  return { gridMin: [-0.05, 0, -0.05], cellSize, dims: [dims, dims + 1, dims] };
}

interface Expected {
  contacts: number[][];
  pairs: number[][];
  marked: number[][];
  overflow: number;
}

const referenceCache = new Map<string, ReturnType<typeof findCollisions>>();

/** The slots the detector must write, from the f64 brute-force reference `findCollisions`. */
function expected(c: Cloud, n: number, k: number, vel?: readonly (readonly number[])[]): Expected {
  const key = `${n} ${c.bonded.length} ${c.selfFlags} ${vel ? "vel" : ""}`;
  let ref = referenceCache.get(key);
  if (!ref) {
    const ps = c.particles.slice(0, n).map((p, i) => (vel ? { ...p, v: vel[i] } : p));
    ref = findCollisions(ps as Particle[], {
      radius: c.radius.slice(0, n),
      body: c.body.slice(0, n),
      selfCollision: (b) => c.selfFlags[b] !== 0,
      bonded: c.bonded.filter(([i, j]) => i < n && j < n),
    });
    referenceCache.set(key, ref);
  }
  const all: number[][] = Array.from({ length: n }, () => []);
  const approaching = new Set<string>();
  for (const [i, j] of ref.pairs) approaching.add(`${i},${j}`);
  for (const [i, j] of [...ref.pairs, ...ref.marked]) {
    all[i].push(j);
    all[j].push(i);
  }
  let overflow = 0;
  const contacts = all.map((l) => {
    l.sort((a, b) => a - b);
    overflow += Math.max(0, l.length - k);
    return l.slice(0, k);
  });
  const pairs = contacts.map((l, i) => l.filter((j) => j > i && approaching.has(`${i},${j}`)));
  const marked = contacts.map((l, i) => l.filter((j) => j > i && !approaching.has(`${i},${j}`)));
  return { contacts, pairs, marked, overflow };
}

interface Readback {
  contacts: number[][];
  pairs: number[][];
  marked: number[][];
  overflow: number;
}

/** Test fixture: uploads a cloud, binds it, runs the detector, reads the slots back. */
class Fixture {
  readonly created: GPUBuffer[] = [];
  constructor(readonly device: GPUDevice) {}

  upload(label: string, data: ArrayBufferView<ArrayBuffer>, size = data.byteLength): GPUBuffer {
    const b = this.device.createBuffer({
      label: `test ${label}`,
      size: Math.max(16, size),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
    this.device.queue.writeBuffer(b, 0, data);
    this.created.push(b);
    return b;
  }

  /** Buffers of the first n particles of c (capacity-sized) with the grid built from them. */
  buffers(
    det: CollisionDetection,
    c: Cloud,
    options: { n: number; grid: CollisionGrid; twoSided?: boolean; broken?: ReadonlySet<number> },
  ): CollisionDetectionBuffers {
    const cap = det.capacity;
    const pos = new Float32Array(4 * cap);
    const vel = new Float32Array(4 * cap);
    for (let i = 0; i < c.n && i < cap; i++) {
      pos.set([...c.particles[i].x, c.radius[i]], 4 * i);
      vel.set([...c.particles[i].v, 0], 4 * i);
    }
    const { cellStart, sorted } = referenceGrid(pos, {
      grid: options.grid,
      stride: 4,
      count: options.n,
    });
    const { bondStart, bondList } = bondCsr(c, options.twoSided ?? true, options.broken);
    const out = det.createOutputs();
    this.created.push(...Object.values(out));
    // Poison the outputs so unwritten slots show.
    for (const b of Object.values(out)) {
      this.device.queue.writeBuffer(b, 0, new Uint32Array(b.size / 4).fill(0xdeadbeef));
    }
    this.device.queue.writeBuffer(out.overflow, 0, new Uint32Array([0]));
    return {
      pos: this.upload("pos", pos),
      vel: this.upload("vel", vel),
      body: this.upload("body", Uint32Array.from(c.body), 4 * cap),
      selfCollision: this.upload("selfCollision", Uint32Array.from(c.selfFlags)),
      bondStart: this.upload("bondStart", bondStart.slice(0, cap + 1), 4 * (cap + 1)),
      bondList: this.upload("bondList", bondList),
      cellStart: this.upload("cellStart", cellStart),
      sorted: this.upload("sorted", sorted, 4 * cap),
      ...out,
    };
  }

  async read(b: CollisionBindings, n: number, k: number): Promise<Readback> {
    const { buffers } = b;
    const parts: [GPUBuffer, number][] = [
      [buffers.contacts, 4 * n * k],
      [buffers.contactCount, 4 * n],
      [buffers.pairs, 4 * n * k],
      [buffers.pairCount, 4 * n],
      [buffers.marked, 4 * n * k],
      [buffers.markedCount, 4 * n],
      [buffers.overflow, 4],
    ];
    const total = parts.reduce((a, [, s]) => a + s, 0);
    const rb = this.device.createBuffer({
      label: "test readback",
      size: Math.max(16, total),
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
    const enc = this.device.createCommandEncoder({ label: "test readback encoder" });
    let at = 0;
    for (const [buf, size] of parts) {
      if (size > 0) enc.copyBufferToBuffer(buf, 0, rb, at, size);
      at += size;
    }
    this.device.queue.submit([enc.finish()]);
    await rb.mapAsync(GPUMapMode.READ);
    const u = new Uint32Array(rb.getMappedRange().slice(0));
    rb.unmap();
    rb.destroy();
    const slots = (off: number, cnt: number) =>
      Array.from({ length: n }, (_, i) => {
        const c = u[cnt + i];
        assert.ok(c <= k, `count ${c} > K = ${k} for particle ${i}`);
        return Array.from(u.subarray(off + i * k, off + i * k + c));
      });
    const nk = n * k;
    return {
      contacts: slots(0, nk),
      pairs: slots(nk + n, 2 * nk + n),
      marked: slots(2 * nk + 2 * n, 3 * nk + 2 * n),
      overflow: u[3 * nk + 3 * n],
    };
  }

  destroy(): void {
    for (const b of this.created) b.destroy();
    this.created.length = 0;
  }
}

/** One detection, then the walk's dropped partners moved into `overflow` for the readback. */
function run(device: GPUDevice, det: CollisionDetection, b: CollisionBindings, reset = false) {
  const enc = device.createCommandEncoder({ label: "test detect encoder" });
  det.encode(enc, b, { resetOverflow: reset });
  det.encodeOverflow(enc, b);
  device.queue.submit([enc.finish()]);
}

function assertMatches(got: Readback, want: Expected): void {
  for (let i = 0; i < want.contacts.length; i++) {
    assert.deepEqual(got.contacts[i], want.contacts[i], `contacts of ${i}`);
    assert.deepEqual(got.pairs[i], want.pairs[i], `pairs of ${i}`);
    assert.deepEqual(got.marked[i], want.marked[i], `marked of ${i}`);
  }
  assert.equal(got.overflow, want.overflow, "overflow");
}

Deno.test("CollisionDetection (WebGPU, software adapter)", async (t) => {
  // 9 storage buffers per stage, whatever MERGESPLIT_STORAGE_BUFFERS says: the pruned walk's
  // (every software adapter here offers at least 10)
  const gpu = await acquireGpu({
    adapter: "software",
    storageBuffers: PRUNED_STORAGE,
    label: "collision detection test device",
  });
  const device = gpu.device;
  const side = 96; // box of 1.5 m on the 1/64 lattice
  const n = 1500;
  const cloud = makeCloud(new Rng(2021), n, { side, bodies: 4 });
  const cellSize = 12 / Q; // 2 · largest radius
  const det = new CollisionDetection(device, { capacity: n, label: "test detect" });
  const fx = new Fixture(device);

  await t.step("CollisionParams in the WGSL matches COLLISION_PARAMS_STRUCT", () => {
    checkWgslStruct(COLLISION_DETECTION_WGSL, COLLISION_PARAMS_STRUCT);
  });

  await t.step(
    "matches findCollisions: bodies, self-collision flags, bonds, clamped cells",
    async () => {
      const grid = gridFor(side, cellSize);
      det.setGrid(grid);
      det.setCount(n);
      const b = det.bind(fx.buffers(det, cloud, { n, grid }));
      run(device, det, b);
      const got = await fx.read(b, n, det.maxPerParticle);
      const want = expected(cloud, n, det.maxPerParticle);
      assertMatches(got, want);
      // The scene exercises every case.
      const count = (l: number[][]) => l.reduce((a, x) => a + x.length, 0);
      assert.ok(count(want.pairs) > 100 && count(want.marked) > 100, "pairs and marked");
      const plain = expected({ ...cloud, bonded: [], selfFlags: [1, 1, 1, 1] }, n, 64);
      assert.ok(count(plain.contacts) > count(want.contacts) + 200, "exclusions matter");
      assert.equal(want.overflow, 0);
      // Without overflow the contact relation is symmetric.
      got.contacts.forEach((l, i) => l.forEach((j) => assert.ok(got.contacts[j].includes(i))));
      fx.destroy();
    },
  );

  await t.step("bonds listed under one particle only give the same result", async () => {
    const grid = gridFor(side, cellSize);
    det.setGrid(grid);
    const b = det.bind(fx.buffers(det, cloud, { n, grid, twoSided: false }));
    run(device, det, b);
    assertMatches(await fx.read(b, n, det.maxPerParticle), expected(cloud, n, det.maxPerParticle));
    fx.destroy();
  });

  await t.step("broken bonds (BOND_BROKEN_BIT) no longer exclude their pair", async () => {
    const grid = gridFor(side, cellSize);
    det.setGrid(grid);
    const broken = new Set(cloud.bonded.map((_, b) => b).filter((b) => b % 2 === 0));
    const b = det.bind(fx.buffers(det, cloud, { n, grid, broken }));
    run(device, det, b);
    const intact = { ...cloud, bonded: cloud.bonded.filter((_, k) => !broken.has(k)) };
    const want = expected(intact, n, det.maxPerParticle);
    assertMatches(await fx.read(b, n, det.maxPerParticle), want);
    const before = expected(cloud, n, det.maxPerParticle);
    const count = (l: number[][]) => l.reduce((a, x) => a + x.length, 0);
    assert.ok(count(want.contacts) > count(before.contacts), "broken bonds add contacts");
    fx.destroy();
  });

  await t.step("count < capacity and larger cells: only the first count particles", async () => {
    const m = 700;
    const grid = gridFor(side, 1.7 * cellSize);
    det.setGrid(grid);
    det.setCount(m);
    const b = det.bind(fx.buffers(det, cloud, { n: m, grid }));
    run(device, det, b);
    assertMatches(await fx.read(b, m, det.maxPerParticle), expected(cloud, m, det.maxPerParticle));
    det.setCount(n);
    fx.destroy();
  });

  await t.step(
    "cells of twice the reach: only the cells the reach overlaps, same result",
    async () => {
      for (const factor of [2, 2.6]) {
        const grid = { ...gridFor(side, factor * cellSize), maxRadius: cellSize / 2 };
        det.setGrid(grid);
        const b = det.bind(fx.buffers(det, cloud, { n, grid }));
        run(device, det, b);
        assertMatches(
          await fx.read(b, n, det.maxPerParticle),
          expected(cloud, n, det.maxPerParticle),
        );
        fx.destroy();
      }
      assert.throws(
        () => det.setGrid({ ...gridFor(side, cellSize), maxRadius: cellSize }),
        /maxRadius must be in \(0, cellSize \/ 2\]/,
      );
    },
  );

  await t.step(
    "pruned cells: particles alone with a body that does not collide with itself skip the walk",
    async () => {
      assert.ok(det.pruned, "the test device offers 9 storage buffers per stage");
      const unpruned = new CollisionDetection(device, {
        capacity: n,
        label: "test detect (unpruned)",
        pruneCells: false,
      });
      assert.equal(unpruned.pruned, false);
      // a fluid-like body (no self-collision) in x < 0.6 of the box and a self-colliding body in
      // x ≥ 0.5: most of the first body's particles have no other body in their cells
      const rng = new Rng(7);
      const two = makeCloud(rng, n, { side, bodies: 2 });
      two.particles = two.particles.map((p, i) => {
        const x = two.body[i] === 0
          ? rng.int(0, Math.floor(0.6 * side) - 1)
          : rng.int(Math.floor(0.5 * side), side - 1);
        return { ...p, x: [x / Q, p.x[1], p.x[2]] };
      });
      two.bonded = [];
      two.selfFlags = [0, 1];
      // 40 bodies, every fourth self-colliding: bodies from 31 on share one bit of a cell's word
      const many = makeCloud(new Rng(8), n, { side, bodies: 40 });
      many.selfFlags = Array.from({ length: 40 }, (_, b) => (b % 4 === 0 ? 1 : 0));
      const grid = gridFor(side, cellSize);
      for (const [name, c] of [["two bodies", two], ["40 bodies", many]] as const) {
        referenceCache.clear();
        const want = expected(c, n, det.maxPerParticle);
        for (const d of [det, unpruned]) {
          d.setGrid(grid);
          d.setCount(n);
          const b = d.bind(fx.buffers(d, c, { n, grid }));
          run(device, d, b);
          assertMatches(await fx.read(b, n, d.maxPerParticle), want);
          assert.ok(want.contacts.some((l) => l.length > 0), `${name}: contacts exist`);
          fx.destroy();
        }
      }
      // the pruning acted: many particles of the first body have no second-body particle in the
      // 27 cells around theirs (a superset of the cells they would walk)
      const cellOf = (x: readonly number[]) =>
        [0, 1, 2].map((a) =>
          Math.min(
            grid.dims[a] - 1,
            Math.max(0, Math.floor((x[a] - grid.gridMin[a]) / grid.cellSize)),
          )
        );
      const second = new Set<string>();
      two.particles.forEach((p, i) => {
        if (two.body[i] === 1) second.add(cellOf(p.x).join());
      });
      let alone = 0;
      two.particles.forEach((p, i) => {
        if (two.body[i] !== 0) return;
        const [cx, cy, cz] = cellOf(p.x);
        let near = false;
        for (let dz = -1; dz <= 1; dz++) {
          for (let dy = -1; dy <= 1; dy++) {
            for (let dx = -1; dx <= 1; dx++) {
              near ||= second.has([cx + dx, cy + dy, cz + dz].join());
            }
          }
        }
        if (!near) alone++;
      });
      assert.ok(alone > 200, `particles that skip the walk: ${alone}`);
      referenceCache.clear();
      unpruned.destroy();
    },
  );

  await t.step("full slots keep the K smallest indices; overflow counts the dropped", async () => {
    const k = 3;
    const small = new CollisionDetection(device, {
      capacity: n,
      maxPerParticle: k,
      workgroupSize: 32,
      label: "test detect K=3",
    });
    const grid = gridFor(side, cellSize);
    small.setGrid(grid);
    const b = small.bind(fx.buffers(small, cloud, { n, grid }));
    run(device, small, b);
    const want = expected(cloud, n, k);
    assert.ok(want.overflow > 50);
    assertMatches(await fx.read(b, n, k), want);
    // Accumulates across encodes unless reset.
    run(device, small, b);
    assert.equal((await fx.read(b, n, k)).overflow, 2 * want.overflow);
    run(device, small, b, true);
    assert.equal((await fx.read(b, n, k)).overflow, want.overflow);
    small.destroy();
    fx.destroy();
  });

  await t.step("encodeClassify re-splits the contacts with other velocities", async () => {
    const grid = gridFor(side, cellSize);
    det.setGrid(grid);
    const bufs = fx.buffers(det, cloud, { n, grid });
    const b = det.bind(bufs);
    run(device, det, b);
    // Stage-1 end velocities: reversed for even particles.
    const v2 = cloud.particles.map((p, i) => (i % 2 ? p.v : p.v.map((x) => -x)));
    const vel2 = fx.upload(
      "vel stage 2",
      Float32Array.from(v2.flatMap((v) => [...v, 0])),
    );
    const b2 = det.bind({ ...bufs, vel: vel2 });
    const enc = device.createCommandEncoder({ label: "test classify encoder" });
    det.encodeClassify(enc, b2);
    device.queue.submit([enc.finish()]);
    assertMatches(await fx.read(b2, n, det.maxPerParticle), expected(cloud, n, 16, v2));
    fx.destroy();
  });

  await t.step("two runs give identical outputs (order independent of scheduling)", async () => {
    const grid = gridFor(side, cellSize);
    det.setGrid(grid);
    const b = det.bind(fx.buffers(det, cloud, { n, grid }));
    run(device, det, b, true);
    const first = await fx.read(b, n, det.maxPerParticle);
    run(device, det, b, true);
    assert.deepEqual(await fx.read(b, n, det.maxPerParticle), first);
    fx.destroy();
  });

  await t.step("argument errors name the argument", () => {
    assert.throws(() => new CollisionDetection(device, { capacity: 0 }), /options\.capacity/);
    assert.throws(
      () => new CollisionDetection(device, { capacity: 8, maxPerParticle: 0 }),
      /options\.maxPerParticle/,
    );
    assert.throws(
      () => new CollisionDetection(device, { capacity: 8, workgroupSize: 1000 }),
      /options\.workgroupSize/,
    );
    assert.throws(
      () => det.setGrid({ gridMin: [0, 0, 0], cellSize: 0, dims: [2, 2, 2] }),
      /cellSize/,
    );
    assert.throws(() => det.setGrid({ gridMin: [0, 0], cellSize: 1, dims: [2, 2, 2] }), /gridMin/);
    assert.throws(() => det.setCount(n + 1), /count/);
    const big = device.createBuffer({
      label: "test big",
      size: 16 * n * det.maxPerParticle,
      usage: GPUBufferUsage.STORAGE,
    });
    const small = device.createBuffer({
      label: "test small",
      size: 16,
      usage: GPUBufferUsage.STORAGE,
    });
    const noStorage = device.createBuffer({
      label: "test no storage",
      size: 16 * n,
      usage: GPUBufferUsage.COPY_DST,
    });
    const ok = Object.fromEntries(
      [
        "pos",
        "vel",
        "body",
        "selfCollision",
        "bondStart",
        "bondList",
        "cellStart",
        "sorted",
        "contacts",
        "contactCount",
        "pairs",
        "pairCount",
        "marked",
        "markedCount",
        "overflow",
      ].map((k) => [k, big]),
    ) as unknown as CollisionDetectionBuffers;
    assert.throws(() => det.bind({ ...ok, pairs: small }), /buffers\.pairs has 16 bytes/);
    assert.throws(() => det.bind({ ...ok, body: noStorage }), /buffers\.body needs/);
    det.setGrid({ gridMin: [0, 0, 0], cellSize: 1, dims: [8, 8, 8] });
    const b = det.bind({ ...ok, cellStart: small });
    const enc = device.createCommandEncoder({ label: "test error encoder" });
    assert.throws(() => det.encode(enc, b), /buffers\.cellStart/);
    for (const x of [big, small, noStorage]) x.destroy();
  });

  det.destroy();
  device.destroy();
});

Deno.test("CollisionDetection within WebGPU's 8 storage buffers per stage", async (t) => {
  const gpu8 = await acquireGpu({
    adapter: "software",
    storageBuffers: 8,
    label: "collision detection test device (8 storage buffers)",
  });
  const gpu16 = await acquireGpu({
    adapter: "software",
    storageBuffers: PRUNED_STORAGE,
    label: "collision detection test device",
  });
  const side = 96;
  const n = 1500;
  const cellSize = 12 / Q;
  const grid = gridFor(side, cellSize);
  const fx8 = new Fixture(gpu8.device);
  const fx16 = new Fixture(gpu16.device);

  await t.step("the default path binds at most 8 storage buffers per kernel", () => {
    const det = new CollisionDetection(gpu8.device, { capacity: n, label: "test detect 8" });
    assert.equal(det.pruned, false, "a device of 8 storage buffers runs the default walk");
    const used = kernelStorageBuffers(gpu8.device);
    const mine = Object.entries(used).filter(([label]) => label.startsWith("test detect 8 "));
    assert.deepEqual(
      mine.map(([label]) => label).sort(),
      ["classify", "contacts", "keys", "overflow"].map((e) => `test detect 8 ${e}`),
    );
    for (const [label, count] of mine) assert.ok(count <= 8, `${label} binds ${count}`);
    det.destroy();
  });

  await t.step(
    "the pruned path (a device with more) gives the default path's output, bit for bit",
    async () => {
      assert.ok(gpu16.device.limits.maxStorageBuffersPerShaderStage >= 9);
      const two = makeCloud(new Rng(7), n, { side, bodies: 2 });
      two.selfFlags = [0, 1];
      const many = makeCloud(new Rng(8), n, { side, bodies: 40 });
      many.selfFlags = Array.from({ length: 40 }, (_, b) => (b % 4 === 0 ? 1 : 0));
      const cases = [
        { name: "four bodies", cloud: makeCloud(new Rng(2021), n, { side, bodies: 4 }), k: 16 },
        { name: "two bodies", cloud: two, k: 16 },
        { name: "40 bodies", cloud: many, k: 16 },
        { name: "K = 3 (overflow)", cloud: makeCloud(new Rng(2021), n, { side, bodies: 4 }), k: 3 },
      ];
      for (const { name, cloud, k } of cases) {
        const outputs = [];
        for (const [device, fx] of [[gpu8.device, fx8], [gpu16.device, fx16]] as const) {
          const det = new CollisionDetection(device, {
            capacity: n,
            maxPerParticle: k,
            grid,
            label: "test detect (limits)",
          });
          assert.equal(det.pruned, device === gpu16.device);
          const b = det.bind(fx.buffers(det, cloud, { n, grid, broken: new Set([0, 3, 5]) }));
          run(device, det, b);
          run(device, det, b); // the drop counter is cleared after each walk
          outputs.push(await fx.read(b, n, k));
          det.destroy();
          fx.destroy();
        }
        const [plain, pruned] = outputs;
        assert.deepEqual(pruned, plain, name);
        assert.ok(plain.contacts.some((l) => l.length > 0), `${name}: contacts exist`);
        if (k === 3) assert.ok(plain.overflow > 100, `${name}: overflow ${plain.overflow}`);
      }
    },
  );

  gpu8.device.destroy();
  gpu16.device.destroy();
});
