import assert from "node:assert/strict";
import {
  decodeBodies,
  decodeFragments,
  decodeFrame,
  encodeBodies,
  encodeFragments,
  encodeFrame,
  encodeGroups,
  NO_FRAGMENT_LABEL,
  type Snapshots,
} from "./snapshot_codec.ts";
import { parseResults, recordLine } from "../result.ts";
import { recordFixture } from "../result_fixture.ts";

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

const NONE = NO_FRAGMENT_LABEL;

Deno.test("fragments: dense ids by size descending, 0 for no solid, round trip", () => {
  // Labels as the GPU writes them: the smallest particle index of each fragment.
  // Fragment 2 has 3 particles, fragment 5 has 2, fragment 0 has 2, fragment 9 has 1.
  const labels = new Uint32Array([0, NONE, 2, 2, 0, 5, 2, 5, NONE, 9]);
  const enc = encodeFragments(labels, { stride: 1 });
  assert.equal(enc.fragmentCount, 4);
  const ids = decodeFragments(enc.fragments, { count: labels.length });
  assert.ok(ids instanceof Uint8Array);
  // Largest (label 2) is 1; labels 0 and 5 tie at 2 particles: smaller label first.
  assert.deepEqual([...ids], [2, 0, 1, 1, 2, 3, 1, 3, 0, 4]);
  // Independent of how the labels are named: the same partition gives the same ids.
  const renamed = new Uint32Array(labels.map((l) => (l === NONE ? NONE : 100 + l)));
  assert.equal(encodeFragments(renamed, { stride: 1 }).fragments, enc.fragments);
});

Deno.test("fragments: stride records every k-th particle, sizes over all particles", () => {
  // Fragment 7 has 4 particles but only one is recorded with stride 3; fragment 1 has 3.
  const labels = new Uint32Array([1, 7, 7, 1, 7, 7, 1, NONE]);
  const enc = encodeFragments(labels, { stride: 3 });
  assert.equal(enc.fragmentCount, 2);
  const ids = decodeFragments(enc.fragments, { count: 3 });
  assert.deepEqual([...ids], [2, 2, 2]); // particles 0, 3, 6: all in fragment 1 (the second largest)
  assert.deepEqual([
    ...decodeFragments(encodeFragments(labels, { stride: 2 }).fragments, { count: 4 }),
  ], [
    2,
    1,
    1,
    2,
  ]);
  assert.throws(() => encodeFragments(labels, { stride: 0 }), /stride must be an integer ≥ 1/);
});

Deno.test("fragments: wider ids when there are more than 255 or 65535 fragments", () => {
  for (const [n, Type] of [[300, Uint16Array], [70000, Uint32Array]] as const) {
    const labels = Uint32Array.from({ length: n }, (_, i) => i); // every particle alone
    const enc = encodeFragments(labels, { stride: 1 });
    assert.equal(enc.fragmentCount, n);
    const ids = decodeFragments(enc.fragments, { count: n });
    assert.ok(ids instanceof Type);
    // Equal sizes: ordered by label, so particle i has id i + 1.
    assert.equal(ids[0], 1);
    assert.equal(ids[n - 1], n);
  }
  assert.deepEqual([
    ...decodeFragments(encodeFragments(new Uint32Array(0), { stride: 1 }).fragments, { count: 0 }),
  ], []);
  assert.throws(
    () =>
      decodeFragments(encodeFragments(new Uint32Array([1, 1, 1]), { stride: 1 }).fragments, {
        count: 2,
      }),
    /3 bytes do not hold 1, 2 or 4 bytes for each of 2 particles/,
  );
});

Deno.test("fragments: optional per frame; records without the field still parse", () => {
  const frame = (fields: Partial<Snapshots["frames"][number]> = {}) => ({
    step: 0,
    time: 0,
    positions: "",
    ...fields,
  });
  const snapshots: Snapshots = {
    bodies: [{ name: "wall", kind: "solid" }],
    body: encodeBodies(new Uint32Array(2), 1),
    count: 2,
    stride: 1,
    radius: 0.01,
    domain: { min: [0, 0, 0], max: [1, 1, 1] },
    frames: [
      frame(),
      frame({
        step: 10,
        ...encodeFragments(new Uint32Array([0, 1]), { stride: 1 }),
        fragmentsStep: 10,
      }),
    ],
  };
  const base = recordFixture();
  const text = JSON.stringify({ ...base, snapshots }) + "\n" + JSON.stringify(base) + "\n";
  const [withField, without] = parseResults(text);
  assert.equal(withField.snapshots!.frames[0].fragments, undefined);
  assert.equal(withField.snapshots!.frames[1].fragmentCount, 2);
  assert.deepEqual([...decodeFragments(withField.snapshots!.frames[1].fragments!, { count: 2 })], [
    1,
    2,
  ]);
  assert.equal(without.snapshots, undefined);
  assert.equal(parseResults(recordLine(withField))[0].snapshots!.frames[1].fragmentsStep, 10);
});

Deno.test("meta-particles: dense ids by size, 0 for a particle alone, none where nothing merged", () => {
  // groups rooted at 0 (particles 0, 1), at 3 (3, 4, 5); 2 and 6 alone
  const dof = new Uint32Array([0, 0, 2, 3, 3, 3, 6]);
  const g = encodeGroups(dof, { stride: 1 })!;
  assert.equal(g.groupCount, 2);
  assert.deepEqual([...decodeFragments(g.groups, { count: 7 })], [2, 2, 0, 1, 1, 1, 0]);
  const strided = encodeGroups(dof, { stride: 3 })!;
  assert.deepEqual([...decodeFragments(strided.groups, { count: 3 })], [2, 1, 0]);
  assert.equal(
    encodeGroups(new Uint32Array([0, 1, 2]), { stride: 1 }),
    null,
    "every particle alone",
  );
});
