/// <reference lib="dom" />
/**
 * The report page's three.js viewer of the snapshots (`#viewer`): a case list, play/pause, a frame
 * slider, colour by body or by fragment, a clipping plane along x or z, orbit by dragging and zoom
 * by the wheel. `#case=<scene>&frame=<n|last>` in the URL opens that scene's first case at that
 * frame (screenshots); by default the first case opens at its middle frame.
 *
 * @module
 */
import type { ReportData } from "../report_data.ts";
import { byId, el, pageGlobal } from "./dom.ts";
import type * as Three from "./three_surface.ts";
import {
  decodeCase,
  type DecodedViewerCase,
  fragmentColor,
  fragmentColors,
  frameData,
  type ViewerCase,
  viewerCases,
} from "./viewer_case.ts";

/** What the self-test reads of a started viewer. */
export interface ViewerHandle {
  canvas: HTMLCanvasElement;
  /** The scene's background colour (r, g, b), which blank pixels have. */
  background: [number, number, number];
  /** The colour mode shown: "fragment" or "body". */
  colorMode(): string;
  /** Shows `mode` ("fragment" or "body") and renders at once (for the self-test). */
  showColorMode(mode: string): void;
  caption(): string | null;
}

/** The viewer's controls in the page (report_page.ts `viewerSection`). */
interface Controls {
  canvas: HTMLCanvasElement;
  select: HTMLSelectElement;
  play: HTMLButtonElement;
  frameSlider: HTMLInputElement;
  frameLabel: HTMLElement;
  clipOn: HTMLInputElement;
  clipAxis: HTMLSelectElement;
  clipSlider: HTMLInputElement;
  clipLabel: HTMLElement;
  legend: HTMLElement;
  colorSelect: HTMLSelectElement;
}

function controls(): Controls {
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
    colorSelect: byId("viewer-color"),
  };
}

/** A round, shaded sprite for the points: a radial gradient on a 64 × 64 canvas. */
function discTexture(THREE: Three.ThreeModule): Three.CanvasTexture {
  const disc = document.createElement("canvas");
  disc.width = disc.height = 64;
  const dctx = disc.getContext("2d")!;
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

/** The three.js scene: renderer, camera, clipping plane and the point cloud's geometry. */
function makeScene(THREE: Three.ThreeModule, canvas: HTMLCanvasElement) {
  const renderer = new THREE.WebGLRenderer({
    canvas,
    antialias: true,
    preserveDrawingBuffer: true,
  });
  renderer.setPixelRatio(Math.min(2, pageGlobal.devicePixelRatio || 1));
  renderer.localClippingEnabled = true;
  const scene = new THREE.Scene();
  scene.background = new THREE.Color("#f4f6f8");
  const camera = new THREE.PerspectiveCamera(35, 1, 0.001, 100);
  const plane = new THREE.Plane(new THREE.Vector3(0, 0, -1), 0);
  const material = new THREE.PointsMaterial({
    size: 0.01,
    vertexColors: true,
    map: discTexture(THREE),
    alphaTest: 0.5,
    clippingPlanes: [plane],
    sizeAttenuation: true,
  });
  const geometry = new THREE.BufferGeometry();
  const points = new THREE.Points(geometry, material);
  points.frustumCulled = false;
  scene.add(points);
  return { renderer, scene, camera, plane, material, geometry };
}

/** The viewer's state and its updates; one per page. */
class Viewer {
  readonly ui = controls();
  readonly three: ReturnType<typeof makeScene>;
  readonly view: { theta: number; phi: number; dist: number; target: Three.Vector3 };
  current!: DecodedViewerCase;
  frame = 0;
  playing = false;
  dirty = true;
  lastAdvance = 0;
  /** The colour mode the user picked; null: fragment where the case has fragments, else body. */
  colorChoice: string | null = null;

  constructor(readonly THREE: Three.ThreeModule, readonly cases: ViewerCase[]) {
    this.three = makeScene(THREE, this.ui.canvas);
    this.view = { theta: 0, phi: 0.35, dist: 2, target: new THREE.Vector3() };
  }

  resize(): void {
    const { canvas } = this.ui, { renderer, camera } = this.three;
    const w = canvas.clientWidth || 800, h = canvas.clientHeight || 500;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    this.dirty = true;
  }

  placeCamera(): void {
    const { view } = this, { camera } = this.three, t = view.target;
    camera.position.set(
      t.x + view.dist * Math.cos(view.phi) * Math.sin(view.theta),
      t.y + view.dist * Math.sin(view.phi),
      t.z + view.dist * Math.cos(view.phi) * Math.cos(view.theta),
    );
    camera.lookAt(t);
    this.dirty = true;
  }

  colorMode(): string {
    const hasFragments = this.current.decoded.hasFragments;
    const mode = this.colorChoice || (hasFragments ? "fragment" : "body");
    return mode === "fragment" && hasFragments ? "fragment" : "body";
  }

  applyColors(): void {
    const { THREE, current } = this, { geometry } = this.three;
    const byFragment = this.colorMode() === "fragment"
      ? fragmentColors(THREE, current, this.frame)
      : null;
    geometry.setAttribute(
      "color",
      new THREE.BufferAttribute(byFragment || current.decoded.colors, 3),
    );
    geometry.attributes.color.needsUpdate = true;
    this.dirty = true;
  }

  updateLegend(): void {
    const { THREE, current } = this, { legend } = this.ui, s = current.c.snapshots;
    const byFragment = this.colorMode() === "fragment";
    legend.textContent = "";
    const item = (color: Three.Color, text: string) => {
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

  fragmentCaption(fr: DecodedViewerCase["c"]["snapshots"]["frames"][number]): string {
    if (typeof fr.fragments !== "string") {
      return this.current.decoded.hasFragments ? ", fragments not recorded at this step" : "";
    }
    const n = typeof fr.fragmentCount === "number" ? fr.fragmentCount : null;
    return ", " + (n === null ? "?" : n) + (n === 1 ? " fragment" : " fragments") +
      (typeof fr.fragmentsStep === "number" && fr.fragmentsStep !== fr.step
        ? " (as of step " + fr.fragmentsStep + ")"
        : "");
  }

  showFrame(f: number): void {
    const { THREE, current, ui } = this, { geometry } = this.three;
    this.frame = f;
    const pos = frameData(current, f);
    geometry.setAttribute("position", new THREE.BufferAttribute(pos, 3));
    geometry.attributes.position.needsUpdate = true;
    const fr = current.c.snapshots.frames[f];
    ui.frameSlider.value = String(f);
    ui.frameLabel.textContent = "frame " + (f + 1) + "/" + current.c.snapshots.frames.length +
      ", t = " + fr.time.toFixed(3) + " s (step " + fr.step + ")" + this.fragmentCaption(fr);
    this.applyColors();
  }

  updateColorSelect(): void {
    const { colorSelect } = this.ui, hasFragments = this.current.decoded.hasFragments;
    const fragmentOption = colorSelect.querySelector<HTMLOptionElement>(
      'option[value="fragment"]',
    )!;
    fragmentOption.disabled = !hasFragments;
    fragmentOption.textContent = hasFragments ? "fragment" : "fragment (none recorded)";
    colorSelect.value = this.colorMode();
  }

  updateClip(): void {
    const { ui } = this, { plane, material } = this.three, s = this.current.c.snapshots;
    const a = ui.clipAxis.value === "x" ? 0 : 2;
    const lo = s.domain.min[a], hi = s.domain.max[a];
    const pos = lo + (Number(ui.clipSlider.value) / 1000) * (hi - lo);
    plane.normal.set(a === 0 ? -1 : 0, 0, a === 2 ? -1 : 0);
    plane.constant = pos;
    material.clippingPlanes = ui.clipOn.checked ? [plane] : [];
    material.needsUpdate = true;
    ui.clipLabel.textContent = (ui.clipAxis.value) + " ≤ " + pos.toFixed(3) + " m";
    this.dirty = true;
  }

  /** Shows case `k`: framed on its first frame's particles, at its middle frame. */
  selectCase(k: number): void {
    this.current = decodeCase(this.THREE, this.cases[k]);
    const s = this.current.c.snapshots, { view } = this, { camera } = this.three;
    this.three.material.size = 2 * s.radius;
    // Frame the particles of the first frame.
    const p0 = frameData(this.current, 0);
    const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < p0.length; i++) {
      const a = i % 3;
      if (p0[i] < min[a]) min[a] = p0[i];
      if (p0[i] > max[a]) max[a] = p0[i];
    }
    view.target.set((min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2);
    const r = 0.5 * Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) || 1;
    view.dist = (1.15 * r) / Math.sin((camera.fov * Math.PI) / 360);
    this.ui.frameSlider.max = String(s.frames.length - 1);
    this.updateColorSelect();
    this.updateLegend();
    this.updateClip();
    this.placeCamera();
    this.showFrame(Math.floor((s.frames.length - 1) / 2));
  }

  /** Shows colour mode `mode` (the user's choice from now on). */
  chooseColors(mode: string): void {
    this.colorChoice = mode;
    this.updateColorSelect();
    this.updateLegend();
    this.applyColors();
  }

  render(): void {
    this.three.renderer.render(this.three.scene, this.three.camera);
    this.dirty = false;
  }

  /** Each animation frame: the next frame every 350 ms while playing; a render when changed. */
  loop(t: number): void {
    if (this.playing && t - this.lastAdvance > 350) {
      this.lastAdvance = t;
      this.showFrame((this.frame + 1) % this.current.c.snapshots.frames.length);
    }
    if (this.dirty) this.render();
    requestAnimationFrame((t) => this.loop(t));
  }
}

/** The controls' events: case, colours, frame, clipping, play, orbit, zoom, resize. */
function wireControls(v: Viewer): void {
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
  let drag: { x: number; y: number } | null = null;
  ui.canvas.addEventListener("pointerdown", (e) => {
    drag = { x: e.clientX, y: e.clientY };
    ui.canvas.setPointerCapture(e.pointerId);
  });
  ui.canvas.addEventListener("pointermove", (e) => {
    if (!drag) return;
    view.theta -= (e.clientX - drag.x) * 0.01;
    view.phi = Math.max(-1.5, Math.min(1.5, view.phi + (e.clientY - drag.y) * 0.01));
    drag = { x: e.clientX, y: e.clientY };
    v.placeCamera();
  });
  ui.canvas.addEventListener("pointerup", () => (drag = null));
  ui.canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    view.dist *= Math.exp(e.deltaY * 0.001);
    v.placeCamera();
  }, { passive: false });
  pageGlobal.addEventListener("resize", () => v.resize());
}

/** Opens the case and frame the URL's hash names (`#case=<scene>&frame=<n|last>`), or the first. */
function openFromHash(v: Viewer): void {
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

/**
 * Starts the viewer on the page's cases with snapshots; null when there is no viewer or no such
 * case.
 */
export function startViewer(THREE: Three.ThreeModule, data: ReportData): ViewerHandle | null {
  const root = byId("viewer");
  const cases = viewerCases(data);
  if (!root || !cases.length) return null;
  const select = byId<HTMLSelectElement>("viewer-case");
  cases.forEach((v, k) => {
    const label = (data.inputs.length > 1 ? v.input + ": " : "") + v.c.scene + " × " +
      v.c.handler + (v.c.variant || "") +
      " (" + v.c.scale + ")";
    select.appendChild(el("option", { value: k, text: label }));
  });
  const v = new Viewer(THREE, cases);
  wireControls(v);
  v.resize();
  openFromHash(v);
  v.render();
  requestAnimationFrame((t) => v.loop(t));
  return {
    canvas: v.ui.canvas,
    background: [0xf4, 0xf6, 0xf8],
    colorMode: () => v.colorMode(),
    showColorMode(mode) {
      v.chooseColors(mode);
      v.render();
    },
    caption: () => v.ui.frameLabel.textContent,
  };
}
