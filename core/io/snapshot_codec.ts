/**
 * Particle snapshots recorded by the bench for the report's 3D view and for export: positions at a
 * few times per case, quantised to 16 bits per coordinate over the scene's domain, with each
 * particle's body and, for scenes with solid bodies, each particle's fragment per frame,
 * base64-encoded so a case's snapshots stay small enough to inline in a report.
 *
 * Meta-particles (optional per frame, {@link encodeGroups}): which particles merge-split merged, in
 * the same encoding as the fragments (0 = alone), so the cloth can be coloured by meta-particle as
 * the paper draws Figs. 10 and 11.
 *
 * Fragments (optional per frame, {@link encodeFragments}): the connected components of intact bonds
 * of the solid bodies, as dense ids per recorded particle: 0 = in no solid body, 1 = the largest
 * fragment of the frame, 2 = the next largest, … (sizes counted over every particle, not only the
 * recorded ones; equal sizes ordered by their smallest particle index). Records written before the
 * field existed have no `fragments` and stay readable.
 *
 * @module
 */

/** Fragment label of a particle in no solid body, in the labels {@link encodeFragments} takes. */
export const NO_FRAGMENT_LABEL = 0xffffffff;

/** One recorded frame of {@link Snapshots}. */
export interface SnapshotFrame {
  step: number;
  /** Simulated time (s). */
  time: number;
  /** Base64 of an Int16Array of 3·count ({@link encodeFrame}). */
  positions: string;
  /**
   * Optional: base64 of the dense fragment id of every recorded particle ({@link encodeFragments}:
   * 0 = no solid, 1.. = fragments by size descending), little-endian Uint8, Uint16 or Uint32 by
   * the frame's {@link SnapshotFrame.fragmentCount} (≤ 255, ≤ 65535, more): count, 2·count or
   * 4·count bytes. Absent for scenes without solid bodies and in older records.
   */
  fragments?: string;
  /** With `fragments`: fragments among all particles of the frame (not only the recorded ones). */
  fragmentCount?: number;
  /**
   * With `fragments`: the step the fragments were computed at (the last metrics sample at or
   * before `step`, since the GPU labels fragments only when it samples the metrics).
   */
  fragmentsStep?: number;
  /**
   * Optional: the meta-particle of every recorded particle at the frame's step, as dense ids in the
   * encoding of `fragments` ({@link encodeGroups}: 0 = alone, 1 = the largest meta-particle, …);
   * absent where no two particles are merged (every handler but merge-split) and in older records.
   */
  groups?: string;
  /** With `groups`: meta-particles of two or more particles among all particles of the frame. */
  groupCount?: number;
}

/** Snapshots of one case (optional field `snapshots` of a result record). */
export interface Snapshots {
  /** The bodies, in body-index order. */
  bodies: { name: string; kind: "cloth" | "fluid" | "solid" }[];
  /** Base64 of a Uint8Array: the body index of each recorded particle. */
  body: string;
  /** Particles recorded (every particle, or a strided subset of large scenes). */
  count: number;
  /** Every `stride`-th particle was recorded. */
  stride: number;
  /** Collision radius (m). */
  radius: number;
  /** The quantisation box. */
  domain: { min: [number, number, number]; max: [number, number, number] };
  frames: SnapshotFrame[];
}

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** Quantises positions (vec4 per particle, every `stride`-th) into a base64 Int16 frame. */
export function encodeFrame(
  pos: Float32Array,
  options: { domain: Snapshots["domain"]; stride: number },
): string {
  const n = Math.ceil(pos.length / 4 / options.stride);
  const q = new Int16Array(3 * n);
  const { min, max } = options.domain;
  for (let k = 0; k < n; k++) {
    const i = k * options.stride;
    for (let a = 0; a < 3; a++) {
      const t = (pos[4 * i + a] - min[a]) / (max[a] - min[a]);
      const v = Number.isFinite(t)
        ? Math.round(Math.min(1, Math.max(0, t)) * 65535) - 32768
        : -32768;
      q[3 * k + a] = v;
    }
  }
  return toBase64(new Uint8Array(q.buffer));
}

/** Decodes a frame back to xyz positions (3·count floats, metres). */
export function decodeFrame(frame: string, options: { domain: Snapshots["domain"] }): Float32Array {
  const bytes = fromBase64(frame);
  const q = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
  const out = new Float32Array(q.length);
  const { min, max } = options.domain;
  for (let k = 0; k < q.length; k++) {
    const a = k % 3;
    out[k] = min[a] + ((q[k] + 32768) / 65535) * (max[a] - min[a]);
  }
  return out;
}

/** Encodes the body index of every `stride`-th particle. */
export function encodeBodies(body: Uint32Array, stride: number): string {
  const n = Math.ceil(body.length / stride);
  const out = new Uint8Array(n);
  for (let k = 0; k < n; k++) out[k] = body[k * stride];
  return toBase64(out);
}

/** Decodes the body indices. */
export function decodeBodies(text: string): Uint8Array {
  return fromBase64(text);
}

/**
 * Encodes each particle's meta-particle (`dof`: the index of its group's lowest particle, its own
 * when alone, gpu/README.md) as {@link encodeFragments} encodes fragments: dense ids by size, the
 * largest 1, a particle alone 0; null when no particle shares its meta-particle.
 */
export function encodeGroups(
  dof: Uint32Array,
  options: { stride: number },
): { groups: string; groupCount: number } | null {
  const sizes = new Map<number, number>();
  for (const d of dof) sizes.set(d, (sizes.get(d) ?? 0) + 1);
  const labels = dof.map((d) => (sizes.get(d)! > 1 ? d : NO_FRAGMENT_LABEL));
  const e = encodeFragments(labels, options);
  return e.fragmentCount > 0 ? { groups: e.fragments, groupCount: e.fragmentCount } : null;
}

/** Encoded fragments of one frame ({@link encodeFragments}). */
export interface EncodedFragments {
  /** The {@link SnapshotFrame.fragments} text. */
  fragments: string;
  /** Fragments among all particles (the largest dense id). */
  fragmentCount: number;
}

/**
 * Encodes per-particle fragment labels (one per particle of the scene: any u32 naming the
 * particle's fragment, e.g. the smallest particle index in it, or {@link NO_FRAGMENT_LABEL}) as
 * dense ids of every `stride`-th particle: 0 for {@link NO_FRAGMENT_LABEL}, 1.. for fragments
 * ordered by size over all particles, largest first, equal sizes by label ascending (so the ids
 * are deterministic). Stored in the narrowest of Uint8, Uint16 and Uint32 that holds the count.
 */
export function encodeFragments(
  labels: Uint32Array,
  options: { stride: number },
): EncodedFragments {
  const stride = options.stride;
  if (!Number.isInteger(stride) || stride < 1) {
    throw new RangeError(`encodeFragments: stride must be an integer ≥ 1, got ${stride}`);
  }
  const sizes = new Map<number, number>();
  for (const label of labels) {
    if (label !== NO_FRAGMENT_LABEL) sizes.set(label, (sizes.get(label) ?? 0) + 1);
  }
  const order = [...sizes].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const id = new Map<number, number>(order.map(([label], k) => [label, k + 1]));
  const count = order.length;
  const n = Math.ceil(labels.length / stride);
  const out = count <= 0xff
    ? new Uint8Array(n)
    : count <= 0xffff
    ? new Uint16Array(n)
    : new Uint32Array(n);
  for (let k = 0; k < n; k++) out[k] = id.get(labels[k * stride]) ?? 0;
  return {
    fragments: toBase64(new Uint8Array(out.buffer, out.byteOffset, out.byteLength)),
    fragmentCount: count,
  };
}

/**
 * Decodes a frame's `fragments` into the dense id of each of the `count` recorded particles
 * (0 = no solid, 1 = largest fragment, …). Throws a `RangeError` when the text does not hold
 * 1, 2 or 4 bytes per particle (a corrupt record or the wrong `count`: pass `Snapshots.count`).
 */
export function decodeFragments(
  text: string,
  options: { count: number },
): Uint8Array | Uint16Array | Uint32Array {
  const bytes = fromBase64(text);
  const n = options.count;
  if (n === 0 && bytes.length === 0) return new Uint8Array(0);
  if (bytes.length === n) return bytes;
  if (bytes.length === 2 * n) return new Uint16Array(bytes.buffer, bytes.byteOffset, n);
  if (bytes.length === 4 * n) return new Uint32Array(bytes.buffer, bytes.byteOffset, n);
  throw new RangeError(
    `decodeFragments: ${bytes.length} bytes do not hold 1, 2 or 4 bytes for each of ${n} particles; pass the snapshots' count, or re-record the case`,
  );
}
