/// <reference lib="dom" />
/**
 * The part of three.js the report's 3D viewer uses, declared here (the three package ships no
 * types, and the page loads its ES module build at run time, from the page or a CDN): a
 * `.d.ts`-style module of types only, erased from the bundle.
 *
 * @module
 */

/** `THREE.Color`. */
export interface Color {
  r: number;
  g: number;
  b: number;
  getHexString(): string;
  setHSL(h: number, s: number, l: number): Color;
}

/** `THREE.Vector3`. */
export interface Vector3 {
  x: number;
  y: number;
  z: number;
  set(x: number, y: number, z: number): Vector3;
}

/** `THREE.Plane`. */
export interface Plane {
  normal: Vector3;
  constant: number;
}

/** `THREE.WebGLRenderer`. */
export interface WebGLRenderer {
  localClippingEnabled: boolean;
  setPixelRatio(ratio: number): void;
  setSize(width: number, height: number, updateStyle?: boolean): void;
  render(scene: Scene, camera: PerspectiveCamera): void;
}

/** `THREE.Scene`. */
export interface Scene {
  background: Color | null;
  add(object: Points): void;
}

/** `THREE.PerspectiveCamera`. */
export interface PerspectiveCamera {
  fov: number;
  aspect: number;
  position: Vector3;
  updateProjectionMatrix(): void;
  lookAt(target: Vector3): void;
}

/** `THREE.CanvasTexture`. */
export interface CanvasTexture {
  colorSpace: string;
}

/** The parameters of `THREE.PointsMaterial` the viewer sets. */
export interface PointsMaterialParameters {
  size: number;
  vertexColors: boolean;
  map: CanvasTexture;
  alphaTest: number;
  clippingPlanes: Plane[];
  sizeAttenuation: boolean;
}

/** `THREE.PointsMaterial`. */
export interface PointsMaterial {
  size: number;
  clippingPlanes: Plane[];
  needsUpdate: boolean;
}

/** `THREE.BufferAttribute`. */
export interface BufferAttribute {
  needsUpdate: boolean;
}

/** `THREE.BufferGeometry`. */
export interface BufferGeometry {
  attributes: Record<string, BufferAttribute>;
  setAttribute(name: string, attribute: BufferAttribute): void;
}

/** `THREE.Points`. */
export interface Points {
  frustumCulled: boolean;
}

/** The three.js module (`import("three")`), as far as the viewer uses it. */
export interface ThreeModule {
  Color: new (color?: string) => Color;
  Vector3: new (x?: number, y?: number, z?: number) => Vector3;
  Plane: new (normal: Vector3, constant: number) => Plane;
  WebGLRenderer: new (
    parameters: { canvas: HTMLCanvasElement; antialias: boolean; preserveDrawingBuffer: boolean },
  ) => WebGLRenderer;
  Scene: new () => Scene;
  PerspectiveCamera: new (
    fov: number,
    aspect: number,
    near: number,
    far: number,
  ) => PerspectiveCamera;
  CanvasTexture: new (canvas: HTMLCanvasElement) => CanvasTexture;
  SRGBColorSpace: string;
  PointsMaterial: new (parameters: PointsMaterialParameters) => PointsMaterial;
  BufferGeometry: new () => BufferGeometry;
  Points: new (geometry: BufferGeometry, material: PointsMaterial) => Points;
  BufferAttribute: new (array: Float32Array, itemSize: number) => BufferAttribute;
}
