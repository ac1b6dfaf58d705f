import assert from "node:assert/strict";
import { acquireGpu } from "./device.ts";
import { dispatchesEncoded, kernelWorkgroupSizes, readBuffer, storageBuffer } from "./kernel.ts";
import {
  PREFIX_SCAN_WGSL,
  PrefixScan,
  SCAN_PARAMS,
  scanDispatches,
  scanItemsPerInvocation,
} from "./prefix_scan.ts";
import { checkWgslStruct } from "./struct_layout.ts";
import { Rng } from "../../core/rng.ts";

Deno.test("PrefixScan", async (t) => {
  const { device } = await acquireGpu({ adapter: "software", label: "prefix scan test" });
  device.pushErrorScope("validation");

  await t.step("WGSL struct matches the TypeScript layout", () => {
    checkWgslStruct(PREFIX_SCAN_WGSL, SCAN_PARAMS);
  });

  // [n, workgroup size, items per invocation, levels bound]: one block, block edges, 2 and 3
  // levels, and items raised by a bound on the levels; runs that fit one workgroup (1, 4096 at
  // 256 × 16, 33 at 32 × 3) take scan_single's one dispatch, 4097 at 256 × 16 the levels.
  const cases = [
    [1, 256, 16],
    [255, 256, 1],
    [256, 32, 1],
    [1000, 32, 1],
    [70_001, 64, 1],
    [4096, 256, 16],
    [4097, 256, 16],
    [121_501, 256, 16],
    [100_000, 32, 2],
    [33, 32, 3],
    [300_001, 256, 256],
    [200_001, 32, 16, 2],
  ] as const;
  for (const [n, wg, items, maxLevels] of cases) {
    await t.step(
      `exclusive sum of ${n} random u32 (WG ${wg}, ${items} per invocation, ${
        maxLevels ?? "any"
      } levels)`,
      async () => {
        const rng = new Rng(n);
        const data = Uint32Array.from({ length: n }, () => rng.int(0, 1000));
        const buf = storageBuffer(device, { label: "scan data", size: 4 * n, data });
        const scan = new PrefixScan(device, {
          label: "scan test",
          data: buf,
          n,
          workgroupSize: wg,
          itemsPerInvocation: items,
          maxLevels,
        });
        const enc = device.createCommandEncoder({ label: "scan test" });
        const pass = enc.beginComputePass({ label: "scan test" });
        const before = dispatchesEncoded();
        scan.encode(pass);
        const dispatches = dispatchesEncoded() - before;
        assert.equal(dispatches, scanDispatches(n, scan.itemsPerInvocation, wg));
        if (maxLevels) assert.ok(dispatches <= 2 * maxLevels + 1, `${dispatches} dispatches`);
        pass.end();
        device.queue.submit([enc.finish()]);
        const got = new Uint32Array(await readBuffer(device, buf), 0, n);
        const total = new Uint32Array(await readBuffer(device, scan.total))[0];
        let acc = 0;
        for (let i = 0; i < n; i++) {
          assert.equal(got[i], acc, `element ${i}`);
          acc += data[i];
        }
        assert.equal(total, acc);
        scan.destroy();
        buf.destroy();
      },
    );
  }

  await t.step("the software adapter gets 64 items per invocation, recorded with the run", () => {
    assert.equal(scanItemsPerInvocation(device), 64);
    const buf = storageBuffer(device, { label: "scan default", size: 4 * 10 });
    const scan = new PrefixScan(device, { label: "default scan", data: buf, n: 10 });
    assert.equal(scan.itemsPerInvocation, 64);
    assert.equal(kernelWorkgroupSizes(device)["default scan sum_items ITEMS"], 64);
    scan.destroy();
    buf.destroy();
  });

  await t.step("rejects a bad workgroup size or a short buffer, naming them", () => {
    const buf = storageBuffer(device, { label: "short", size: 16 });
    assert.throws(
      () => new PrefixScan(device, { label: "s", data: buf, n: 4, workgroupSize: 48 }),
      /workgroupSize must be a power of two/,
    );
    assert.throws(
      () => new PrefixScan(device, { label: "s", data: buf, n: 4, itemsPerInvocation: 0 }),
      /itemsPerInvocation must be an integer in \[1, 256\], got 0/,
    );
    assert.throws(
      () => new PrefixScan(device, { label: "s", data: buf, n: 5 }),
      /"short" has 16 bytes/,
    );
    buf.destroy();
  });

  assert.equal(await device.popErrorScope(), null);
  device.destroy();
});
