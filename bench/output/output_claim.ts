/**
 * The output folder claimed by the bench run writing into it, so that two runs given the same
 * `--out` are never mixed by accident: each run leaves a claim file
 * (`.mergesplit-run-<pid>.lock`, holding its pid, host and start) in the folder while it runs and
 * removes it at its end (at exit too: `unload`). A run without `--append` is refused while another
 * run's claim is live; a claim whose process is gone (same host, pid no longer running: a run that
 * was killed) is stale and taken over. Runs with `--append` may share the folder (their lines are
 * appended whole, `bench/output/results_file.ts`); a `--resume` run shares it with none, since it
 * runs what the folder's results file does not yet hold: two at once would run the same cases.
 *
 * @module
 */
import { hostname } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { OutputDirError } from "./output_dir.ts";

/** The name of a run's claim file in its output folder, before and after its pid. */
export const CLAIM_NAME = { prefix: ".mergesplit-run-", suffix: ".lock" } as const;

/** A claimed output folder; {@link OutputClaim.release} gives it up (removes the claim file). */
export interface OutputClaim {
  /** The claim file. */
  file: string;
  /** Removes the claim file (again: nothing). */
  release(): void;
}

/** What a claim file holds. */
interface ClaimText {
  pid: number;
  host: string;
  started: string;
  append: boolean;
  /** Whether the run is a `--resume` (absent in the claims of older harnesses). */
  resume?: boolean;
}

/** Whether the process `pid` of this host is running (or exists but is not ours to signal). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code !== "ESRCH";
  }
}

/** The claims of other runs in `dir` that are live, after removing the stale ones. */
function liveClaims(
  dir: string,
  own: string,
  alive: (pid: number) => boolean,
): (ClaimText & { file: string })[] {
  const live: (ClaimText & { file: string })[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const { prefix, suffix } = CLAIM_NAME;
    if (!e.name.startsWith(prefix) || !e.name.endsWith(suffix) || e.name === own) continue;
    const file = join(dir, e.name);
    let claim: ClaimText;
    try {
      claim = JSON.parse(Deno.readTextFileSync(file));
    } catch {
      continue; // gone meanwhile, or being written: its run checks for ours in turn
    }
    if (claim.host === hostname() && !alive(claim.pid)) {
      try {
        Deno.removeSync(file); // a killed run's: taken over
      } catch {
        // removed by another run meanwhile
      }
      continue;
    }
    live.push({ ...claim, file });
  }
  return live;
}

/** Why the claim of `other` (a live run) keeps this run out of `dir`, and what to do. */
function conflictText(
  dir: string,
  other: ClaimText & { file: string },
  options: { append?: boolean; resume?: boolean },
): string {
  const resume = options.resume || other.resume;
  const what = resume
    ? `; a --resume run shares its folder with no other run (${
      options.resume ? "this one" : "that one"
    } runs the cases the results file does not yet hold, and two would run them twice)`
    : "";
  const fix = resume ? "" : ", pass --append to add to its results,";
  return `${dir} is being written by another bench run (pid ${other.pid} on ${other.host}, started ` +
    `${other.started})${what}; wait for it to end${fix} or give another --out (remove ${other.file} ` +
    `if that run is over)`;
}

/**
 * Claims the output folder `dir` (it must exist) for this run: writes its claim file, then looks at
 * the other runs' claims. Without `append`, with `resume`, or beside a live `--resume` run, a live
 * claim of another run is refused with an {@link OutputDirError} naming its pid (and this run's
 * claim is withdrawn); stale claims are removed. `pid` and `alive` are for tests.
 */
export function claimOutputDir(
  dir: string,
  options: {
    append?: boolean;
    resume?: boolean;
    pid?: number;
    alive?: (pid: number) => boolean;
  } = {},
): OutputClaim {
  const pid = options.pid ?? Deno.pid;
  const name = `${CLAIM_NAME.prefix}${pid}${CLAIM_NAME.suffix}`;
  const file = join(dir, name);
  const text: ClaimText = {
    pid,
    host: hostname(),
    started: new Date().toISOString(),
    append: Boolean(options.append),
    resume: Boolean(options.resume),
  };
  Deno.writeTextFileSync(file, JSON.stringify(text) + "\n");
  const release = () => {
    try {
      Deno.removeSync(file);
    } catch {
      // already removed
    }
  };
  const live = liveClaims(dir, name, options.alive ?? pidAlive);
  const other = live.find((c) => !options.append || options.resume || c.resume) ?? live[0];
  if (other && (!options.append || options.resume || other.resume)) {
    release();
    throw new OutputDirError(conflictText(dir, other, options));
  }
  globalThis.addEventListener("unload", release);
  return {
    file,
    release() {
      release();
      globalThis.removeEventListener("unload", release);
    },
  };
}
