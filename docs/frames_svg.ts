/**
 * A picture of a case from its record's snapshots: a side view (a projection of the particles'
 * positions onto a vertical plane; or a cross-section, the particles of a slab about the scene's
 * middle, as the paper draws Figs. 3, 4, 7 and 10) of each recorded frame, side by side, coloured
 * by body (a solid's fragments in colours of their own; where the page asks, the cloth by
 * meta-particle), labelled with the scene, the handler, the
 * run and each frame's time. SVG written here, so the bytes depend on the record alone: the same
 * record gives the same file on every machine (coordinates rounded to 0.1 px).
 *
 * @module
 */
import type { CaseRecord } from "../core/result.ts";
import { decodeBodies, decodeFragments, decodeFrame } from "../core/io/snapshot_codec.ts";

/** How a page looks at its scenes. */
export interface View {
  /** The horizontal axis (0 = x, 2 = z); the vertical is y, up. */
  horizontal: 0 | 2;
  /**
   * A cross-section: only particles within this many collision radii of the middle of the
   * particles along the third axis. Absent: every particle, projected.
   */
  slabRadii?: number;
  /**
   * The cloth coloured by meta-particle, as the paper draws Figs. 10 and 11 ("cloth particles
   * having the same color are merged into the same meta-particle"): a frame's `groups`, each
   * meta-particle of two or more in a colour of the palette in turn, a particle alone black.
   */
  clothByMetaParticle?: boolean;
}

/** Width of one frame's panel (px). */
export const PANEL = 240;
/** Most particles drawn per frame. */
export const POINTS_PER_FRAME = 4000;

const FLUID = "#2b6cb0";
const CLOTH = "#222222";
/** A solid in no fragment (an unbreakable body, or a frame without fragments). */
const SOLID = "#744210";
/** A solid's fragments by size: the largest first, then the next; dust in grey. */
const FRAGMENT_COLOURS = ["#c05621", "#2f855a", "#805ad5", "#d69e2e", "#b83280", "#319795"];
const DUST = "#a0aec0";
/** Meta-particles of the cloth, by size (the largest first), in turn: none a body's colour. */
const GROUP_COLOURS = [
  "#e53e3e",
  "#38a169",
  "#3182ce",
  "#ecc94b",
  "#9f7aea",
  "#ed8936",
  "#4fd1c5",
  "#f687b3",
  "#718096",
  "#2c7a7b",
];

const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** `v` to 0.1, without a `-0` or a trailing `.0`. */
function num(v: number): string {
  const r = Math.round(v * 10) / 10;
  return (Object.is(r, -0) ? 0 : r).toString();
}

/** The colour class of each recorded particle of a frame: a colour string. */
function colours(record: CaseRecord, frame: number, view: View): string[] {
  const s = record.snapshots!;
  const body = decodeBodies(s.body);
  const f = s.frames[frame];
  const fragments = f.fragments ? decodeFragments(f.fragments, { count: s.count }) : null;
  const groups = view.clothByMetaParticle && f.groups
    ? decodeFragments(f.groups, { count: s.count })
    : null;
  const out: string[] = [];
  for (let i = 0; i < s.count; i++) {
    const kind = s.bodies[body[i]]?.kind ?? "solid";
    if (kind === "fluid") out.push(FLUID);
    else if (kind === "cloth") {
      out.push(
        groups && groups[i] > 0 ? GROUP_COLOURS[(groups[i] - 1) % GROUP_COLOURS.length] : CLOTH,
      );
    } else if (!fragments || fragments[i] === 0) out.push(SOLID);
    else if (fragments[i] <= FRAGMENT_COLOURS.length) out.push(FRAGMENT_COLOURS[fragments[i] - 1]);
    else out.push(DUST);
  }
  return out;
}

/** The draw order of the colour classes: fluid behind, then solids, the cloth on top. */
function classOrder(c: string): number {
  if (c === FLUID) return 0;
  if (c === CLOTH || GROUP_COLOURS.includes(c)) return 3;
  if (c === DUST) return 1;
  if (c === SOLID) return 2;
  return 2;
}

/** The SVG picture of `record`'s snapshot frames, or null when it has none. */
export function framesSvg(record: CaseRecord, options: { view: View; run: string }): string | null {
  const s = record.snapshots;
  if (!s || s.frames.length === 0 || s.count === 0) return null;
  const h = options.view.horizontal;
  const depth = h === 0 ? 2 : 0;
  const frames = s.frames.map((f) => decodeFrame(f.positions, { domain: s.domain }));
  // the slab: about the middle of the first frame's particles along the depth axis
  let keep: (p: Float32Array, i: number) => boolean = () => true;
  if (options.view.slabRadii !== undefined) {
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < s.count; i++) {
      lo = Math.min(lo, frames[0][3 * i + depth]);
      hi = Math.max(hi, frames[0][3 * i + depth]);
    }
    const mid = (lo + hi) / 2;
    const half = options.view.slabRadii * s.radius;
    keep = (p, i) => Math.abs(p[3 * i + depth] - mid) <= half;
  }
  // the box: every kept particle of every frame
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (const p of frames) {
    for (let i = 0; i < s.count; i++) {
      if (!keep(p, i)) continue;
      x0 = Math.min(x0, p[3 * i + h]);
      x1 = Math.max(x1, p[3 * i + h]);
      y0 = Math.min(y0, p[3 * i + 1]);
      y1 = Math.max(y1, p[3 * i + 1]);
    }
  }
  if (!Number.isFinite(x0)) return null;
  const pad = 2 * s.radius;
  x0 -= pad, x1 += pad, y0 -= pad, y1 += pad;
  const scale = PANEL / Math.max(x1 - x0, (y1 - y0) * 0.75);
  const width = (x1 - x0) * scale, height = (y1 - y0) * scale;
  const dot = Math.max(1, Math.min(4, 2 * s.radius * scale));
  const top = 34, gap = 8, below = 18;
  const W = s.frames.length * (width + gap) + gap;
  const H = top + height + below;
  const parts: string[] = [];
  const title = `${record.scene} × ${record.handler} · ${record.scale} · run ${options.run}`;
  const how = options.view.slabRadii !== undefined
    ? `cross-section (±${options.view.slabRadii} r), ${h === 0 ? "x" : "z"} →, y ↑`
    : `side view, ${h === 0 ? "x" : "z"} →, y ↑`;
  const byGroup = options.view.clothByMetaParticle && s.frames.some((f) => f.groups)
    ? "; cloth coloured by meta-particle (black: alone)"
    : "";
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(W)}" height="${num(H)}" ` +
      `viewBox="0 0 ${num(W)} ${num(H)}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${gap}" y="13">${esc(title)}</text>`,
    `<text x="${gap}" y="27" fill="#555555">${esc(how + byGroup)}</text>`,
  );
  frames.forEach((p, k) => {
    const ox = gap + k * (width + gap);
    const cs = colours(record, k, options.view);
    const indices = [...Array(s.count).keys()].filter((i) => keep(p, i));
    const step = Math.max(1, Math.ceil(indices.length / POINTS_PER_FRAME));
    const byClass = new Map<string, string[]>();
    for (let j = 0; j < indices.length; j += step) {
      const i = indices[j];
      const x = ox + (p[3 * i + h] - x0) * scale;
      const y = top + (y1 - p[3 * i + 1]) * scale;
      const list = byClass.get(cs[i]) ?? [];
      list.push(`M${num(x)} ${num(y)}h0`);
      byClass.set(cs[i], list);
    }
    parts.push(
      `<rect x="${num(ox)}" y="${top}" width="${num(width)}" height="${num(height)}" ` +
        `fill="none" stroke="#cccccc"/>`,
    );
    const classes = [...byClass.keys()].sort((a, b) =>
      classOrder(a) - classOrder(b) || (a < b ? -1 : a > b ? 1 : 0)
    );
    for (const c of classes) {
      parts.push(
        `<path d="${byClass.get(c)!.join("")}" stroke="${c}" stroke-width="${num(dot)}" ` +
          `stroke-linecap="round"/>`,
      );
    }
    parts.push(
      `<text x="${num(ox)}" y="${num(top + height + 13)}">t = ${
        s.frames[k].time.toFixed(3)
      } s</text>`,
    );
  });
  parts.push(`</svg>`);
  return parts.join("\n") + "\n";
}
