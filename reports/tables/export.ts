/**
 * Export of the recorded snapshots to per-frame files that ParaView, Blender and Houdini open:
 * ASCII PLY (vertices with x y z, a colour per body and a `body` property) or legacy VTK POLYDATA
 * (points, one vertex cell per point, a `body` point scalar). Frames that record fragments
 * (`core/io/snapshot_codec.ts`) add a per-vertex `fragment`: the frame's dense fragment id, 0 outside
 * solid bodies, 1 the largest fragment, 2 the next, …. One folder per case, one file per frame:
 * `<dir>/<scene>__<handler>__<scale>/frame_<step>.ply|vtk`.
 *
 * @module
 */
import { join } from "node:path";
import type { CaseRecord } from "../../core/result.ts";
import {
  decodeBodies,
  decodeFragments,
  decodeFrame,
  type Snapshots,
} from "../../core/io/snapshot_codec.ts";
import { writeFileAtomic } from "../../core/io/write_file_atomic.ts";

/** The export formats. */
export type ExportFormat = "ply" | "vtk";

/** The formats {@link exportSnapshots} writes. */
export const EXPORT_FORMATS: readonly ExportFormat[] = ["ply", "vtk"];

/** RGB of a body by kind (cloth orange, fluid blue), as in the report's viewer. */
const BODY_RGB: Readonly<Record<string, [number, number, number]>> = {
  cloth: [217, 130, 43],
  fluid: [47, 127, 193],
};

/** One line of header text: no line breaks, printable ASCII only. */
function headerText(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, "_").slice(0, 200);
}

/** A coordinate with 7 significant digits. */
function coord(v: number): string {
  return String(Number(v.toPrecision(7)));
}

/**
 * ASCII PLY of points `xyz` (3 per point) with each point's body index and colour and, with
 * `options.fragment`, its dense fragment id (a `uint fragment` property).
 */
export function plyText(
  xyz: Float32Array,
  options: {
    body: Uint8Array;
    bodies: Snapshots["bodies"];
    comment?: string;
    fragment?: ArrayLike<number>;
  },
): string {
  const fragment = options.fragment;
  const n = xyz.length / 3;
  const lines = [
    "ply",
    "format ascii 1.0",
    ...(options.comment ? [`comment ${headerText(options.comment)}`] : []),
    ...options.bodies.map((b, k) => `comment body ${k}: ${headerText(b.name)} (${b.kind})`),
    `element vertex ${n}`,
    "property float x",
    "property float y",
    "property float z",
    "property uchar red",
    "property uchar green",
    "property uchar blue",
    "property uchar body",
    ...(fragment ? ["property uint fragment"] : []),
    "end_header",
  ];
  for (let i = 0; i < n; i++) {
    const b = options.body[i] ?? 0;
    const rgb = BODY_RGB[options.bodies[b]?.kind ?? ""] ?? [128, 128, 128];
    lines.push(
      `${coord(xyz[3 * i])} ${coord(xyz[3 * i + 1])} ${coord(xyz[3 * i + 2])} ${
        rgb.join(" ")
      } ${b}${fragment ? ` ${fragment[i] ?? 0}` : ""}`,
    );
  }
  return lines.join("\n") + "\n";
}

/**
 * Legacy VTK (ASCII POLYDATA) of points `xyz` with a vertex cell per point, a body scalar and,
 * with `options.fragment`, a `fragment` scalar (the dense fragment id).
 */
export function vtkText(
  xyz: Float32Array,
  options: { body: Uint8Array; title?: string; fragment?: ArrayLike<number> },
): string {
  const n = xyz.length / 3;
  const lines = [
    "# vtk DataFile Version 3.0",
    headerText(options.title ?? "mergesplit snapshot") || "mergesplit snapshot",
    "ASCII",
    "DATASET POLYDATA",
    `POINTS ${n} float`,
  ];
  for (let i = 0; i < n; i++) {
    lines.push(`${coord(xyz[3 * i])} ${coord(xyz[3 * i + 1])} ${coord(xyz[3 * i + 2])}`);
  }
  lines.push(`VERTICES ${n} ${2 * n}`);
  for (let i = 0; i < n; i++) lines.push(`1 ${i}`);
  lines.push(`POINT_DATA ${n}`, "SCALARS body int 1", "LOOKUP_TABLE default");
  for (let i = 0; i < n; i++) lines.push(String(options.body[i] ?? 0));
  if (options.fragment) {
    lines.push("SCALARS fragment int 1", "LOOKUP_TABLE default");
    for (let i = 0; i < n; i++) lines.push(String(options.fragment[i] ?? 0));
  }
  return lines.join("\n") + "\n";
}

/** A folder name made of `[A-Za-z0-9._-]` only. */
function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_") || "_";
}

/** One case's export: its record, its folder and the file of each of its frames. */
export interface ExportCase {
  /** The case's record (it has snapshots). */
  record: CaseRecord;
  /** `<dir>/<scene>__<handler>__<scale>`, with `__2`, `__3`, … where names repeat. */
  folder: string;
  /** The file of each of the record's snapshot frames, in order. */
  files: string[];
}

/**
 * Where {@link exportSnapshots} writes each frame of each record that has snapshots, without
 * writing anything (so that a caller can check the targets first). Throws a `RangeError` for an
 * unknown format.
 */
export function exportPlan(
  records: readonly CaseRecord[],
  options: { format: ExportFormat; dir: string },
): ExportCase[] {
  if (!EXPORT_FORMATS.includes(options.format)) {
    throw new RangeError(
      `export format "${options.format}" is not one of ${EXPORT_FORMATS.join(", ")}`,
    );
  }
  const used = new Set<string>();
  return records.filter((r) => r.snapshots?.frames?.length).map((record) => {
    const base = `${record.scene}__${record.handler}__${record.scale}`;
    let name = safeName(base);
    for (let k = 2; used.has(name); k++) name = safeName(`${base}__${k}`);
    used.add(name);
    const folder = join(options.dir, name);
    const frames = record.snapshots!.frames;
    const digits = Math.max(4, String(Math.max(...frames.map((f) => f.step))).length);
    const files = frames.map((f) =>
      join(folder, `frame_${String(f.step).padStart(digits, "0")}.${options.format}`)
    );
    return { record, folder, files };
  });
}

/** The text of frame `k` of `r`'s snapshots in `format`. */
function frameText(r: CaseRecord, k: number, format: ExportFormat): string {
  const s = r.snapshots!;
  const f = s.frames[k];
  const body = decodeBodies(s.body);
  const xyz = decodeFrame(f.positions, { domain: s.domain });
  const fragment = typeof f.fragments === "string"
    ? decodeFragments(f.fragments, { count: s.count })
    : undefined;
  const label = `mergesplit ${r.scene} ${r.handler} ${r.scale} step ${f.step} time ${f.time} s${
    fragment ? `, ${f.fragmentCount ?? "?"} fragments` : ""
  }`;
  return format === "ply"
    ? plyText(xyz, { body, bodies: s.bodies, comment: label, fragment })
    : vtkText(xyz, { body, title: label, fragment });
}

/**
 * Writes every frame of every record that has snapshots into `options.dir` (created if needed),
 * each file whole or not at all (`core/io/write_file_atomic.ts`), where {@link exportPlan} places
 * it. Returns the files written and how many cases had snapshots. Throws a `RangeError` for an
 * unknown format, or for a frame whose `fragments` do not fit its snapshots' particle count.
 */
export function exportSnapshots(
  records: readonly CaseRecord[],
  options: { format: ExportFormat; dir: string },
): { files: string[]; cases: number } {
  const plan = exportPlan(records, options);
  for (const { record, folder, files } of plan) {
    Deno.mkdirSync(folder, { recursive: true });
    files.forEach((file, k) => writeFileAtomic(file, frameText(record, k, options.format)));
  }
  return { files: plan.flatMap((c) => c.files), cases: plan.length };
}
