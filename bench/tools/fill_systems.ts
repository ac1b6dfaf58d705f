/**
 * `deno run -A bench/tools/fill_systems.ts <in.jsonl> <out.jsonl>`: a results file with `systems`
 * (the systems each case's scene configures) filled in where a record of a catalogue scene made
 * before records kept them lacks it, from the scene at its scale, as the bench records it now.
 * The ablation reads a variant's unchanged cases from the paper's records by their systems
 * (`core/setups.ts` `setupChanges`, `reports/claims/claims.ts` `underSetup`) and takes a record
 * without them for one of every system a variant sets; this lets an older run's paper records
 * stand in where they do. Every other field is copied as recorded; a scene file's record is left
 * as it is (its systems are not the catalogue's to say).
 *
 * @module
 */
import { type CaseRecord, parseResults, recordLine } from "../../core/result.ts";
import { getScene } from "../../scenes/catalog.ts";
import { writeFileAtomic } from "../../core/io/write_file_atomic.ts";

/** `r` with the systems of its catalogue scene where it lacks them (else `r` itself). */
export function withSystems(r: CaseRecord): CaseRecord {
  if (r.systems || r.sceneSource !== "catalog") return r;
  return { ...r, systems: Object.keys(getScene(r.scene, { scale: r.scale }).systems) };
}

/** Fills the records of `text` (a results file); returns the file and how many were filled. */
export function fillSystems(text: string): { text: string; filled: number } {
  const records = parseResults(text);
  const out = records.map(withSystems);
  return {
    text: out.map(recordLine).join(""),
    filled: out.filter((r, k) => r !== records[k]).length,
  };
}

if (import.meta.main) {
  const [input, output] = Deno.args;
  if (!input || !output) {
    console.error("usage: deno run -A bench/tools/fill_systems.ts <in.jsonl> <out.jsonl>");
    Deno.exit(2);
  }
  const { text, filled } = fillSystems(Deno.readTextFileSync(input));
  writeFileAtomic(output, text);
  console.log(`${output}: ${filled} records given their scene's systems`);
}
