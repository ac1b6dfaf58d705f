/**
 * Decoding of a record's snapshots in the page (core/io/snapshot_codec.ts writes them): base64
 * bytes, a frame's quantised positions and a frame's dense fragment ids.
 *
 * @module
 */
import type { Snapshots } from "../../../core/io/snapshot_codec.ts";

/** The bytes of base64 `text`. */
export function decodeBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** A frame's positions (x, y, z per particle, m) from its Int16 quantisation in `domain`. */
export function decodeFrame(text: string, domain: Snapshots["domain"]): Float32Array {
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
export function decodeFragments(
  text: string,
  count: number,
): Uint8Array | Uint16Array | Uint32Array | null {
  const b = decodeBase64(text);
  if (b.byteLength === count) return b;
  if (b.byteLength === 2 * count) return new Uint16Array(b.buffer, 0, count);
  if (b.byteLength === 4 * count) return new Uint32Array(b.buffer, 0, count);
  return null;
}
