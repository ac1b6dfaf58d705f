import assert from "node:assert/strict";
import { acquireGpu } from "./device.ts";
import { readBuffer, storageBuffer } from "./kernel.ts";
import { PREFIX_SCAN_WGSL, PrefixScan, SCAN_PARAMS } from "./prefix_scan.ts";
import { checkWgslStruct } from "./struct_layout.ts";
import { Rng } from "../../core/rng.ts";

Deno.test("PrefixScan", async (t) => {
  const { device } = await acquireGpu({ adapter: "software", label: "prefix scan test" });
  device.pushErrorScope("validation");

  await t.step("WGSL struct matches the TypeScript layout", () => {
    checkWgslStruct(PREFIX_SCAN_WGSL, SCAN_PARAMS);
  });

  for (const [n, wg] of [[1, 256], [255, 256], [256, 32], [1000, 32], [70_001, 64]] as const) {
    await t.step(`exclusive sum of ${n} random u32 (WG ${wg}) equals the host's`, async () => {
      const rng = new Rng(n);
      const data = Uint32Array.from({ length: n }, () => rng.int(0, 1000));
      const buf = storageBuffer(device, { label: "scan data", size: 4 * n, data });
      const scan = new PrefixScan(device, { label: "scan test", data: buf, n, workgroupSize: wg });
      const enc = device.createCommandEncoder({ label: "scan test" });
      const pass = enc.beginComputePass({ label: "scan test" });
      scan.encode(pass);
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
    });
  }

  await t.step("rejects a bad workgroup size or a short buffer, naming them", () => {
    const buf = storageBuffer(device, { label: "short", size: 16 });
    assert.throws(
      () => new PrefixScan(device, { label: "s", data: buf, n: 4, workgroupSize: 48 }),
      /workgroupSize must be a power of two/,
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
