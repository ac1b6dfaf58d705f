import assert from "node:assert/strict";
import { didYouMean, editDistance, nearestName } from "./nearest_name.ts";

Deno.test("editDistance: insertions, deletions and substitutions, case-blind", () => {
  assert.equal(editDistance("durationn", "duration"), 1);
  assert.equal(editDistance("velocty", "velocity"), 1);
  assert.equal(editDistance("Radius", "radius"), 0);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("kitten", "sitting"), 3);
});

Deno.test("nearestName: the closest valid name, or none when nothing is near", () => {
  const keys = ["duration", "dt", "radius", "velocity", "metricsEvery"];
  assert.equal(nearestName("durationn", keys), "duration");
  assert.equal(nearestName("velocty", keys), "velocity");
  assert.equal(nearestName("metricsevery", keys), "metricsEvery");
  assert.equal(nearestName("zzzzzzzz", keys), undefined);
  assert.equal(didYouMean("durationn", keys), '; did you mean "duration"?');
  assert.equal(didYouMean("zzzzzzzz", keys), "");
});
