/**
 * Progress of a bench run on stderr: on a terminal, one line per case redrawn in place with a bar
 * of the case's steps and elapsed/remaining time; otherwise (CI logs) plain lines. A line that
 * cannot be written (stderr full or closed) is dropped: progress never stops the run.
 *
 * @module
 */
import { writeIgnoringErrors } from "../../core/io/ignore_output_errors.ts";

function clock(seconds: number): string {
  if (!Number.isFinite(seconds)) return "--:--";
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Reports which case out of how many, its steps, elapsed and remaining time. */
export class Progress {
  #tty: boolean;
  #total: number;
  #start = performance.now();
  #caseStart = 0;
  #label = "";
  #index = 0;
  #caseSeconds: number[] = [];
  #write: (text: string) => void;
  #relabel: (index: number, label: string) => string;

  /**
   * @param total number of cases
   * @param options.tty override terminal detection (tests); `write` replaces stderr (tests);
   * `label` rewrites the runner's label of case `index` (a scale sweep adds the case's scale)
   */
  constructor(
    total: number,
    options: {
      tty?: boolean;
      write?: (text: string) => void;
      label?: (index: number, label: string) => string;
    } = {},
  ) {
    this.#total = total;
    this.#relabel = options.label ?? ((_, label) => label);
    this.#tty = options.tty ?? Deno.stderr.isTerminal();
    const enc = new TextEncoder();
    this.#write = options.write ??
      ((t) => writeIgnoringErrors(() => Deno.stderr.writeSync(enc.encode(t))));
  }

  #eta(fraction: number): number {
    const done = this.#caseSeconds.length;
    const mean = done ? this.#caseSeconds.reduce((a, b) => a + b, 0) / done : NaN;
    const current = (performance.now() - this.#caseStart) / 1000;
    const currentLeft = fraction > 0 ? current / fraction - current : mean;
    return currentLeft + mean * (this.#total - this.#index);
  }

  /** A case starts. */
  caseStart(index: number, label: string): void {
    this.#index = index + 1;
    this.#label = this.#relabel(index, label);
    this.#caseStart = performance.now();
    if (!this.#tty) this.#write(`[${this.#index}/${this.#total}] ${this.#label} ...\n`);
  }

  /** Steps done in the current case. */
  step(done: number, total: number): void {
    if (!this.#tty) return;
    const f = total ? done / total : 0;
    const width = 24;
    const bar = "█".repeat(Math.round(f * width)).padEnd(width, "░");
    const elapsed = (performance.now() - this.#start) / 1000;
    this.#write(
      `\r\x1b[2K[${this.#index}/${this.#total}] ${this.#label} ${bar} ${(100 * f).toFixed(0)}% ` +
        `elapsed ${clock(elapsed)} remaining ${clock(this.#eta(f))}`,
    );
  }

  /** A case ended with `status`. */
  caseEnd(status: string, detail = ""): void {
    const seconds = (performance.now() - this.#caseStart) / 1000;
    this.#caseSeconds.push(seconds);
    const line = `[${this.#index}/${this.#total}] ${this.#label}: ${status} in ${
      seconds.toFixed(1)
    } s${detail ? ` (${detail})` : ""}`;
    this.#write(this.#tty ? `\r\x1b[2K${line}\n` : `${line}\n`);
  }
}
