import assert from "node:assert/strict";
import fc from "fast-check";
import type { Spring } from "../../core/model/spring.ts";
import { RUNS } from "../../core/test_util.ts";
import {
  packSprings,
  partnerBitsFor,
  SPRING_CLASS_STRUCT,
  SPRING_CSR_WGSL,
  springClass,
  springPartner,
} from "./spring_csr.ts";
import { splitBinding } from "../runtime/split_binding.ts";
import { checkWgslStruct } from "../runtime/struct_layout.ts";

/** Springs with parameters drawn from a few values (as lattice bonds are). */
const springsArb = fc.integer({ min: 2, max: 40 }).chain((n) =>
  fc.tuple(
    fc.constant(n),
    fc.array(
      fc.record({
        i: fc.integer({ min: 0, max: n - 1 }),
        j: fc.integer({ min: 0, max: n - 1 }),
        restLength: fc.constantFrom(0.1, 0.2, 0.3),
        ks: fc.constantFrom(0, 10, 1e4),
        kd: fc.constantFrom(0, 0.5),
        breakStretch: fc.constantFrom(undefined, 0.01),
      }).filter((s) => s.i !== s.j),
      { maxLength: 120 },
    ),
  )
);

Deno.test("packSprings: 4-byte CSR words and a class table", async (t) => {
  await t.step("the WGSL struct matches its layout", () => {
    checkWgslStruct(SPRING_CSR_WGSL, SPRING_CLASS_STRUCT);
  });

  await t.step("every spring decodes to its partner and parameters, under both ends", () => {
    fc.assert(
      fc.property(springsArb, ([n, springs]) => {
        const p = packSprings(springs as Spring[], { particleCount: n });
        assert.equal(p.partnerBits, partnerBitsFor(n));
        assert.equal(p.words.length, 2 * springs.length);
        assert.deepEqual([...p.classes.slice(0, 4)], [0, 0, 0, 0], "class 0 is the zero spring");
        // entries of particle i, in spring-list order, as the old per-entry structs were
        const want: string[][] = Array.from({ length: n }, () => []);
        const f = (x: number) => Math.fround(x);
        for (const s of springs) {
          const par = `${f(s.restLength)},${f(s.ks)},${f(s.kd)},${f(s.breakStretch ?? 0)}`;
          want[s.i].push(`${s.j}:${par}`);
          want[s.j].push(`${s.i}:${par}`);
        }
        for (let i = 0; i < n; i++) {
          const got = [];
          for (let e = p.start[i]; e < p.start[i + 1]; e++) {
            const c = springClass(p.words[e], p.partnerBits);
            assert.ok(c > 0, "no spring is packed as class 0");
            const row = p.classes.slice(4 * c, 4 * c + 4);
            got.push(`${springPartner(p.words[e], p.partnerBits)}:${[...row].join(",")}`);
          }
          assert.deepEqual(got, want[i]);
        }
        assert.equal(p.breakable, springs.filter((s) => s.breakStretch).length);
      }),
      { numRuns: RUNS / 4 },
    );
  });

  await t.step("lower ends: each spring once, under its lower index, partners ascending", () => {
    fc.assert(
      fc.property(springsArb, ([n, springs]) => {
        const p = packSprings(springs as Spring[], { particleCount: n, ends: "lower" });
        assert.equal(p.words.length, springs.length);
        const want: number[][] = Array.from({ length: n }, () => []);
        for (const s of springs) want[Math.min(s.i, s.j)].push(Math.max(s.i, s.j));
        for (let i = 0; i < n; i++) {
          const got = [...p.words.subarray(p.start[i], p.start[i + 1])].map((w) =>
            springPartner(w, p.partnerBits)
          );
          assert.deepEqual(got, want[i].sort((a, b) => a - b));
        }
      }),
      { numRuns: RUNS / 4 },
    );
  });

  await t.step("the class field takes what the partner bits leave", () => {
    assert.equal(partnerBitsFor(1), 1);
    assert.equal(partnerBitsFor(2), 1);
    assert.equal(partnerBitsFor(3), 2);
    assert.equal(partnerBitsFor(1 << 20), 20);
    assert.equal(partnerBitsFor((1 << 20) + 1), 21);
    // n = 2^24 + 1 needs 25 partner bits: 7 class bits, the zero spring and 127 classes
    const n = 2 ** 24 + 1;
    const spring = (k: number): Spring => ({ i: 0, j: 1, restLength: 1 + k, ks: 1, kd: 0 });
    const springs = Array.from({ length: 127 }, (_, k) => spring(k));
    assert.equal(packSprings(springs, { particleCount: n }).classes.length, 4 * 128);
    assert.throws(
      () => packSprings([...springs, spring(127)], { particleCount: n }),
      /more than 127 distinct \(rest length, ks, kd, breakStretch\) sets/,
    );
  });

  await t.step("errors name the bad spring", () => {
    const s: Spring = { i: 0, j: 1, restLength: 1, ks: 1, kd: 0 };
    assert.throws(() => packSprings([s, { ...s, j: 5 }], { particleCount: 2 }), /springs\[1\]\.j/);
    assert.throws(() => packSprings([{ ...s, j: 0 }], { particleCount: 2 }), /to itself/);
    assert.throws(() => packSprings([{ ...s, kd: -1 }], { particleCount: 2 }), /springs\[0\]\.kd/);
    assert.doesNotThrow(() => packSprings([s], { particleCount: 2, name: "bonds" }));
    assert.throws(
      () => packSprings([{ ...s, ks: NaN }], { particleCount: 2, name: "bonds" }),
      /bonds\[0\]\.ks/,
    );
  });
});

Deno.test("splitBinding: ranges under the limit, second at a 256-byte offset", () => {
  const fake = (size: number) => ({ size } as GPUBuffer);
  const device = { limits: { maxStorageBufferBindingSize: 1000 } } as unknown as GPUDevice;
  const dummy = fake(16);
  const one = splitBinding(fake(800), { device, elementBytes: 4, dummy, name: "w" });
  assert.equal(one.second.buffer, dummy);
  assert.equal(one.firstLength, 200);
  const two = splitBinding(fake(1600), { device, elementBytes: 4, dummy, name: "w" });
  assert.deepEqual([two.first.offset, two.first.size, two.second.offset, two.second.size], [
    0,
    768,
    768,
    832,
  ]);
  assert.equal(two.firstLength, 192);
  assert.throws(
    () => splitBinding(fake(2000), { device, elementBytes: 4, dummy, name: "spring words" }),
    /spring words: 2000 bytes need more than two bindings of at most 1000 bytes/,
  );
});
