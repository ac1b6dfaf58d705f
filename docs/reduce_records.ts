/**
 * What the docs keep of a run's records (`deno task docs --import`): the reduction that makes a
 * run small enough to commit under `docs/results/<run>/`, deterministic (the same records give the
 * same bytes), and what the run's `run.json` says about it.
 *
 * The reduction keeps every field the findings pages and the claims read (the status, the metrics'
 * summary, the timings' medians, `gpu`, `env`, …) and drops what they do not:
 *
 * - each timing phase's `samples` (its median, deviation, interval and extremes stay);
 * - the metrics' time `series` (the claims and the pages read the summary);
 * - all snapshot frames but {@link FRAMES_KEPT}, evenly spaced from the first to the last;
 * - snapshot particles beyond {@link POINTS_MAX}: every k-th recorded particle is kept (k the
 *   smallest that leaves at most {@link POINTS_MAX}), its stride multiplied by k; positions,
 *   bodies, fragments and meta-particles are cut alike, byte for byte, so no value is re-quantised.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { CaseRecord, Environment } from "../core/result.ts";
import type { Snapshots } from "../core/io/snapshot_codec.ts";

/** Snapshot frames a reduced record keeps: the first, the last and two evenly between. */
export const FRAMES_KEPT = 4;
/** Most snapshot particles a reduced record keeps per frame. */
export const POINTS_MAX = 2500;

/**
 * The reduction of a run imported without snapshots (`--no-snapshots`: a run kept for its
 * verdicts, whose pictures come from the runs that keep them), in words, for `run.json`.
 */
export const REDUCTION_NO_SNAPSHOTS =
  "docs/reduce_records.ts: timing samples, metrics series and snapshots dropped; every other " +
  "field as recorded";

/** The reduction, in words, for `run.json`. */
export const REDUCTION =
  `docs/reduce_records.ts: timing samples and metrics series dropped; snapshots cut to ` +
  `${FRAMES_KEPT} frames (first, last, evenly between) and at most ${POINTS_MAX} particles ` +
  `(every k-th recorded particle); every other field as recorded`;

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** Every `k`-th item of `count` items of `width` bytes each in base64 `text`. */
function everyKth(text: string, count: number, width: number, k: number): string {
  const bytes = fromBase64(text);
  const n = Math.ceil(count / k);
  const out = new Uint8Array(n * width);
  for (let j = 0; j < n; j++) {
    out.set(bytes.subarray(j * k * width, (j * k + 1) * width), j * width);
  }
  return toBase64(out);
}

/** The indices of `n` frames kept: {@link FRAMES_KEPT} evenly spaced, first and last included. */
export function keptFrames(n: number): number[] {
  if (n <= FRAMES_KEPT) return [...Array(n).keys()];
  return [
    ...new Set(
      [...Array(FRAMES_KEPT).keys()].map((j) => Math.round((j * (n - 1)) / (FRAMES_KEPT - 1))),
    ),
  ];
}

/** The snapshots cut to {@link FRAMES_KEPT} frames and at most {@link POINTS_MAX} particles. */
export function reduceSnapshots(s: Snapshots): Snapshots {
  const k = Math.max(1, Math.ceil(s.count / POINTS_MAX));
  const count = Math.ceil(s.count / k);
  const frames = keptFrames(s.frames.length).map((i) => {
    const f = s.frames[i];
    const out = { ...f, positions: everyKth(f.positions, s.count, 6, k) };
    // the per-particle ids of the frame (fragments, meta-particles), 1, 2 or 4 bytes each
    for (const field of ["fragments", "groups"] as const) {
      const text = f[field];
      if (text === undefined) continue;
      const width = s.count === 0 ? 1 : fromBase64(text).length / s.count;
      out[field] = everyKth(text, s.count, width, k);
    }
    return out;
  });
  return {
    ...s,
    body: everyKth(s.body, s.count, 1, k),
    count,
    stride: s.stride * k,
    frames,
  };
}

/** One record reduced (a new object; the input is not changed). */
export function reduceRecord(
  r: CaseRecord,
  options: { snapshots?: boolean } = {},
): CaseRecord {
  const out: CaseRecord = structuredClone(r);
  if (options.snapshots === false) delete out.snapshots;
  if (out.timings) {
    for (const phase of Object.values(out.timings.phases)) {
      delete (phase as { samples?: number[] }).samples;
    }
  }
  if (out.metrics) delete (out.metrics as { series?: unknown }).series;
  if (out.snapshots) out.snapshots = reduceSnapshots(out.snapshots);
  return out;
}

/** What `run.json` says of a committed run. */
export interface RunInfo {
  /** The folder's name under `docs/results/`. */
  name: string;
  /** The command that made the records, as given to `--import`'s `--command`. */
  command: string;
  /** The first case's start and the last case's end (ISO 8601, from the records). */
  date: { from: string; to: string };
  /** The machine, from the records' `env`. */
  machine: { os: string; cpu: string; cores: number; memoryBytes: number; deno: string | null };
  /** The adapter, from the records' `env.adapter`. */
  adapter: { description: string; backend: string | null; vendor: string; device: string };
  /** The commits the records name (`env.git`), with `+dirty` where the tree had changes. */
  commits: string[];
  scales: string[];
  setups: string[];
  cases: number;
  reduction: string;
  /**
   * SHA-256 (hex) of the run's `results.jsonl` as imported: `deno task docs` refuses a run whose
   * records changed after the run ({@link recordsDigest}).
   */
  recordsSha256: string;
}

/** SHA-256 (hex) of a run's `results.jsonl` text ({@link RunInfo.recordsSha256}). */
export function recordsDigest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Why a run's records are not from one clean commit (more than one commit, a changed tree, none
 * named), or null: the findings are made from runs of one clean commit, so that a verdict belongs
 * to one version of the code.
 */
export function provenanceProblem(commits: readonly string[]): string | null {
  if (commits.length !== 1) {
    return `its records name ${commits.length} commits (${
      commits.join(", ")
    }): the code changed while it ran`;
  }
  if (commits[0].endsWith("+dirty")) return `its commit ${commits[0]} had uncommitted changes`;
  if (commits[0].startsWith("unknown")) return "its records name no commit";
  return null;
}

/** The run's `run.json`, from its records. */
export function runInfo(
  name: string,
  command: string,
  records: readonly CaseRecord[],
  reduction: string = REDUCTION,
  recordsSha256 = "",
): RunInfo {
  const env: Environment | null = records.find((r) => r.env)?.env ?? null;
  const starts = records.map((r) => Date.parse(r.startedAt)).filter(Number.isFinite);
  const ends = records.map((r) => Date.parse(r.startedAt) + 1000 * (r.wallSeconds ?? 0))
    .filter(Number.isFinite);
  const iso = (ms: number) => Number.isFinite(ms) ? new Date(ms).toISOString() : "";
  const uniq = (xs: string[]) => [...new Set(xs)];
  return {
    name,
    command,
    date: { from: iso(Math.min(...starts)), to: iso(Math.max(...ends)) },
    machine: {
      os: env ? `${env.os.platform} ${env.os.release} ${env.os.arch}` : "",
      cpu: env?.cpu.model ?? "",
      cores: env?.cpu.cores ?? 0,
      memoryBytes: env?.memoryBytes ?? 0,
      deno: env?.deno ?? null,
    },
    adapter: {
      description: env?.adapter.description ?? "",
      backend: env?.adapter.backend ?? null,
      vendor: env?.adapter.vendor ?? "",
      device: env?.adapter.device ?? "",
    },
    commits: uniq(
      records.map((r) => `${r.env?.git.commit ?? "unknown"}${r.env?.git.dirty ? "+dirty" : ""}`),
    ),
    scales: uniq(records.map((r) => r.scale)),
    setups: uniq(records.map((r) => r.setup ?? "paper")),
    cases: records.length,
    reduction,
    recordsSha256,
  };
}
