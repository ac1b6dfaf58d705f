import assert from "node:assert/strict";
import { readBuffer, storageBuffer } from "./kernel.ts";

const STORAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
import fc from "fast-check";
import { acquireGpu } from "./device.ts";
import { MaskedReduction, REDUCE_PARAMS_STRUCT, REDUCE_WGSL } from "./reduce.ts";
import { checkWgslStruct } from "./struct_layout.ts";

/** A storage buffer holding `data` (gpu/runtime/kernel.ts). */
const upload = (device: GPUDevice, label: string, data: Float32Array | Uint32Array): GPUBuffer =>
  storageBuffer(device, { label, size: data.byteLength, data });

/** The whole buffer read back as f32. */
const read = async (device: GPUDevice, buffer: GPUBuffer): Promise<Float32Array> =>
  new Float32Array(await readBuffer(device, buffer));

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

Deno.test("MaskedReduction on the software adapter", async (t) => {
  const { device } = await acquireGpu({ adapter: "software" });
  const gpuErrors: string[] = [];
  device.addEventListener("uncapturederror", (e) => {
    gpuErrors.push((e as GPUUncapturedErrorEvent).error.message);
  });

  await t.step("WGSL struct matches REDUCE_PARAMS_STRUCT", () => {
    checkWgslStruct(REDUCE_WGSL, REDUCE_PARAMS_STRUCT);
  });

  await t.step(
    "masked dot and sum match f64, over one or several passes, bit-identical reruns",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 3000 }),
          fc.constantFrom(2, 8, 64, 256),
          fc.integer({ min: 1, max: 1e9 }),
          fc.integer({ min: 0, max: 7 }),
          async (n, workgroupSize, seed, maskBits) => {
            const rnd = lcg(seed);
            const a = Float32Array.from({ length: 4 * n }, () => rnd() * 2 - 1);
            const b = Float32Array.from({ length: 4 * n }, () => rnd() * 2 - 1);
            const mask = Uint32Array.from({ length: n }, () => Math.floor(rnd() * 8));
            const reduce = new MaskedReduction(device, {
              length: n,
              workgroupSize,
              label: "test reduce",
            });
            const bufA = upload(device, "a", a), bufB = upload(device, "b", b);
            const bufMask = upload(device, "mask", mask);
            const dst = upload(device, "dst", new Float32Array(16).fill(-7));
            const dot = reduce.createDot({
              a: bufA,
              b: bufB,
              mask: bufMask,
              maskBits,
              dst,
              dstIndex: 3,
            });
            const sum = reduce.createSum({ a: bufA, mask: bufMask, maskBits, dst, dstIndex: 8 });
            const run = async () => {
              const encoder = device.createCommandEncoder({ label: "reduce test" });
              const pass = encoder.beginComputePass({ label: "reduce test pass" });
              reduce.encode(pass, dot);
              reduce.encode(pass, sum);
              pass.end();
              device.queue.submit([encoder.finish()]);
              return await read(device, dst);
            };
            const got = await run();
            let wantDot = 0, absDot = 0;
            const wantSum = [0, 0, 0, 0], absSum = [0, 0, 0, 0];
            for (let i = 0; i < n; i++) {
              if ((mask[i] & maskBits) === 0) continue;
              for (let c = 0; c < 4; c++) {
                wantDot += a[4 * i + c] * b[4 * i + c];
                absDot += Math.abs(a[4 * i + c] * b[4 * i + c]);
                wantSum[c] += a[4 * i + c];
                absSum[c] += Math.abs(a[4 * i + c]);
              }
            }
            const tol = (scale: number) => 1e-6 * (1 + scale);
            assert.ok(Math.abs(got[3] - wantDot) <= tol(absDot), `dot ${got[3]} vs ${wantDot}`);
            for (let c = 0; c < 4; c++) {
              assert.ok(Math.abs(got[8 + c] - wantSum[c]) <= tol(absSum[c]), `sum[${c}]`);
            }
            for (const k of [0, 1, 2, 4, 5, 6, 7, 12, 13, 14, 15]) {
              assert.equal(
                got[k],
                -7,
                `dst[${k}] untouched`,
              );
            }
            assert.deepEqual(await run(), got);
            for (const buf of [bufA, bufB, bufMask, dst]) buf.destroy();
            reduce.destroy();
          },
        ),
        { numRuns: 25 },
      );
    },
  );

  await t.step(
    "buffer ranges, pass counts and indirect dispatch with zero workgroups",
    async () => {
      const n = 300;
      const reduce = new MaskedReduction(device, { length: n, workgroupSize: 16 });
      assert.deepEqual(reduce.workgroupCounts, [19, 2, 1]);
      // Two vectors in one buffer, the second at a 256-byte aligned offset.
      const stride = 320;
      const data = new Float32Array(8 * stride);
      for (let i = 0; i < n; i++) {
        data.set([1, 2, 3, 4], 4 * i);
        data.set([i, 0, 0, 1], 4 * (stride + i));
      }
      const vec = upload(device, "vectors", data);
      const mask = upload(device, "mask", new Uint32Array(n).fill(1));
      const dst = upload(device, "dst", new Float32Array(4));
      const task = reduce.createDot({
        a: { buffer: vec, offset: 0, size: 16 * n },
        b: { buffer: vec, offset: 16 * stride, size: 16 * n },
        mask,
        dst,
        dstIndex: 1,
      });
      const args = device.createBuffer({
        label: "indirect args",
        size: 36,
        usage: GPUBufferUsage.INDIRECT | GPUBufferUsage.COPY_DST,
      });
      const runWith = async (counts: number[]) => {
        device.queue.writeBuffer(args, 0, new Uint32Array(counts.flatMap((c) => [c, 1, 1])));
        const encoder = device.createCommandEncoder({ label: "indirect test" });
        const pass = encoder.beginComputePass({ label: "indirect test pass" });
        reduce.encode(pass, task, { buffer: args, offset: 0 });
        pass.end();
        device.queue.submit([encoder.finish()]);
        return (await read(device, dst))[1];
      };
      const want = (n * (n - 1)) / 2 + 4 * n;
      assert.equal(await runWith([...reduce.workgroupCounts]), want);
      device.queue.writeBuffer(dst, 0, new Float32Array([0, 42, 0, 0]));
      assert.equal(await runWith([0, 0, 0]), 42);
      for (const b of [vec, mask, dst, args]) b.destroy();
      reduce.destroy();
    },
  );

  await t.step("errors name the bad argument", () => {
    assert.throws(() => new MaskedReduction(device, { length: 0 }), /options\.length/);
    assert.throws(
      () => new MaskedReduction(device, { length: 8, workgroupSize: 48 }),
      /workgroupSize/,
    );
    const reduce = new MaskedReduction(device, { length: 8 });
    const buf = device.createBuffer({ label: "buf", size: 512, usage: STORAGE });
    const small = device.createBuffer({ label: "small", size: 64, usage: STORAGE });
    assert.throws(
      () => reduce.createDot({ a: buf, b: small, mask: buf, dst: buf, dstIndex: 0 }),
      /task\.b spans 64 bytes/,
    );
    assert.throws(
      () =>
        reduce.createDot({
          a: { buffer: buf, offset: 16 },
          b: buf,
          mask: buf,
          dst: buf,
          dstIndex: 0,
        }),
      /task\.a offset 16/,
    );
    assert.throws(
      () => reduce.createSum({ a: buf, mask: buf, dst: small, dstIndex: 14 }),
      /task\.dstIndex 14/,
    );
    buf.destroy();
    small.destroy();
    reduce.destroy();
  });

  await t.step("no uncaptured GPU errors", () => {
    assert.deepEqual(gpuErrors, []);
  });

  device.destroy();
});
