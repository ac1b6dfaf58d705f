import assert from "node:assert/strict";
import { decodeBodies, decodeFrame, encodeBodies, encodeFrame } from "./snapshot_codec.ts";

Deno.test("snapshots round-trip within the quantisation step", () => {
  const domain = {
    min: [-1, -2, 0] as [number, number, number],
    max: [1, 2, 3] as [number, number, number],
  };
  const pos = new Float32Array([0.5, -1.5, 2.9, 0.02, 0, 1.25, 0, 0, -0.999, 1.999, 0.001, 0]);
  const back = decodeFrame(encodeFrame(pos, { domain, stride: 1 }), { domain });
  for (let i = 0; i < 3; i++) {
    for (let a = 0; a < 3; a++) {
      assert.ok(
        Math.abs(back[3 * i + a] - pos[4 * i + a]) <= (domain.max[a] - domain.min[a]) / 65535,
      );
    }
  }
  const strided = decodeFrame(encodeFrame(pos, { domain, stride: 2 }), { domain });
  assert.equal(strided.length, 6);
  assert.deepEqual([...decodeBodies(encodeBodies(new Uint32Array([0, 1, 1, 0, 1]), 2))], [0, 1, 1]);
});
