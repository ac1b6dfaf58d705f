import assert from "node:assert/strict";
import { readBuffer, storageBuffer } from "../runtime/kernel.ts";

const STORAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
import fc from "fast-check";
import { acquireGpu } from "../runtime/device.ts";
import { DOF_MAP_PARAMS_STRUCT, DOF_MAP_WGSL, DofMap } from "./dof_map.ts";
import { checkWgslStruct } from "../runtime/struct_layout.ts";

/** A storage buffer holding `data` (gpu/runtime/kernel.ts). */
const upload = (device: GPUDevice, label: string, data: Float32Array | Uint32Array): GPUBuffer =>
  storageBuffer(device, { label, size: data.byteLength, data });

/** The whole buffer read back as f32. */
const read = async (device: GPUDevice, buffer: GPUBuffer): Promise<Float32Array> =>
  new Float32Array(await readBuffer(device, buffer));

/** dof array from a random grouping: each particle joins the group of a random earlier root. */
function dofsFrom(choices: number[]): Uint32Array {
  const n = choices.length;
  const dof = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const c = choices[i] % (i + 1);
    dof[i] = c === i ? i : dof[c];
  }
  return dof;
}

function csr(dof: Uint32Array): { start: Uint32Array; list: Uint32Array } {
  const n = dof.length;
  const start = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) start[dof[i] + 1]++;
  for (let d = 0; d < n; d++) start[d + 1] += start[d];
  const fill = start.slice(0, n);
  const list = new Uint32Array(n);
  for (let i = 0; i < n; i++) list[fill[dof[i]]++] = i;
  return { start, list };
}

Deno.test("DofMap on the software adapter", async (t) => {
  const { device } = await acquireGpu({ adapter: "software" });
  const gpuErrors: string[] = [];
  device.addEventListener("uncapturederror", (e) => {
    gpuErrors.push((e as GPUUncapturedErrorEvent).error.message);
  });

  await t.step("WGSL struct matches DOF_MAP_PARAMS_STRUCT", () => {
    checkWgslStruct(DOF_MAP_WGSL, DOF_MAP_PARAMS_STRUCT);
  });

  await t.step(
    "scatter sums members in ascending order (bit-exact); gather reads the DOF",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 200 }),
          fc.integer({ min: 1, max: 1e9 }),
          fc.constantFrom(1, 32, 64),
          async (choices, seed, workgroupSize) => {
            const dof = dofsFrom(choices);
            const n = dof.length;
            const { start, list } = csr(dof);
            const values = new Float32Array(4 * n);
            let s = seed;
            for (let k = 0; k < values.length; k++) {
              s = (s * 1103515245 + 12345) >>> 0;
              values[k] = (s / 2 ** 32 - 0.5) * 10 ** ((s % 7) - 3);
            }
            const map = new DofMap(device, { count: n, workgroupSize, label: "test dofMap" });
            const src = upload(device, "src", values);
            const sum = upload(device, "sum", new Float32Array(4 * n).fill(NaN));
            const gathered = upload(device, "gathered", new Float32Array(4 * n));
            const dofBuf = upload(device, "dof", dof);
            const startBuf = upload(device, "memberStart", start);
            const listBuf = upload(device, "memberList", list);
            const encoder = device.createCommandEncoder({ label: "dof map test" });
            const pass = encoder.beginComputePass({ label: "dof map test pass" });
            map.encodeScatterToDofs(
              pass,
              map.bindScatter({ memberStart: startBuf, memberList: listBuf, src, dst: sum }),
            );
            map.encodeGatherFromDofs(
              pass,
              map.bindGather({ dof: dofBuf, src: sum, dst: gathered }),
            );
            pass.end();
            device.queue.submit([encoder.finish()]);
            const [got, back] = [await read(device, sum), await read(device, gathered)];
            for (let d = 0; d < n; d++) {
              for (let a = 0; a < 4; a++) {
                let want = 0;
                for (let k = start[d]; k < start[d + 1]; k++) {
                  want = Math.fround(want + values[4 * list[k] + a]);
                }
                assert.equal(got[4 * d + a], want, `slot ${d} component ${a}`);
              }
            }
            for (let i = 0; i < n; i++) {
              for (let a = 0; a < 4; a++) assert.equal(back[4 * i + a], got[4 * dof[i] + a]);
            }
            for (const b of [src, sum, gathered, dofBuf, startBuf, listBuf]) b.destroy();
            map.destroy();
          },
        ),
        { numRuns: 15 },
      );
    },
  );

  await t.step("errors name the bad argument", () => {
    assert.throws(() => new DofMap(device, { count: 0 }), /options\.count/);
    assert.throws(() => new DofMap(device, { count: 4, workgroupSize: 300 }), /workgroupSize/);
    const map = new DofMap(device, { count: 8 });
    const small = device.createBuffer({ label: "small", size: 16, usage: STORAGE });
    const big = device.createBuffer({ label: "big", size: 256, usage: STORAGE });
    assert.throws(
      () => map.bindGather({ dof: big, src: small, dst: big }),
      /buffers\.src has 16 bytes/,
    );
    const uniform = device.createBuffer({
      label: "uniform",
      size: 256,
      usage: GPUBufferUsage.UNIFORM,
    });
    assert.throws(
      () => map.bindScatter({ memberStart: big, memberList: uniform, src: big, dst: big }),
      /buffers\.memberList needs GPUBufferUsage\.STORAGE/,
    );
    for (const b of [small, big, uniform]) b.destroy();
    map.destroy();
  });

  await t.step("no uncaptured GPU errors", () => {
    assert.deepEqual(gpuErrors, []);
  });

  device.destroy();
});
