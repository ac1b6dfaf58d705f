import assert from "node:assert/strict";
import {
  bondsAsSprings,
  bondStretch,
  pointCriticalStretch,
  updateBroken,
} from "../../../core/reference/peridynamics_reference.ts";
import { buildBonds } from "../../../core/model/peridynamic_bonds.ts";
import { micromodulus } from "../../../core/model/peridynamic_constants.ts";
import { acquireGpu } from "../../runtime/device.ts";
import { ImplicitSprings } from "../spring-network/implicit_springs.ts";
import { SPRING_CLASS_STRUCT, springClass, springPartner } from "../../state/spring_csr.ts";
import { readBuffer, storageBuffer } from "../../runtime/kernel.ts";
import { BREAK_PARAMS, SPRING_BREAKING_WGSL, SpringBreaking } from "./spring_breaking.ts";
import { checkWgslStruct } from "../../runtime/struct_layout.ts";

const BROKEN = 0x80000000;
const H = 1;

/** Fixture: a 5 × 4 × 4 lattice block (spacing 1, horizon 2) and its bonds. */
function block() {
  const x: number[] = [];
  for (let k = 0; k < 4; k++) {
    for (let j = 0; j < 4; j++) for (let i = 0; i < 5; i++) x.push(i * H, j * H, k * H);
  }
  const positions = Float64Array.from(x);
  const bonds = buildBonds(positions, { horizon: 2 * H });
  return { positions, bonds, n: positions.length / 3 };
}

/** Ascending bond lists (as `ParticleState` builds them: each bond under its lower index). */
function bondLists(n: number, pairs: [number, number][]) {
  const partners: number[][] = Array.from({ length: n }, () => []);
  for (const [i, j] of pairs) partners[Math.min(i, j)].push(Math.max(i, j));
  const start = new Uint32Array(n + 1);
  const list: number[] = [];
  partners.forEach((p, i) => {
    start[i] = list.length;
    list.push(...p.sort((a, b) => a - b));
  });
  start[n] = list.length;
  return { start, list: Uint32Array.from(list) };
}

Deno.test("spring breaking on the GPU against the f64 reference (updateBroken)", async (t) => {
  await t.step("WGSL structs match their layouts", () => {
    checkWgslStruct(SPRING_BREAKING_WGSL, BREAK_PARAMS);
    checkWgslStruct(SPRING_BREAKING_WGSL, SPRING_CLASS_STRUCT);
  });

  // a crack opening: the right part moves +0.3 along x; with `squeeze`, the block is also
  // compressed 4 % along y (every particle's smallest bond stretch then about −0.04)
  const crack = (positions: Float64Array, squeeze: boolean) =>
    positions.map((v, k) =>
      k % 3 === 0 && positions[k - (k % 3)] >= 2.5 ? v + 0.3 : k % 3 === 1 && squeeze ? 0.96 * v : v
    );
  for (
    const [compression, squeeze, what] of [
      [0, false, "s0 alone"],
      [0.25, true, "Silling & Askari's compression term, α = 0.25, on a squeezed block"],
    ] as const
  ) {
    await t.step(
      `the same bonds break, both CSR entries and the bond-list flag; irreversible (${what})`,
      async () => {
        const { positions, bonds, n } = block();
        const moved = crack(positions, squeeze);
        // s0 in the middle of a gap between distinct stretches (no decision within f32 rounding)
        const stretch = bondStretch(bonds, moved);
        const stretches = [...new Set([...stretch].map((s) => +s.toFixed(9)))].sort((a, b) =>
          a - b
        );
        // (with the term, 0.005 below the first stretch past 0.05: the squeeze's α·0.04 = 0.01
        // then keeps those bonds)
        const at = stretches.findIndex((s) => s > 0.05);
        const s0 = compression > 0
          ? stretches[at] - 0.005
          : (stretches[at - 1] + stretches[at]) / 2;
        assert.ok(stretches[at] - stretches[at - 1] > 1e-2, "a clear gap around s0");
        // with the term, every bond's threshold min(s0(x), s0(x')) clear of its stretch too
        const point = pointCriticalStretch(bonds, moved, { compression, s00: () => s0 });
        for (let b = 0; b < bonds.i.length; b++) {
          const margin = Math.min(point[bonds.i[b]], point[bonds.j[b]]) - stretch[b];
          assert.ok(Math.abs(margin) > 1e-4, `bond ${b} decides within ${margin} of its s0`);
        }
        const ref = { ...bonds, broken: new Uint8Array(bonds.broken.length) };
        const want = updateBroken(ref, moved, { criticalStretch: s0, compression });
        assert.ok(want > 5 && want < bonds.i.length / 4, `${want} of ${bonds.i.length} break`);
        if (compression > 0) {
          const plain = { ...bonds, broken: new Uint8Array(bonds.broken.length) };
          const without = updateBroken(plain, moved, { criticalStretch: s0 });
          assert.ok(want < without, `compression keeps bonds: ${want} break, ${without} without`);
        }

        const springs = bondsAsSprings(bonds, {
          micromodulus: micromodulus(1e4, 2 * H),
          volume: H ** 3,
          particleCount: n,
        }).map((s) => ({ ...s, breakStretch: s0 }));
        // shift 3: three particles of another system come first (the network's slots start at 3)
        for (const shift of [0, 3]) {
          const N = n + shift;
          const shifted = springs.map((s) => ({ ...s, i: s.i + shift, j: s.j + shift }));
          const posData = (p: ArrayLike<number>) =>
            Float32Array.from(
              { length: 4 * N },
              (
                _,
                k,
              ) => (k % 4 === 3
                ? 0.1
                : k < 4 * shift
                ? 50 + k
                : p[3 * ((k >> 2) - shift) + (k % 4)]),
            );
          const { device } = await acquireGpu({ adapter: "software" });
          device.pushErrorScope("validation");
          const solver = new ImplicitSprings(device, { particleCount: N, springs: shifted });
          assert.deepEqual([solver.firstParticle, solver.slotCount], [shift, n]);
          const lists = bondLists(N, shifted.map((s) => [s.i, s.j]));
          const pos = storageBuffer(device, {
            label: "pos",
            size: 16 * N,
            data: posData(moved),
          });
          const bondStart = storageBuffer(device, {
            label: "bondStart",
            size: 4 * (N + 1),
            data: lists.start,
          });
          const bondList = storageBuffer(device, {
            label: "bondList",
            size: lists.list.byteLength,
            data: lists.list,
          });
          const breaking = new SpringBreaking(device, {
            springs: solver,
            pos,
            bondStart,
            bondList,
            brokenBit: BROKEN,
            compression,
          });
          assert.equal(breaking.breakable, springs.length);
          const run = () => {
            const enc = device.createCommandEncoder({ label: "break" });
            breaking.encode(enc);
            device.queue.submit([enc.finish()]);
          };
          run();
          const brokenPairs = new Set<string>();
          for (let b = 0; b < ref.broken.length; b++) {
            if (ref.broken[b]) {
              brokenPairs.add(`${ref.i[b]},${ref.j[b]}`);
            }
          }
          const key = (a: number, b: number) => (a < b ? `${a},${b}` : `${b},${a}`);
          const check = async () => {
            const csr = solver.springCsr;
            const start = new Uint32Array(await readBuffer(device, csr.start));
            const words = new Uint32Array(await readBuffer(device, csr.words));
            const bits = solver.packed.partnerBits;
            for (let i = 0; i < n; i++) {
              for (let e = start[i]; e < start[i + 1]; e++) {
                const partner = springPartner(words[e], bits);
                assert.equal(partner, springPartner(solver.packed.words[e], bits), "partner kept");
                const isBroken = brokenPairs.has(key(i, partner));
                assert.equal(
                  springClass(words[e], bits) === 0,
                  isBroken,
                  `class of (${i}, ${partner})`,
                );
              }
            }
            const list = new Uint32Array(await readBuffer(device, bondList));
            for (let i = shift; i < N; i++) {
              for (let e = lists.start[i]; e < lists.start[i + 1]; e++) {
                const partner = list[e] & ~BROKEN;
                assert.equal(partner, lists.list[e], "partner bits kept");
                const pair = key(i - shift, partner - shift);
                assert.equal((list[e] & BROKEN) !== 0, brokenPairs.has(pair), "flag");
              }
            }
            assert.equal(await breaking.readBroken(), want);
          };
          await check();
          // back to the reference configuration: nothing heals, nothing more breaks
          device.queue.writeBuffer(pos, 0, posData(positions));
          run();
          await check();
          assert.equal(await device.popErrorScope(), null);
          breaking.destroy();
          solver.destroy();
          device.destroy();
        }
      },
    );
  }

  await t.step("springs without a critical stretch never break (nothing encoded)", async () => {
    const { device } = await acquireGpu({ adapter: "software" });
    const springs = [{ i: 0, j: 1, restLength: 1, ks: 1, kd: 0 }];
    const solver = new ImplicitSprings(device, { particleCount: 2, springs });
    const buf = (size: number) => storageBuffer(device, { label: "b", size });
    const breaking = new SpringBreaking(device, {
      springs: solver,
      pos: buf(32),
      bondStart: buf(12),
      bondList: buf(8),
      brokenBit: BROKEN,
      compression: 0.25,
    });
    assert.equal(breaking.active, false);
    breaking.destroy();
    solver.destroy();
    device.destroy();
  });
});
