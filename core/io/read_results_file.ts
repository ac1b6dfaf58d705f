/**
 * Reads a `results.jsonl` file as the report and `--verify` do: streamed line by line through
 * `read_text_limited.ts` (a regular file only, each line at most {@link MAX_RESULT_LINE_BYTES}),
 * every line read tolerantly by `result.ts`'s `readResults` (a torn or malformed line is skipped
 * and named, the reason's control characters escaped), and a line past the limit skipped and named with its length: a file of any size is
 * read in the memory of its records, and `/dev/zero` is refused at once.
 *
 * @module
 */
import { formatBytes, MAX_RESULT_LINE_BYTES, readLinesLimited } from "./read_text_limited.ts";
import { type ReadResults, readResults } from "../result.ts";
import { withoutControls } from "../option_text.ts";

/**
 * The records of the results file `path` and the lines left out (each with its 1-based number
 * and the reason), reading at most `maxLineBytes` of any line. Throws `read_text_limited.ts`'s
 * `InputLimitError` for a file that is not regular and the file system's error when it cannot be
 * read.
 */
export function readResultsFile(
  path: string,
  options: { maxLineBytes?: number } = {},
): ReadResults {
  const max = options.maxLineBytes ?? MAX_RESULT_LINE_BYTES;
  const out: ReadResults = { records: [], skipped: [] };
  for (const l of readLinesLimited(path, max)) {
    if (l.text === null) {
      out.skipped.push({
        line: l.line,
        reason: `longer than the limit of ${formatBytes(max)} (${
          formatBytes(l.bytes)
        }), not read; no record is that long: delete the line`,
      });
      continue;
    }
    const one = readResults(l.text);
    out.records.push(...one.records);
    // a reason quotes the bad value: printed plainly, whatever control characters it holds
    out.skipped.push(
      ...one.skipped.map((s) => ({ ...s, line: l.line, reason: withoutControls(s.reason) })),
    );
  }
  return out;
}
