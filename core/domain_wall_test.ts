import assert from "node:assert/strict";
import { wallStep } from "./domain_wall.ts";

const WALLS = { lo: [0, 0, 0], hi: [1, 1, 1], dt: 0.1 };

Deno.test("wallStep: a velocity condition, never a position correction", () => {
  // free inside; onto the low wall (x 0.05 at −1 m/s would reach −0.05); outside and moving out:
  // stays, its outward velocity gone; outside and moving in: moves in freely
  assert.deepEqual(wallStep([0.5, 0.5, 0.5], [1, -1, 0], WALLS), {
    x: [0.6, 0.4, 0.5],
    v: [1, -1, 0],
  });
  const onto = wallStep([0.05, 0.95, 0.5], [-1, 2, 0], WALLS);
  assert.ok(Math.abs(onto.x[0]) < 1e-15 && Math.abs(onto.x[1] - 1) < 1e-15, `${onto.x}`);
  assert.deepEqual(onto.v, [0, 0, 0]);
  assert.deepEqual(wallStep([-0.2, 0.5, 0.5], [-1, 0, 0], WALLS), {
    x: [-0.2, 0.5, 0.5],
    v: [0, 0, 0],
  });
  const back = wallStep([-0.2, 0.5, 0.5], [1, 0, 0], WALLS);
  assert.ok(Math.abs(back.x[0] + 0.1) < 1e-15 && back.v[0] === 1, `${back.x} ${back.v}`);
});
