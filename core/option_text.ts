/**
 * The text of command-line values, read one way everywhere: the one number grammar of every
 * numeric option (`--timeout`, `--param`, `--sweep`, `--budget`, …), and the check that keeps
 * control characters out of ids (a scene id holding a newline or U+202E, printed in progress
 * lines, could fake a terminal line or reverse the text after it).
 *
 * @module
 */

/** A decimal number: sign, digits with an optional fraction, an optional exponent. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A decimal integer: sign and digits. */
const INTEGER = /^[+-]?\d+$/;

/** Infinity, either sign: `inf`, `-inf`, `+inf`, `infinity` (any case). */
const INFINITE = /^([+-]?)inf(?:inity)?$/i;

/**
 * A number as every option writes it, blanks around it ignored: decimal (`12`, `-0.5`, `.5`,
 * `1e-3`), or `inf` / `-inf` (`infinity` too, any case) unless `options.integer`, which takes
 * digits with an optional sign alone. Null for anything else: hex (`0x1`), `1_000`, `NaN`, `""`,
 * and a decimal beyond the range of a double (`1e999`). The caller checks the range.
 */
export function parseOptionNumber(
  text: string,
  options: { integer?: boolean } = {},
): number | null {
  const t = text.trim();
  if (options.integer) return INTEGER.test(t) ? Number(t) + 0 : null; // + 0: -0 reads as 0
  const inf = INFINITE.exec(t);
  if (inf) return inf[1] === "-" ? -Infinity : Infinity;
  if (!DECIMAL.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n + 0 : null;
}

/** What {@link parseOptionNumber} reads, in words, for error messages. */
export const NUMBER_GRAMMAR = "a decimal number (e.g. 0.5, -2, 1e-3) or inf / -inf";

/**
 * Characters that must not be in an id: C0 and C1 controls and DEL (`\p{Cc}`), format characters
 * (`\p{Cf}`: the bidirectional overrides U+202A–U+202E and isolates U+2066–U+2069, zero-width
 * characters), and the line and paragraph separators U+2028, U+2029.
 */
const CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** Whether `text` holds a character {@link controlCharacterProblem} refuses. */
export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text);
}

/** Escapes of the control characters that have a short one. */
const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** The escape of control or format character `c`: `\n`, `\u{202e}`. */
function escapeOne(c: string): string {
  return NAMED[c] ?? `\\u{${c.codePointAt(0)!.toString(16)}}`;
}

/**
 * `text` with every control or format character escaped (`\n`, `\u{202e}`), the rest as it is:
 * a message quoting input (a JSON parser's, which shows the bad token) printed on one plain line.
 */
export function withoutControls(text: string): string {
  return text.replace(new RegExp(CONTROL.source, "gu"), escapeOne);
}

/**
 * `text` in double quotes with every control or format character, backslash and quote escaped
 * (`\n`, `\u{202e}`), so that printing it cannot move the cursor or reorder what follows.
 */
export function escapedText(text: string): string {
  return `"${withoutControls(text.replace(/["\\]/g, "\\$&"))}"`;
}

/**
 * Null when `id` holds no control character; otherwise a one-line message saying that `what`
 * (e.g. `--scene`, `scene.id`) holds one, with the id escaped. Callers throw it as their bad-input
 * error.
 */
export function controlCharacterProblem(id: string, what: string): string | null {
  if (!hasControlCharacter(id)) return null;
  return `${what} ${
    escapedText(id)
  } holds a control or formatting character (a newline, U+202E, …), which could fake or ` +
    "reorder terminal lines; use letters, digits and punctuation";
}

/** A refused option value: its message is one line naming the option and what it takes. */
export class OptionValueError extends RangeError {
  /** @param message the one line shown to the user */
  constructor(message: string) {
    super(message);
    this.name = "OptionValueError";
  }
}

/**
 * The value of option `name` read by {@link parseOptionNumber}, within [`min`, `max`] (an integer
 * with `integer`); throws an {@link OptionValueError} naming the option, the grammar and the
 * bounds otherwise. For the tools' options (`deno task leaks`, `hotspots`, `web-check`), so every
 * command line reads numbers one way.
 */
export function readOptionNumber(
  name: string,
  text: string,
  options: { integer?: boolean; min?: number; max?: number } = {},
): number {
  const { integer = false, min = -Infinity, max = Infinity } = options;
  const n = parseOptionNumber(text, { integer });
  if (n !== null && n >= min && n <= max) return n;
  const kind = integer ? "a decimal integer" : NUMBER_GRAMMAR;
  const bounds = [Number.isFinite(min) ? `≥ ${min}` : "", Number.isFinite(max) ? `≤ ${max}` : ""]
    .filter((b) => b).join(" and ");
  throw new OptionValueError(
    `--${name} must be ${kind}${bounds ? `, ${bounds}` : ""}; got ${escapedText(text)}`,
  );
}
