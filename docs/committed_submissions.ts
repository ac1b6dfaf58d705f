/**
 * The hardware submissions committed under `docs/hardware/` that `deno task docs` makes rows of:
 * each must pass the checker (`./check_submission.ts`), so that the table never shows a row the
 * checker would refuse; one it refuses stops the task with its reasons.
 *
 * @module
 */
import { submissionProblems } from "./check_submission.ts";
import {
  readSubmission,
  type Submission,
  submissionDirs,
  SubmissionReadError,
} from "./read_submission.ts";

/**
 * Every committed submission under `root`, by folder name; throws a {@link SubmissionReadError}
 * naming a folder that is no submission or that the checker refuses, and why.
 */
export function committedSubmissions(root: URL): Submission[] {
  return submissionDirs(root).map((dir) => {
    const s = readSubmission(dir);
    const problems = submissionProblems(s);
    if (problems.length > 0) {
      throw new SubmissionReadError(
        `${dir} is refused by the checker: ${problems.join("; ")}; fix or remove it ` +
          "(deno task check-submission names the same)",
      );
    }
    return s;
  });
}
