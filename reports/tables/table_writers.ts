/**
 * Writers of a published table (reports/tables/publish_tables.ts) in each format of
 * `deno task report --format`: GitHub Markdown pipe tables, RFC 4180 CSV and a LaTeX `tabular`.
 * A number with a confidence interval prints as `12.3 [11.9, 12.8]` in Markdown and LaTeX (three
 * significant digits, reports/page/format_number.ts) and as three columns in CSV (the value, `… ci95
 * low`, `… ci95 high`, six significant digits, empty where missing), so that a spreadsheet reads
 * numbers. Every text is escaped for its format; a CSV text that a spreadsheet would run as a
 * formula (`=`, `+`, `-`, `@`, tab, CR first) is prefixed with `'`.
 *
 * @module
 */
import { formatNumber } from "../page/format_number.ts";
import {
  isNumberCell,
  type NumberCell,
  type PublishTable,
  type TableCell,
} from "./publish_tables.ts";

/** The formats of `--format`, as file extensions. */
export const PUBLISH_FORMATS = ["md", "csv", "tex"] as const;

/** A format of `--format`: `md`, `csv` or `tex`. */
export type PublishFormat = (typeof PUBLISH_FORMATS)[number];

/** Each format's name for people (link texts). */
export const FORMAT_NAMES: Readonly<Record<PublishFormat, string>> = {
  md: "Markdown",
  csv: "CSV",
  tex: "LaTeX",
};

/** Per column: whether any of its cells is a number (numbers are right-aligned). */
function numericColumns(table: PublishTable): boolean[] {
  return table.header.map((_, c) => table.rows.some((row) => row[c] && isNumberCell(row[c])));
}

/** Per column: whether any of its cells is a number with a confidence interval. */
function ciColumns(table: PublishTable): boolean[] {
  return table.header.map((_, c) =>
    table.rows.some((row) => row[c] && isNumberCell(row[c]) && !!(row[c] as NumberCell).ci95)
  );
}

/** A number cell as `12.3 [11.9, 12.8]` (`–` for no value). */
function numberText(cell: NumberCell): string {
  const ci = cell.ci95 ? ` [${formatNumber(cell.ci95[0])}, ${formatNumber(cell.ci95[1])}]` : "";
  return `${formatNumber(cell.value)}${cell.value === null ? "" : ci}`;
}

/**
 * Markdown text: line breaks become spaces, and `\`, `` ` ``, `*`, `_`, `|`, `[`, `]`, `<`, `>`
 * and `&` are backslash-escaped (no markup, no link, no HTML, no cell break).
 */
export function escapeMarkdown(value: string): string {
  return value.replace(/\r?\n|\r/g, " ").replace(/[\\`*_|[\]<>&]/g, "\\$&");
}

/** A cell in Markdown: text escaped; a number as {@link numberText} (digits and brackets only). */
function markdownCell(cell: TableCell | undefined): string {
  if (!cell) return "";
  return isNumberCell(cell) ? numberText(cell) : escapeMarkdown(cell.text);
}

/** The table as a GitHub Markdown pipe table, after its title as a paragraph. */
function markdownTable(table: PublishTable): string {
  const numeric = numericColumns(table);
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [
    escapeMarkdown(table.title),
    "",
    line(table.header.map(escapeMarkdown)),
    line(numeric.map((n) => (n ? "---:" : "---"))),
    ...table.rows.map((row) => line(table.header.map((_, c) => markdownCell(row[c])))),
    "",
  ].join("\n");
}

/** A decimal number as CSV writes one (`-1.5`, `+2e-7`, `-Infinity`): not a formula. */
const CSV_NUMBER = /^[+-]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|Infinity)$/;

/**
 * A CSV field that a spreadsheet cannot run (OWASP's CSV injection rule): a value that starts
 * with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, unless it is a number
 * (`-1.5`, `-Infinity`), so that `=HYPERLINK(…)` from a result file reads as text.
 */
export function csvNeutralise(value: string): string {
  return /^[=+\-@\t\r]/.test(value) && !CSV_NUMBER.test(value) ? `'${value}` : value;
}

/**
 * One CSV field: neutralised against formulas ({@link csvNeutralise}), then quoted (quotes
 * doubled) when it holds a comma, a quote or a line break.
 */
export function csvField(value: string): string {
  const safe = csvNeutralise(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A number for CSV: six significant digits, `Infinity`/`-Infinity`, empty for none. */
function csvNumber(value: number | null | undefined): string {
  if (typeof value !== "number" || Number.isNaN(value)) return "";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  return String(Number(value.toPrecision(6)));
}

/**
 * The table as RFC 4180 CSV (CRLF line ends, a header line): a column with confidence intervals
 * is followed by its `<name> ci95 low` and `<name> ci95 high` columns.
 */
function csvTable(table: PublishTable): string {
  const withCi = ciColumns(table);
  const header = table.header.flatMap((h, c) =>
    withCi[c] ? [h, `${h} ci95 low`, `${h} ci95 high`] : [h]
  );
  const rows = table.rows.map((row) =>
    table.header.flatMap((_, c) => {
      const cell = row[c];
      if (!cell || !isNumberCell(cell)) {
        const t = cell ? cell.text : "";
        return withCi[c] ? [t, "", ""] : [t];
      }
      const value = csvNumber(cell.value);
      return withCi[c] ? [value, csvNumber(cell.ci95?.[0]), csvNumber(cell.ci95?.[1])] : [value];
    })
  );
  return [header, ...rows].map((fields) => fields.map(csvField).join(",") + "\r\n").join("");
}

/** LaTeX replacements: the special characters, and the non-ASCII ones the tables use. */
const TEX_ESCAPES: Readonly<Record<string, string>> = {
  "&": "\\&",
  "%": "\\%",
  "$": "\\$",
  "#": "\\#",
  "_": "\\_",
  "{": "\\{",
  "}": "\\}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  "\\": "\\textbackslash{}",
  "[": "{[}",
  "]": "{]}",
  "×": "$\\times$",
  "·": "$\\cdot$",
  "–": "--",
  "—": "---",
  "−": "$-$",
  "…": "\\ldots{}",
  "∞": "$\\infty$",
  "α": "$\\alpha$",
  "β": "$\\beta$",
  "Δ": "$\\Delta$",
  "±": "$\\pm$",
  "≤": "$\\leq$",
  "≥": "$\\geq$",
  "≈": "$\\approx$",
  "§": "\\S{}",
  "₀": "$_0$",
  "⁶": "$^6$",
};
const TEX_PATTERN = new RegExp(
  `[${Object.keys(TEX_ESCAPES).map((c) => c.replace(/[\\\]^-]/g, "\\$&")).join("")}]`,
  "gu",
);

/**
 * LaTeX text: `& % $ # _ { } ~ ^ \` escaped, `[` and `]` braced (a row cannot start with `\\[`),
 * the symbols the tables use (×, –, ∞, α, β, …) as LaTeX, line breaks as spaces; any other
 * character passes through (UTF-8 input, the default since LaTeX 2018).
 */
export function escapeLatex(value: string): string {
  return value.replace(/\r?\n|\r/g, " ").replace(TEX_PATTERN, (c) => TEX_ESCAPES[c]);
}

/**
 * A cell in LaTeX: text by {@link escapeLatex}; a number as {@link numberText} with only its
 * symbols (–, ∞, −) translated, so that it reads `12.3 [11.9, 12.8]`.
 */
function latexCell(cell: TableCell | undefined): string {
  if (!cell) return "";
  return isNumberCell(cell)
    ? numberText(cell).replace(/[–∞−]/g, (c) => TEX_ESCAPES[c])
    : escapeLatex(cell.text);
}

/**
 * The table as a LaTeX `tabular` (`l` columns for text, `r` for numbers) with `\hline` above and
 * below the header and at the end, after its title as a `%` comment line.
 */
function latexTable(table: PublishTable): string {
  const numeric = numericColumns(table);
  const line = (cells: string[]) => `${cells.join(" & ")} \\\\`;
  return [
    `% ${table.title.replace(/\r?\n|\r/g, " ")}`,
    `\\begin{tabular}{${numeric.map((n) => (n ? "r" : "l")).join("")}}`,
    "\\hline",
    line(table.header.map(escapeLatex)),
    "\\hline",
    ...table.rows.map((row) => line(table.header.map((_, c) => latexCell(row[c])))),
    "\\hline",
    "\\end{tabular}",
    "",
  ].join("\n");
}

/** The writer of each format: a table in, the file's text out. */
export const TABLE_WRITERS: Readonly<Record<PublishFormat, (table: PublishTable) => string>> = {
  md: markdownTable,
  csv: csvTable,
  tex: latexTable,
};

/**
 * Parses a `--format` value list (each a format or a comma list of them; repeats are dropped):
 * the formats in first-seen order. Throws a `RangeError` naming a value that is not a format and
 * the valid ones.
 */
export function parsePublishFormats(values: readonly string[]): PublishFormat[] {
  const out: PublishFormat[] = [];
  for (const value of values.flatMap((v) => v.split(","))) {
    const f = value.trim().toLowerCase();
    if (!(PUBLISH_FORMATS as readonly string[]).includes(f)) {
      throw new RangeError(
        `--format ${value}: not a format; valid formats: ${PUBLISH_FORMATS.join(", ")}`,
      );
    }
    if (!out.includes(f as PublishFormat)) out.push(f as PublishFormat);
  }
  return out;
}
