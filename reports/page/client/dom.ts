/// <reference lib="dom" />
/**
 * The report page's DOM helpers and colours (browser only; part of the page's client, bundled by
 * `deno task report-client`): elements whose text is only ever set with `textContent`, never as
 * HTML, the palettes, and the colour of a handler or a phase.
 *
 * @module
 */
import type { ClientCase, ReportData } from "../report_data.ts";

/** Colours of handlers (by their index in {@link ReportData.handlers}) and of sweep series. */
export const PALETTE = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ac",
];

/** Colours of phases (by their index in {@link ReportData.phases}). */
export const PHASE_COLORS = [
  "#66c2a5",
  "#fc8d62",
  "#8da0cb",
  "#e78ac3",
  "#a6d854",
  "#ffd92f",
  "#e5c494",
  "#b3b3b3",
  "#7fc97f",
  "#beaed4",
];

/** The page's globals: the errors the page's error hook collects (report_page.ts `ERROR_HOOK`). */
export interface PageGlobals {
  __reportErrors?: string[];
}

/** The page's global object, with {@link PageGlobals}. */
export const pageGlobal = globalThis as typeof globalThis & PageGlobals;

/** Reads the JSON that report_page.ts embeds in `#report-data`. */
export function readReportData(): ReportData {
  return JSON.parse(byId("report-data").textContent ?? "null") as ReportData;
}

/** The element of id `id`, typed as the caller expects (the page's HTML is report_page.ts's). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

/** Creates an element: `options.text` becomes its text (never HTML), other keys attributes. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options?: Record<string, string | number>,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(options || {})) {
    if (k === "text") e.textContent = String(v);
    else e.setAttribute(k, String(v));
  }
  return e;
}

/** Appends a muted paragraph of `text` to `parent` (when there is one). */
export function note(parent: HTMLElement | null, text: string): void {
  if (parent) parent.appendChild(el("p", { class: "muted", text }));
}

/** The colour of `handler`: its index among the page's handlers in {@link PALETTE}. */
export function handlerColor(data: ReportData, handler: string): string {
  const k = data.handlers.indexOf(handler);
  return PALETTE[(k < 0 ? 0 : k) % PALETTE.length];
}

/** The colour of `phase`: its index among the page's phases in {@link PHASE_COLORS}. */
export function phaseColor(data: ReportData, phase: string): string {
  const k = data.phases.indexOf(phase);
  return PHASE_COLORS[(k < 0 ? 0 : k) % PHASE_COLORS.length];
}

/** `scene × handler` with what tells the case apart, and ` (scale)` when `withScale`. */
export function caseName(c: ClientCase, withScale: boolean): string {
  return c.scene + " × " + c.handler + (c.variant || "") +
    (withScale ? " (" + c.scale + ")" : "");
}
