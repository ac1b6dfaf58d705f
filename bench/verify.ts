/**
 * `deno task bench --verify <results.jsonl>`: re-runs the recorded cases and checks that each
 * ends in the recorded state (SHA-256 of positions and velocities): a determinism check, valid on
 * the same adapter and versions. A case is re-run as it was recorded: its scene at its scale and
 * seed with the scene values of its sweep (`scene.dt`, `scene.speed`: bench/cases/sweep.ts
 * `sweptScene`), its handler with its recorded parameters, its coupling and its steps.
 *
 * The file is read tolerantly and streamed (`core/io/read_results_file.ts`: a regular file only, a
 * line past the limit skipped): a torn or malformed line is skipped with a warning naming it, the
 * other cases are verified. {@link verifyCommand} is the
 * whole command: it prints a line per case and a summary, and gives the exit status.
 *
 * @module
 */
import { type Scale, SCALES } from "../core/scene/scene.ts";
import { HANDLERS } from "../gpu/handlers/registry.ts";
import { getScene } from "../scenes/catalog.ts";
import type { AdapterChoice } from "../gpu/runtime/device.ts";
import {
  adapterName,
  type CaseRecord,
  type SkippedLine,
  skippedLineWarning,
} from "../core/result.ts";
import { readResultsFile } from "../core/io/read_results_file.ts";
import { runOne } from "./runner.ts";
import { DeviceLease } from "./device_lease.ts";
import { checkedCase, loadSceneFile } from "./cases/suite.ts";
import { sweptScene } from "./cases/sweep.ts";
import { sceneUnder, setupChoices } from "../core/setups.ts";
import { captureEnvironment } from "./environment.ts";
import { caseConfigHash } from "./config_hash.ts";
import type { CaseSpec } from "./cases/suite.ts";
import { DEFAULT_COUPLING } from "../gpu/coupling/coupling.ts";

/** The outcome of re-running one recorded case. */
export interface VerifyOutcome {
  scene: string;
  handler: string;
  /** The values of the parameter sweep the case ran at (`CaseRecord.sweep`), if any. */
  sweep?: Record<string, number>;
  recorded: string;
  now: string | null;
  match: boolean;
  /** Why a comparison is not meaningful (different adapter or versions), if so. */
  warning: string | null;
  /** Why the case could not be re-run (its scene cannot be rebuilt), if so; `match` is false. */
  error?: string;
  /**
   * How its configuration changed since it was recorded (the configuration hash of the case
   * rebuilt now differs from the recorded one: an edited scene file, a changed default), if so; the
   * case is not re-run and `match` is false: not a reproducibility failure.
   */
  changed?: string;
}

/** Options of {@link verifyRecords} and {@link verifyResults}. */
export interface VerifyOptions {
  adapter: AdapterChoice;
  /** Called with each case's outcome as it finishes. */
  onCase?: (o: VerifyOutcome) => void;
}

/** The statuses of a case that ran to its end: only these have a state to reproduce. */
const VERIFIABLE: readonly string[] = ["ok", "unstable"];

/** `scene × handler k=v …`: a case of a verification, with the values of its sweep. */
export function verifyLabel(o: Pick<VerifyOutcome, "scene" | "handler" | "sweep">): string {
  const sweep = o.sweep ? Object.entries(o.sweep).map(([k, v]) => ` ${k}=${v}`).join("") : "";
  return `${o.scene} × ${o.handler}${sweep}`;
}

/**
 * The scene `record` ran on: the catalogue scene at its scale, or its scene file, with the scene
 * values of its sweep and its seed. Throws when the scene cannot be rebuilt.
 */
function recordedScene(record: CaseRecord) {
  const base = record.sceneSource === "catalog"
    ? getScene(record.scene, { scale: record.scale as Scale })
    : loadSceneFile(record.sceneSource);
  const scene = { ...sweptScene(base, record.sweep), seed: record.seed };
  // the system parameters of the setup it ran under (none before setups)
  return record.setup ? sceneUnder(scene, setupChoices(record.setup)) : scene;
}

/**
 * The case `record` ran: its scene ({@link recordedScene}), its handler with its recorded
 * parameters, coupling, setup and sweep values, checked. Throws, with a message naming what is
 * wrong, when any of it cannot be rebuilt (an unknown scene, scale or handler, a bad parameter).
 */
function recordedCase(record: CaseRecord): CaseSpec {
  if (!(SCALES as readonly string[]).includes(record.scale)) {
    throw new Error(`its scale "${record.scale}" is not one of ${SCALES.join(", ")}`);
  }
  if (!HANDLERS.has(record.handler)) {
    throw new Error(
      `its handler "${record.handler}" is not one of ${[...HANDLERS.keys()].join(", ")}`,
    );
  }
  return checkedCase({
    scene: recordedScene(record),
    sceneSource: record.sceneSource,
    handler: record.handler,
    params: Object.fromEntries(
      Object.entries(record.handlerParams ?? {}).map(([k, v]) => [k, Number(v)]),
    ),
    coupling: record.coupling === "whole" ? "whole" : "own-part",
    ...(record.setup ? { setup: record.setup } : {}),
    ...(record.sweep ? { sweep: { ...record.sweep } } : {}),
  }, "the record's handlerParams");
}

/**
 * How the configuration of `rec` changed: its recorded configuration hash against the hash of
 * `spec` (the case rebuilt now) with the recorded steps and protocol; null when they agree or the
 * record has no protocol to hash with.
 */
async function configChange(rec: CaseRecord, spec: CaseSpec): Promise<string | null> {
  if (!rec.protocol || typeof rec.steps !== "number") return null;
  const now = await caseConfigHash({
    scene: spec.scene,
    handler: spec.handler,
    handlerParams: spec.handlerParams,
    coupling: spec.coupling ?? DEFAULT_COUPLING,
    steps: rec.steps,
    warmup: rec.protocol.warmupSteps,
    repeat: rec.protocol.repeats,
  });
  if (now === rec.configHash) return null;
  const where = rec.sceneSource && rec.sceneSource !== "catalog"
    ? `its scene file ${rec.sceneSource} was edited, or `
    : "";
  return `the configuration changed since it was recorded (config hash ${
    rec.configHash.slice(0, 12)
  } then, ${now.slice(0, 12)} now: ${where}a default of the harness changed), so its state ` +
    "cannot be compared; not re-run (re-run the case to record it anew)";
}

/**
 * Re-runs every `ok`/`unstable` record of `records` and compares state hashes, on one device for
 * all of them (as the bench runs its cases; a device that a case spoilt or lost is replaced).
 */
export async function verifyRecords(
  records: readonly CaseRecord[],
  options: VerifyOptions,
): Promise<VerifyOutcome[]> {
  const devices = new DeviceLease({ adapter: options.adapter, label: "mergesplit verify device" });
  try {
    return await verifyOn(records, options, devices);
  } finally {
    devices.release();
  }
}

async function verifyOn(
  records: readonly CaseRecord[],
  options: VerifyOptions,
  devices: DeviceLease,
): Promise<VerifyOutcome[]> {
  const out: VerifyOutcome[] = [];
  for (const rec of records) {
    if (!VERIFIABLE.includes(rec.status)) continue;
    const who = {
      scene: rec.scene,
      handler: rec.handler,
      ...(rec.sweep ? { sweep: { ...rec.sweep } } : {}),
    };
    let spec: CaseSpec;
    try {
      spec = recordedCase(rec);
    } catch (e) {
      const o: VerifyOutcome = {
        ...who,
        recorded: rec.stateHash ?? "",
        now: null,
        match: false,
        warning: null,
        error: `cannot rebuild it: ${(e as Error).message}`,
      };
      options.onCase?.(o);
      out.push(o);
      continue;
    }
    const scene = spec.scene;
    const changed = await configChange(rec, spec);
    if (changed) {
      const o: VerifyOutcome = {
        ...who,
        recorded: rec.stateHash ?? "",
        now: null,
        match: false,
        warning: null,
        changed,
      };
      options.onCase?.(o);
      out.push(o);
      continue;
    }
    const now = await runOne(
      spec,
      { adapter: options.adapter, steps: rec.steps, warmup: 0, repeat: 1, timeout: Infinity },
      { environment: captureEnvironment, devices },
    );
    const warnings: string[] = [];
    if (typeof rec.dt === "number" && scene.dt !== rec.dt) {
      warnings.push(
        `the rebuilt scene's dt ${scene.dt} differs from the recorded ${rec.dt} (the scene changed since)`,
      );
    }
    if (now?.env && rec.env) {
      if (adapterName(now) !== adapterName(rec)) {
        warnings.push(
          `adapter "${adapterName(now)}" differs from recorded "${adapterName(rec)}"`,
        );
      }
      if (now.env.deno !== rec.env.deno) {
        warnings.push(`Deno ${now.env.deno} differs from recorded ${rec.env.deno}`);
      }
    }
    const o: VerifyOutcome = {
      ...who,
      recorded: rec.stateHash ?? "",
      now: now?.stateHash ?? null,
      match: now?.stateHash === rec.stateHash,
      warning: warnings.length ? warnings.join("; ") : null,
    };
    options.onCase?.(o);
    out.push(o);
  }
  return out;
}

/**
 * Re-runs every `ok`/`unstable` case of a results file and compares state hashes. The file is
 * read tolerantly: `onSkipped` (default: a warning on stderr) gets each line left out. Throws the
 * file system's error when the file cannot be read.
 */
export async function verifyResults(
  file: string,
  options: VerifyOptions & { onSkipped?: (s: SkippedLine) => void },
): Promise<VerifyOutcome[]> {
  const { records, skipped } = readResultsFile(file);
  const onSkipped = options.onSkipped ??
    ((s: SkippedLine) => console.error(skippedLineWarning(file, s)));
  skipped.forEach(onSkipped);
  return await verifyRecords(records, options);
}

/** Options of {@link verifyCommand}. */
export interface VerifyCommandOptions {
  adapter: AdapterChoice;
  /** Where the per-case lines and the summary go (default `console.log`). */
  log?: (line: string) => void;
  /** Where warnings and errors go (default `console.error`). */
  warn?: (line: string) => void;
}

/** The first word of a case's line: `match`, `MISMATCH`, `CHANGED` or `ERROR`, padded. */
function verdict(o: VerifyOutcome): string {
  if (o.error) return "ERROR   ";
  if (o.changed) return "CHANGED ";
  return o.match ? "match   " : "MISMATCH";
}

/** `2 failed, 1 timeout`: how many records of each status. */
function statusCounts(records: readonly CaseRecord[]): string {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${n} ${s}`).join(", ");
}

/**
 * `--verify <file>`: re-runs the recorded cases of `file` and prints a line per case (`match` or
 * `MISMATCH`, the case, any warning) and a summary (`2 of 3 cases reproduced their state hash`),
 * with a warning per line of the file that was skipped. Returns the exit status: 0 every case
 * reproduced, 1 a case did not, 2 nothing was verified (one line says why: the file cannot be
 * read, or it holds no case that finished `ok` or `unstable`).
 */
export async function verifyCommand(file: string, options: VerifyCommandOptions): Promise<number> {
  const log = options.log ?? console.log;
  const warn = options.warn ?? console.error;
  let read;
  try {
    read = readResultsFile(file);
  } catch (e) {
    warn(
      `mergesplit bench: --verify ${file}: cannot read it: ${
        (e as Error).message
      }; pass the path of a results.jsonl written by deno task bench`,
    );
    return 2;
  }
  const { records, skipped } = read;
  for (const s of skipped) warn(skippedLineWarning(file, s));
  const cases = records.filter((r) => VERIFIABLE.includes(r.status));
  if (!cases.length) {
    const lines = skipped.length ? `, ${skipped.length} line(s) skipped` : "";
    const why = !records.length && !skipped.length
      ? "the file holds no record"
      : !records.length
      ? `every line of it was skipped (${skipped.length})`
      : `no case finished ok or unstable (${statusCounts(records)}${lines})`;
    warn(
      `mergesplit bench: --verify ${file}: nothing to verify: ${why}; pass a results.jsonl with cases that finished ok or unstable`,
    );
    return 2;
  }
  const outcomes = await verifyRecords(cases, {
    adapter: options.adapter,
    onCase: (o) =>
      log(
        `${verdict(o)} ${verifyLabel(o)}${o.error ? `: ${o.error}` : ""}${
          o.changed ? `: ${o.changed}` : ""
        }${o.warning ? `  (warning: ${o.warning})` : ""}`,
      ),
  });
  const bad = outcomes.filter((o) => !o.match).length;
  const changed = outcomes.filter((o) => o.changed).length;
  const notRun = records.length - cases.length;
  const extra = [
    notRun
      ? `${notRun} case(s) not re-run (${statusCounts(records.filter((r) => !cases.includes(r)))})`
      : "",
    skipped.length ? `${skipped.length} line(s) of the file skipped` : "",
  ].filter((s) => s);
  log(
    `${outcomes.length - bad} of ${outcomes.length - changed} cases reproduced their state hash${
      changed ? `; ${changed} case(s) not compared: the configuration changed` : ""
    }${extra.length ? `; ${extra.join("; ")}` : ""}`,
  );
  return bad ? 1 : 0;
}
