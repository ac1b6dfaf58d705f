(() => {
  // reports/page/client/chart_lib.ts
  function chartJs() {
    return globalThis.Chart;
  }
  var chartsMade = [];
  function makeChart(canvas, config) {
    if (!canvas) return;
    const ChartJs = chartJs();
    if (!ChartJs) return;
    try {
      chartsMade.push(new ChartJs(canvas, config));
    } catch (e) {
      console.error("chart " + canvas.id + " failed: " + (e && e.message));
    }
  }

  // reports/page/client/dom.ts
  var PALETTE = [
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac"
  ];
  var PHASE_COLORS = [
    "#66c2a5",
    "#fc8d62",
    "#8da0cb",
    "#e78ac3",
    "#a6d854",
    "#ffd92f",
    "#e5c494",
    "#b3b3b3",
    "#7fc97f",
    "#beaed4"
  ];
  var pageGlobal = globalThis;
  function readReportData() {
    return JSON.parse(byId("report-data").textContent ?? "null");
  }
  function byId(id) {
    return document.getElementById(id);
  }
  function el(tag, options) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(options || {})) {
      if (k === "text") e.textContent = String(v);
      else e.setAttribute(k, String(v));
    }
    return e;
  }
  function note(parent, text) {
    if (parent) parent.appendChild(el("p", {
      class: "muted",
      text
    }));
  }
  function handlerColor(data, handler) {
    const k = data.handlers.indexOf(handler);
    return PALETTE[(k < 0 ? 0 : k) % PALETTE.length];
  }
  function phaseColor(data, phase) {
    const k = data.phases.indexOf(phase);
    return PHASE_COLORS[(k < 0 ? 0 : k) % PHASE_COLORS.length];
  }
  function caseName(c, withScale) {
    return c.scene + " \xD7 " + c.handler + (c.variant || "") + (withScale ? " (" + c.scale + ")" : "");
  }

  // reports/page/client/phase_charts.ts
  var STACKED_MS_SCALES = {
    x: {
      stacked: true,
      ticks: {
        autoSkip: false,
        maxRotation: 60,
        minRotation: 30
      }
    },
    y: {
      stacked: true,
      title: {
        display: true,
        text: "ms / step"
      }
    }
  };
  function phaseChart(data, input) {
    const cases = input.cases.filter((c) => c.phases);
    const withScale = new Set(input.cases.map((c) => c.scale)).size > 1;
    makeChart(byId(input.phasesChartId), {
      type: "bar",
      data: {
        labels: cases.map((c) => caseName(c, withScale)),
        datasets: data.phases.map((p, k) => ({
          label: p,
          data: cases.map((c) => c.phases[p] === void 0 ? null : c.phases[p]),
          backgroundColor: PHASE_COLORS[k % PHASE_COLORS.length],
          stack: "phases"
        }))
      },
      options: {
        plugins: {
          title: {
            display: true,
            text: "Per-phase median time per step: " + input.label
          }
        },
        layout: {
          padding: {
            left: 40
          }
        },
        scales: STACKED_MS_SCALES
      }
    });
  }
  function phaseShareChart(data, input) {
    const p = input.phaseShares;
    if (!p) return;
    makeChart(byId(p.chartId), {
      type: "bar",
      data: {
        labels: p.labels,
        datasets: p.phases.map((phase, k) => ({
          label: phase,
          data: p.rows.map((row) => row[k]),
          backgroundColor: phaseColor(data, phase),
          stack: "shares"
        }))
      },
      options: {
        indexAxis: "y",
        plugins: {
          title: {
            display: true,
            text: "Phase shares of the step: " + input.label
          },
          tooltip: {
            callbacks: {
              label: (ctx) => ctx.dataset.label + ": " + (100 * ctx.parsed.x).toFixed(1) + "%"
            }
          }
        },
        scales: {
          x: {
            stacked: true,
            min: 0,
            max: 1,
            ticks: {
              callback: (v) => Math.round(100 * Number(v)) + "%"
            },
            title: {
              display: true,
              text: "share of the step"
            }
          },
          y: {
            stacked: true,
            ticks: {
              autoSkip: false
            }
          }
        }
      }
    });
  }
  function comparisonChart(data) {
    const c = data.comparison;
    if (!c || !c.rows.length) return;
    const datasets = c.labels.flatMap((label, k) => data.phases.map((p, j) => ({
      label: label + ": " + p,
      data: c.rows.map((r) => r.medians[k] ? r.medians[k][p] : null),
      backgroundColor: PHASE_COLORS[j % PHASE_COLORS.length],
      borderColor: k === 0 ? "#333" : "#fff",
      borderWidth: k === 0 ? 0 : 1,
      stack: "input-" + k
    })));
    makeChart(byId(c.chartId), {
      type: "bar",
      data: {
        labels: c.rows.map((r) => r.scene + " \xD7 " + r.handler + (r.variant || "")),
        datasets
      },
      options: {
        plugins: {
          title: {
            display: true,
            text: "Per-phase medians side by side, bars in input order: " + c.labels.join(" | ")
          },
          // One legend entry per phase (the colours repeat in every input's bar).
          legend: {
            labels: {
              generateLabels: (chart) => chartJs().defaults.plugins.legend.labels.generateLabels(chart).filter((item) => item.datasetIndex < data.phases.length).map((item) => Object.assign(item, {
                text: data.phases[item.datasetIndex]
              }))
            },
            onClick: () => {
            }
          }
        },
        layout: {
          padding: {
            left: 40
          }
        },
        scales: STACKED_MS_SCALES
      }
    });
  }

  // reports/page/client/scaling_chart.ts
  function scalingDatasets(data, chart) {
    return chart.series.flatMap((s) => {
      const color = handlerColor(data, s.handler);
      const points = {
        label: s.label,
        data: s.points,
        showLine: true,
        borderColor: color,
        backgroundColor: color,
        borderWidth: 1.5,
        pointRadius: s.points.map((pt) => pt.ok ? 4 : 6),
        pointStyle: s.points.map((pt) => pt.ok ? "circle" : "crossRot")
      };
      if (!s.fit) return [
        points
      ];
      return [
        points,
        {
          label: "fit: " + s.handler,
          data: s.fit,
          showLine: true,
          borderColor: color,
          backgroundColor: color,
          borderWidth: 1,
          borderDash: [
            5,
            4
          ],
          pointRadius: 0
        }
      ];
    });
  }
  function scalingCharts(data, input) {
    for (const chart of input.scaling || []) {
      makeChart(byId(chart.chartId), {
        type: "scatter",
        data: {
          datasets: scalingDatasets(data, chart)
        },
        options: {
          plugins: {
            title: {
              display: true,
              text: chart.scene + ": step time per particle"
            },
            legend: {
              position: "bottom",
              labels: {
                boxWidth: 10,
                filter: (item) => !/^fit: /.test(item.text)
              }
            },
            tooltip: {
              callbacks: {
                label: (ctx) => {
                  const pt = ctx.raw;
                  const label = ctx.dataset.label ?? "";
                  return pt.scale === void 0 ? label : label.replace(/ \(.*$/, "") + " at " + pt.scale + " (" + (pt.ok ? "" : "not ok, ") + "N = " + pt.x + "): " + pt.y.toPrecision(3) + " ns/particle-step";
                }
              }
            }
          },
          scales: {
            x: {
              type: "logarithmic",
              title: {
                display: true,
                text: "particles N"
              }
            },
            y: {
              type: "logarithmic",
              title: {
                display: true,
                text: "ns per particle-step"
              }
            }
          }
        }
      });
    }
  }

  // reports/page/client/selftest.ts
  function inkPixels(canvas, background) {
    const w = canvas.width, h = canvas.height;
    if (!w || !h) return 0;
    const c2 = document.createElement("canvas");
    c2.width = w;
    c2.height = h;
    const ctx = c2.getContext("2d");
    ctx.drawImage(canvas, 0, 0);
    const d = ctx.getImageData(0, 0, w, h).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (background) {
        if (Math.abs(d[i] - background[0]) > 12 || Math.abs(d[i + 1] - background[1]) > 12 || Math.abs(d[i + 2] - background[2]) > 12) n++;
      } else if (d[i + 3] > 16) n++;
    }
    return n;
  }
  function colorModes(viewer) {
    const out = {};
    if (!viewer) return out;
    const initial = viewer.colorMode();
    for (const mode of [
      "fragment",
      "body"
    ]) {
      viewer.showColorMode(mode);
      out[mode] = {
        shown: viewer.colorMode(),
        inkPixels: inkPixels(viewer.canvas, viewer.background)
      };
    }
    viewer.showColorMode(initial);
    return out;
  }
  function runSelfTest(viewer, wantViewer, threeError) {
    const ChartJs = chartJs();
    const canvases = [
      ...document.querySelectorAll("canvas.chart")
    ];
    const blank = [];
    const undrawn = [];
    for (const c of canvases) {
      if (!ChartJs || !ChartJs.getChart(c)) undrawn.push(c.id);
      else if (inkPixels(c, null) < 200) blank.push(c.id);
    }
    const viewerInk = viewer ? inkPixels(viewer.canvas, viewer.background) : 0;
    const modes = colorModes(viewer);
    const errors = pageGlobal.__reportErrors || (pageGlobal.__reportErrors = []);
    const verdict = {
      errors: errors.slice(),
      chartJs: Boolean(ChartJs),
      charts: {
        total: canvases.length,
        blank,
        undrawn
      },
      viewer: {
        expected: wantViewer,
        rendered: Boolean(viewer),
        inkPixels: viewerInk,
        colorMode: viewer ? viewer.colorMode() : null,
        colorModes: modes,
        caption: viewer ? viewer.caption() : null,
        error: threeError || null
      },
      ok: false
    };
    verdict.ok = verdict.errors.length === 0 && verdict.chartJs && canvases.length > 0 && blank.length === 0 && undrawn.length === 0 && (!wantViewer || viewerInk > 100);
    const out = byId("selftest");
    out.textContent = JSON.stringify(verdict);
    out.hidden = false;
    document.title = "selftest " + (verdict.ok ? "passed" : "failed");
  }

  // reports/page/client/series_charts.ts
  var SERIES_CHARTS = [
    {
      key: "passThrough",
      title: "pass-through (particles)",
      value: (f) => f("passThrough"),
      y: {
        min: 0,
        suggestedMax: 1
      }
    },
    {
      key: "penetration",
      title: "max penetration depth (radii)",
      value: (f) => f("maxPenetrationDepth"),
      y: {
        min: 0,
        suggestedMax: 0.1
      }
    },
    {
      key: "energy",
      title: "energy: kinetic + potential + elastic (J)",
      value: (f) => {
        const k = f("kinetic"), p = f("potential"), e = f("elastic");
        return k === null || p === null || e === null ? null : k + p + e;
      }
    },
    {
      key: "speed",
      title: "max speed (m/s)",
      value: (f) => f("maxSpeed"),
      y: {
        min: 0,
        suggestedMax: 0.1
      }
    }
  ];
  function seriesPoints(c, spec) {
    const s = c.series;
    const at = (name) => s.fields.indexOf(name);
    const ti = at("time");
    return s.rows.map((row, k) => {
      const f = (name) => {
        const i = at(name);
        return i < 0 || row[i] === null || row[i] === void 0 ? null : row[i];
      };
      return {
        x: ti >= 0 && row[ti] !== null ? row[ti] : k * s.every,
        y: spec.value(f)
      };
    });
  }
  function seriesChart(data, grid, cases, spec, where) {
    const box = grid.appendChild(el("div", {
      class: "chart-box"
    }));
    const canvas = box.appendChild(el("canvas", {
      id: where.id,
      class: "chart"
    }));
    makeChart(canvas, {
      type: "line",
      data: {
        datasets: cases.map((c) => ({
          label: c.handler + (c.variant || ""),
          data: seriesPoints(c, spec),
          borderColor: handlerColor(data, c.handler),
          backgroundColor: handlerColor(data, c.handler),
          borderWidth: 1.5,
          pointRadius: 0,
          spanGaps: false
        }))
      },
      options: {
        parsing: false,
        plugins: {
          title: {
            display: true,
            text: spec.title
          },
          legend: {
            position: "bottom",
            labels: {
              boxWidth: 10,
              font: {
                size: 10
              }
            }
          }
        },
        scales: {
          x: {
            type: "linear",
            min: 0,
            max: where.xMax > 0 ? where.xMax : void 0,
            title: {
              display: true,
              text: "time (s)"
            }
          },
          y: spec.y || {}
        }
      }
    });
  }
  function inputSeriesCharts(data, root, input, i) {
    if (data.inputs.length > 1) root.appendChild(el("h3", {
      text: input.label
    }));
    const sceneOf = (c) => c.scene + " (" + c.scale + ")";
    const scenes = [
      ...new Set(input.cases.filter((c) => c.series).map(sceneOf))
    ];
    if (!scenes.length) note(root, "No metric series in " + input.label + ".");
    scenes.forEach((sceneKey, j) => {
      const cases = input.cases.filter((c) => c.series && sceneOf(c) === sceneKey);
      root.appendChild(el("h4", {
        text: sceneKey
      }));
      const grid = root.appendChild(el("div", {
        class: "series-grid"
      }));
      let xMax = 0;
      for (const c of cases) {
        for (const p of seriesPoints(c, SERIES_CHARTS[0])) if (p.x > xMax) xMax = p.x;
      }
      for (const spec of SERIES_CHARTS) {
        seriesChart(data, grid, cases, spec, {
          id: "series-" + i + "-" + j + "-" + spec.key,
          xMax
        });
      }
    });
  }
  function seriesCharts(data) {
    const root = byId("series-root");
    if (!root) return;
    data.inputs.forEach((input, i) => inputSeriesCharts(data, root, input, i));
  }

  // reports/page/client/sweep_chart.ts
  var SWEEP_ENERGY_PLOT_MAX = 2;
  var UNSTABLE_COLOR = "#d62728";
  var MERGE_SPLIT_LINE_COLOR = "#222";
  function styledPoints(points, key, shape, color) {
    return {
      pointStyle: points.map((pt) => pt.unstable ? "crossRot" : shape),
      pointRadius: points.map((pt) => pt.unstable ? 7 : 4),
      pointBorderColor: points.map((pt) => pt.unstable ? UNSTABLE_COLOR : color),
      pointBackgroundColor: points.map((pt) => pt.unstable ? UNSTABLE_COLOR : color),
      pointBorderWidth: points.map((pt) => pt.unstable ? 2 : 1),
      data: points.map((pt) => ({
        x: pt.x,
        y: pt[key] === null ? null : key === "energyRatio" ? Math.min(pt[key], SWEEP_ENERGY_PLOT_MAX) : pt[key],
        value: pt[key],
        status: pt.status,
        unstable: pt.unstable,
        usable: pt.usable
      }))
    };
  }
  function seriesDatasets(chart) {
    return chart.series.flatMap((s, k) => {
      const color = PALETTE[k % PALETTE.length];
      const name = s.label ? " (" + s.label + ")" : "";
      return [
        Object.assign(styledPoints(s.points, "passThroughFraction", "circle", color), {
          label: "pass-through fraction" + name,
          yAxisID: "y",
          showLine: true,
          spanGaps: true,
          borderColor: color,
          backgroundColor: color,
          borderWidth: 1.5
        }),
        Object.assign(styledPoints(s.points, "energyRatio", "triangle", color), {
          label: "energy ratio" + name,
          yAxisID: "y1",
          showLine: true,
          spanGaps: true,
          borderColor: color,
          backgroundColor: color,
          borderWidth: 1,
          borderDash: [
            5,
            4
          ]
        })
      ];
    });
  }
  function flatDatasets(chart) {
    const xs = chart.series.flatMap((s) => s.points.map((pt) => pt.x));
    if (!xs.length) return [];
    const lo = Math.min(...xs), hi = Math.max(...xs);
    const flat = (label, y, style) => Object.assign({
      label,
      yAxisID: "y",
      data: [
        {
          x: lo,
          y,
          value: y
        },
        {
          x: hi,
          y,
          value: y
        }
      ],
      showLine: true,
      pointRadius: 0,
      borderWidth: 1.5
    }, style);
    const out = [];
    if (chart.mergeSplit) {
      out.push(flat("merge-split", chart.mergeSplit.passThroughFraction, {
        borderColor: MERGE_SPLIT_LINE_COLOR,
        backgroundColor: MERGE_SPLIT_LINE_COLOR,
        borderWidth: 2
      }));
    }
    out.push(flat("leak threshold", chart.leakFractionMin, {
      borderColor: "#888",
      backgroundColor: "#888",
      borderWidth: 1,
      borderDash: [
        2,
        3
      ]
    }));
    return out;
  }
  function sweepTooltip(chart, label, pt) {
    if (pt.status === void 0) return label + ": " + Number(pt.value).toPrecision(3);
    return label + " at " + chart.target + " = " + pt.x + ": " + (pt.value === null ? "\u2013" : Number(pt.value).toPrecision(3)) + " (" + pt.status + (pt.unstable ? ", unstable" : "") + (pt.usable ? "" : ", not usable") + ")";
  }
  function sweepOptions(chart) {
    return {
      plugins: {
        title: {
          display: true,
          text: chart.scene + " (" + chart.scale + "): leaks and stability against " + chart.target
        },
        legend: {
          position: "bottom",
          labels: {
            boxWidth: 10,
            font: {
              size: 10
            }
          }
        },
        tooltip: {
          callbacks: {
            label: (ctx) => sweepTooltip(chart, ctx.dataset.label ?? "", ctx.raw)
          }
        }
      },
      scales: {
        x: {
          type: chart.logX ? "logarithmic" : "linear",
          title: {
            display: true,
            text: chart.target
          }
        },
        y: {
          type: "linear",
          position: "left",
          min: 0,
          suggestedMax: 2 * chart.leakFractionMin,
          title: {
            display: true,
            text: "pass-through fraction"
          }
        },
        y1: {
          type: "linear",
          position: "right",
          min: 0,
          suggestedMax: 1.2,
          grid: {
            drawOnChartArea: false
          },
          title: {
            display: true,
            text: "energy ratio (end / start)"
          }
        }
      }
    };
  }
  function sweepCharts(input) {
    for (const chart of input.sweeps || []) {
      const config = {
        type: "scatter",
        data: {
          datasets: [
            ...seriesDatasets(chart),
            ...flatDatasets(chart)
          ]
        },
        options: sweepOptions(chart)
      };
      makeChart(byId(chart.chartId), config);
    }
  }

  // reports/page/client/snapshot_decode.ts
  function decodeBase64(text) {
    const s = atob(text);
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  function decodeFrame(text, domain) {
    const b = decodeBase64(text);
    const q = new Int16Array(b.buffer, 0, b.byteLength >> 1);
    const out = new Float32Array(q.length);
    for (let k = 0; k < q.length; k++) {
      const a = k % 3;
      out[k] = domain.min[a] + (q[k] + 32768) / 65535 * (domain.max[a] - domain.min[a]);
    }
    return out;
  }
  function decodeFragments(text, count) {
    const b = decodeBase64(text);
    if (b.byteLength === count) return b;
    if (b.byteLength === 2 * count) return new Uint16Array(b.buffer, 0, count);
    if (b.byteLength === 4 * count) return new Uint32Array(b.buffer, 0, count);
    return null;
  }

  // reports/page/client/viewer_case.ts
  var BODY_COLORS = {
    cloth: [
      "#d9822b",
      "#b5562b",
      "#e0a458"
    ],
    fluid: [
      "#2f7fc1",
      "#5aa9e6",
      "#1d4e89"
    ]
  };
  var LARGEST_FRAGMENT_COLOR = "#7a8ca3";
  function viewerCases(data) {
    const out = [];
    data.inputs.forEach((input) => {
      for (const c of input.cases) {
        if (c.snapshots && c.snapshots.frames.length) {
          out.push({
            input: input.label,
            c
          });
        }
      }
    });
    return out;
  }
  function loadThree() {
    const src = JSON.parse(byId("three-src").textContent ?? "null");
    if (src.url) return import(src.url);
    const core = URL.createObjectURL(new Blob([
      src.core
    ], {
      type: "text/javascript"
    }));
    const text = src.module.split(JSON.stringify(src.coreSpecifier)).join(JSON.stringify(core));
    return import(URL.createObjectURL(new Blob([
      text
    ], {
      type: "text/javascript"
    })));
  }
  function decodeCase(THREE, v) {
    if (!v.decoded) {
      const s = v.c.snapshots;
      const body = decodeBase64(s.body);
      const colors = new Float32Array(3 * s.count);
      const counters = {
        cloth: 0,
        fluid: 0
      };
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
        fragmentColors: s.frames.map(() => void 0)
      };
    }
    return v;
  }
  function frameData(v, f) {
    const d = v.decoded;
    if (!d.frames[f]) {
      d.frames[f] = decodeFrame(v.c.snapshots.frames[f].positions, v.c.snapshots.domain);
    }
    return d.frames[f];
  }
  function fragmentColor(THREE, id) {
    if (id === 1) return new THREE.Color(LARGEST_FRAGMENT_COLOR);
    return new THREE.Color().setHSL((0.02 + (id - 2) * 0.381966) % 1, 0.75, 0.5);
  }
  function fragmentColors(THREE, v, f) {
    const d = v.decoded;
    if (d.fragmentColors[f] === void 0) {
      const s = v.c.snapshots, fr = s.frames[f];
      const ids = typeof fr.fragments === "string" ? decodeFragments(fr.fragments, s.count) : null;
      if (typeof fr.fragments === "string" && !ids) {
        console.error("3D viewer: fragments of frame " + (f + 1) + " do not match " + s.count + " particles; showing body colours");
      }
      let colors = null;
      if (ids) {
        colors = new Float32Array(d.colors);
        const palette = /* @__PURE__ */ new Map();
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

  // reports/page/client/viewer.ts
  function controls() {
    return {
      canvas: byId("viewer-canvas"),
      select: byId("viewer-case"),
      play: byId("viewer-play"),
      frameSlider: byId("viewer-frame"),
      frameLabel: byId("viewer-time"),
      clipOn: byId("viewer-clip"),
      clipAxis: byId("viewer-axis"),
      clipSlider: byId("viewer-clip-pos"),
      clipLabel: byId("viewer-clip-label"),
      legend: byId("viewer-legend"),
      colorSelect: byId("viewer-color")
    };
  }
  function discTexture(THREE) {
    const disc = document.createElement("canvas");
    disc.width = disc.height = 64;
    const dctx = disc.getContext("2d");
    const grad = dctx.createRadialGradient(24, 24, 4, 32, 32, 30);
    grad.addColorStop(0, "#ffffff");
    grad.addColorStop(1, "#8a8a8a");
    dctx.fillStyle = grad;
    dctx.beginPath();
    dctx.arc(32, 32, 30, 0, 2 * Math.PI);
    dctx.fill();
    const texture = new THREE.CanvasTexture(disc);
    texture.colorSpace = THREE.SRGBColorSpace;
    return texture;
  }
  function makeScene(THREE, canvas) {
    const renderer = new THREE.WebGLRenderer({
      canvas,
      antialias: true,
      preserveDrawingBuffer: true
    });
    renderer.setPixelRatio(Math.min(2, pageGlobal.devicePixelRatio || 1));
    renderer.localClippingEnabled = true;
    const scene = new THREE.Scene();
    scene.background = new THREE.Color("#f4f6f8");
    const camera = new THREE.PerspectiveCamera(35, 1, 1e-3, 100);
    const plane = new THREE.Plane(new THREE.Vector3(0, 0, -1), 0);
    const material = new THREE.PointsMaterial({
      size: 0.01,
      vertexColors: true,
      map: discTexture(THREE),
      alphaTest: 0.5,
      clippingPlanes: [
        plane
      ],
      sizeAttenuation: true
    });
    const geometry = new THREE.BufferGeometry();
    const points = new THREE.Points(geometry, material);
    points.frustumCulled = false;
    scene.add(points);
    return {
      renderer,
      scene,
      camera,
      plane,
      material,
      geometry
    };
  }
  var Viewer = class {
    THREE;
    cases;
    ui;
    three;
    view;
    current;
    frame;
    playing;
    dirty;
    lastAdvance;
    /** The colour mode the user picked; null: fragment where the case has fragments, else body. */
    colorChoice;
    constructor(THREE, cases) {
      this.THREE = THREE;
      this.cases = cases;
      this.ui = controls();
      this.frame = 0;
      this.playing = false;
      this.dirty = true;
      this.lastAdvance = 0;
      this.colorChoice = null;
      this.three = makeScene(THREE, this.ui.canvas);
      this.view = {
        theta: 0,
        phi: 0.35,
        dist: 2,
        target: new THREE.Vector3()
      };
    }
    resize() {
      const { canvas } = this.ui, { renderer, camera } = this.three;
      const w = canvas.clientWidth || 800, h = canvas.clientHeight || 500;
      renderer.setSize(w, h, false);
      camera.aspect = w / h;
      camera.updateProjectionMatrix();
      this.dirty = true;
    }
    placeCamera() {
      const { view } = this, { camera } = this.three, t = view.target;
      camera.position.set(t.x + view.dist * Math.cos(view.phi) * Math.sin(view.theta), t.y + view.dist * Math.sin(view.phi), t.z + view.dist * Math.cos(view.phi) * Math.cos(view.theta));
      camera.lookAt(t);
      this.dirty = true;
    }
    colorMode() {
      const hasFragments = this.current.decoded.hasFragments;
      const mode = this.colorChoice || (hasFragments ? "fragment" : "body");
      return mode === "fragment" && hasFragments ? "fragment" : "body";
    }
    applyColors() {
      const { THREE, current } = this, { geometry } = this.three;
      const byFragment = this.colorMode() === "fragment" ? fragmentColors(THREE, current, this.frame) : null;
      geometry.setAttribute("color", new THREE.BufferAttribute(byFragment || current.decoded.colors, 3));
      geometry.attributes.color.needsUpdate = true;
      this.dirty = true;
    }
    updateLegend() {
      const { THREE, current } = this, { legend } = this.ui, s = current.c.snapshots;
      const byFragment = this.colorMode() === "fragment";
      legend.textContent = "";
      const item = (color, text) => {
        const it = legend.appendChild(el("span", {
          class: "legend-item"
        }));
        const sw = it.appendChild(el("span", {
          class: "swatch"
        }));
        sw.style.background = "#" + color.getHexString();
        it.appendChild(document.createTextNode(text));
      };
      if (byFragment) {
        item(fragmentColor(THREE, 1), "largest fragment");
        item(fragmentColor(THREE, 2), "other fragments (one colour each)");
      }
      s.bodies.forEach((b, i) => {
        if (byFragment && b.kind === "solid") return;
        item(current.decoded.bodyColor[i], b.name + " (" + b.kind + ")");
      });
      legend.appendChild(el("span", {
        class: "muted",
        text: s.count + " particles shown" + (s.stride > 1 ? ", every " + s.stride + "th" : "")
      }));
    }
    fragmentCaption(fr) {
      if (typeof fr.fragments !== "string") {
        return this.current.decoded.hasFragments ? ", fragments not recorded at this step" : "";
      }
      const n = typeof fr.fragmentCount === "number" ? fr.fragmentCount : null;
      return ", " + (n === null ? "?" : n) + (n === 1 ? " fragment" : " fragments") + (typeof fr.fragmentsStep === "number" && fr.fragmentsStep !== fr.step ? " (as of step " + fr.fragmentsStep + ")" : "");
    }
    showFrame(f) {
      const { THREE, current, ui } = this, { geometry } = this.three;
      this.frame = f;
      const pos = frameData(current, f);
      geometry.setAttribute("position", new THREE.BufferAttribute(pos, 3));
      geometry.attributes.position.needsUpdate = true;
      const fr = current.c.snapshots.frames[f];
      ui.frameSlider.value = String(f);
      ui.frameLabel.textContent = "frame " + (f + 1) + "/" + current.c.snapshots.frames.length + ", t = " + fr.time.toFixed(3) + " s (step " + fr.step + ")" + this.fragmentCaption(fr);
      this.applyColors();
    }
    updateColorSelect() {
      const { colorSelect } = this.ui, hasFragments = this.current.decoded.hasFragments;
      const fragmentOption = colorSelect.querySelector('option[value="fragment"]');
      fragmentOption.disabled = !hasFragments;
      fragmentOption.textContent = hasFragments ? "fragment" : "fragment (none recorded)";
      colorSelect.value = this.colorMode();
    }
    updateClip() {
      const { ui } = this, { plane, material } = this.three, s = this.current.c.snapshots;
      const a = ui.clipAxis.value === "x" ? 0 : 2;
      const lo = s.domain.min[a], hi = s.domain.max[a];
      const pos = lo + Number(ui.clipSlider.value) / 1e3 * (hi - lo);
      plane.normal.set(a === 0 ? -1 : 0, 0, a === 2 ? -1 : 0);
      plane.constant = pos;
      material.clippingPlanes = ui.clipOn.checked ? [
        plane
      ] : [];
      material.needsUpdate = true;
      ui.clipLabel.textContent = ui.clipAxis.value + " \u2264 " + pos.toFixed(3) + " m";
      this.dirty = true;
    }
    /** Shows case `k`: framed on its first frame's particles, at its middle frame. */
    selectCase(k) {
      this.current = decodeCase(this.THREE, this.cases[k]);
      const s = this.current.c.snapshots, { view } = this, { camera } = this.three;
      this.three.material.size = 2 * s.radius;
      const p0 = frameData(this.current, 0);
      const min = [
        Infinity,
        Infinity,
        Infinity
      ], max = [
        -Infinity,
        -Infinity,
        -Infinity
      ];
      for (let i = 0; i < p0.length; i++) {
        const a = i % 3;
        if (p0[i] < min[a]) min[a] = p0[i];
        if (p0[i] > max[a]) max[a] = p0[i];
      }
      view.target.set((min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2);
      const r = 0.5 * Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) || 1;
      view.dist = 1.15 * r / Math.sin(camera.fov * Math.PI / 360);
      this.ui.frameSlider.max = String(s.frames.length - 1);
      this.updateColorSelect();
      this.updateLegend();
      this.updateClip();
      this.placeCamera();
      this.showFrame(Math.floor((s.frames.length - 1) / 2));
    }
    /** Shows colour mode `mode` (the user's choice from now on). */
    chooseColors(mode) {
      this.colorChoice = mode;
      this.updateColorSelect();
      this.updateLegend();
      this.applyColors();
    }
    render() {
      this.three.renderer.render(this.three.scene, this.three.camera);
      this.dirty = false;
    }
    /** Each animation frame: the next frame every 350 ms while playing; a render when changed. */
    loop(t) {
      if (this.playing && t - this.lastAdvance > 350) {
        this.lastAdvance = t;
        this.showFrame((this.frame + 1) % this.current.c.snapshots.frames.length);
      }
      if (this.dirty) this.render();
      requestAnimationFrame((t2) => this.loop(t2));
    }
  };
  function wireControls(v) {
    const { ui, view } = v;
    ui.select.addEventListener("change", () => v.selectCase(Number(ui.select.value)));
    ui.colorSelect.addEventListener("change", () => v.chooseColors(ui.colorSelect.value));
    ui.frameSlider.addEventListener("input", () => v.showFrame(Number(ui.frameSlider.value)));
    ui.clipOn.addEventListener("change", () => v.updateClip());
    ui.clipSlider.addEventListener("input", () => v.updateClip());
    ui.clipAxis.addEventListener("change", () => {
      view.theta = ui.clipAxis.value === "x" ? Math.PI / 2 : 0;
      v.updateClip();
      v.placeCamera();
    });
    ui.play.addEventListener("click", () => {
      v.playing = !v.playing;
      ui.play.textContent = v.playing ? "Pause" : "Play";
    });
    let drag = null;
    ui.canvas.addEventListener("pointerdown", (e) => {
      drag = {
        x: e.clientX,
        y: e.clientY
      };
      ui.canvas.setPointerCapture(e.pointerId);
    });
    ui.canvas.addEventListener("pointermove", (e) => {
      if (!drag) return;
      view.theta -= (e.clientX - drag.x) * 0.01;
      view.phi = Math.max(-1.5, Math.min(1.5, view.phi + (e.clientY - drag.y) * 0.01));
      drag = {
        x: e.clientX,
        y: e.clientY
      };
      v.placeCamera();
    });
    ui.canvas.addEventListener("pointerup", () => drag = null);
    ui.canvas.addEventListener("wheel", (e) => {
      e.preventDefault();
      view.dist *= Math.exp(e.deltaY * 1e-3);
      v.placeCamera();
    }, {
      passive: false
    });
    pageGlobal.addEventListener("resize", () => v.resize());
  }
  function openFromHash(v) {
    const wantCase = /case=([\w.-]+)/.exec(location.hash);
    const first = wantCase ? v.cases.findIndex((c) => c.c.scene === wantCase[1]) : -1;
    v.selectCase(Math.max(0, first));
    v.ui.select.value = String(Math.max(0, first));
    const wantFrame = /frame=(\d+|last)/.exec(location.hash);
    if (wantFrame) {
      const n = v.current.c.snapshots.frames.length;
      const f = wantFrame[1] === "last" ? n - 1 : Math.min(n - 1, Number(wantFrame[1]));
      v.ui.frameSlider.value = String(f);
      v.showFrame(f);
    }
  }
  function startViewer(THREE, data) {
    const root = byId("viewer");
    const cases = viewerCases(data);
    if (!root || !cases.length) return null;
    const select = byId("viewer-case");
    cases.forEach((v2, k) => {
      const label = (data.inputs.length > 1 ? v2.input + ": " : "") + v2.c.scene + " \xD7 " + v2.c.handler + (v2.c.variant || "") + " (" + v2.c.scale + ")";
      select.appendChild(el("option", {
        value: k,
        text: label
      }));
    });
    const v = new Viewer(THREE, cases);
    wireControls(v);
    v.resize();
    openFromHash(v);
    v.render();
    requestAnimationFrame((t) => v.loop(t));
    return {
      canvas: v.ui.canvas,
      background: [
        244,
        246,
        248
      ],
      colorMode: () => v.colorMode(),
      showColorMode(mode) {
        v.chooseColors(mode);
        v.render();
      },
      caption: () => v.ui.frameLabel.textContent
    };
  }

  // reports/page/report_client.ts
  function showOnlyFromHash() {
    const only = /only=([\w,-]+)/.exec(location.hash);
    if (!only) return;
    const keep = only[1].split(",");
    for (const s of document.querySelectorAll("main > section")) {
      s.hidden = !keep.includes(s.id);
    }
  }
  function setUpChartJs() {
    const ChartJs = chartJs();
    if (ChartJs) {
      ChartJs.defaults.animation = false;
      ChartJs.defaults.responsive = true;
      ChartJs.defaults.maintainAspectRatio = false;
      ChartJs.defaults.font.size = 11;
      return;
    }
    const msg = "chart.js did not load: charts are missing (a report built with --cdn needs network access)";
    console.error(msg);
    for (const b of document.querySelectorAll(".chart-box")) note(b, msg);
  }
  function main() {
    const selftest = /selftest/.test(location.hash);
    const data = readReportData();
    showOnlyFromHash();
    setUpChartJs();
    data.inputs.forEach((input) => phaseChart(data, input));
    data.inputs.forEach((input) => phaseShareChart(data, input));
    data.inputs.forEach((input) => scalingCharts(data, input));
    data.inputs.forEach((input) => sweepCharts(input));
    seriesCharts(data);
    comparisonChart(data);
    let threeError = null;
    const wantViewer = viewerCases(data).length > 0;
    const viewerReady = wantViewer ? loadThree().then((THREE) => startViewer(THREE, data)).catch((e) => {
      threeError = String(e && e.message || e);
      console.error("3D viewer: " + threeError);
      note(byId("viewer"), "The 3D viewer could not start: " + threeError);
      return null;
    }) : Promise.resolve(null);
    viewerReady.then((viewer) => {
      if (!selftest) return;
      requestAnimationFrame(() => requestAnimationFrame(() => runSelfTest(viewer, wantViewer, threeError)));
    });
  }
  main();
})();
