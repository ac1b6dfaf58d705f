/**
 * The report's stylesheet (inlined into the page).
 *
 * @module
 */

/** CSS of the report page: tables, severity colours, chart boxes, the 3D viewer. */
export const REPORT_CSS = `
:root { --bad: #c62828; --bad-bg: #fde7e7; --warn: #a15c00; --warn-bg: #fff4dc;
  --ok: #2e7d32; --ok-bg: #eaf6ea; --muted: #667085; --line: #d9dee5; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2433;
  margin: 0; background: #fafbfc; }
header.top { background: #1d2433; color: #fff; padding: 14px 24px; }
header.top h1 { margin: 0; font-size: 20px; }
header.top p { margin: 4px 0 0; color: #c9d1dd; }
nav { padding: 6px 24px; background: #eef1f5; border-bottom: 1px solid var(--line); }
nav a { margin-right: 14px; color: #2f5d9a; text-decoration: none; }
main { padding: 0 24px 40px; max-width: 1600px; }
section { margin-top: 22px; }
h2 { font-size: 18px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 14px 0 6px; }
h4 { font-size: 14px; margin: 12px 0 4px; }
.muted { color: var(--muted); }
.runs { display: flex; flex-wrap: wrap; gap: 16px; }
.run { flex: 1 1 520px; background: #fff; border: 1px solid var(--line); border-radius: 6px;
  padding: 4px 14px 10px; }
dl.env { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 6px 0; }
dl.env dt { color: var(--muted); }
dl.env dd { margin: 0; word-break: break-word; }
.warning { background: var(--bad-bg); border: 1px solid #f3b5b5; border-left: 5px solid var(--bad);
  padding: 8px 12px; margin: 10px 0; border-radius: 4px; }
.warning ul { margin: 4px 0 0; padding-left: 20px; }
.note { background: var(--warn-bg); border-left: 5px solid var(--warn); padding: 6px 12px;
  margin: 8px 0; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; background: #fff; margin: 6px 0; }
th, td { border: 1px solid var(--line); padding: 4px 8px; vertical-align: top; text-align: left; }
thead th { background: #eef1f5; font-weight: 600; }
th.row { background: #f6f8fa; font-weight: 600; white-space: nowrap; }
table.table-one td { white-space: nowrap; }
td.num, th.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.ci { display: block; font-size: 11px; color: var(--muted); }
.ratio { color: var(--muted); font-size: 12px; }
td.slower { background: var(--bad-bg); }
td.faster { background: var(--ok-bg); }
.badge { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 12px;
  font-weight: 600; }
.badge.ok { background: var(--ok-bg); color: var(--ok); }
.badge.bad { background: var(--bad-bg); color: var(--bad); }
.badge.warn { background: var(--warn-bg); color: var(--warn); }
.badge.none { background: #eceff3; color: var(--muted); }
table.matrix td.cell { min-width: 130px; font-size: 12px; }
table.matrix td.cell.ok { background: var(--ok-bg); }
table.matrix td.cell.warn { background: var(--warn-bg); }
table.matrix td.cell.bad { background: var(--bad-bg); }
table.matrix td.cell.none { color: var(--muted); text-align: center; }
.cell .status { font-weight: 700; text-transform: uppercase; font-size: 11px; }
.cell .status.ok { color: var(--ok); }
.cell .k { color: var(--muted); }
.v.bad, .status.bad, td.num.bad { color: var(--bad); font-weight: 700; }
.v.warn { color: var(--warn); font-weight: 700; }
.chart-box { position: relative; height: 240px; background: #fff; border: 1px solid var(--line);
  border-radius: 6px; padding: 4px; }
.chart-box.tall { height: 380px; margin-top: 10px; }
.scaling-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr));
  gap: 10px; }
.chart-box.scaling { height: 320px; }
.series-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(330px, 1fr));
  gap: 10px; }
#viewer-canvas { width: 100%; height: 520px; display: block; border: 1px solid var(--line);
  border-radius: 6px; background: #f4f6f8; touch-action: none; cursor: grab; }
.controls { display: flex; flex-wrap: wrap; align-items: center; gap: 10px; margin: 8px 0; }
.controls input[type=range] { width: 220px; }
.legend-item { margin-right: 14px; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 6px; margin-right: 4px;
  vertical-align: -1px; }
#selftest { white-space: pre-wrap; background: #fff; border: 1px solid var(--line); padding: 8px; }
code { font-size: 12px; background: #eef1f5; padding: 0 3px; border-radius: 3px; }
`;
