import assert from "node:assert/strict";
import { type CaseRecord, parseResults, recordLine } from "../../core/result.ts";
import { fillSystems, withSystems } from "./fill_systems.ts";

/** A committed record of the default suite at small, as a record made before `systems` was kept. */
function olderRecord(): CaseRecord {
  const url = new URL("../../docs/results/small-lavapipe-default/results.jsonl", import.meta.url);
  const r = parseResults(Deno.readTextFileSync(url)).find((r) => r.scene === "fig4-fluid-cloth")!;
  const { systems: _, ...old } = r;
  return old;
}

Deno.test("fill_systems: a catalogue record without systems gets its scene's", () => {
  const bare = olderRecord();
  assert.equal(bare.sceneSource, "catalog");
  assert.deepEqual(withSystems(bare).systems?.sort(), ["mass-spring", "sph"]);
  const kept = { ...bare, systems: ["flip"] };
  assert.equal(withSystems(kept), kept, "a record's own systems stay");
  const file = { ...bare, sceneSource: "file" as const };
  assert.equal(withSystems(file), file, "a scene file's systems are not the catalogue's to say");
  const { text, filled } = fillSystems([bare, kept, file].map(recordLine).join(""));
  assert.equal(filled, 1);
  assert.deepEqual(parseResults(text).map((r) => r.systems?.length ?? 0), [2, 1, 0]);
});
