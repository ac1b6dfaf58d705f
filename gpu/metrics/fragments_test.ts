import assert from "node:assert/strict";
import { fragments } from "../../core/reference/peridynamics_reference.ts";
import { type Bonds, buildBonds } from "../../core/model/peridynamic_bonds.ts";
import { Rng } from "../../core/rng.ts";
import { acquireGpu } from "../runtime/device.ts";
import { readBuffer, storageBuffer } from "../runtime/kernel.ts";
import { checkWgslStruct } from "../runtime/struct_layout.ts";
import { BOND_BROKEN_BIT } from "../state/bond_flags.ts";
import { FRAGMENT_PARAMS, Fragments, FRAGMENTS_WGSL, NO_FRAGMENT } from "./fragments.ts";

/** Positions (xyz, 3N) of an nx × ny × nz lattice of spacing 1, x fastest. */
function lattice(nx: number, ny: number, nz: number): Float64Array {
  const x: number[] = [];
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) x.push(i, j, k);
  }
  return Float64Array.from(x);
}

/**
 * The ascending CSR bond lists the GPU reads (as `ParticleState` builds them), with
 * {@link BOND_BROKEN_BIT} on broken bonds; with `oneEnd`, each bond is listed under one end only,
 * picked at random.
 */
function bondLists(bonds: Bonds, n: number, oneEnd?: Rng) {
  const partners: number[][] = Array.from({ length: n }, () => []);
  for (let b = 0; b < bonds.i.length; b++) {
    const flag = bonds.broken[b] ? BOND_BROKEN_BIT : 0;
    const i = bonds.i[b], j = bonds.j[b];
    const side = oneEnd ? oneEnd.int(0, 1) : 2;
    if (side !== 1) partners[i].push((j | flag) >>> 0);
    if (side !== 0) partners[j].push((i | flag) >>> 0);
  }
  const start = new Uint32Array(n + 1);
  const list: number[] = [];
  partners.forEach((p, i) => {
    start[i] = list.length;
    list.push(...p.sort((a, b) => (a & ~BOND_BROKEN_BIT) - (b & ~BOND_BROKEN_BIT)));
  });
  start[n] = list.length;
  return { start, list: Uint32Array.from(list) };
}

/** Breaks each bond with probability p (seeded). */
function breakRandom(bonds: Bonds, p: number, seed: number): void {
  const rng = new Rng(seed);
  for (let b = 0; b < bonds.broken.length; b++) if (rng.nextFloat() < p) bonds.broken[b] = 1;
}

/** The software device of the test (acquired by it). */
let device: GPUDevice;

/** Runs the GPU fragments on the bonds and asserts count, largest, labels and convergence. */
async function check(
  bonds: Bonds,
  n: number,
  options: { members?: Uint32Array; oneEnd?: Rng; expect?: number; rowLength?: number } = {},
) {
  const members = options.members ?? new Uint32Array(n).fill(1);
  const want = fragments(bonds, n, { members });
  // the significant fragments at a size that splits the reference's sizes (1 % of the members, as
  // the metrics count them, or the median size where that is larger)
  const sorted = [...want.sizes].sort((a, b) => a - b);
  const memberCount = members.reduce((a, m) => a + (m ? 1 : 0), 0);
  const significantSize = Math.max(
    1,
    Math.ceil(memberCount / 100),
    sorted[sorted.length >> 1] ?? 1,
  );
  const wantSignificant = want.sizes.filter((z) => z >= significantSize).length;
  if (options.expect !== undefined) assert.equal(want.count, options.expect, "reference count");
  // reference labels as the smallest member index of each fragment
  const minIndex: number[] = [];
  want.label.forEach((l, i) => {
    if (l >= 0 && minIndex[l] === undefined) minIndex[l] = i;
  });
  const wantLabels = Uint32Array.from(want.label, (l) => (l < 0 ? NO_FRAGMENT : minIndex[l]));

  const lists = bondLists(bonds, n, options.oneEnd);
  const bondStart = storageBuffer(device, {
    label: "bondStart",
    size: 4 * (n + 1),
    data: lists.start,
  });
  const bondList = storageBuffer(device, {
    label: "bondList",
    size: Math.max(4, lists.list.byteLength),
    data: lists.list,
  });
  const member = storageBuffer(device, { label: "member", size: 4 * n, data: members });
  device.pushErrorScope("validation");
  const frag = new Fragments(device, {
    count: n,
    bondStart,
    bondList,
    member,
    label: "frag test",
    rowLength: options.rowLength,
    significantSize,
  });
  for (let rep = 0; rep < 2; rep++) {
    const enc = device.createCommandEncoder({ label: "fragments test" });
    frag.encode(enc);
    device.queue.submit([enc.finish()]);
    const got = await frag.read();
    assert.equal(got.count, want.count, "count");
    assert.equal(got.largest, want.largest, "largest");
    assert.equal(got.converged, true, "converged");
    assert.equal(got.significant, wantSignificant, `fragments of at least ${significantSize}`);
    const result = new Uint32Array(await readBuffer(device, frag.result));
    assert.deepEqual([...result.slice(0, 3)], [want.count, want.largest, 1], "result buffer");
    // the round bound of fragments.ts: ⌈log2 N⌉ rounds with changes, one that finds none
    assert.ok(got.rounds <= Math.ceil(Math.log2(n)) + 1, `${got.rounds} rounds for N = ${n}`);
    const labels = new Uint32Array(await readBuffer(device, frag.labels, { size: 4 * n }));
    assert.deepEqual(labels, wantLabels, "labels");
  }
  assert.equal(await device.popErrorScope(), null);
  frag.destroy();
  for (const b of [bondStart, bondList, member]) b.destroy();
  return want;
}

Deno.test("fragments on the GPU against the f64 reference (connected components)", async (t) => {
  device = (await acquireGpu({ adapter: "software" })).device;
  await t.step("WGSL struct matches its layout", () => {
    checkWgslStruct(FRAGMENTS_WGSL, FRAGMENT_PARAMS);
  });

  await t.step("intact block: one fragment", async () => {
    const pos = lattice(8, 6, 5);
    await check(buildBonds(pos, { horizon: 1.5 }), pos.length / 3, { expect: 1 });
  });

  await t.step("a cut plane: two fragments", async () => {
    const pos = lattice(8, 6, 5);
    const bonds = buildBonds(pos, { horizon: 2 });
    for (let b = 0; b < bonds.i.length; b++) {
      const xi = pos[3 * bonds.i[b]], xj = pos[3 * bonds.j[b]];
      if ((xi < 3.5) !== (xj < 3.5)) bonds.broken[b] = 1;
    }
    const want = await check(bonds, pos.length / 3, { expect: 2 });
    assert.deepEqual(want.sizes, [120, 120]);
  });

  await t.step("many random breaks: many fragments, singletons among them", async () => {
    const pos = lattice(10, 8, 6);
    for (const [p, seed] of [[0.55, 1], [0.7, 2], [0.9, 3]]) {
      const bonds = buildBonds(pos, { horizon: 1 });
      breakRandom(bonds, p, seed);
      const want = await check(bonds, pos.length / 3);
      assert.ok(want.count > 20, `${want.count} fragments`);
      assert.ok(want.sizes.includes(1), "singletons");
      // the same as a 2D grid: 8 workgroups in rows of 3 (the last row past the end)
      await check(bonds, pos.length / 3, { rowLength: 3 });
    }
  });

  await t.step("a long thin chain (3000 particles), in order and shuffled", async () => {
    const n = 3000;
    const line = Float64Array.from({ length: 3 * n }, (_, k) => (k % 3 === 0 ? k / 3 : 0));
    await check(buildBonds(line, { horizon: 1 }), n, { expect: 1 });
    // shuffled indices along the line: many local minima (stagnant stars)
    const rng = new Rng(7);
    const order = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [order[i], order[j]] = [order[j], order[i]];
    }
    const shuffled = new Float64Array(3 * n);
    order.forEach((at, i) => (shuffled[3 * i] = at));
    const bonds = buildBonds(shuffled, { horizon: 1 });
    await check(bonds, n, { expect: 1 });
    // broken in a few places: a few long pieces
    for (const b of [100, 1700, 2500]) bonds.broken[b] = 1;
    await check(bonds, n, { expect: 4 });
  });

  await t.step("non-members are ignored (no fragment, join none)", async () => {
    const pos = lattice(8, 6, 5);
    const n = pos.length / 3;
    const bonds = buildBonds(pos, { horizon: 1.5 });
    breakRandom(bonds, 0.3, 4);
    const rng = new Rng(5);
    const members = Uint32Array.from({ length: n }, () => (rng.nextFloat() < 0.6 ? 1 : 0));
    await check(bonds, n, { members });
    // a slab of non-members splits the block: the reference without them is two bodies
    const slab = Uint32Array.from({ length: n }, (_, i) => (pos[3 * i] === 4 ? 0 : 1));
    await check(buildBonds(pos, { horizon: 1.5 }), n, { members: slab, expect: 2 });
    // no members at all
    await check(bonds, n, { members: new Uint32Array(n), expect: 0 });
  });

  await t.step("bonds listed under one end only", async () => {
    const pos = lattice(10, 8, 6);
    const n = pos.length / 3;
    for (const [p, seed] of [[0, 6], [0.6, 8]]) {
      const bonds = buildBonds(pos, { horizon: 1 });
      breakRandom(bonds, p, seed);
      await check(bonds, n, { oneEnd: new Rng(seed, { stream: 1 }) });
    }
  });

  await t.step("one particle; two unbonded", async () => {
    const single = buildBonds(new Float64Array(3), { horizon: 1 });
    await check(single, 1, { expect: 1 });
    const pair = buildBonds(Float64Array.from([0, 0, 0, 5, 0, 0]), { horizon: 1 });
    await check(pair, 2, { expect: 2 });
  });

  device.destroy();
});
