/**
 * Number formatting for the report's tables: a few significant digits, exponents for very small
 * or large magnitudes, `∞` for Infinity and `–` for missing values.
 *
 * @module
 */

/**
 * Formats a number for display. `digits` significant digits (default 3); integers below 10⁶ are
 * written in full; magnitudes below 10⁻³ or from 10⁶ on use an exponent; `null`, `undefined`,
 * non-numbers and NaN give `–`; ±Infinity gives `∞`/`−∞`. Booleans give `yes`/`no`.
 */
export function formatNumber(value: unknown, options: { digits?: number } = {}): string {
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value !== "number" || Number.isNaN(value)) return "–";
  if (value === Infinity) return "∞";
  if (value === -Infinity) return "−∞";
  const digits = options.digits ?? 3;
  if (value === 0) return "0";
  const abs = Math.abs(value);
  if (Number.isInteger(value) && abs < 1e6) return String(value);
  if (abs < 1e-3 || abs >= 1e6) return value.toExponential(Math.max(0, digits - 1));
  return String(Number(value.toPrecision(digits)));
}
