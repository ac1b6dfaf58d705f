/**
 * Particle snapshots recorded by the bench for the report's 3D view and for export: positions at a
 * few times per case, quantised to 16 bits per coordinate over the scene's domain, with each
 * particle's body, base64-encoded so a case's snapshots stay small enough to inline in a report.
 *
 * @module
 */

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
  frames: {
    step: number;
    time: number; /** base64 of an Int16Array of 3·count */
    positions: string;
  }[];
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
