/**
 * Test fixture: one of several processes appending to one results file at once. Appends `count`
 * lines of about `bytes` bytes each with {@link appendResultLine}, each a JSON record naming the
 * writer and the line's number, so that a reader can tell every line intact.
 *
 * `deno run -A bench/output/results_file_writer_fixture.ts <path> <writer> <count> <bytes>`
 *
 * @module
 */
import { appendResultLine } from "./results_file.ts";

/** The line `writer` writes as its `index`-th: a JSON record padded to about `bytes` bytes. */
export function writerLine(writer: number, index: number, bytes: number): string {
  return JSON.stringify({ writer, index, pad: String(writer % 10).repeat(bytes) }) + "\n";
}

if (import.meta.main) {
  const [path, writer, count, bytes] = Deno.args;
  for (let i = 0; i < Number(count); i++) {
    appendResultLine(path, writerLine(Number(writer), i, Number(bytes)), { what: `line ${i}` });
  }
}
