/// <reference lib="dom" />
/**
 * The cases the report's 3D viewer shows and their decoded snapshots: body colours, frames'
 * positions and fragment colours, each decoded on first use; and three.js, loaded from the page.
 *
 * @module
 */
import type { ClientCase, ReportData } from "../report_data.ts";
import type { Snapshots } from "../../../core/io/snapshot_codec.ts";
import { byId, PALETTE } from "./dom.ts";
import { decodeBase64, decodeFragments, decodeFrame } from "./snapshot_decode.ts";
import type { Color, ThreeModule } from "./three_surface.ts";

const BODY_COLORS: Record<string, string[]> = {
  cloth: ["#d9822b", "#b5562b", "#e0a458"],
  fluid: ["#2f7fc1", "#5aa9e6", "#1d4e89"],
};
/** Colour of the largest fragment of a frame (dense id 1). */
const LARGEST_FRAGMENT_COLOR = "#7a8ca3";

/** A case's snapshots, decoded: per-particle body colours and, on first use, each frame's data. */
export interface DecodedCase {
  /** Per frame its positions, null until decoded. */
  frames: (Float32Array | null)[];
  /** r, g, b per particle: its body's colour. */
  colors: Float32Array;
  /** Per body its colour. */
  bodyColor: Color[];
  /** The body index of each particle. */
  body: Uint8Array;
  /** Whether some frame has fragment ids. */
  hasFragments: boolean;
  /** Per frame its colours by fragment; null without fragments, undefined until computed. */
  fragmentColors: (Float32Array | null | undefined)[];
}

/** A case with snapshots, in the viewer's list: its input's label and, once shown, its decoding. */
export interface ViewerCase {
  input: string;
  c: ClientCase & { snapshots: Snapshots };
  decoded?: DecodedCase;
}

/** A {@link ViewerCase} that has been decoded. */
export type DecodedViewerCase = ViewerCase & { decoded: DecodedCase };

/** Every case of the page with at least one snapshot frame, input by input. */
export function viewerCases(data: ReportData): ViewerCase[] {
  const out: ViewerCase[] = [];
  data.inputs.forEach((input) => {
    for (const c of input.cases) {
      if (c.snapshots && c.snapshots.frames.length) {
        out.push({ input: input.label, c: c as ViewerCase["c"] });
      }
    }
  });
  return out;
}

/**
 * Loads three.js: from the CDN address in `#three-src`, or from the inlined ES module builds
 * (the module's import of the core rewritten to a blob URL of the core).
 */
export function loadThree(): Promise<ThreeModule> {
  const src = JSON.parse(byId("three-src").textContent ?? "null");
  if (src.url) return import(src.url);
  const core = URL.createObjectURL(new Blob([src.core], { type: "text/javascript" }));
  const text = src.module.split(JSON.stringify(src.coreSpecifier)).join(JSON.stringify(core));
  return import(URL.createObjectURL(new Blob([text], { type: "text/javascript" })));
}

/** Decodes case `v`'s bodies and their colours (once); frames are decoded on first use. */
export function decodeCase(THREE: ThreeModule, v: ViewerCase): DecodedViewerCase {
  if (!v.decoded) {
    const s = v.c.snapshots;
    const body = decodeBase64(s.body);
    const colors = new Float32Array(3 * s.count);
    const counters: Record<string, number> = { cloth: 0, fluid: 0 };
    const bodyColor = s.bodies.map((b) => {
      const list = BODY_COLORS[b.kind] || PALETTE;
      const k2 = counters[b.kind] = (counters[b.kind] || 0) + 1;
      return new THREE.Color(list[(k2 - 1) % list.length]);
    });
    for (let i = 0; i < s.count; i++) {
      const c = bodyColor[body[i]] || new THREE.Color("#888888");
      colors[3 * i] = c.r;
      colors[3 * i + 1] = c.g;
      colors[3 * i + 2] = c.b;
    }
    v.decoded = {
      frames: s.frames.map(() => null),
      colors,
      bodyColor,
      body,
      hasFragments: s.frames.some((f) => typeof f.fragments === "string"),
      fragmentColors: s.frames.map(() => undefined),
    };
  }
  return v as DecodedViewerCase;
}

/** The positions of frame `f` of case `v` (decoded once). */
export function frameData(v: DecodedViewerCase, f: number): Float32Array {
  const d = v.decoded;
  if (!d.frames[f]) {
    d.frames[f] = decodeFrame(v.c.snapshots.frames[f].positions, v.c.snapshots.domain);
  }
  return d.frames[f]!;
}

/**
 * Colour of dense fragment id `id` ≥ 1: the largest fragment slate grey, the others hues a
 * golden angle apart (deterministic, neighbouring ids far apart on the colour wheel).
 */
export function fragmentColor(THREE: ThreeModule, id: number): Color {
  if (id === 1) return new THREE.Color(LARGEST_FRAGMENT_COLOR);
  return new THREE.Color().setHSL((0.02 + (id - 2) * 0.381966) % 1, 0.75, 0.5);
}

/**
 * Colours of frame `f` by fragment (body colours outside solids), or null when the frame has
 * no fragments (or they do not decode: reported once as a console error).
 */
export function fragmentColors(
  THREE: ThreeModule,
  v: DecodedViewerCase,
  f: number,
): Float32Array | null {
  const d = v.decoded;
  if (d.fragmentColors[f] === undefined) {
    const s = v.c.snapshots, fr = s.frames[f];
    const ids = typeof fr.fragments === "string" ? decodeFragments(fr.fragments, s.count) : null;
    if (typeof fr.fragments === "string" && !ids) {
      console.error(
        "3D viewer: fragments of frame " + (f + 1) + " do not match " + s.count +
          " particles; showing body colours",
      );
    }
    let colors: Float32Array | null = null;
    if (ids) {
      colors = new Float32Array(d.colors);
      const palette = new Map<number, Color>();
      for (let i = 0; i < s.count; i++) {
        const id = ids[i];
        if (id === 0) continue;
        let c = palette.get(id);
        if (!c) palette.set(id, c = fragmentColor(THREE, id));
        colors[3 * i] = c.r;
        colors[3 * i + 1] = c.g;
        colors[3 * i + 2] = c.b;
      }
    }
    d.fragmentColors[f] = colors;
  }
  return d.fragmentColors[f] ?? null;
}
