// The report page's script (plain browser JavaScript, inlined into report.html by report.ts).
// It reads the JSON in #report-data, draws the chart.js charts (phase bars, phase shares, the
// log–log scaling of a scale sweep, parameter sweeps, metric time series, comparison bars) and
// the three.js snapshot viewer, and, when the page's URL hash contains "selftest", checks itself:
// console errors, every chart canvas drawn, the 3D view non-empty; the verdict is written as JSON
// into #selftest (read by reports/page/browser_test.ts).
// Text from result files is only ever set with textContent, never as HTML.
(function () {
  "use strict";
  const g = globalThis;
  const errors = g.__reportErrors || (g.__reportErrors = []);
  const selftest = /selftest/.test(location.hash);
  const data = JSON.parse(document.getElementById("report-data").textContent);

  const PALETTE = [
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
  const PHASE_COLORS = [
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
  const BODY_COLORS = {
    cloth: ["#d9822b", "#b5562b", "#e0a458"],
    fluid: ["#2f7fc1", "#5aa9e6", "#1d4e89"],
  };
  /** Colour of the largest fragment of a frame (dense id 1). */
  const LARGEST_FRAGMENT_COLOR = "#7a8ca3";

  /** Creates an element: `options.text` becomes its text (never HTML), other keys attributes. */
  function el(tag, options) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(options || {})) {
      if (k === "text") e.textContent = String(v);
      else e.setAttribute(k, String(v));
    }
    return e;
  }

  function handlerColor(handler) {
    const k = data.handlers.indexOf(handler);
    return PALETTE[(k < 0 ? 0 : k) % PALETTE.length];
  }

  function note(parent, text) {
    if (parent) parent.appendChild(el("p", { class: "muted", text }));
  }

  // ---------------------------------------------------------------- charts
  const chartsMade = [];
  function makeChart(canvas, config) {
    if (!canvas) return;
    if (!g.Chart) return;
    try {
      chartsMade.push(new g.Chart(canvas, config));
    } catch (e) {
      console.error("chart " + canvas.id + " failed: " + (e && e.message));
    }
  }

  /** `scene × handler` with what tells the case apart, and ` (scale)` when `withScale`. */
  function caseName(c, withScale) {
    return c.scene + " × " + c.handler + (c.variant || "") +
      (withScale ? " (" + c.scale + ")" : "");
  }

  function phaseColor(phase) {
    const k = data.phases.indexOf(phase);
    return PHASE_COLORS[(k < 0 ? 0 : k) % PHASE_COLORS.length];
  }

  function phaseChart(input) {
    const cases = input.cases.filter((c) => c.phases);
    const withScale = new Set(input.cases.map((c) => c.scale)).size > 1;
    makeChart(document.getElementById(input.phasesChartId), {
      type: "bar",
      data: {
        labels: cases.map((c) => caseName(c, withScale)),
        datasets: data.phases.map((p, k) => ({
          label: p,
          data: cases.map((c) => (c.phases[p] === undefined ? null : c.phases[p])),
          backgroundColor: PHASE_COLORS[k % PHASE_COLORS.length],
          stack: "phases",
        })),
      },
      options: {
        plugins: {
          title: { display: true, text: "Per-phase median time per step: " + input.label },
        },
        layout: { padding: { left: 40 } },
        scales: {
          x: { stacked: true, ticks: { autoSkip: false, maxRotation: 60, minRotation: 30 } },
          y: { stacked: true, title: { display: true, text: "ms / step" } },
        },
      },
    });
  }

  /** Table I as fractions: a stacked horizontal bar per case, each phase's share of the step. */
  function phaseShareChart(input) {
    const p = input.phaseShares;
    if (!p) return;
    makeChart(document.getElementById(p.chartId), {
      type: "bar",
      data: {
        labels: p.labels,
        datasets: p.phases.map((phase, k) => ({
          label: phase,
          data: p.rows.map((row) => row[k]),
          backgroundColor: phaseColor(phase),
          stack: "shares",
        })),
      },
      options: {
        indexAxis: "y",
        plugins: {
          title: { display: true, text: "Phase shares of the step: " + input.label },
          tooltip: {
            callbacks: {
              label: (ctx) => ctx.dataset.label + ": " + (100 * ctx.parsed.x).toFixed(1) + "%",
            },
          },
        },
        scales: {
          x: {
            stacked: true,
            min: 0,
            max: 1,
            ticks: { callback: (v) => Math.round(100 * v) + "%" },
            title: { display: true, text: "share of the step" },
          },
          y: { stacked: true, ticks: { autoSkip: false } },
        },
      },
    });
  }

  /** Per scene of a scale sweep: ns per particle-step against N, log–log, a line per handler. */
  function scalingCharts(input) {
    for (const chart of input.scaling || []) {
      const datasets = [];
      for (const s of chart.series) {
        const color = handlerColor(s.handler);
        datasets.push({
          label: s.label,
          data: s.points,
          showLine: true,
          borderColor: color,
          backgroundColor: color,
          borderWidth: 1.5,
          pointRadius: s.points.map((pt) => (pt.ok ? 4 : 6)),
          pointStyle: s.points.map((pt) => (pt.ok ? "circle" : "crossRot")),
        });
        if (s.fit) {
          datasets.push({
            label: "fit: " + s.handler,
            data: s.fit,
            showLine: true,
            borderColor: color,
            backgroundColor: color,
            borderWidth: 1,
            borderDash: [5, 4],
            pointRadius: 0,
          });
        }
      }
      makeChart(document.getElementById(chart.chartId), {
        type: "scatter",
        data: { datasets },
        options: {
          plugins: {
            title: { display: true, text: chart.scene + ": step time per particle" },
            legend: {
              position: "bottom",
              labels: { boxWidth: 10, filter: (item) => !/^fit: /.test(item.text) },
            },
            tooltip: {
              callbacks: {
                label: (ctx) => {
                  const pt = ctx.raw;
                  return pt.scale === undefined
                    ? ctx.dataset.label
                    : ctx.dataset.label.replace(/ \(.*$/, "") + " at " + pt.scale + " (" +
                      (pt.ok ? "" : "not ok, ") + "N = " + pt.x + "): " +
                      pt.y.toPrecision(3) + " ns/particle-step";
                },
              },
            },
          },
          scales: {
            x: { type: "logarithmic", title: { display: true, text: "particles N" } },
            y: { type: "logarithmic", title: { display: true, text: "ns per particle-step" } },
          },
        },
      });
    }
  }

  /** Energy ratios above this are drawn at it (the tooltip gives the value): explosions. */
  const SWEEP_ENERGY_PLOT_MAX = 2;
  const UNSTABLE_COLOR = "#d62728";
  /** Merge-split's reference line (not a palette colour: the series take those). */
  const MERGE_SPLIT_LINE_COLOR = "#222";

  /**
   * Per handler-parameter sweep: pass-through fraction (left axis) and energy ratio (right axis)
   * against the swept value, unstable cases as red crosses, merge-split's pass-through as a line.
   */
  function sweepCharts(input) {
    for (const chart of input.sweeps || []) {
      const datasets = [];
      const xs = [];
      chart.series.forEach((s, k) => {
        const color = PALETTE[k % PALETTE.length];
        const name = s.label ? " (" + s.label + ")" : "";
        const points = s.points;
        for (const pt of points) xs.push(pt.x);
        const styled = (key, shape) => ({
          pointStyle: points.map((pt) => (pt.unstable ? "crossRot" : shape)),
          pointRadius: points.map((pt) => (pt.unstable ? 7 : 4)),
          pointBorderColor: points.map((pt) => (pt.unstable ? UNSTABLE_COLOR : color)),
          pointBackgroundColor: points.map((pt) => (pt.unstable ? UNSTABLE_COLOR : color)),
          pointBorderWidth: points.map((pt) => (pt.unstable ? 2 : 1)),
          data: points.map((pt) => ({
            x: pt.x,
            y: pt[key] === null
              ? null
              : key === "energyRatio"
              ? Math.min(pt[key], SWEEP_ENERGY_PLOT_MAX)
              : pt[key],
            value: pt[key],
            status: pt.status,
            unstable: pt.unstable,
            usable: pt.usable,
          })),
        });
        datasets.push(Object.assign(styled("passThroughFraction", "circle"), {
          label: "pass-through fraction" + name,
          yAxisID: "y",
          showLine: true,
          spanGaps: true,
          borderColor: color,
          backgroundColor: color,
          borderWidth: 1.5,
        }));
        datasets.push(Object.assign(styled("energyRatio", "triangle"), {
          label: "energy ratio" + name,
          yAxisID: "y1",
          showLine: true,
          spanGaps: true,
          borderColor: color,
          backgroundColor: color,
          borderWidth: 1,
          borderDash: [5, 4],
        }));
      });
      const lo = Math.min(...xs), hi = Math.max(...xs);
      const flat = (label, y, style) =>
        Object.assign({
          label,
          yAxisID: "y",
          data: [{ x: lo, y, value: y }, { x: hi, y, value: y }],
          showLine: true,
          pointRadius: 0,
          borderWidth: 1.5,
        }, style);
      if (chart.mergeSplit && xs.length) {
        datasets.push(flat("merge-split", chart.mergeSplit.passThroughFraction, {
          borderColor: MERGE_SPLIT_LINE_COLOR,
          backgroundColor: MERGE_SPLIT_LINE_COLOR,
          borderWidth: 2,
        }));
      }
      if (xs.length) {
        datasets.push(flat("leak threshold", chart.leakFractionMin, {
          borderColor: "#888",
          backgroundColor: "#888",
          borderWidth: 1,
          borderDash: [2, 3],
        }));
      }
      makeChart(document.getElementById(chart.chartId), {
        type: "scatter",
        data: { datasets },
        options: {
          plugins: {
            title: {
              display: true,
              text: chart.scene + " (" + chart.scale + "): leaks and stability against " +
                chart.target,
            },
            legend: { position: "bottom", labels: { boxWidth: 10, font: { size: 10 } } },
            tooltip: {
              callbacks: {
                label: (ctx) => {
                  const pt = ctx.raw;
                  if (pt.status === undefined) {
                    return ctx.dataset.label + ": " + Number(pt.value).toPrecision(3);
                  }
                  return ctx.dataset.label + " at " + chart.target + " = " + pt.x + ": " +
                    (pt.value === null ? "–" : Number(pt.value).toPrecision(3)) + " (" +
                    pt.status + (pt.unstable ? ", unstable" : "") +
                    (pt.usable ? "" : ", not usable") + ")";
                },
              },
            },
          },
          scales: {
            x: {
              type: chart.logX ? "logarithmic" : "linear",
              title: { display: true, text: chart.target },
            },
            y: {
              type: "linear",
              position: "left",
              min: 0,
              suggestedMax: 2 * chart.leakFractionMin,
              title: { display: true, text: "pass-through fraction" },
            },
            y1: {
              type: "linear",
              position: "right",
              min: 0,
              suggestedMax: 1.2,
              grid: { drawOnChartArea: false },
              title: { display: true, text: "energy ratio (end / start)" },
            },
          },
        },
      });
    }
  }

  const SERIES_CHARTS = [
    {
      key: "passThrough",
      title: "pass-through (particles)",
      value: (f) => f("passThrough"),
      y: { min: 0, suggestedMax: 1 },
    },
    {
      key: "penetration",
      title: "max penetration depth (radii)",
      value: (f) => f("maxPenetrationDepth"),
      y: { min: 0, suggestedMax: 0.1 },
    },
    {
      key: "energy",
      title: "energy: kinetic + potential + elastic (J)",
      value: (f) => {
        const k = f("kinetic"), p = f("potential"), e = f("elastic");
        return k === null || p === null || e === null ? null : k + p + e;
      },
    },
    {
      key: "speed",
      title: "max speed (m/s)",
      value: (f) => f("maxSpeed"),
      y: { min: 0, suggestedMax: 0.1 },
    },
  ];

  function seriesPoints(c, spec) {
    const s = c.series;
    const at = (name) => s.fields.indexOf(name);
    const ti = at("time");
    return s.rows.map((row, k) => {
      const f = (name) => {
        const i = at(name);
        return i < 0 || row[i] === null || row[i] === undefined ? null : row[i];
      };
      return { x: ti >= 0 && row[ti] !== null ? row[ti] : k * s.every, y: spec.value(f) };
    });
  }

  function seriesCharts() {
    const root = document.getElementById("series-root");
    if (!root) return;
    data.inputs.forEach((input, i) => {
      if (data.inputs.length > 1) root.appendChild(el("h3", { text: input.label }));
      const scenes = [
        ...new Set(input.cases.filter((c) => c.series).map((c) => c.scene + " (" + c.scale + ")")),
      ];
      if (!scenes.length) note(root, "No metric series in " + input.label + ".");
      scenes.forEach((sceneKey, j) => {
        const cases = input.cases.filter((c) =>
          c.series && c.scene + " (" + c.scale + ")" === sceneKey
        );
        root.appendChild(el("h4", { text: sceneKey }));
        const grid = root.appendChild(el("div", { class: "series-grid" }));
        let xMax = 0;
        for (const c of cases) {
          for (const p of seriesPoints(c, SERIES_CHARTS[0])) if (p.x > xMax) xMax = p.x;
        }
        for (const spec of SERIES_CHARTS) {
          const box = grid.appendChild(el("div", { class: "chart-box" }));
          const canvas = box.appendChild(
            el("canvas", { id: "series-" + i + "-" + j + "-" + spec.key, class: "chart" }),
          );
          makeChart(canvas, {
            type: "line",
            data: {
              datasets: cases.map((c) => ({
                label: c.handler + (c.variant || ""),
                data: seriesPoints(c, spec),
                borderColor: handlerColor(c.handler),
                backgroundColor: handlerColor(c.handler),
                borderWidth: 1.5,
                pointRadius: 0,
                spanGaps: false,
              })),
            },
            options: {
              parsing: false,
              plugins: {
                title: { display: true, text: spec.title },
                legend: { position: "bottom", labels: { boxWidth: 10, font: { size: 10 } } },
              },
              scales: {
                x: {
                  type: "linear",
                  min: 0,
                  max: xMax > 0 ? xMax : undefined,
                  title: { display: true, text: "time (s)" },
                },
                y: spec.y || {},
              },
            },
          });
        }
      });
    });
  }

  function comparisonChart() {
    const c = data.comparison;
    if (!c || !c.rows.length) return;
    const datasets = [];
    c.labels.forEach((label, k) => {
      data.phases.forEach((p, j) => {
        datasets.push({
          label: label + ": " + p,
          data: c.rows.map((r) => (r.medians[k] ? r.medians[k][p] : null)),
          backgroundColor: PHASE_COLORS[j % PHASE_COLORS.length],
          borderColor: k === 0 ? "#333" : "#fff",
          borderWidth: k === 0 ? 0 : 1,
          stack: "input-" + k,
        });
      });
    });
    makeChart(document.getElementById(c.chartId), {
      type: "bar",
      data: {
        labels: c.rows.map((r) => r.scene + " × " + r.handler + (r.variant || "")),
        datasets,
      },
      options: {
        plugins: {
          title: {
            display: true,
            text: "Per-phase medians side by side, bars in input order: " + c.labels.join(" | "),
          },
          // One legend entry per phase (the colours repeat in every input's bar).
          legend: {
            labels: {
              generateLabels: (chart) =>
                g.Chart.defaults.plugins.legend.labels.generateLabels(chart)
                  .filter((item) => item.datasetIndex < data.phases.length)
                  .map((item) => Object.assign(item, { text: data.phases[item.datasetIndex] })),
            },
            onClick: () => {},
          },
        },
        layout: { padding: { left: 40 } },
        scales: {
          x: { stacked: true, ticks: { autoSkip: false, maxRotation: 60, minRotation: 30 } },
          y: { stacked: true, title: { display: true, text: "ms / step" } },
        },
      },
    });
  }

  // ---------------------------------------------------------------- three.js viewer
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
      out[k] = domain.min[a] + ((q[k] + 32768) / 65535) * (domain.max[a] - domain.min[a]);
    }
    return out;
  }

  /**
   * A frame's dense fragment ids (core/io/snapshot_codec.ts: 0 = no solid, 1 = largest, ...): 1, 2
   * or 4 little-endian bytes per particle; null when the bytes do not fit `count`.
   */
  function decodeFragments(text, count) {
    const b = decodeBase64(text);
    if (b.byteLength === count) return b;
    if (b.byteLength === 2 * count) return new Uint16Array(b.buffer, 0, count);
    if (b.byteLength === 4 * count) return new Uint32Array(b.buffer, 0, count);
    return null;
  }

  /**
   * Colour of dense fragment id `id` ≥ 1: the largest fragment slate grey, the others hues a
   * golden angle apart (deterministic, neighbouring ids far apart on the colour wheel).
   */
  function fragmentColor(THREE, id) {
    if (id === 1) return new THREE.Color(LARGEST_FRAGMENT_COLOR);
    return new THREE.Color().setHSL((0.02 + (id - 2) * 0.381966) % 1, 0.75, 0.5);
  }

  function loadThree() {
    const src = JSON.parse(document.getElementById("three-src").textContent);
    if (src.url) return import(src.url);
    const core = URL.createObjectURL(new Blob([src.core], { type: "text/javascript" }));
    const text = src.module.split(JSON.stringify(src.coreSpecifier)).join(JSON.stringify(core));
    return import(URL.createObjectURL(new Blob([text], { type: "text/javascript" })));
  }

  function viewerCases() {
    const out = [];
    data.inputs.forEach((input) => {
      for (const c of input.cases) {
        if (c.snapshots && c.snapshots.frames.length) out.push({ input: input.label, c });
      }
    });
    return out;
  }

  function startViewer(THREE) {
    const root = document.getElementById("viewer");
    const cases = viewerCases();
    if (!root || !cases.length) return null;
    const canvas = document.getElementById("viewer-canvas");
    const select = document.getElementById("viewer-case");
    const play = document.getElementById("viewer-play");
    const frameSlider = document.getElementById("viewer-frame");
    const frameLabel = document.getElementById("viewer-time");
    const clipOn = document.getElementById("viewer-clip");
    const clipAxis = document.getElementById("viewer-axis");
    const clipSlider = document.getElementById("viewer-clip-pos");
    const clipLabel = document.getElementById("viewer-clip-label");
    const legend = document.getElementById("viewer-legend");
    const colorSelect = document.getElementById("viewer-color");
    cases.forEach((v, k) => {
      const label = (data.inputs.length > 1 ? v.input + ": " : "") + v.c.scene + " × " +
        v.c.handler + (v.c.variant || "") +
        " (" + v.c.scale + ")";
      select.appendChild(el("option", { value: k, text: label }));
    });

    const renderer = new THREE.WebGLRenderer({
      canvas,
      antialias: true,
      preserveDrawingBuffer: true,
    });
    renderer.setPixelRatio(Math.min(2, g.devicePixelRatio || 1));
    renderer.localClippingEnabled = true;
    const scene = new THREE.Scene();
    scene.background = new THREE.Color("#f4f6f8");
    const camera = new THREE.PerspectiveCamera(35, 1, 0.001, 100);
    const plane = new THREE.Plane(new THREE.Vector3(0, 0, -1), 0);

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

    const material = new THREE.PointsMaterial({
      size: 0.01,
      vertexColors: true,
      map: texture,
      alphaTest: 0.5,
      clippingPlanes: [plane],
      sizeAttenuation: true,
    });
    const geometry = new THREE.BufferGeometry();
    const points = new THREE.Points(geometry, material);
    points.frustumCulled = false;
    scene.add(points);

    const view = { theta: 0, phi: 0.35, dist: 2, target: new THREE.Vector3() };
    let current = null;
    let frame = 0;
    let playing = false;
    let dirty = true;
    let lastAdvance = 0;
    // The colour mode the user picked; null: fragment where the case has fragments, else body.
    let colorChoice = null;

    function resize() {
      const w = canvas.clientWidth || 800, h = canvas.clientHeight || 500;
      renderer.setSize(w, h, false);
      camera.aspect = w / h;
      camera.updateProjectionMatrix();
      dirty = true;
    }

    function placeCamera() {
      const t = view.target;
      camera.position.set(
        t.x + view.dist * Math.cos(view.phi) * Math.sin(view.theta),
        t.y + view.dist * Math.sin(view.phi),
        t.z + view.dist * Math.cos(view.phi) * Math.cos(view.theta),
      );
      camera.lookAt(t);
      dirty = true;
    }

    function caseOf(k) {
      const v = cases[k];
      if (!v.decoded) {
        const s = v.c.snapshots;
        const body = decodeBase64(s.body);
        const colors = new Float32Array(3 * s.count);
        const counters = { cloth: 0, fluid: 0 };
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
      return v;
    }

    function frameData(v, f) {
      const d = v.decoded;
      if (!d.frames[f]) {
        d.frames[f] = decodeFrame(v.c.snapshots.frames[f].positions, v.c.snapshots.domain);
      }
      return d.frames[f];
    }

    /**
     * Colours of frame `f` by fragment (body colours outside solids), or null when the frame has
     * no fragments (or they do not decode: reported once as a console error).
     */
    function fragmentColors(v, f) {
      const d = v.decoded;
      if (d.fragmentColors[f] === undefined) {
        const s = v.c.snapshots, fr = s.frames[f];
        const ids = typeof fr.fragments === "string"
          ? decodeFragments(fr.fragments, s.count)
          : null;
        if (typeof fr.fragments === "string" && !ids) {
          console.error(
            "3D viewer: fragments of frame " + (f + 1) + " do not match " + s.count +
              " particles; showing body colours",
          );
        }
        let colors = null;
        if (ids) {
          colors = new Float32Array(d.colors);
          const palette = new Map();
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
      return d.fragmentColors[f];
    }

    function colorMode() {
      const mode = colorChoice || (current.decoded.hasFragments ? "fragment" : "body");
      return mode === "fragment" && current.decoded.hasFragments ? "fragment" : "body";
    }

    function applyColors() {
      const byFragment = colorMode() === "fragment" ? fragmentColors(current, frame) : null;
      geometry.setAttribute(
        "color",
        new THREE.BufferAttribute(byFragment || current.decoded.colors, 3),
      );
      geometry.attributes.color.needsUpdate = true;
      dirty = true;
    }

    function updateLegend() {
      const s = current.c.snapshots;
      const byFragment = colorMode() === "fragment";
      legend.textContent = "";
      const item = (color, text) => {
        const it = legend.appendChild(el("span", { class: "legend-item" }));
        const sw = it.appendChild(el("span", { class: "swatch" }));
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
      legend.appendChild(
        el("span", {
          class: "muted",
          text: s.count + " particles shown" + (s.stride > 1 ? ", every " + s.stride + "th" : ""),
        }),
      );
    }

    function fragmentCaption(fr) {
      if (typeof fr.fragments !== "string") {
        return current.decoded.hasFragments ? ", fragments not recorded at this step" : "";
      }
      const n = typeof fr.fragmentCount === "number" ? fr.fragmentCount : null;
      return ", " + (n === null ? "?" : n) + (n === 1 ? " fragment" : " fragments") +
        (typeof fr.fragmentsStep === "number" && fr.fragmentsStep !== fr.step
          ? " (as of step " + fr.fragmentsStep + ")"
          : "");
    }

    function showFrame(f) {
      frame = f;
      const pos = frameData(current, f);
      geometry.setAttribute("position", new THREE.BufferAttribute(pos, 3));
      geometry.attributes.position.needsUpdate = true;
      const fr = current.c.snapshots.frames[f];
      frameSlider.value = String(f);
      frameLabel.textContent = "frame " + (f + 1) + "/" + current.c.snapshots.frames.length +
        ", t = " + fr.time.toFixed(3) + " s (step " + fr.step + ")" + fragmentCaption(fr);
      applyColors();
    }

    function updateColorSelect() {
      const fragmentOption = colorSelect.querySelector('option[value="fragment"]');
      fragmentOption.disabled = !current.decoded.hasFragments;
      fragmentOption.textContent = current.decoded.hasFragments
        ? "fragment"
        : "fragment (none recorded)";
      colorSelect.value = colorMode();
    }

    function updateClip() {
      const s = current.c.snapshots;
      const a = clipAxis.value === "x" ? 0 : 2;
      const lo = s.domain.min[a], hi = s.domain.max[a];
      const pos = lo + (Number(clipSlider.value) / 1000) * (hi - lo);
      plane.normal.set(a === 0 ? -1 : 0, 0, a === 2 ? -1 : 0);
      plane.constant = pos;
      material.clippingPlanes = clipOn.checked ? [plane] : [];
      material.needsUpdate = true;
      clipLabel.textContent = (clipAxis.value) + " ≤ " + pos.toFixed(3) + " m";
      dirty = true;
    }

    function selectCase(k) {
      current = caseOf(k);
      const s = current.c.snapshots;
      material.size = 2 * s.radius;
      // Frame the particles of the first frame.
      const p0 = frameData(current, 0);
      const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
      for (let i = 0; i < p0.length; i++) {
        const a = i % 3;
        if (p0[i] < min[a]) min[a] = p0[i];
        if (p0[i] > max[a]) max[a] = p0[i];
      }
      view.target.set((min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2);
      const r = 0.5 * Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) || 1;
      view.dist = (1.15 * r) / Math.sin((camera.fov * Math.PI) / 360);
      frameSlider.max = String(s.frames.length - 1);
      updateColorSelect();
      updateLegend();
      updateClip();
      placeCamera();
      showFrame(Math.floor((s.frames.length - 1) / 2));
    }

    select.addEventListener("change", () => selectCase(Number(select.value)));
    colorSelect.addEventListener("change", () => {
      colorChoice = colorSelect.value;
      updateColorSelect();
      updateLegend();
      applyColors();
    });
    frameSlider.addEventListener("input", () => showFrame(Number(frameSlider.value)));
    clipOn.addEventListener("change", updateClip);
    clipSlider.addEventListener("input", updateClip);
    clipAxis.addEventListener("change", () => {
      view.theta = clipAxis.value === "x" ? Math.PI / 2 : 0;
      updateClip();
      placeCamera();
    });
    play.addEventListener("click", () => {
      playing = !playing;
      play.textContent = playing ? "Pause" : "Play";
    });
    let drag = null;
    canvas.addEventListener("pointerdown", (e) => {
      drag = { x: e.clientX, y: e.clientY };
      canvas.setPointerCapture(e.pointerId);
    });
    canvas.addEventListener("pointermove", (e) => {
      if (!drag) return;
      view.theta -= (e.clientX - drag.x) * 0.01;
      view.phi = Math.max(-1.5, Math.min(1.5, view.phi + (e.clientY - drag.y) * 0.01));
      drag = { x: e.clientX, y: e.clientY };
      placeCamera();
    });
    canvas.addEventListener("pointerup", () => (drag = null));
    canvas.addEventListener("wheel", (e) => {
      e.preventDefault();
      view.dist *= Math.exp(e.deltaY * 0.001);
      placeCamera();
    }, { passive: false });
    g.addEventListener("resize", resize);

    function loop(t) {
      if (playing && t - lastAdvance > 350) {
        lastAdvance = t;
        showFrame((frame + 1) % current.c.snapshots.frames.length);
      }
      if (dirty) {
        renderer.render(scene, camera);
        dirty = false;
      }
      requestAnimationFrame(loop);
    }
    resize();
    // "#case=<scene>&frame=<n|last>" opens that scene's first case at that frame (screenshots);
    // default: the first case at its middle frame.
    const wantCase = /case=([\w.-]+)/.exec(location.hash);
    const first = wantCase ? cases.findIndex((v) => v.c.scene === wantCase[1]) : -1;
    selectCase(Math.max(0, first));
    select.value = String(Math.max(0, first));
    const wantFrame = /frame=(\d+|last)/.exec(location.hash);
    if (wantFrame) {
      const n = current.c.snapshots.frames.length;
      const f = wantFrame[1] === "last" ? n - 1 : Math.min(n - 1, Number(wantFrame[1]));
      frameSlider.value = String(f);
      showFrame(f);
    }
    renderer.render(scene, camera);
    dirty = false;
    requestAnimationFrame(loop);
    return {
      canvas,
      background: [0xf4, 0xf6, 0xf8],
      /** The colour mode shown: "fragment" or "body". */
      colorMode,
      /** Shows `mode` ("fragment" or "body") and renders at once (for the self-test). */
      showColorMode(mode) {
        colorChoice = mode;
        updateColorSelect();
        updateLegend();
        applyColors();
        renderer.render(scene, camera);
        dirty = false;
      },
      caption: () => frameLabel.textContent,
    };
  }

  // ---------------------------------------------------------------- self-test
  /** Pixels that differ from the background (transparent for charts) by more than a little. */
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
        if (
          Math.abs(d[i] - background[0]) > 12 || Math.abs(d[i + 1] - background[1]) > 12 ||
          Math.abs(d[i + 2] - background[2]) > 12
        ) n++;
      } else if (d[i + 3] > 16) n++;
    }
    return n;
  }

  function runSelfTest(viewer, threeError) {
    const canvases = [...document.querySelectorAll("canvas.chart")];
    const blank = [];
    const undrawn = [];
    for (const c of canvases) {
      if (!g.Chart || !g.Chart.getChart(c)) undrawn.push(c.id);
      else if (inkPixels(c, null) < 200) blank.push(c.id);
    }
    const wantViewer = viewerCases().length > 0;
    const viewerInk = viewer ? inkPixels(viewer.canvas, viewer.background) : 0;
    // Both colour modes of the first case drawn (then back to the one it opened with).
    const colorModes = {};
    if (viewer) {
      const initial = viewer.colorMode();
      for (const mode of ["fragment", "body"]) {
        viewer.showColorMode(mode);
        colorModes[mode] = {
          shown: viewer.colorMode(),
          inkPixels: inkPixels(viewer.canvas, viewer.background),
        };
      }
      viewer.showColorMode(initial);
    }
    const verdict = {
      errors: errors.slice(),
      chartJs: Boolean(g.Chart),
      charts: { total: canvases.length, blank, undrawn },
      viewer: {
        expected: wantViewer,
        rendered: Boolean(viewer),
        inkPixels: viewerInk,
        colorMode: viewer ? viewer.colorMode() : null,
        colorModes,
        caption: viewer ? viewer.caption() : null,
        error: threeError || null,
      },
    };
    verdict.ok = verdict.errors.length === 0 && verdict.chartJs && canvases.length > 0 &&
      blank.length === 0 && undrawn.length === 0 && (!wantViewer || viewerInk > 100);
    const out = document.getElementById("selftest");
    out.textContent = JSON.stringify(verdict);
    out.hidden = false;
    document.title = "selftest " + (verdict.ok ? "passed" : "failed");
  }

  // ---------------------------------------------------------------- start
  // "#only=viewer-section,series" shows only those sections (for screenshots and embedding).
  const only = /only=([\w,-]+)/.exec(location.hash);
  if (only) {
    const keep = only[1].split(",");
    for (const s of document.querySelectorAll("main > section")) s.hidden = !keep.includes(s.id);
  }
  if (g.Chart) {
    g.Chart.defaults.animation = false;
    g.Chart.defaults.responsive = true;
    g.Chart.defaults.maintainAspectRatio = false;
    g.Chart.defaults.font.size = 11;
  } else {
    const msg =
      "chart.js did not load: charts are missing (a report built with --cdn needs network access)";
    console.error(msg);
    for (const b of document.querySelectorAll(".chart-box")) note(b, msg);
  }
  data.inputs.forEach(phaseChart);
  data.inputs.forEach(phaseShareChart);
  data.inputs.forEach(scalingCharts);
  data.inputs.forEach(sweepCharts);
  seriesCharts();
  comparisonChart();

  let threeError = null;
  const viewerReady = viewerCases().length
    ? loadThree().then(startViewer).catch((e) => {
      threeError = String(e && e.message || e);
      console.error("3D viewer: " + threeError);
      note(document.getElementById("viewer"), "The 3D viewer could not start: " + threeError);
      return null;
    })
    : Promise.resolve(null);
  viewerReady.then((viewer) => {
    if (!selftest) return;
    requestAnimationFrame(() => requestAnimationFrame(() => runSelfTest(viewer, threeError)));
  });
})();
